package attack

import (
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"

	"gonum.org/v1/gonum/optimize"

	"github.com/creditsim/creditsim/boinc"
	"github.com/creditsim/creditsim/cmd/creditsim/internal/runner"
	"github.com/creditsim/creditsim/results"
	"github.com/creditsim/creditsim/scenarios"
)

// Options control an attack.
type Options struct {
	Scenario string   // a built-in name or a scenario file
	Sets     []string // --set overrides, applied before the attacker
	// Policies limits the search to these policy instances of the
	// scenario (default: all of them).
	Policies []string
	// Budget is the number of simulated runs the search may make
	// (confirmation runs are extra); at least one per kind.
	Budget int
	// Confirm is the replications of each worst case's run on fresh
	// seeds; at least 3.
	Confirm int
	// ConfirmTop is how many of each policy's most profitable distinct
	// candidates on the search seed are confirmed (with its best fixed
	// setting); 0 = DefaultConfirmTop.
	ConfirmTop int
	Jobs       int       // runs at once; 0 = GOMAXPROCS
	Log        io.Writer // one line per phase; nil is silent
	// MaxCost bounds a candidate's run: one estimated to send more than
	// MaxCost times the results of the scenario as given is not run and
	// gains nothing (fakes that return a job in a thousandth of its time,
	// on a third of the accounts, would send hundreds of times more).
	// 0 = DefaultMaxCost.
	MaxCost float64
	// From holds the shards (RunShard) of this search's first phase,
	// which Run then takes instead of running it.
	From []*Shard
	// Share, if above 0, pins every candidate's share of accounts there:
	// the search explores the other parameters only (a share scan's
	// step, see Scan).
	Share float64
	// TwinDirs are folders where the honest twins of a seed may already
	// be (written by a shard of this attack, TwinOut): read there
	// instead of simulated. TwinOut, if set, is where the twins this
	// search simulates are written (see TwinFile).
	TwinDirs []string
	TwinOut  string
	// twins, if set, is the honest twins' cache of every search with
	// these options (ShareTwins).
	twins *twinCache
}

// ShareTwins makes every search run with these options, or copies of
// them, share the honest twins of each seed: they do not depend on the
// candidate, its kind or its share, so a share scan and the search
// before it simulate each seed's twins once.
func (opts *Options) ShareTwins() {
	if opts.twins == nil {
		opts.twins = &twinCache{}
	}
}

// DefaultConfirmTop is the default of Options.ConfirmTop.
const DefaultConfirmTop = 3

// DefaultMaxCost is the default of Options.MaxCost.
const DefaultMaxCost = 20

// DefaultBudget is the default number of search runs: with the kinds of
// the model it leaves about half the budget to the design and the local
// searches.
const DefaultBudget = 60

// MaxMaxCost bounds --max-cost, and MaxConfirm the replications each
// worst case is confirmed on: past them a flag is a mistake, checked
// before the search rather than found after it.
const (
	MaxMaxCost = 1e6
	MaxConfirm = 1000
)

// MaxBudget bounds the search's runs: each is a whole simulation, and
// the search keeps every evaluation (a budget of 1e8 exhausted memory).
const MaxBudget = 10000

// InputError is a bad option of the attack itself (a policy the
// scenario does not have, a budget too small for the space).
type InputError struct{ msg string }

func (e *InputError) Error() string { return e.msg }

func inputErr(format string, a ...any) error { return &InputError{fmt.Sprintf(format, a...)} }

// Evaluation is one candidate's run on the search seed.
type Evaluation struct {
	Index     int       `json:"index"`
	Phase     string    `json:"phase"` // library, design, pairs or nelder-mead
	For       string    `json:"for,omitempty"`
	Space     string    `json:"space"`
	Behaviour Behaviour `json:"behaviour"`
	// Values is each policy's figure for the behaviour's kind; a policy
	// for which the run gives no finite figure is absent.
	Values map[string]results.Num `json:"values"`
	// Harm is each policy's harm to honest accounts (their credit over
	// their honest twin's); Regime the run's regime (summary.json's), the
	// same for every policy: its agents' share of results sent and
	// validated, and of workunits validated on agents' results only.
	Harm   map[string]results.Num `json:"harm,omitempty"`
	Regime map[string]results.Num `json:"regime,omitempty"`
	// Results is how many results the run sent; Skipped says why a
	// candidate was not run (too costly), and then Values is empty.
	Results int64  `json:"results,omitempty"`
	Skipped string `json:"skipped,omitempty"`
}

// score is ev's Score for policy p (its gain and harm on the search
// seed); false if the run gave p no gain figure.
func (ev *Evaluation) score(p string) (float64, bool) {
	v, ok := ev.Values[p]
	if !ok {
		return 0, false
	}
	h := math.NaN()
	if x, ok := ev.Harm[p]; ok {
		h = float64(x)
	}
	sc, _ := Score(float64(v), h)
	return sc, true
}

// Interval is a figure over replications with its 95% interval.
type Interval struct {
	Mean         results.Num `json:"mean"`
	Low          results.Num `json:"low"`
	High         results.Num `json:"high"`
	Replications int         `json:"replications"`
	Seed         uint64      `json:"seed"`
}

