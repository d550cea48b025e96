package postassigned

import (
	"math"
	"testing"

	"github.com/creditsim/creditsim/policy"
)

func newPolicy(t *testing.T, opts policy.Options) *Policy {
	t.Helper()
	p, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	p.Init(&policy.World{})
	return p.(*Policy)
}

// The canonical result's claim is granted: the work its output shows,
// whatever the host reports.
func TestPostAssignedCredit(t *testing.T) {
	p := newPolicy(t, policy.Options{})
	canonical := &policy.Result{WorkunitID: 7, OutputFlops: 1e13, FlopsEstimate: 1e304, ElapsedTime: 1e9, CountedFlops: 1e304}
	other := &policy.Result{WorkunitID: 7, OutputFlops: 3e13}
	got := p.Validated(&policy.Validation{Valid: []*policy.Result{canonical, other}})
	if want := policy.FlopsToCredit(1e13, 200); got != want {
		t.Errorf("credit %v, want the canonical claim %v", got, want)
	}
	fake := &policy.Result{WorkunitID: 8, OutputFlops: 0, CountedFlops: 1e13}
	if got := p.Validated(&policy.Validation{Valid: []*policy.Result{fake}}); got != 0 {
		t.Errorf("a result that did no work gets %v", got)
	}
	late := &policy.Validation{Late: true, Invalid: []*policy.Result{other}}
	if got := p.Validated(late); got != 0 {
		t.Errorf("a late invalid result: %v", got)
	}
	p = newPolicy(t, policy.Options{"factor": "2", "max_granted_credit": "30"})
	if got := p.Validated(&policy.Validation{Valid: []*policy.Result{canonical}}); got != 30 {
		t.Errorf("factor 2 capped at 30: %v", got)
	}
}

// The count error has mean 1 and the configured spread, is the same for
// a workunit's replicas and in every run, and is exactly 1 by default.
func TestCountError(t *testing.T) {
	if e := newPolicy(t, policy.Options{}).CountError(5); e != 1 {
		t.Errorf("default count error %v, want 1", e)
	}
	p := newPolicy(t, policy.Options{"count_error": "0.2"})
	var sum, sum2 float64
	const n = 200000
	for wu := int64(0); wu < n; wu++ {
		e := p.CountError(wu)
		if !(e > 0) || math.IsInf(e, 0) {
			t.Fatalf("count error %v", e)
		}
		sum += e
		sum2 += e * e
	}
	mean := sum / n
	cv := math.Sqrt(sum2/n-mean*mean) / mean
	if math.Abs(mean-1) > 0.005 || math.Abs(cv-0.2) > 0.005 {
		t.Errorf("mean %.4f, cv %.4f; want 1 and 0.2", mean, cv)
	}
	if p.CountError(42) != p.CountError(42) {
		t.Error("not reproducible")
	}
	if _, err := New(policy.Options{"count_error": "-1"}); err == nil {
		t.Error("negative count_error accepted")
	}
}
