package stock

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/creditsim/creditsim/policy"
	"github.com/creditsim/creditsim/scenarios"
)

// Server is one configuration of the server's dispatch: how jobs are
// replicated and what limits hosts, as --set overrides of a world and as
// the lines a project writes. Stock configurations use BOINC's own
// options; the one beyond it (Beyond) adds creditsim's server trust.
type Server struct {
	Name   string   // a few words: "replicated twice"
	Sets   []string // overrides, applied to the world
	Config []string // what the project writes: config.xml lines, workunit and app settings
	Beyond bool     // needs a server change BOINC does not ship
}

// Quota is the daily result quota the tight-quota configuration sets,
// per CPU (or GPU) a host reports: BOINC's make_project writes 500.
const Quota = 20

// Servers are the configurations searched for a world: three ways to
// replicate (none, adaptive, twice), the unreplicated one with a tight
// daily quota, and, beyond BOINC, twice with the server's own trust as
// the built-in defended world sets it.
func Servers(s *scenarios.Scenario) ([]Server, error) {
	apps := func(minQ, target int, adaptive bool) []string {
		var out []string
		for i, p := range s.Projects {
			for j := range p.Apps {
				pre := fmt.Sprintf("projects[%d].apps[%d].", i, j)
				out = append(out, pre+"min_quorum="+strconv.Itoa(minQ), pre+"target_nresults="+strconv.Itoa(target),
					pre+"adaptive_replication="+strconv.FormatBool(adaptive))
			}
		}
		return out
	}
	trust, err := DefendedTrust()
	if err != nil {
		return nil, err
	}
	once := apps(1, 1, false)
	twice := apps(2, 2, false)
	return []Server{
		{Name: "sent once", Sets: once,
			Config: []string{"create_work --min_quorum 1 --target_nresults 1 (or <min_quorum>1</min_quorum> <target_nresults>1</target_nresults> in the workunit template)"}},
		{Name: "sent once, daily quota " + strconv.Itoa(Quota), Sets: append(append([]string(nil), once...), "server.daily_result_quota="+strconv.Itoa(Quota)),
			Config: []string{"create_work --min_quorum 1 --target_nresults 1", "config.xml: <daily_result_quota>" + strconv.Itoa(Quota) + "</daily_result_quota>"}},
		{Name: "adaptive replication", Sets: apps(2, 2, true),
			Config: []string{"create_work --min_quorum 2 --target_nresults 2", "app table: adaptive replication on (a host trusted after 10 consecutive valid results gets jobs sent once)"}},
		{Name: "replicated twice", Sets: twice,
			Config: []string{"create_work --min_quorum 2 --target_nresults 2 (or in the workunit template)"}},
		{Name: "replicated twice, server trust", Sets: append(append([]string(nil), twice...), trust), Beyond: true,
			Config: []string{"create_work --min_quorum 2 --target_nresults 2", "creditsim's server trust (not in BOINC): " + strings.TrimPrefix(trust, "server.trust=")}},
	}, nil
}

// DefendedTrust is the server trust of the built-in defended world, as an
// override.
func DefendedTrust() (string, error) {
	d, err := scenarios.Open("defended", nil)
	if err != nil {
		return "", err
	}
	var n yaml.Node
	if err := n.Encode(d.Server.Trust); err != nil {
		return "", err
	}
	n.Style = yaml.FlowStyle
	b, err := yaml.Marshal(&n)
	if err != nil {
		return "", err
	}
	return "server.trust=" + strings.TrimSpace(string(b)), nil
}

// Option is one way to grant credit: a credit system as a policy
// instance, what a project sets to choose it, and what it needs.
type Option struct {
	Policy string // the instance's name in a run
	Spec   string // its scenario policy spec (YAML flow)
	Label  string // "CreditNew" ...
	Config string // the validator's flags
	// Needs is what it needs from the project ("" for nothing);
	// Measures marks post-assigned credit (the project's own measure of
	// each output's work), SizesKnown fixed credit (each job's size known
	// when it is made).
	Needs                string
	Measures, SizesKnown bool
	Beyond               bool // a credit system BOINC does not ship
}

// Cap is the max_granted_credit the capped options set for s: twice the
// credit of its largest job as estimated (rsc_fpops_est x its largest
// size factor, at 200 Cobblestones per GFLOPS-day), rounded up to two
// significant digits: a bound a project can compute from its own
// workunits.
func Cap(s *scenarios.Scenario) float64 {
	largest := 0.0
	for _, p := range s.Projects {
		for _, a := range p.Apps {
			f := 1.0
			for _, c := range a.SizeClasses {
				f = max(f, c.Factor)
			}
			largest = max(largest, a.RscFpopsEst*f)
		}
	}
	c := 2 * policy.FlopsToCredit(largest, 200)
	if !(c > 0) || math.IsInf(c, 0) {
		return policy.MaxGrantedCredit
	}
	e := math.Pow(10, math.Floor(math.Log10(c))-1)
	return math.Ceil(c/e) * e
}

// Options are the credit options searched for s: BOINC's (CreditNew, with
// and without a tight max_granted_credit; runtime credit; fixed credit;
// post-assigned credit with and without the cap) and, beyond BOINC, the
// fourth system.
func Options(s *scenarios.Scenario) []Option {
	c := strconv.FormatFloat(Cap(s), 'g', -1, 64)
	capped := "--max_granted_credit " + c
	return []Option{
		{Policy: "creditnew", Spec: "{name: creditnew, base: v3pfc-boinc}", Label: "CreditNew",
			Config: "validator (no credit flag: CreditNew is the default)"},
		{Policy: "creditnew-cap", Spec: "{name: creditnew-cap, base: v3pfc-boinc, options: {max_granted_credit: " + c + "}}", Label: "CreditNew, capped",
			Config: "validator " + capped},
		{Policy: "runtime", Spec: "{name: runtime, base: credit-from-runtime, options: {max_granted_credit: " + c + "}}", Label: "runtime credit",
			Config: "validator --credit_from_runtime " + capped},
		{Policy: "fixed", Spec: "{name: fixed, base: credit-from-wu}", Label: "fixed credit per job",
			Config: "validator --credit_from_wu; create_work --credit C for each job, C = its rsc_fpops_est x 200 / 86400e9 (its estimated FLOPs in Cobblestones)", Needs: "each job's size known when it is made", SizesKnown: true},
		{Policy: "post-assigned", Spec: "{name: post-assigned, base: post-assigned-credit}", Label: "post-assigned credit",
			Config: "validator --post_assigned_credit; the project's validator code sets each result's claimed credit from the work its output shows",
			Needs:  "your validator measuring the work in each output", Measures: true},
		{Policy: "post-assigned-cap", Spec: "{name: post-assigned-cap, base: post-assigned-credit, options: {max_granted_credit: " + c + "}}", Label: "post-assigned credit, capped",
			Config: "validator --post_assigned_credit " + capped, Needs: "your validator measuring the work in each output", Measures: true},
		{Policy: "v4trust", Spec: "v4trust", Label: "the fourth system (trust before scale)", Beyond: true,
			Config: "a credit system creditsim proposes; not in BOINC's validator", Needs: "a server change: the credit code of creditsim's policy/v4trust"},
	}
}