// Worst is the most profitable behaviour found against one policy.
type Worst struct {
	Policy    string    `json:"policy"`
	Space     string    `json:"space"`
	Behaviour Behaviour `json:"behaviour"`
	Figure    string    `json:"figure"`
	// Search is the figure on the search seed; Library the best of the
	// scenario's fixed agent settings (every kind at its own or default
	// settings) on the same seed, and LibrarySpace its kind.
	Search       results.Num `json:"search"`
	Library      results.Num `json:"library"`
	LibrarySpace string      `json:"library_space"`
	// LibraryHarm is the honest accounts' harm in that fixed setting's
	// run (it is the best by Score, which may be by harm).
	LibraryHarm results.Num `json:"library_harm"`
	// Confirmed is the behaviour run again on fresh seeds, and Harm the
	// honest accounts' credit over their twin's in those runs.
	Confirmed Interval `json:"confirmed"`
	Harm      Interval `json:"harm"`
	// Breaks names the figure the worst case breaks on the fresh seeds:
	// "gain" (above Bound) or "harm" (honest accounts below HarmFloor);
	// empty if it holds both.
	Breaks string `json:"breaks,omitempty"`
	// Candidates are the behaviours confirmed for the policy (the top
	// ones by Score on the search seed, and the best fixed setting); the
	// worst case is the one whose Score is highest on the fresh seeds,
	// so that a lucky draw on the search seed is neither taken for a
	// weakness nor hides one.
	Candidates []Candidate `json:"candidates"`
	// Scenario is the scenario YAML that reproduces Confirmed with
	// creditsim run.
	Scenario []byte `json:"-"`
}

// Candidate is a behaviour confirmed on fresh seeds for a policy.
type Candidate struct {
	Space     string    `json:"space"`
	Behaviour Behaviour `json:"behaviour"`
	// Figure is the group's figure confirmed (a coalition's worse one).
	Figure    string      `json:"figure"`
	Search    results.Num `json:"search"`
	Confirmed Interval    `json:"confirmed"`
	Harm      Interval    `json:"harm"`
}

// Report is what an attack found.
type Report struct {
	Scenario string   `json:"scenario"`
	Seed     uint64   `json:"seed"`
	Budget   int      `json:"budget"`
	Runs     int      `json:"search_runs"`
	Policies []string `json:"policies"`
	// Inert lists the kinds not searched because the scenario makes them
	// the same as honest work, each with the reason.
	Inert       []string     `json:"not_searched,omitempty"`
	Worst       []Worst      `json:"worst"`
	Evaluations []Evaluation `json:"evaluations"`
	// Screen is the pair screen: every pair of kinds, pooled, and the
	// coalitions where the budget affords them.
	Screen *Screen `json:"pair_screen,omitempty"`
	// Scan is the share scan (--shares), if one ran.
	Scan *Scan `json:"share_scan,omitempty"`
}

// evaluator runs candidates on the search seed, at most jobs at once.
type evaluator struct {
	opts Options
	seed uint64
	pols []string
	// all are every policy of the scenario, searched or not: each run
	// scores them all, and pairs are chosen from all their figures, so
	// that a policy searched alone meets the pairs a joint search would.
	all   []string
	slots chan struct{}
	// name and sha are the scenario's name and its SHA-256 as resolved
	// (a twin file must name the same).
	name, sha string
	// maxResults is the estimated results above which a candidate is not
	// run (MaxCost x the scenario's own estimate).
	maxResults float64
	// done counts finished search runs, for the log.
	mu   sync.Mutex
	done int
	// seen holds each candidate evaluated on the search seed, by its
	// agent: a run is deterministic, so a candidate proposed again (local
	// searches of similar policies often meet) takes its figures from the
	// first run instead of running again.
	seen onceMap[string, Evaluation]
	ran  int // simulations run (search seed), for tests
	// twins holds the honest twins of each seed and replication count
	// (twinKey): the same for every candidate, so made once (and shared
	// with other searches of the same options: Options.ShareTwins).
	twins *twinCache
}

// twinCache is the honest twins of each seed and replication count.
type twinCache = onceMap[twinKey, []*results.Twin]

// twinKey names a set of honest twins: a seed and its replications.
type twinKey struct {
	seed uint64
	reps int
}

// onceMap computes each key's value once, however many goroutines ask
// for it: the first caller computes it, the others wait for its result.
type onceMap[K comparable, V any] struct {
	mu    sync.Mutex
	m     map[K]*onceEntry[V]
	calls int // values computed, for tests
}

// onceEntry is a key's value, ready once done is closed.
type onceEntry[V any] struct {
	done chan struct{}
	v    V
	err  error
}

// get returns k's value, calling f for it if no caller has; cached says
// whether another caller had.
func (o *onceMap[K, V]) get(k K, f func() (V, error)) (v V, cached bool, err error) {
	o.mu.Lock()
	if o.m == nil {
		o.m = map[K]*onceEntry[V]{}
	}
	if e, ok := o.m[k]; ok {
		o.mu.Unlock()
		<-e.done
		return e.v, true, e.err
	}
	e := &onceEntry[V]{done: make(chan struct{})}
	o.m[k] = e
	o.calls++
	o.mu.Unlock()
	e.v, e.err = f()
	close(e.done)
	return e.v, false, e.err
}

// twinsFor returns the honest twins of s's seed and replications,
// simulating them the first time they are asked for.
func (e *evaluator) twinsFor(s *scenarios.Scenario) ([]*results.Twin, error) {
	k := twinKey{s.Seed, s.Replications}
	twins, _, err := e.twins.get(k, func() ([]*results.Twin, error) {
		if twins, ok := e.readTwins(k); ok {
			return twins, nil
		}
		twins, err := runner.Twins(s, s.Replications, e.slots)
		if err == nil {
			err = e.writeTwins(k, twins)
		}
		return twins, err
	})
	return twins, err
}

