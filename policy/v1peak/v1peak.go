package v1peak

import (
	"github.com/creditsim/creditsim/policy"
)

func init() {
	policy.Register(&policy.Kind{
		UseWhen:  "never for new projects: benchmarks x CPU time pay speed and inflated claims",
		Name:     "v1peak",
		Needs:    []string{"cpu_time", "p_fpops", "p_iops"},
		Doc:      "first credit system: benchmark x CPU time (BOINC's credit page)",
		Standard: true,
		Options:  policy.Docs((&config{}).decls()),
		New:      New,
	})
}

// config is the instance's options, each declared once in decls.
type config struct {
	scale     float64
	benchmark string
	rule      string
	gpu       string
	max       float64
}

func (c *config) decls() []policy.Decl {
	return []policy.Decl{
		policy.Float(&c.scale, "scale", policy.ScaleClassic, policy.Positive, "Cobblestones per GFLOPS-day"),
		policy.Choice(&c.benchmark, "benchmark", "mean", "mean (of Whetstone and Dhrystone) | whetstone", "mean", "whetstone"),
		policy.Choice(&c.rule, "replicas", "boinc-pre2010", "boinc-pre2010 | min | mean", policy.ReplicaRules...),
		policy.Float(&c.max, "max_granted_credit", 0, policy.NonNegative, "the validator's cap on a workunit's credit; 0 is no cap"),
		policy.Choice(&c.gpu, "gpu", "app_claim", "app_claim: a GPU app claims for itself, its counted FLOPs or else its workunit's estimate, x scale | cpu_time: CPU time x benchmark like a CPU job (under-credits GPUs)", "app_claim", "cpu_time"),
	}
}

// Policy is a configured first-system instance.
type Policy struct {
	policy.Base
	scale     float64
	whetstone bool
	rule      string
	appClaim  bool
	max       float64 // max_granted_credit; 0 is no cap
	claims    []float64
	gpu       []bool // by version ID
	counts    []bool // by version ID: the app counts its FLOPs
}

// New returns an instance configured by opts.
func New(opts policy.Options) (policy.Policy, error) {
	var c config
	if err := policy.ParseOptions(opts, c.decls()); err != nil {
		return nil, err
	}
	return &Policy{scale: c.scale, whetstone: c.benchmark == "whetstone", rule: c.rule, appClaim: c.gpu == "app_claim", max: c.max}, nil
}

// Init notes which versions use a GPU and which count their FLOPs; the
// first system keeps no other state.
func (p *Policy) Init(w *policy.World) {
	p.gpu = make([]bool, len(w.Versions))
	p.counts = make([]bool, len(w.Versions))
	for i, v := range w.Versions {
		p.gpu[i], p.counts[i] = v.Resource.IsGPU(), v.CountsFlops
	}
}

// Scale returns the instance's Cobblestones per GFLOPS-day.
func (p *Policy) Scale() float64 { return p.scale }

// Claim returns the credit result r claims.
func (p *Policy) Claim(r *policy.Result) float64 {
	if p.gpu[r.VersionID] && p.appClaim {
		flops := r.RscFpopsEst
		if p.counts[r.VersionID] {
			flops = r.CountedFlops
		}
		return policy.Finite(policy.FlopsToCredit(flops, p.scale))
	}
	return policy.BenchmarkClaim(r, p.whetstone, p.scale)
}

// Validated combines the valid replicas' claims by the configured rule,
// capped at max_granted_credit.
func (p *Policy) Validated(v *policy.Validation) float64 {
	p.claims = p.claims[:0]
	for _, r := range v.Valid {
		p.claims = append(p.claims, p.Claim(r))
	}
	return policy.CapGranted(policy.CombineReplicas(p.rule, p.claims), p.max)
}
