package runner

import (
	"fmt"
	"math"
	"sort"
	"strings"
	"sync"

	"github.com/creditsim/creditsim/results"
	"github.com/creditsim/creditsim/scenarios"
)

// ClaimSize is the world a scenario's claims are checked on: 300 hosts
// (fewer if the scenario has fewer), one replication.
var ClaimSize = []string{"replications=1"}

// claimHosts is the host count of the claim runs.
const claimHosts = 300

// ClaimResult is one claim checked on a run.
type ClaimResult struct {
	Scenario string
	Claim    scenarios.Claim
	Value    float64 // NaN when the figure is undefined or unknown
	Holds    bool
}

// CheckClaims runs the scenario name (a built-in or a file) at the claim
// size, once for each distinct list of overrides its claims name, and
// checks every claim. Runs share at most workers cores.
func CheckClaims(name string, workers int) ([]ClaimResult, error) {
	s, err := claimRun(name, nil)
	if err != nil {
		return nil, err
	}
	sums, err := claimSummaries(s, name, workers)
	if err != nil {
		return nil, err
	}
	out := make([]ClaimResult, len(s.Claims))
	for i, c := range s.Claims {
		sum := sums[strings.Join(c.Set, "\x00")]
		v := figureOf(sum, c.Policy, c.Figure)
		if c.Vs != nil {
			v /= figureOf(sum, c.Vs.Policy, c.Vs.Figure)
		}
		holds := !math.IsNaN(v) && !math.IsInf(v, 0)
		if c.Min != nil {
			holds = holds && v >= *c.Min
		}
		if c.Max != nil {
			holds = holds && v <= *c.Max
		}
		out[i] = ClaimResult{Scenario: s.Name, Claim: c, Value: v, Holds: holds}
	}
	return out, nil
}

// claimSummaries runs scenario name once per distinct list of overrides
// its claims give (on workers goroutines), keyed by the list joined with
// NUL, with the honest twins where a claim reads them.
func claimSummaries(s *scenarios.Scenario, name string, workers int) (map[string]*results.Summary, error) {
	var sets []string // distinct Set lists, as joined keys
	byKey := map[string][]string{}
	// The honest twins run only for claims that read them (gain, harm,
	// the per-day figures): they double a run's cost.
	twin := map[string]bool{}
	for _, c := range s.Claims {
		k := strings.Join(c.Set, "\x00")
		if _, ok := byKey[k]; !ok {
			sets = append(sets, k)
			byKey[k] = c.Set
		}
		twin[k] = twin[k] || twinFigure(c.Figure) || c.Vs != nil && twinFigure(c.Vs.Figure)
	}
	// The run as the file has it keeps its twins whenever the world has
	// agents: the verdict reads its gains, and shares the run.
	twin[""] = twin[""] || cheats(s)
	sums := make(map[string]*results.Summary, len(sets))
	errs := make([]error, len(sets))
	var mu sync.Mutex
	inParallel(len(sets), max(workers, 1), nil, func(j int) {
		sum, err := libraryRun(name, byKey[sets[j]], twin[sets[j]])
		mu.Lock()
		sums[sets[j]], errs[j] = sum, err
		mu.Unlock()
	})
	return sums, firstError(errs)
}

// claimRun loads the scenario at the claim size with extra overrides.
func claimRun(name string, set []string) (*scenarios.Scenario, error) {
	s, err := scenarios.Open(name, nil)
	if err != nil {
		return nil, err
	}
	over := append([]string{}, ClaimSize...)
	if s.Hosts.Initial > claimHosts {
		over = append(over, fmt.Sprintf("hosts.initial=%d", claimHosts))
	}
	return scenarios.Open(name, append(over, set...))
}

// libraryEntry is one claim-size run, made once per process.
type libraryEntry struct {
	once sync.Once
	sum  *results.Summary
	err  error
}

// libraryRuns holds the claim-size runs by scenario, overrides and twin,
// so the claims and the verdict share them (a test binary runs both).
var libraryRuns sync.Map