// open returns the scenario with b as its agents, on seed and reps.
func (e *evaluator) open(b Behaviour, seed uint64, reps int) (*scenarios.Scenario, error) {
	return e.openAgents(b.Agents(), seed, reps)
}

// openAgents returns the scenario with these agents (in a scenario's
// flow form), on seed and reps.
func (e *evaluator) openAgents(agents []string, seed uint64, reps int) (*scenarios.Scenario, error) {
	sets := append(append([]string(nil), e.opts.Sets...), "hosts.agents=["+strings.Join(agents, ", ")+"]",
		fmt.Sprintf("replications=%d", reps), fmt.Sprintf("seed=%d", seed))
	return scenarios.Open(e.opts.Scenario, sets)
}

// summary runs b on seed and reps.
func (e *evaluator) summary(b Behaviour, seed uint64, reps int) (*results.Summary, []byte, error) {
	s, err := e.open(b, seed, reps)
	if err != nil {
		return nil, nil, err
	}
	return e.run(s)
}

// run runs s and returns its summary and resolved YAML.
func (e *evaluator) run(s *scenarios.Scenario) (*results.Summary, []byte, error) {
	yaml, _, err := scenarios.Resolved(s)
	if err != nil {
		return nil, nil, err
	}
	twins, err := e.twinsFor(s)
	if err != nil {
		return nil, nil, err
	}
	oc, err := runner.Run(s, runner.Options{NoPlots: true, Workers: s.Replications, Slots: e.slots, Twins: twins})
	if err != nil {
		return nil, nil, err
	}
	return oc.Summary, yaml, nil
}

// evaluate runs b on the search seed and scores it for every policy in
// ev.Values, unless its run would cost more than maxResults.
func (e *evaluator) evaluate(ev *Evaluation) error {
	m, cached, err := e.seen.get(ev.Behaviour.Key(), func() (Evaluation, error) {
		err := e.evaluateOnce(ev)
		return *ev, err
	})
	if cached {
		ev.Values = maps.Clone(m.Values)
		ev.Harm, ev.Regime = maps.Clone(m.Harm), maps.Clone(m.Regime)
		ev.Results, ev.Skipped = m.Results, m.Skipped
		e.logRun(ev.Behaviour, "the same candidate as an earlier run: its figures, not run again")
	}
	return err
}

// evaluateOnce runs ev's behaviour (see evaluate).
func (e *evaluator) evaluateOnce(ev *Evaluation) error {
	b := ev.Behaviour
	ev.Values = map[string]results.Num{}
	s, err := e.open(b, e.seed, 1)
	if err != nil {
		return err
	}
	if est := s.EstimateResults(); est > e.maxResults {
		ev.Skipped = fmt.Sprintf("estimated %.3g results, more than %g x the scenario's", est, e.opts.MaxCost)
		e.logRun(b, "not run: "+ev.Skipped)
		return nil
	}
	sum, _, err := e.run(s)
	if err != nil {
		return err
	}
	e.mu.Lock()
	e.ran++
	e.mu.Unlock()
	ev.Results = sum.Results
	e.logRun(b, fmt.Sprintf("%d results", sum.Results))
	vals := ev.Values
	ev.Harm, ev.Regime = map[string]results.Num{}, sum.Regime
	for _, p := range e.all {
		if ps := sum.Policies[p]; ps != nil {
			flat := ps.Flat()
			for _, fig := range b.Figures() { // a coalition: its better-paid group
				if v, ok := flat[fig]; ok && results.Defined(float64(v)) && (!hasValue(vals, p) || v > vals[p]) {
					vals[p] = v // an unbounded gain (+Inf) ranks above every other
				}
			}
			if h := ps.Harm; !math.IsNaN(float64(h)) {
				ev.Harm[p] = h
			}
		}
	}
	return nil
}

// hasValue reports whether m holds a value for p.
func hasValue(m map[string]results.Num, p string) bool {
	_, ok := m[p]
	return ok
}

// logRun logs a finished (or skipped) search run.
func (e *evaluator) logRun(b Behaviour, what string) {
	e.logLine(fmt.Sprintf("%s (%s)", b, what))
}

