package fromruntime

import (
	"github.com/creditsim/creditsim/policy"
)

// AvgCPUFpops is the validator's substitute for a failed benchmark.
const AvgCPUFpops = 4.3e9

// FailedBenchmark is the flops_estimate a failed benchmark leaves.
const FailedBenchmark = 1e9

func init() {
	policy.Register(&policy.Kind{
		UseWhen:  "a stopgap: it pays device speed x time, not work",
		Name:     "credit-from-runtime",
		Needs:    []string{"elapsed_time", "flops_estimate"},
		Doc:      "the validator's credit_from_runtime: flops_estimate x elapsed time per replica, the low average of the claims; no statistics",
		Standard: true,
		Options:  policy.Docs((&Policy{}).decls()),
		New:      New,
	})
}

// Policy is a configured instance.
type Policy struct {
	policy.Base
	scale, max float64
	claims     []float64
}

func (p *Policy) decls() []policy.Decl {
	return []policy.Decl{
		policy.Float(&p.scale, "scale", policy.ScaleServer, policy.Positive, "Cobblestones per GFLOPS-day"),
		policy.Float(&p.max, "max_granted_credit", policy.MaxGrantedCredit, policy.Positive, "claims above it are dropped and credit is capped at it; must be above 0"),
	}
}

// New returns an instance configured by opts.
func New(opts policy.Options) (policy.Policy, error) {
	p := &Policy{}
	if err := policy.ParseOptions(opts, p.decls()); err != nil {
		return nil, err
	}
	return p, nil
}

// Init keeps no state: runtime credit has no statistics.
func (p *Policy) Init(*policy.World) {}

// Scale returns the instance's Cobblestones per GFLOPS-day.
func (p *Policy) Scale() float64 { return p.scale }

// Claim is one replica's claim before the drop rules.
func (p *Policy) Claim(r *policy.Result, bound float64) float64 {
	fe := r.FlopsEstimate
	if fe == FailedBenchmark {
		fe = AvgCPUFpops
	}
	pfc := fe * r.ElapsedTime
	if pfc > 2*bound {
		pfc = bound
	}
	return policy.FlopsToCredit(pfc, p.scale)
}

// Validated grants the low average of the viable replicas' claims.
func (p *Policy) Validated(v *policy.Validation) float64 {
	p.claims = p.claims[:0]
	for _, set := range [][]*policy.Result{v.Valid, v.Invalid} {
		for _, r := range set {
			if c := p.Claim(r, v.RscFpopsBound); c > 0 && c <= p.max {
				p.claims = append(p.claims, c)
			}
		}
	}
	if len(p.claims) == 0 {
		return 0
	}
	return policy.Finite(min(policy.LowAverage(p.claims), p.max))
}