// libraryRun runs the scenario name at the claim size with the overrides
// set, with its honest twins if twin, once per process.
func libraryRun(name string, set []string, twin bool) (*results.Summary, error) {
	key := fmt.Sprintf("%s\x00%t\x00%s", name, twin, strings.Join(set, "\x00"))
	e, _ := libraryRuns.LoadOrStore(key, &libraryEntry{})
	ent := e.(*libraryEntry)
	ent.once.Do(func() {
		s, err := claimRun(name, set)
		if err != nil {
			ent.err = err
			return
		}
		oc, err := Run(s, Options{Workers: 1, NoPlots: true, NoTwin: !twin})
		if err != nil {
			ent.err = err
			return
		}
		ent.sum = oc.Summary
	})
	return ent.sum, ent.err
}

// twinFigure reports whether a figure is measured against the honest twin.
func twinFigure(name string) bool {
	for _, p := range []string{"gain.", "worst_gain", "worst_account_gain", "harm", "cheat_credit_per_day."} {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}

// figureOf is a policy's figure by its dotted name, NaN when undefined.
func figureOf(s *results.Summary, policy, figure string) float64 {
	ps := s.Policies[policy]
	if ps == nil {
		return math.NaN()
	}
	v, ok := ps.Flat()[figure]
	if !ok {
		return math.NaN()
	}
	return float64(v)
}

// ClaimsTable is the Markdown table of checked claims that README
// embeds, one row per claim, in the order given.
func ClaimsTable(rs []ClaimResult) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Each built-in scenario run with %d hosts (or fewer if it has fewer) and one replication, seed as in the file; `creditsim scenarios --figures` prints this table and a test checks that docs/scenario-library.md shows what it prints.\n\n", claimHosts)
	b.WriteString("| scenario | claim | figure | bound | measured |\n|---|---|---|---|---|\n")
	last := ""
	for _, r := range rs {
		name := ""
		if r.Scenario != last {
			name = "`" + r.Scenario + "`"
			last = r.Scenario
		}
		c := r.Claim
		fig := c.Policy + " " + c.Figure
		if c.Vs != nil {
			fig += " / " + c.Vs.Policy + " " + c.Vs.Figure
		}
		if c.Variant != "" {
			fig += " (" + c.Variant + ")"
		}
		mark := ""
		if !r.Holds {
			mark = " **(fails)**"
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s%s |\n", name, c.Text, fig, bound(c), FormatClaimValue(r.Value), mark)
	}
	return b.String()
}

// bound writes a claim's interval.
func bound(c scenarios.Claim) string {
	switch {
	case c.Min != nil && c.Max != nil:
		return fmt.Sprintf("%s to %s", FormatClaimValue(*c.Min), FormatClaimValue(*c.Max))
	case c.Min != nil:
		return "≥ " + FormatClaimValue(*c.Min)
	default:
		return "≤ " + FormatClaimValue(*c.Max)
	}
}

// FormatClaimValue writes 3 significant digits, "undefined" for NaN.
func FormatClaimValue(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return "undefined"
	}
	return fmt.Sprintf("%.3g", v)
}

// CheckLibrary checks every built-in scenario's claims, scenarios in
// name order, sharing workers cores; progress, if set, is called as each
// scenario's runs finish.
func CheckLibrary(workers int, progress Progress) ([]ClaimResult, error) {
	names := scenarios.Names()
	sort.Strings(names)
	per := make([][]ClaimResult, len(names))
	errs := make([]error, len(names))
	var wg sync.WaitGroup
	sem := make(chan struct{}, max(workers, 1))
	progress = progress.counting(len(names))
	for i, n := range names {
		wg.Add(1)
		go func(i int, n string) {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			per[i], errs[i] = CheckClaims(n, 1)
			progress.step(n)
		}(i, n)
	}
	wg.Wait()
	var out []ClaimResult
	for i := range names {
		if errs[i] != nil {
			return nil, fmt.Errorf("%s: %w", names[i], errs[i])
		}
		out = append(out, per[i]...)
	}
	return out, nil
}