// logLine logs a finished (or skipped) search run, said in what.
func (e *evaluator) logLine(what string) {
	if e.opts.Log == nil {
		return
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	e.done++
	fmt.Fprintf(e.opts.Log, "  run %d of at most %d: %s\n", e.done, e.opts.Budget, what)
}

// search is an attack prepared from its options: the scenario, the
// policies, the spaces and the first phase's candidates.
type search struct {
	e     *evaluator
	base  *scenarios.Scenario
	sha   string // the resolved scenario's SHA-256
	sp    []kindSpace
	first []Evaluation // phases 1 and 2 (library and design), not yet run
	// maxPairs is the most combined behaviours phase 2b may try.
	maxPairs int
	// screen is the pair screen, planned (its runs not yet run).
	screen *Screen
	// inert lists the spaces not searched, each with the reason: the
	// scenario makes them the same as honest work.
	inert []string
}

// Check checks opts as Run does before it simulates anything (the
// scenario, its policies, a budget of at least one run per kind the
// world leaves to search), so a caller can refuse them before its own
// long work.
func Check(opts Options) error {
	_, err := prepare(opts)
	return err
}

// prepare checks the options and builds the search.
func prepare(opts Options) (*search, error) {
	base, err := scenarios.Open(opts.Scenario, opts.Sets)
	if err != nil {
		return nil, err
	}
	pols, err := searchedPolicies(base, opts.Policies)
	if err != nil {
		return nil, err
	}
	sp, skipped := searchedSpaces(base)
	if opts.Share > 0 {
		pinShare(sp, opts.Share)
	}
	if err := opts.defaults(len(sp)); err != nil {
		return nil, err
	}
	one, err := scenarios.Open(opts.Scenario, append(append([]string(nil), opts.Sets...), "replications=1"))
	if err != nil {
		return nil, err
	}
	_, sha, err := scenarios.Resolved(base)
	if err != nil {
		return nil, err
	}
	all, _ := searchedPolicies(base, nil)
	e := &evaluator{opts: opts, seed: base.Seed, pols: pols, all: all, slots: make(chan struct{}, opts.Jobs), name: base.Name, sha: sha,
		maxResults: opts.MaxCost * one.EstimateResults()} // per run, as candidates run
	e.twins = opts.twins
	if e.twins == nil {
		e.twins = &twinCache{}
	}
	st := &search{e: e, base: base, sha: sha, sp: sp, inert: skipped}

	st.planFirst(opts.Budget)
	return st, nil
}

// searchedSpaces are the kinds' spaces the search explores, and those it
// skips with the reason (the scenario makes them honest work).
func searchedSpaces(base *scenarios.Scenario) (sp []kindSpace, skipped []string) {
	claimAt := float64(base.Warmup) + 2*boinc.SecondsPerDay
	for _, ks := range spaces(base.Hosts.Agents, claimAt) {
		if why := inert(&ks, base); why != "" {
			skipped = append(skipped, ks.name+" ("+why+")")
			continue
		}
		sp = append(sp, ks)
	}
	return sp, skipped
}

// planFirst plans phases 1 and 2: the kinds at their fixed settings,
// then a Halton design over each kind's parameters, all independent
// runs. Phase 2b combines, on one account, the kinds that earned most
// for each policy; it and the design share half of what the fixed
// settings leave of budget, the local searches the rest.
func (st *search) planFirst(budget int) {
	sp := st.sp
	for _, ks := range sp {
		st.first = append(st.first, Evaluation{Phase: "library", Space: ks.name, Behaviour: ks.start})
	}
	rest := budget - len(sp)
	st.maxPairs = rest / 6
	design := rest/2 - st.maxPairs
	// The screen, if the budget leaves the local searches at least as
	// many runs as it takes (what the fixed settings leave is at least
	// four times its runs); its pairs then share a larger cap.
	// The coalitions are screened too where the budget affords both.
	all, coal := screenSpaces(sp), coalitionSpaces(sp)
	pairRuns, coalRuns := pools(all), pools(coal)
	st.screen = &Screen{Pairs: len(all), Runs: pairRuns}
	if n := len(pairRuns) + len(coalRuns); len(coalRuns) > 0 && rest >= 4*n {
		st.screen.Runs, st.screen.Coalitions = append(pairRuns, coalRuns...), len(coal)
	} else if len(coalRuns) > 0 {
		st.screen.CoalitionsSkipped = fmt.Sprintf("a budget of %d runs leaves too few for the %d more pooled runs that screen %d coalitions (%d runs are enough)",
			budget, len(coalRuns), len(coal), len(sp)+4*n)
	}
	if n := len(st.screen.Runs); n > 0 && rest < 4*n {
		st.screen.Skipped = fmt.Sprintf("a budget of %d runs leaves too few for the %d pooled runs that screen %d pairs (%d runs are enough)",
			budget, n, len(all), len(sp)+4*n)
		st.screen.Runs, st.screen.CoalitionsSkipped = nil, ""
	} else if n > 0 {
		st.maxPairs = rest / 4
		design = rest/2 - st.maxPairs
	}
	for i := 0; i < design; i++ {
		ks := &sp[i%len(sp)]
		u := halton(i/len(sp)+1, len(ks.params))
		x := make([]float64, len(u))
		for d := range u {
			x[d] = math.Log(u[d] / (1 - u[d]))
		}
		st.first = append(st.first, Evaluation{Phase: "design", Space: ks.name, Behaviour: ks.behaviour(x)})
	}
	for i := range st.first {
		st.first[i].Index = i
	}
}

// searchedPolicies are the scenario's policy instances, or those of
// them named (each must be one).
func searchedPolicies(base *scenarios.Scenario, named []string) ([]string, error) {
	var pols []string
	for _, p := range base.Policies {
		pols = append(pols, p.Name)
	}
	if len(named) > 0 {
		for _, want := range named {
			found := false
			for _, p := range pols {
				found = found || p == want
			}
			if !found {
				return nil, inputErr("--policies: %q is not a policy of %s (it has %s)", want, base.Name, strings.Join(pols, ", "))
			}
		}
		pols = named
	}
	return pols, nil
}

// defaults fills the options left 0 and checks their ranges; kinds is
// the number of kinds searched (the budget runs each once at least).
func (opts *Options) defaults(kinds int) error {
	if opts.Budget == 0 {
		opts.Budget = DefaultBudget
	}
	if opts.Budget < kinds {
		return inputErr("--budget %d: at least %d runs, one per kind", opts.Budget, kinds)
	}
	if opts.Confirm == 0 {
		opts.Confirm = 3
	}
	if opts.Confirm < 3 {
		return inputErr("--confirm %d: the worst case is confirmed on at least 3 replications", opts.Confirm)
	}
	if opts.ConfirmTop == 0 {
		opts.ConfirmTop = DefaultConfirmTop
	}
	if opts.ConfirmTop < 1 {
		return inputErr("--confirm-top %d: at least the most profitable candidate is confirmed", opts.ConfirmTop)
	}
	if opts.Jobs <= 0 {
		opts.Jobs = runtime.GOMAXPROCS(0)
	}
	if opts.MaxCost == 0 {
		opts.MaxCost = DefaultMaxCost
	}
	if !(opts.MaxCost >= 1) || math.IsInf(opts.MaxCost, 0) {
		return inputErr("--max-cost %g: must be at least 1 (times the scenario's own results)", opts.MaxCost)
	}
	return nil
}

func (st *search) logf(format string, a ...any) {
	if st.e.opts.Log != nil {
		fmt.Fprintf(st.e.opts.Log, format+"\n", a...)
	}
}

// Run searches the scenario's behaviours for each policy's worst case.
// With opts.From, the first phase's runs are taken from those shards
// instead of being run; the report is the same as without.
func Run(opts Options) (*Report, error) {
	st, err := prepare(opts)
	if err != nil {
		return nil, err
	}
	e, base, pols := st.e, st.base, st.e.pols
	opts = e.opts
	rep := &Report{Scenario: base.Name, Seed: base.Seed, Budget: opts.Budget, Policies: pols, Inert: st.inert}
	if len(st.inert) > 0 {
		st.logf("attack %s: not searched, the same as honest work here: %s", base.Name, strings.Join(st.inert, ", "))
	}
	design := len(st.first) - len(st.sp)
	if len(opts.From) > 0 {
		if err := st.fill(opts.From); err != nil {
			return nil, err
		}
		st.logf("attack %s: %d kinds at their fixed settings and %d design points, from %d shards", base.Name, len(st.sp), design, opts.From[0].Shards)
	} else {
		st.logf("attack %s: %d kinds at their fixed settings and %d design points, on seed %d", base.Name, len(st.sp), design, base.Seed)
		if err := e.runAll(st.first); err != nil {
			return nil, err
		}
	}
	rep.Evaluations = append(rep.Evaluations, st.first...)
	sp := st.sp
	rep.Screen = st.screen
	if n := len(st.screen.Runs); n > 0 {
		st.logf("attack %s: every pair of kinds the space allows (%d) and %d coalitions screened in %d pooled runs", base.Name, st.screen.Pairs, st.screen.Coalitions, n)
		if st.screen.CoalitionsSkipped != "" {
			st.logf("attack %s: coalitions not screened: %s", base.Name, st.screen.CoalitionsSkipped)
		}
		if err := e.runScreen(st.screen); err != nil {
			return nil, err
		}
	} else if st.screen.Skipped != "" {
		st.logf("attack %s: pairs not screened: %s", base.Name, st.screen.Skipped)
	}
	pairSpaces, pairBatch := pairs(sp, rep.Evaluations, e.all, st.maxPairs, st.screen)
	if len(pairBatch) > 0 {
		st.logf("attack %s: %d pairs and coalitions: the most profitable kinds combined on one account or on two groups of accounts in one run, and the most profitable screened pairs", base.Name, len(pairBatch))
		if err := e.runAll(pairBatch); err != nil {
			return nil, err
		}
		rep.Evaluations = append(rep.Evaluations, pairBatch...)
		sp = append(sp, pairSpaces...)
	}

	local, err := e.localSearches(sp, rep.Evaluations, opts.Budget-len(rep.Evaluations)-len(st.screen.Runs))
	if err != nil {
		return nil, err
	}
	rep.Evaluations = append(rep.Evaluations, local...)
	for i := range rep.Evaluations {
		rep.Evaluations[i].Index = i
	}
	rep.Runs = len(rep.Evaluations)
	st.logf("attack %s: %d search runs; confirming each policy's %d worst candidates (by gain or harm) and its best fixed setting on %d replications of seed %d",
		base.Name, rep.Runs, opts.ConfirmTop, opts.Confirm, base.Seed+1)
	for _, p := range pols {
		if w, ok := candidates(p, rep.Evaluations, opts.ConfirmTop); ok {
			rep.Worst = append(rep.Worst, w)
		}
	}
	if err := e.confirm(rep.Worst, base.Seed+1, opts.Confirm); err != nil {
		return nil, err
	}
	return rep, nil
}

// localSearches is phase 3: per policy, Nelder-Mead within the kind of
// its best candidate so far, from the best candidates of that kind, the
// runs left shared equally between the policies.
func (e *evaluator) localSearches(sp []kindSpace, known []Evaluation, left int) ([]Evaluation, error) {
	per := left / len(e.pols)
	local := make([][]Evaluation, len(e.pols))
	errs := make([]error, len(e.pols))
	var wg sync.WaitGroup
	for pi, p := range e.pols {
		if per < 1 {
			break
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			local[pi], errs[pi] = e.localSearch(p, sp, known, per)
		}()
	}
	wg.Wait()
	var out []Evaluation
	for _, l := range local {
		out = append(out, l...)
	}
	return out, errors.Join(errs...)
}

// candidates returns policy p's worst case to be confirmed: the top
// distinct behaviours on the search seed and the best fixed setting, as
// Candidates, and the best fixed setting's figure; false if no run gave
// p a figure.
func candidates(p string, evs []Evaluation, top int) (Worst, bool) {
	w := Worst{Policy: p, Library: results.Num(math.Inf(-1))}
	var ranked []Evaluation
	libBest := -1
	libScore := math.Inf(-1)
	for i, ev := range evs {
		sc, ok := ev.score(p)
		if !ok {
			continue
		}
		ranked = append(ranked, ev)
		if ev.Phase == "library" && (libBest < 0 || sc > libScore) {
			w.Library, w.LibrarySpace, libBest, libScore = ev.Values[p], ev.Space, i, sc
			w.LibraryHarm = results.Num(math.NaN())
			if h, ok := ev.Harm[p]; ok {
				w.LibraryHarm = h
			}
		}
	}
	if len(ranked) == 0 {
		return w, false
	}
	sort.SliceStable(ranked, func(i, j int) bool {
		a, _ := ranked[i].score(p)
		b, _ := ranked[j].score(p)
		return a > b
	})
	seen := map[string]bool{}
	add := func(ev Evaluation) {
		key, same := ev.Behaviour.Key(), sameRun(ev)
		if !seen[key] && !seen[same] {
			seen[key], seen[same] = true, true
			w.Candidates = append(w.Candidates, Candidate{Space: ev.Space, Behaviour: ev.Behaviour, Search: ev.Values[p]})
		}
	}
	for _, ev := range ranked {
		if len(w.Candidates) == top {
			break
		}
		add(ev)
	}
	if libBest >= 0 {
		add(evs[libBest])
	}
	return w, true
}

// sameRun is what two evaluations share when they made the same run in
// effect: every policy's figure and harm, and the results counted, to
// the last bit. On the search's common random numbers two behaviours
// that differ only where it changes nothing (a share rounding to the
// same hosts, a pair's second part that never acts) give the same run,
// and are one candidate.
func sameRun(ev Evaluation) string {
	var b strings.Builder
	fmt.Fprintf(&b, "run %d:", ev.Results)
	for _, k := range results.SortedKeys(ev.Values) {
		fmt.Fprintf(&b, " %s=%x", k, math.Float64bits(float64(ev.Values[k])))
	}
	for _, k := range results.SortedKeys(ev.Harm) {
		fmt.Fprintf(&b, " harm %s=%x", k, math.Float64bits(float64(ev.Harm[k])))
	}
	return b.String()
}

// pairs returns up to n combined behaviours to try, with their spaces.
// Each policy of the scenario (every one, searched or not: the pairs do
// not depend on which are searched) proposes the pairs of the three
// kinds whose best candidate earned most for it (on known runs), the
// more profitable kind first with its share, where the kinds can
// combine. The proposals are taken in rounds, each policy's first in the
// scenario's order, then each one's second, and so on, each pair once,
// so that the cap n does not leave a policy late in the order with none.
func pairs(sp []kindSpace, known []Evaluation, pols []string, n int, sc *Screen) ([]kindSpace, []Evaluation) {
	proposals := make([][]Evaluation, len(pols))
	spaceOf := map[string]kindSpace{}
	for k, p := range pols {
		for _, ps := range proposed(sp, known, p, sc) {
			spaceOf[ps.name] = ps
			proposals[k] = append(proposals[k], Evaluation{Phase: "pairs", For: p, Space: ps.name, Behaviour: ps.start})
		}
	}
	var spaces []kindSpace
	var batch []Evaluation
	seen := map[string]bool{}
	for round := 0; ; round++ {
		more := false
		for k := range pols {
			if round >= len(proposals[k]) {
				continue
			}
			more = true
			ev := proposals[k][round]
			key := unordered(ev.Space)
			if seen[key] {
				continue
			}
			if len(batch) == n {
				return spaces, batch
			}
			seen[key] = true
			spaces, batch = append(spaces, spaceOf[ev.Space]), append(batch, ev)
		}
		if !more {
			return spaces, batch
		}
	}
}

// unordered is a pair's or a coalition's space name with its parts in
// order: either order is the same pair, or the same coalition.
func unordered(space string) string {
	sep := "+"
	if strings.Contains(space, coalitionSep) {
		sep = coalitionSep
	}
	parts := strings.Split(space, sep)
	slices.Sort(parts)
	return strings.Join(parts, sep)
}

// proposed is policy p's pairs and coalitions to run alone: those of
// policyPairs, of policyCoalitions and p's most profitable screened
// pairs and coalitions (sc may be nil), taken in turn.
func proposed(sp []kindSpace, known []Evaluation, p string, sc *Screen) []kindSpace {
	best, order := bestBySpace(sp, known, p)
	var scr, scrC []kindSpace
	if sc != nil {
		for _, name := range sc.screened(p, screenPerPolicy, false) {
			if ps, ok := screenedPair(sp, best, name); ok {
				scr = append(scr, ps)
			}
		}
		for _, name := range sc.screened(p, screenPerPolicy, true) {
			if cs, ok := screenedCoalition(sp, best, name); ok {
				scrC = append(scrC, cs)
			}
		}
	}
	lists := [][]kindSpace{policyPairs(order), policyCoalitions(order), scr, scrC}
	var out []kindSpace
	for i := 0; ; i++ {
		more := false
		for _, l := range lists {
			if i < len(l) {
				out, more = append(out, l[i]), true
			}
		}
		if !more {
			return out
		}
	}
}

// spaceBest is the behaviour of a space that earned most for a policy
// on known runs, and what it earned.
type spaceBest struct {
	ks *kindSpace
	b  Behaviour
	v  float64
}

// bestBySpace returns, per space that gave policy p a figure on known
// runs, its most profitable behaviour, by space name and ordered most
// profitable first.
func bestBySpace(sp []kindSpace, known []Evaluation, p string) (map[string]*spaceBest, []*spaceBest) {
	best := map[string]*spaceBest{}
	var order []*spaceBest
	for _, ev := range known {
		v, ok := ev.score(p)
		if !ok {
			continue
		}
		t := best[ev.Space]
		if t == nil {
			t = &spaceBest{ks: spaceNamed(sp, ev.Space), v: math.Inf(-1)}
			best[ev.Space] = t
			order = append(order, t)
		}
		if v > t.v {
			t.b, t.v = ev.Behaviour, v
		}
	}
	sort.SliceStable(order, func(i, j int) bool { return order[i].v > order[j].v })
	return best, order
}

// policyPairs is a policy's proposed pairs: its three kinds that earned
// most on known runs (order, from bestBySpace), combined two by two (the
// more profitable first, at its best candidate's settings), where the
// kinds can combine; a pair of the same two kinds in the other order
// counts as the same.
func policyPairs(order []*spaceBest) []kindSpace {
	return twoByTwo(order, (*kindSpace).pairs, pair)
}

// policyCoalitions is a policy's proposed coalitions: its three kinds
// that earned most on known runs, two by two, each group of accounts at
// its best candidate's settings and share, where they can be one run's
// two groups.
func policyCoalitions(order []*spaceBest) []kindSpace {
	return twoByTwo(order, (*kindSpace).coalesces, coalition)
}

// twoByTwo combines the first three spaces of order two by two, the
// more profitable first, each at its best behaviour, where can allows.
func twoByTwo(order []*spaceBest, can func(a, b *kindSpace) bool, combine func(a, b *kindSpace, startA, startB Behaviour) kindSpace) []kindSpace {
	order = order[:min(3, len(order))]
	var out []kindSpace
	for i, a := range order {
		for _, b := range order[i+1:] {
			if a.ks != nil && b.ks != nil && can(a.ks, b.ks) {
				out = append(out, combine(a.ks, b.ks, a.b, b.b))
			}
		}
	}
	return out
}

// spaceNamed returns the space called name, or nil.
func spaceNamed(sp []kindSpace, name string) *kindSpace {
	for i := range sp {
		if sp[i].name == name {
			return &sp[i]
		}
	}
	return nil
}

// runAll evaluates a batch, jobs at a time; the results go in order.
func (e *evaluator) runAll(batch []Evaluation) error {
	errs := make([]error, len(batch))
	var wg sync.WaitGroup
	for i := range batch {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = e.evaluate(&batch[i])
		}()
	}
	wg.Wait()
	return errors.Join(errs...)
}

