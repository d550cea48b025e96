package fromwu

import (
	"strconv"
	"strings"

	"github.com/creditsim/creditsim/policy"
)

func init() {
	policy.Register(&policy.Kind{
		UseWhen:  "every job's work is known when it is created and jobs are replicated",
		Name:     "credit-from-wu",
		Needs:    []string{"rsc_fpops_est"},
		Doc:      "the validator's credit_from_wu: fixed credit per job, set when the workunit is created",
		Standard: true,
		Requires: func(policy.Options) string { return "each job's size known when it is created" },
		Options:  policy.Docs((&Policy{}).decls()),
		New:      New,
	})
}

// fixed is a job's credit rule: Cobblestones, or a multiple of the
// estimate's credit.
type fixed struct {
	value    float64
	multiple bool
}

func parseFixed(name, s string) (fixed, error) {
	s = strings.TrimSpace(s)
	switch s {
	case "estimate":
		return fixed{1, true}, nil
	case "none":
		// create_work without --credit leaves canonical_credit 0, and
		// the validator grants it as it is.
		return fixed{0, false}, nil
	}
	mult := strings.HasSuffix(s, "x")
	v, err := strconv.ParseFloat(strings.TrimSuffix(s, "x"), 64)
	if err != nil || !(v > 0) || v > policy.MaxClaim {
		return fixed{}, &policy.OptionError{Option: name, Value: s, Reason: "want estimate, none, a number of Cobblestones above 0, or a multiple of the estimate such as 2x"}
	}
	return fixed{v, mult}, nil
}

// Policy is a configured instance.
type Policy struct {
	policy.Base
	scale, max          float64
	credit, creditByApp string // as given
	all                 fixed
	byName              map[string]fixed
	byApp               []fixed // by app ID, after Init
}

func (p *Policy) decls() []policy.Decl {
	return []policy.Decl{
		policy.Text(&p.credit, "credit", "estimate", "estimate (rsc_fpops_est x scale) | Cobblestones per job | a multiple of the estimate, e.g. 2x | none (created without a credit: 0)",
			func(s string) error { _, err := parseFixed("credit", s); return err }),
		policy.Text(&p.creditByApp, "credit_by_app", "", "per app, overriding credit: appA=50,appB=1.5x,appC=none",
			func(s string) error { _, err := parseByApp(s); return err }),
		policy.Float(&p.scale, "scale", policy.ScaleServer, policy.Positive, "Cobblestones per GFLOPS-day"),
		policy.Float(&p.max, "max_granted_credit", policy.MaxGrantedCredit, policy.NonNegative, "credit is capped at it; 0 = none"),
	}
}

// parseByApp reads "appA=50,appB=1.5x".
func parseByApp(s string) (map[string]fixed, error) {
	out := map[string]fixed{}
	if strings.TrimSpace(s) == "" {
		return out, nil
	}
	for _, item := range strings.Split(s, ",") {
		app, val, ok := strings.Cut(item, "=")
		if !ok || strings.TrimSpace(app) == "" {
			return nil, &policy.OptionError{Option: "credit_by_app", Value: s, Reason: "want app=credit pairs separated by commas, e.g. appA=50,appB=1.5x"}
		}
		f, err := parseFixed("credit_by_app", val)
		if err != nil {
			return nil, err
		}
		out[strings.TrimSpace(app)] = f
	}
	return out, nil
}

// New returns an instance configured by opts.
func New(opts policy.Options) (policy.Policy, error) {
	p := &Policy{}
	if err := policy.ParseOptions(opts, p.decls()); err != nil {
		return nil, err
	}
	p.all, _ = parseFixed("credit", p.credit)
	p.byName, _ = parseByApp(p.creditByApp)
	return p, nil
}

// Init resolves the per-app credit by app ID.
func (p *Policy) Init(w *policy.World) {
	p.byApp = make([]fixed, len(w.Apps))
	for i, a := range w.Apps {
		p.byApp[i] = p.all
		if f, ok := p.byName[a.Name]; ok {
			p.byApp[i] = f
		}
	}
}

// Scale returns the instance's Cobblestones per GFLOPS-day.
func (p *Policy) Scale() float64 { return p.scale }

// Validated grants the workunit's preset credit.
func (p *Policy) Validated(v *policy.Validation) float64 {
	f := p.byApp[v.AppID]
	c := f.value
	if f.multiple {
		c *= policy.FlopsToCredit(v.RscFpopsEst, p.scale)
	}
	if p.max > 0 {
		c = min(c, p.max)
	}
	return policy.Finite(c)
}
