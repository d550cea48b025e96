package fromwu

import (
	"math"
	"testing"

	"github.com/creditsim/creditsim/policy"
)

// Fixed credit: what the workunit was created with, whatever the hosts
// report.
func TestCreditFromWU(t *testing.T) {
	w := &policy.World{Apps: []policy.App{{ID: 0, Name: "a"}, {ID: 1, Name: "b"}}}
	est := 1e13
	estCredit := policy.FlopsToCredit(est, 200)
	for _, c := range []struct {
		opts policy.Options
		app  int
		want float64
	}{
		{policy.Options{}, 0, estCredit},
		{policy.Options{"credit": "50"}, 1, 50},
		{policy.Options{"credit": "2x"}, 0, 2 * estCredit},
		{policy.Options{"credit": "50", "credit_by_app": "b=0.5x"}, 0, 50},
		{policy.Options{"credit": "50", "credit_by_app": "b=0.5x"}, 1, 0.5 * estCredit},
		{policy.Options{"credit": "1e9", "max_granted_credit": "1000"}, 0, 1000},
		{policy.Options{"credit": "1e9", "max_granted_credit": "0"}, 0, 1e9},
		// Workunits created without a credit are granted 0.
		{policy.Options{"credit": "none"}, 0, 0},
		{policy.Options{"credit_by_app": "b=none"}, 1, 0},
		{policy.Options{"credit_by_app": "b=none"}, 0, estCredit},
	} {
		p, err := New(c.opts)
		if err != nil {
			t.Fatal(err)
		}
		p.Init(w)
		// Whatever the replica claims: a host reporting 1e304 FLOPS.
		r := &policy.Result{FlopsEstimate: 1e304, ElapsedTime: 1e6, CountedFlops: 1e304}
		got := p.Validated(&policy.Validation{AppID: c.app, RscFpopsEst: est, Valid: []*policy.Result{r}})
		if math.Abs(got-c.want) > 1e-12*c.want || c.want == 0 && got != 0 {
			t.Errorf("%v app %d: %v, want %v", c.opts, c.app, got, c.want)
		}
	}
	for _, bad := range []policy.Options{{"credit": "lots"}, {"credit": "-3"}, {"credit": "0x"}, {"credit_by_app": "a"}, {"credit_by_app": "a=x"}} {
		if _, err := New(bad); err == nil {
			t.Errorf("%v accepted", bad)
		}
	}
}