// localSearch runs Nelder-Mead for policy p in the space of its best
// candidate, starting from that space's best candidates for p, for at
// most n runs. It maximises the score (searchValue: the gain or the
// harm, whichever breaks its bound more): the method minimises its
// negative.
func (e *evaluator) localSearch(p string, sp []kindSpace, known []Evaluation, n int) ([]Evaluation, error) {
	best, bestV := -1, math.Inf(-1)
	for i, ev := range known {
		if v, ok := ev.score(p); ok && (best < 0 || v > bestV) {
			best, bestV = i, v
		}
	}
	if best < 0 {
		return nil, nil
	}
	var ks *kindSpace
	for i := range sp {
		if sp[i].name == known[best].Space {
			ks = &sp[i]
		}
	}
	nm, start := initialSimplex(ks, p, known)
	var out []Evaluation
	var runErr error
	f := func(x []float64) float64 {
		if runErr != nil {
			return 0
		}
		ev := Evaluation{Phase: "nelder-mead", For: p, Space: ks.name, Behaviour: ks.behaviour(x)}
		if err := e.evaluate(&ev); err != nil {
			runErr = err
			return 0
		}
		out = append(out, ev)
		return -searchValue(&ev, p)
	}
	settings := &optimize.Settings{FuncEvaluations: n, Converger: optimize.NeverTerminate{}}
	// The method ends when its runs are spent; an error can only say so
	// or that the simplex collapsed, and either way the runs made stand.
	optimize.Minimize(optimize.Problem{Func: f}, start, settings, nm)
	return out, runErr
}

