package postassigned

import (
	"math"

	"github.com/creditsim/creditsim/boinc/rng"
	"github.com/creditsim/creditsim/policy"
)

func init() {
	policy.Register(&policy.Kind{
		UseWhen:     "your validator measures the work in each output and replicates jobs to check it",
		Name:        "post-assigned-credit",
		Needs:       []string{"output_flops"},
		Doc:         "the validator's post_assigned_credit: the project sets each result's claim from the work its output shows; the canonical result's claim is granted",
		Standard:    true,
		Requires:    func(policy.Options) string { return "the project's code measuring the work in each output" },
		Oracle:      "it is paid the work each output really holds, and no host in this world forges it (forged_output), so its cheat figures are a perfect validator's",
		FalsifiedBy: "forged_output",
		Options:     policy.Docs((&Policy{}).decls()),
		New:         New,
	})
}

// Policy is a configured instance.
type Policy struct {
	policy.Base
	scale, max, factor float64
	cv                 float64 // the count error's coefficient of variation
	sigma              float64 // of the log of the count error
}

func (p *Policy) decls() []policy.Decl {
	return []policy.Decl{
		policy.Float(&p.factor, "factor", 1, policy.Positive, "credit per FLOP the output shows, as a multiple of scale / 86400e9"),
		policy.Float(&p.cv, "count_error", 0, policy.NonNegative, "coefficient of variation of the project's count of work (lognormal, per workunit); at most 10"),
		policy.Float(&p.scale, "scale", policy.ScaleServer, policy.Positive, "Cobblestones per GFLOPS-day"),
		policy.Float(&p.max, "max_granted_credit", policy.MaxGrantedCredit, policy.NonNegative, "credit is capped at it; 0 = none"),
	}
}

// New returns an instance configured by opts.
func New(opts policy.Options) (policy.Policy, error) {
	p := &Policy{}
	if err := policy.ParseOptions(opts, p.decls()); err != nil {
		return nil, err
	}
	if p.cv > 10 {
		return nil, &policy.OptionError{Option: "count_error", Value: opts["count_error"], Reason: "must be between 0 and 10"}
	}
	p.sigma = math.Sqrt(math.Log1p(p.cv * p.cv))
	return p, nil
}

// Init keeps no state.
func (p *Policy) Init(*policy.World) {}

// Scale returns the instance's Cobblestones per GFLOPS-day.
func (p *Policy) Scale() float64 { return p.scale }

// CountError is the project's count error for a workunit: lognormal with
// mean 1 and the configured coefficient of variation, from the
// workunit's ID.
func (p *Policy) CountError(wu int64) float64 {
	if p.sigma == 0 {
		return 1
	}
	// A standard normal from two hashed uniforms (Box-Muller).
	h := rng.Hash(uint64(wu), 0x706f7374)
	u1 := (float64(h>>11) + 0.5) / (1 << 53)
	u2 := float64(rng.Hash(h, 1)>>11) / (1 << 53)
	z := math.Sqrt(-2*math.Log(u1)) * math.Cos(2*math.Pi*u2)
	return math.Exp(p.sigma*z - p.sigma*p.sigma/2)
}

// Claim is the credit the project's code sets for r.
func (p *Policy) Claim(r *policy.Result) float64 {
	return policy.Finite(p.factor * policy.FlopsToCredit(r.OutputFlops*p.CountError(r.WorkunitID), p.scale))
}

// Validated grants the canonical result's claim (the first valid one).
func (p *Policy) Validated(v *policy.Validation) float64 {
	if len(v.Valid) == 0 {
		return 0 // a late result found invalid
	}
	c := p.Claim(v.Valid[0])
	if p.max > 0 {
		c = min(c, p.max)
	}
	return c
}
