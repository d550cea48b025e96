package fromruntime

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

func res(fe, elapsed float64) *policy.Result {
	return &policy.Result{FlopsEstimate: fe, ElapsedTime: elapsed}
}

// The validator's runtime credit, case by case (CREDIT-SPEC 20).
func TestCreditFromRuntime(t *testing.T) {
	const est, bound = 1e13, 1e14
	credit := func(flops float64) float64 { return policy.FlopsToCredit(flops, 200) }
	for _, c := range []struct {
		name           string
		valid, invalid []*policy.Result
		max            string
		want           float64
	}{
		{"one replica: flops_estimate x elapsed x scale", []*policy.Result{res(4e9, 3600)}, nil, "", credit(4e9 * 3600)},
		{"a failed benchmark's 1e9 becomes 4.3e9", []*policy.Result{res(1e9, 3600)}, nil, "", credit(4.3e9 * 3600)},
		{"just under 1e9 is kept", []*policy.Result{res(0.999e9, 3600)}, nil, "", credit(0.999e9 * 3600)},
		{"PFC above twice the bound is set to the bound", []*policy.Result{res(1e12, 1000)}, nil, "", credit(bound)},
		{"PFC at twice the bound is kept", []*policy.Result{res(2e11, 1000)}, nil, "", credit(2e14)},
		{"zero elapsed claims 0 and is dropped", []*policy.Result{res(4e9, 0), res(4e9, 100)}, nil, "", credit(4e9 * 100)},
		{"low average of two", []*policy.Result{res(4e9, 100), res(4e9, 300)}, nil, "",
			policy.LowAverage([]float64{credit(4e11), credit(12e11)})},
		{"invalid replicas of the quorum count too", []*policy.Result{res(4e9, 100)}, []*policy.Result{res(4e9, 300)}, "",
			policy.LowAverage([]float64{credit(4e11), credit(12e11)})},
		{"a claim above max_granted_credit is dropped", []*policy.Result{res(4e9, 100), res(4e9, 1e6)}, nil, "100", credit(4e11)},
		{"no claim left: 0", []*policy.Result{res(4e9, 1e6)}, nil, "1", 0},
	} {
		opts := policy.Options{}
		if c.max != "" {
			opts["max_granted_credit"] = c.max
		}
		p := newPolicy(t, opts)
		got := p.Validated(&policy.Validation{RscFpopsEst: est, RscFpopsBound: bound, Valid: c.valid, Invalid: c.invalid})
		if math.Abs(got-c.want) > 1e-12*c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}

// The validator refuses runtime credit without a ceiling.
func TestCreditFromRuntimeNeedsCeiling(t *testing.T) {
	if _, err := New(policy.Options{"max_granted_credit": "0"}); err == nil {
		t.Error("max_granted_credit 0 accepted")
	}
}

// An absurd claim stays finite.
func TestCreditFromRuntimeAbsurd(t *testing.T) {
	p := newPolicy(t, policy.Options{})
	got := p.Validated(&policy.Validation{RscFpopsBound: math.MaxFloat64, Valid: []*policy.Result{res(1e304, 1e304)}})
	if math.IsNaN(got) || math.IsInf(got, 0) || got < 0 {
		t.Errorf("credit %v", got)
	}
}