// searchValue is what the local search maximises: ev's score for p, kept
// finite for the method (a run with no figure, or a gain of 0 and no
// harm, is one bound's width below no gain, an unbounded gain far
// above any finite one).
func searchValue(ev *Evaluation, p string) float64 {
	sc, ok := ev.score(p)
	switch {
	case !ok || math.IsInf(sc, -1):
		return -1
	case math.IsInf(sc, 1):
		return 1e9
	}
	return max(sc, -1)
}

// initialSimplex is Nelder-Mead started from ks's dim+1 best known
// points for p (the values negated: the method minimises), or, with
// fewer known, from a unit simplex around the best; and that start.
func initialSimplex(ks *kindSpace, p string, known []Evaluation) (*optimize.NelderMead, []float64) {
	type pt struct {
		x []float64
		v float64
	}
	var pts []pt
	for _, ev := range known {
		if ev.Space == ks.name {
			pts = append(pts, pt{ks.coords(ev.Behaviour), -searchValue(&ev, p)})
		}
	}
	sort.SliceStable(pts, func(i, j int) bool { return pts[i].v < pts[j].v })
	dim := len(ks.params)
	nm := &optimize.NelderMead{}
	if len(pts) >= dim+1 {
		for _, q := range pts[:dim+1] {
			nm.InitialVertices = append(nm.InitialVertices, q.x)
			nm.InitialValues = append(nm.InitialValues, q.v)
		}
	} else {
		nm.SimplexSize = 1
	}
	return nm, pts[0].x
}

