// Package fromwu is the validator's --credit_from_wu option, fixed
// credit: every job is granted the credit its workunit was created with
// (create_work --credit), whatever its hosts report. A project sets it
// from what it knows of the job before it runs, usually its estimated
// size; when that estimate is wrong (jobs of one estimate that differ in
// size), fixed credit is wrong by as much.
//
// Options:
//
//	credit              the credit a job is created with, for every app:
//	                    "estimate" (default: rsc_fpops_est x scale /
//	                    86400e9, the job's estimated peak-FLOP credit), a
//	                    number of Cobblestones, or a multiple of the
//	                    estimate written "2x"
//	credit_by_app       the same per app, overriding credit:
//	                    "appA=50,appB=1.5x"
//	scale               Cobblestones per GFLOPS-day (default 200)
//	max_granted_credit  credit is capped at it; 0 = none (default 73e6)
package fromwu

import (
	"strconv"
	"strings"

	"github.com/creditsim/creditsim/policy"
)

func init() {
	policy.Register(&policy.Kind{
		Name:     "credit-from-wu",
		Needs:    []string{"rsc_fpops_est"},
		Doc:      "the validator's credit_from_wu: fixed credit per job, set when the workunit is created",
		Standard: true,
		Options: []policy.OptionDoc{
			{Name: "credit", Default: "estimate", Doc: "estimate (rsc_fpops_est x scale) | Cobblestones per job | a multiple of the estimate, e.g. 2x"},
			{Name: "credit_by_app", Default: "", Doc: "per app, overriding credit: appA=50,appB=1.5x"},
			{Name: "scale", Default: "200", Doc: "Cobblestones per GFLOPS-day"},
			{Name: "max_granted_credit", Default: "73000000", Doc: "credit is capped at it; 0 = none"},
		},
		New: New,
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
	if s == "estimate" {
		return fixed{1, true}, nil
	}
	mult := strings.HasSuffix(s, "x")
	v, err := strconv.ParseFloat(strings.TrimSuffix(s, "x"), 64)
	if err != nil || !(v > 0) || v > policy.MaxClaim {
		return fixed{}, &policy.OptionError{Option: name, Value: s, Reason: "want estimate, a number of Cobblestones above 0, or a multiple of the estimate such as 2x"}
	}
	return fixed{v, mult}, nil
}

// Policy is a configured instance.
type Policy struct {
	policy.Base
	scale, max float64
	all        fixed
	byName     map[string]fixed
	byApp      []fixed // by app ID, after Init
}

// New returns an instance configured by opts.
func New(opts policy.Options) (policy.Policy, error) {
	p := &Policy{byName: map[string]fixed{}}
	var err error
	if p.scale, err = opts.Float("scale", policy.ScaleServer, true); err != nil {
		return nil, err
	}
	if p.max, err = opts.Float("max_granted_credit", policy.MaxGrantedCredit, false); err != nil {
		return nil, err
	}
	c, ok := opts["credit"]
	if !ok {
		c = "estimate"
	}
	if p.all, err = parseFixed("credit", c); err != nil {
		return nil, err
	}
	if s := strings.TrimSpace(opts["credit_by_app"]); s != "" {
		for _, item := range strings.Split(s, ",") {
			app, val, ok := strings.Cut(item, "=")
			if !ok || strings.TrimSpace(app) == "" {
				return nil, &policy.OptionError{Option: "credit_by_app", Value: s, Reason: "want app=credit pairs separated by commas, e.g. appA=50,appB=1.5x"}
			}
			f, err := parseFixed("credit_by_app", val)
			if err != nil {
				return nil, err
			}
			p.byName[strings.TrimSpace(app)] = f
		}
	}
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