// confirm runs each policy's candidates on seed with reps replications
// (each distinct behaviour once), and makes the worst of them on those
// seeds the policy's worst case: its figure, interval and scenario. A
// candidate that the fresh seeds give no figure ranks last.
func (e *evaluator) confirm(ws []Worst, seed uint64, reps int) error {
	distinct := map[string]*confirmation{} // by the behaviour's agent
	var order []Behaviour
	for _, w := range ws {
		for _, c := range w.Candidates {
			if key := c.Behaviour.Key(); distinct[key] == nil {
				distinct[key] = &confirmation{}
				order = append(order, c.Behaviour)
			}
		}
	}
	e.runConfirmations(order, distinct, seed, reps)
	for i := range ws {
		w := &ws[i]
		best := -1
		for k := range w.Candidates {
			c := &w.Candidates[k]
			r := distinct[c.Behaviour.Key()]
			if r.err != nil {
				return r.err
			}
			c.Figure, c.Confirmed = worstConfirmed(r.sum.Policies[w.Policy], c.Behaviour, seed, reps)
			c.Harm = confirmedOn(r.sum.Policies[w.Policy], "harm", seed, reps)
			if best < 0 || confirmedScore(c) > confirmedScore(&w.Candidates[best]) {
				best = k
			}
		}
		c := w.Candidates[best]
		w.Space, w.Behaviour, w.Search, w.Confirmed, w.Harm = c.Space, c.Behaviour, c.Search, c.Confirmed, c.Harm
		w.Figure = c.Figure
		if sc, fig := Score(float64(c.Confirmed.Mean), float64(c.Harm.Mean)); sc > 1 {
			w.Breaks = fig
		}
		w.Scenario = distinct[c.Behaviour.Key()].yaml
	}
	return nil
}

// confirmedScore is a candidate's Score on the fresh seeds, -Inf where
// they gave no figure.
func confirmedScore(c *Candidate) float64 {
	sc, _ := Score(float64(c.Confirmed.Mean), float64(c.Harm.Mean))
	if math.IsNaN(sc) {
		return math.Inf(-1)
	}
	return sc
}

// confirmation is one behaviour run on the fresh seeds.
type confirmation struct {
	sum  *results.Summary
	yaml []byte
	err  error
}

// runConfirmations runs each behaviour of order on seed with reps
// replications, all at once (the evaluator's slots bound the work),
// logging each as it ends.
func (e *evaluator) runConfirmations(order []Behaviour, distinct map[string]*confirmation, seed uint64, reps int) {
	var wg sync.WaitGroup
	done := 0
	for _, b := range order {
		r := distinct[b.Key()]
		wg.Add(1)
		go func() {
			defer wg.Done()
			r.sum, r.yaml, r.err = e.summary(b, seed, reps)
			if e.opts.Log != nil {
				e.mu.Lock()
				done++
				fmt.Fprintf(e.opts.Log, "  confirmed %d of %d: %s (%d replications)\n", done, len(order), b, reps)
				e.mu.Unlock()
			}
		}()
	}
	wg.Wait()
}

// worstConfirmed is the figure of b's groups (one, or two for a
// coalition) with the higher mean on the fresh seeds, and its interval.
func worstConfirmed(ps *results.PolicySummary, b Behaviour, seed uint64, reps int) (string, Interval) {
	figs := b.Figures()
	best, iv := figs[0], confirmedOn(ps, figs[0], seed, reps)
	for _, fig := range figs[1:] {
		if c := confirmedOn(ps, fig, seed, reps); c.Mean > iv.Mean || math.IsNaN(float64(iv.Mean)) {
			best, iv = fig, c
		}
	}
	return best, iv
}

// confirmedOn is a candidate's figure fig on the fresh seeds, with its
// interval and the replications that gave a value of fig (of reps run);
// NaN where the seeds gave none.
func confirmedOn(ps *results.PolicySummary, fig string, seed uint64, reps int) Interval {
	ci, ok := ps.CI95[fig]
	if !ok {
		ci = [2]results.Num{results.Num(math.NaN()), results.Num(math.NaN())}
	}
	mean := results.Num(math.NaN())
	if v, ok := ps.Flat()[fig]; ok {
		mean = v
	}
	gave := 0
	for _, v := range ps.PerReplication[fig] {
		if results.Defined(float64(v)) {
			gave++
		}
	}
	if _, ok := ps.PerReplication[fig]; !ok && reps == 1 && results.Defined(float64(mean)) {
		gave = 1 // one replication keeps no per-replication values
	}
	return Interval{Mean: mean, Low: ci[0], High: ci[1], Replications: gave, Seed: seed}
}
