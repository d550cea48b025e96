package attack

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	_ "github.com/creditsim/creditsim/policy/all" // every credit system

	"github.com/creditsim/creditsim/cmd/creditsim/internal/runner"
	"github.com/creditsim/creditsim/model/hosts"
	"github.com/creditsim/creditsim/results"
	"github.com/creditsim/creditsim/scenarios"
)

func TestParamRoundTrip(t *testing.T) {
	for _, p := range []param{shareParam, kParam, wfParam, thresholdParam, claimParam} {
		for _, v := range []float64{p.lo * 1.01, math.Sqrt(p.lo * p.hi), p.hi * 0.99} {
			if got := p.value(p.coord(v)); math.Abs(got-v) > 1e-6*v {
				t.Errorf("%s: %g -> coordinate -> %g", p.name, v, got)
			}
		}
		// Every coordinate maps inside the bounds, even far out.
		for _, x := range []float64{-1e3, -30, 0, 30, 1e3} {
			if v := p.value(x); !(v >= p.lo && v <= p.hi) {
				t.Errorf("%s: coordinate %g gives %g, outside [%g, %g]", p.name, x, v, p.lo, p.hi)
			}
		}
	}
}

// TestSpaces: every agent kind is searched (one-time claims per channel,
// runtime inflation of elapsed and of CPU time), each from the
// scenario's own agent of that kind where it has one.
func TestSpaces(t *testing.T) {
	own := []hosts.AgentConfig{{Kind: "benchmark_inflation", Share: 0.07, K: 4},
		{Kind: "one_time_claim", Share: 0.01, Channel: "flop_count", Claim: 1e200, At: 86400 * 12}}
	sp := spaces(own, 86400*9)
	want := len(hosts.KindNames()) + len(hosts.OneTimeChannels) - 2 + 2 // not failed_benchmark; CPU time; identity by count
	for _, ks := range sp {
		if ks.start.Kind == "failed_benchmark" {
			t.Error("failed_benchmark, which has no cheat figure, is searched")
		}
	}
	if len(sp) != want {
		t.Fatalf("%d spaces, want %d", len(sp), want)
	}
	for _, ks := range sp {
		b := ks.start
		switch ks.name {
		case "benchmark_inflation":
			if b.Share != 0.07 || b.K != 4 {
				t.Errorf("benchmark_inflation starts at %+v, not the scenario's agent", b)
			}
		case "one_time_claim/flop_count":
			if b.Claim != 1e200 || b.At != 86400*12 {
				t.Errorf("flop-count claim starts at %+v, not the scenario's agent", b)
			}
		case "one_time_claim/gpu_peak":
			if b.Claim != 1e304 || b.At != 86400*9 {
				t.Errorf("gpu-peak claim starts at %+v, want the defaults", b)
			}
		case "runtime_inflation":
			if b.Share != 0.02 || b.K != 3 || b.Report != "" {
				t.Errorf("runtime_inflation starts at %+v, want the defaults", b)
			}
		case "runtime_inflation/cpu_time":
			if b.Share != 0.02 || b.K != 3 || b.Report != "cpu_time" || !strings.Contains(b.Agent(), "report: cpu_time") {
				t.Errorf("runtime_inflation of CPU time starts at %+v (%s)", b, b.Agent())
			}
		case "new_identity/results":
			if b.Results != 8 || b.Every != 0 || !strings.Contains(b.Agent(), "results: 8") {
				t.Errorf("new_identity by count starts at %+v (%s)", b, b.Agent())
			}
		}
		// The start's coordinates map back to it.
		back := ks.behaviour(ks.coords(b))
		if math.Abs(back.Share-b.Share) > 1e-9 {
			t.Errorf("%s: share %g -> %g", ks.name, b.Share, back.Share)
		}
		// Its agent is a valid scenario agent.
		if _, err := scenarios.Open("baseline", []string{"hosts.agents=[" + b.Agent() + "]"}); err != nil {
			t.Errorf("%s: agent %s: %v", ks.name, b.Agent(), err)
		}
	}
}

// TestOwnCombinedAgent: a scenario's combined agent is a library
// candidate of its own, in the space of its pair, and its agent runs.
func TestOwnCombinedAgent(t *testing.T) {
	own := []hosts.AgentConfig{{Kind: "idle_vm", Share: 0.05, K: 6, And: &hosts.AgentConfig{Kind: "ncpus_inflation", K: 3}}}
	sp := spaces(own, 86400*9)
	last := sp[len(sp)-1]
	b := last.start
	if last.name != "idle_vm+ncpus_inflation" || b.Share != 0.05 || b.K != 6 || b.And == nil || b.And.K != 3 || b.And.Share != 0 {
		t.Fatalf("last space %s starts at %s", last.name, b)
	}
	if len(last.params) != 3 || last.params[2].name != "and.k" {
		t.Errorf("pair space parameters %v", last.params)
	}
	if b.Figure() != "gain.idle_vm+ncpus_inflation" {
		t.Errorf("figure %s", b.Figure())
	}
	// Coordinates round-trip, and a point of the space leaves its start
	// alone (the second behaviour is copied, not shared).
	x := last.coords(b)
	x[2] += 1
	moved := last.behaviour(x)
	if last.start.And.K != 3 || !(moved.And.K > 3) || math.Abs(last.behaviour(last.coords(b)).And.K-3) > 1e-9 {
		t.Errorf("start's k %g, moved point's %g", last.start.And.K, moved.And.K)
	}
	if _, err := scenarios.Open("baseline", []string{"hosts.agents=[" + moved.Agent() + "]"}); err != nil {
		t.Errorf("agent %s: %v", moved.Agent(), err)
	}
}

// TestPairs: for each policy, its three most profitable kinds are
// paired, best first, on one account and as a coalition (two groups of
// accounts), in turn; a pair is tried once, two kinds of garbage on one
// account never, and no more than asked.
func TestPairs(t *testing.T) {
	sp := spaces(nil, 86400*9)
	ev := func(space string, vals map[string]results.Num) Evaluation {
		ks := spaceNamed(sp, space)
		return Evaluation{Space: space, Behaviour: ks.start, Values: vals}
	}
	known := []Evaluation{
		ev("benchmark_inflation", map[string]results.Num{"a": 3, "b": 1}),
		ev("runtime_inflation", map[string]results.Num{"a": 2, "b": 1.5}),
		ev("fake_results", map[string]results.Num{"a": 1.5, "b": 9}),
		ev("colluding_fakes", map[string]results.Num{"a": 1, "b": 8}),
		ev("idle_vm", map[string]results.Num{"a": 0.5}),
	}
	_, batch := pairs(sp, known, []string{"a", "b"}, 10, nil)
	var got []string
	for _, e := range batch {
		got = append(got, e.Space+" for "+e.For)
	}
	// In rounds: each policy's first pair, then each one's first
	// coalition, then each one's second pair...; a pair already taken in
	// the other order is not taken again (a's
	// runtime_inflation+fake_results is b's first).
	want := []string{
		"benchmark_inflation+runtime_inflation for a", "fake_results+runtime_inflation for b",
		"benchmark_inflation with runtime_inflation for a", "fake_results with colluding_fakes for b",
		"benchmark_inflation+fake_results for a", "colluding_fakes+runtime_inflation for b",
		"benchmark_inflation with fake_results for a", "fake_results with runtime_inflation for b",
		"colluding_fakes with runtime_inflation for b",
	}
	if strings.Join(got, "; ") != strings.Join(want, "; ") {
		t.Errorf("pairs\n  %s\nwant\n  %s", strings.Join(got, "; "), strings.Join(want, "; "))
	}
	// Under a cap, the second policy still gets its first pair.
	if _, batch := pairs(sp, known, []string{"a", "b"}, 2, nil); len(batch) != 2 || batch[1].For != "b" {
		t.Errorf("%d pairs for at most 2, the second for %q", len(batch), batch[len(batch)-1].For)
	}
	for _, e := range batch {
		b := e.Behaviour
		switch {
		case b.With != nil && (b.With.Share != 0.02 || b.Share != 0.02 || b.And != nil):
			t.Errorf("%s: not a coalition of two groups at their own shares", b)
		case b.With == nil && (b.And == nil || b.And.Share != 0 || b.Share != 0.02):
			t.Errorf("%s: not a combined behaviour at the first kind's share", b)
		}
	}
}

func TestHalton(t *testing.T) {
	seen := map[float64]bool{}
	for i := 1; i <= 50; i++ {
		for _, u := range halton(i, 2) {
			if !(u > 0 && u < 1) {
				t.Fatalf("halton(%d) = %g, not in (0, 1)", i, u)
			}
		}
		seen[halton(i, 1)[0]] = true
	}
	if len(seen) != 50 {
		t.Errorf("%d distinct values in 50 points", len(seen))
	}
}

// tiny is a world small enough for a whole attack in seconds; its own
// agents hold a tenth of the accounts each, so that their kinds start
// where a hundred hosts give figures.
var tiny = []string{"hosts.initial=100", "duration=14d", "warmup=3d", "hosts.arrivals_per_day=0",
	"policies=[v1peak, v2actual, v3pfc-boinc]",
	"hosts.agents=[{kind: benchmark_inflation, share: 0.1, k: 3}, {kind: fake_results, share: 0.1, work_fraction: 0.05}]"}

// TestAttack: a whole attack on a tiny world. The same bytes on 1 and 2
// cores; each policy's worst case is at least as profitable, on the
// search seed, as the best of the kinds at their fixed settings; the
// worst case's YAML reproduces its confirmed figure with a plain run;
// the outputs are written.
func TestAttack(t *testing.T) {
	if testing.Short() {
		t.Skip("an attack of about 26 tiny runs")
	}
	t.Parallel()
	var outs [][]byte
	var rep *Report
	for _, jobs := range []int{1, 2} {
		r, err := Run(Options{Scenario: "cheaters", Sets: tiny, Budget: 24, Jobs: jobs})
		if err != nil {
			t.Fatal(err)
		}
		js, err := results.JSON(r)
		if err != nil {
			t.Fatal(err)
		}
		outs = append(outs, js)
		rep = r
	}
	if !bytes.Equal(outs[0], outs[1]) {
		t.Error("attack.json differs between 1 and 2 jobs")
	}
	// Sharded: three shards of the first phase through their files, then
	// joined, give the same report (pairs and local searches included).
	dirs := []string{t.TempDir(), t.TempDir()}
	// The shards share the honest twins through their folders, as the
	// CLI has them do, and the join reads them there.
	for k := 1; k <= 3; k++ {
		sh, err := RunShard(Options{Scenario: "cheaters", Sets: tiny, Budget: 24, Jobs: 2, TwinDirs: dirs, TwinOut: dirs[k%2]}, k, 3)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := WriteShard(sh, dirs[k%2]); err != nil {
			t.Fatal(err)
		}
	}
	from, err := ReadShards(dirs)
	if err != nil {
		t.Fatal(err)
	}
	var log bytes.Buffer
	joined, err := Run(Options{Scenario: "cheaters", Sets: tiny, Budget: 24, Jobs: 2, From: from, TwinDirs: dirs, Log: &log})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(log.String(), "the honest twins of seed 1 read from") {
		t.Errorf("the join did not read the shards' twins:\n%s", log.String())
	}
	if js, _ := results.JSON(joined); !bytes.Equal(js, outs[0]) {
		t.Error("the joined shards' attack.json differs from the unsharded one")
	}
	// A join refuses shards that are not all of its own first phase.
	for _, c := range []struct {
		opts Options
		want string
	}{
		{Options{Scenario: "cheaters", Sets: tiny, Budget: 24, From: from[:2]}, "shard 3 of 3 is missing"},
		{Options{Scenario: "cheaters", Sets: tiny, Budget: 24, From: append(from[:1:1], from...)}, "shard 1 of 3 is given twice"},
		{Options{Scenario: "cheaters", Sets: tiny, Budget: 30, From: from}, "was run with --budget 24"},
		{Options{Scenario: "cheaters", Sets: tiny[1:], Budget: 24, From: from}, "resolved otherwise"},
	} {
		_, err := Run(c.opts)
		var in *InputError
		if err == nil || !strings.Contains(err.Error(), c.want) || !asInput(err, &in) {
			t.Errorf("join: %v; want an input error containing %q", err, c.want)
		}
	}
	if rep.Runs > 24 || rep.Runs < 12 {
		t.Errorf("%d search runs for a budget of 24", rep.Runs)
	}
	// Two of the most profitable kinds were combined on one account and
	// scored under the pair's figure.
	pairs := 0
	for _, ev := range rep.Evaluations {
		if ev.Phase != "pairs" {
			continue
		}
		pairs++
		b := ev.Behaviour
		space := func(x *Behaviour) string { // a kind, or one-time claims' kind/channel
			if x.Channel != "" {
				return x.Kind + "/" + x.Channel
			}
			return x.Kind
		}
		if b.And == nil || b.And.Share != 0 || ev.Space != space(&b)+"+"+space(b.And) || !strings.HasSuffix(b.Figure(), "."+b.Kind+"+"+b.And.Kind) {
			t.Errorf("pair %s in space %s scored by %s", b, ev.Space, b.Figure())
		}
		if len(ev.Values) == 0 {
			t.Errorf("pair %s gave no figure", b)
		}
	}
	if pairs == 0 {
		t.Error("no combined behaviour was tried")
	}
	if len(rep.Worst) != 3 {
		t.Fatalf("%d worst cases, want one per policy", len(rep.Worst))
	}
	for _, w := range rep.Worst {
		// The search's best on its seed is at least the best fixed
		// setting's, and the first candidate is that best.
		if len(w.Candidates) == 0 || !(w.Candidates[0].Search >= w.Library) {
			t.Errorf("%s: best found below the fixed settings' best %g: %+v", w.Policy, w.Library, w.Candidates)
			continue
		}
		// The worst case is the candidate that earned most on the
		// fresh seeds, so at least the best fixed setting there: that
		// setting is always a candidate.
		lib := false
		for _, c := range w.Candidates {
			if c.Confirmed.Mean > w.Confirmed.Mean {
				t.Errorf("%s: candidate %s earned %g on fresh seeds, more than the reported worst %g", w.Policy, c.Behaviour, c.Confirmed.Mean, w.Confirmed.Mean)
			}
			lib = lib || c.Space == w.LibrarySpace && c.Search == w.Library
		}
		if len(w.Candidates) > DefaultConfirmTop+1 || !lib {
			t.Errorf("%s: %d candidates confirmed, the best fixed setting among them: %v", w.Policy, len(w.Candidates), lib)
		}
		if w.Confirmed.Replications != 3 || w.Confirmed.Seed != rep.Seed+1 {
			t.Errorf("%s: confirmed on %+v", w.Policy, w.Confirmed)
		}
		// The YAML reproduces the confirmed figure.
		s, err := scenarios.Load("attack-"+w.Policy+".yaml", w.Scenario, nil)
		if err != nil {
			t.Fatal(err)
		}
		oc, err := runner.Run(s, runner.Options{NoPlots: true})
		if err != nil {
			t.Fatal(err)
		}
		got := oc.Summary.Policies[w.Policy].Flat()[w.Figure]
		if !(got == w.Confirmed.Mean) && !(math.IsNaN(float64(got)) && math.IsNaN(float64(w.Confirmed.Mean))) {
			t.Errorf("%s: its YAML gives %s = %g, the attack confirmed %g", w.Policy, w.Figure, got, w.Confirmed.Mean)
		}
		if h := oc.Summary.Policies[w.Policy].Harm; !(h == w.Harm.Mean) || math.IsNaN(float64(h)) {
			t.Errorf("%s: its YAML gives harm %g, the attack reports %g", w.Policy, h, w.Harm.Mean)
		}
	}
	// v1peak pays benchmark inflation in proportion (bounded by the
	// min-of-two replica rule where an honest replica pairs): the search
	// must find a gain well beyond the 1.1 bound.
	for _, w := range rep.Worst {
		if w.Policy == "v1peak" && !(w.Search > 1.5) {
			t.Errorf("v1peak's worst found gains %g x its honest twin; the first system pays inflated benchmarks", w.Search)
		}
	}
	dir := filepath.Join(t.TempDir(), "out")
	if err := Write(rep, dir, results.Replace{}); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"attack.json", "attack.html", "attack-v1peak.yaml", "attack-v3pfc-boinc.png"} {
		if fi, err := os.Stat(filepath.Join(dir, f)); err != nil || fi.Size() == 0 {
			t.Errorf("%s not written: %v", f, err)
		}
	}
	html, _ := os.ReadFile(filepath.Join(dir, "attack.html"))
	if !strings.Contains(string(html), "attack-v3pfc-boinc.png") || strings.Contains(string(html), "NaN") {
		t.Error("attack.html does not show the plots, or shows NaN")
	}
	// As for runs: creditsim's own folder is replaced, another is not
	// without --force.
	if err := Write(rep, dir, results.Replace{}); err != nil {
		t.Errorf("re-writing the attack's own folder: %v", err)
	}
	foreign := filepath.Join(t.TempDir(), "mine")
	os.MkdirAll(foreign, 0o755)
	os.WriteFile(filepath.Join(foreign, "notes.txt"), []byte("mine"), 0o644)
	if err := Write(rep, foreign, results.Replace{}); err == nil {
		t.Error("writing into a folder creditsim did not write succeeded without force")
	}
}

func TestInputErrors(t *testing.T) {
	for _, c := range []struct {
		opts Options
		want string
	}{
		{Options{Scenario: "cheaters", Sets: tiny, Policies: []string{"nope"}}, `"nope" is not a policy of cheaters`},
		{Options{Scenario: "cheaters", Sets: tiny, Budget: 3}, "--budget 3: at least"},
		{Options{Scenario: "cheaters", Sets: tiny, Confirm: 2}, "--confirm 2"},
		{Options{Scenario: "cheaters", Sets: tiny, MaxCost: 0.5}, "--max-cost 0.5"},
	} {
		_, err := Run(c.opts)
		var in *InputError
		if err == nil || !strings.Contains(err.Error(), c.want) || !asInput(err, &in) {
			t.Errorf("%+v: %v; want an input error containing %q", c.opts, err, c.want)
		}
	}
}

func asInput(err error, in **InputError) bool {
	e, ok := err.(*InputError)
	*in = e
	return ok
}

// TestMaxCost: a candidate estimated to send more than MaxCost times the
// scenario's own results is not run: it is recorded as skipped, with no
// figure; every candidate run records its results.
func TestMaxCost(t *testing.T) {
	if testing.Short() {
		t.Skip("an attack of about 26 tiny runs")
	}
	t.Parallel()
	r, err := Run(Options{Scenario: "cheaters", Sets: tiny, Budget: 26, MaxCost: 1, Policies: []string{"v1peak"}})
	if err != nil {
		t.Fatal(err)
	}
	skipped := 0
	for _, ev := range r.Evaluations {
		switch {
		case ev.Skipped != "":
			skipped++
			if len(ev.Values) != 0 || ev.Results != 0 {
				t.Errorf("skipped %s has values %v and %d results", ev.Behaviour, ev.Values, ev.Results)
			}
			if !strings.Contains(ev.Skipped, "more than 1 x the scenario's") {
				t.Errorf("skipped because %q", ev.Skipped)
			}
		case ev.Results <= 0:
			t.Errorf("%s ran but records %d results", ev.Behaviour, ev.Results)
		}
	}
	if skipped == 0 {
		t.Error("no candidate skipped at MaxCost 1, though fakes with small work fractions send more than the scenario")
	}
}

// TestInert: a kind the scenario's world makes the same as honest work
// is not searched, and the report says why; one the scenario's own
// agents use always is.
func TestInert(t *testing.T) {
	why := func(set ...string) map[string]string {
		s, err := scenarios.Open("baseline", set)
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]string{}
		for _, ks := range spaces(s.Hosts.Agents, 0) {
			if w := inert(&ks, s); w != "" {
				out[ks.name] = w
			}
		}
		return out
	}
	// The baseline's app counts its FLOPs and has no GPU version.
	got := why()
	if len(got) != 1 || got["one_time_claim/gpu_peak"] == "" {
		t.Errorf("baseline: inert %v, want only the GPU-peak claim", got)
	}
	got = why("projects[0].apps[0].versions[0].counts_flops=false", "projects[0].apps[0].versions[1].counts_flops=false")
	if got["count_inflation"] == "" || got["one_time_claim/flop_count"] == "" || len(got) != 3 {
		t.Errorf("no counting app: inert %v, want count inflation and both FLOP-count and GPU-peak claims", got)
	}
	got = why("projects[0].apps[0].versions[0].counts_flops=false", "projects[0].apps[0].versions[1].counts_flops=false",
		"hosts.agents=[{kind: runtime_inflation, share: 0.1, and: {kind: count_inflation}}]")
	if got["count_inflation"] != "" {
		t.Error("count_inflation, which the scenario's own agent uses, is not searched")
	}
	// The search leaves them out and says why.
	st, err := prepare(Options{Scenario: "baseline", Sets: []string{"hosts.initial=100"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(st.inert) != 1 || !strings.HasPrefix(st.inert[0], "one_time_claim/gpu_peak (") || spaceNamed(st.sp, "one_time_claim/gpu_peak") != nil {
		t.Errorf("baseline's search leaves out %v", st.inert)
	}
}

// TestCandidates: a policy's candidates for confirmation are its top
// distinct behaviours on the search seed, best first, and its best fixed
// setting; a policy no run gave a figure has none.
func TestCandidates(t *testing.T) {
	b := func(k float64) Behaviour { return Behaviour{Kind: "runtime_inflation", Share: 0.1, K: k} }
	evs := []Evaluation{
		{Phase: "library", Space: "runtime_inflation", Behaviour: b(3), Values: map[string]results.Num{"p": 1.5}},
		{Phase: "library", Space: "idle_vm", Behaviour: Behaviour{Kind: "idle_vm", Share: 0.1, K: 10}, Values: map[string]results.Num{"p": 2}},
		{Phase: "design", Space: "runtime_inflation", Behaviour: b(5), Values: map[string]results.Num{"p": 4}},
		{Phase: "design", Space: "runtime_inflation", Behaviour: b(6), Values: map[string]results.Num{"p": 5}},
		{Phase: "nelder-mead", Space: "runtime_inflation", Behaviour: b(6), Values: map[string]results.Num{"p": 5}},
		{Phase: "nelder-mead", Space: "runtime_inflation", Behaviour: b(7), Values: map[string]results.Num{"p": 3}},
		{Phase: "nelder-mead", Space: "runtime_inflation", Behaviour: b(8), Values: map[string]results.Num{}},
	}
	w, ok := candidates("p", evs, 3)
	var got []string
	for _, c := range w.Candidates {
		got = append(got, c.Behaviour.String())
	}
	want := []string{b(6).String(), b(5).String(), b(7).String(), evs[1].Behaviour.String()}
	if !ok || strings.Join(got, "; ") != strings.Join(want, "; ") || w.Library != 2 || w.LibrarySpace != "idle_vm" {
		t.Errorf("candidates %q (library %g, %s), want %q", got, w.Library, w.LibrarySpace, want)
	}
	if _, ok := candidates("q", evs, 3); ok {
		t.Error("a policy with no figure has candidates")
	}
	// The same run in effect (every figure and the results to the bit: a
	// share that rounds to the same hosts, a pair's second part that never
	// acts) is one candidate, the first ranked.
	fig := func(x results.Num) map[string]results.Num { return map[string]results.Num{"p": x, "q": 1.25} }
	near := Behaviour{Kind: "runtime_inflation", Share: 0.020000000000000004, K: 6}
	inert := Behaviour{Kind: "runtime_inflation", Share: 0.02, K: 6, And: &Behaviour{Kind: "cherry_picker", Threshold: 1e9}}
	same := []Evaluation{
		{Phase: "library", Space: "runtime_inflation", Behaviour: Behaviour{Kind: "runtime_inflation", Share: 0.02, K: 6}, Values: fig(3), Results: 900},
		{Phase: "nelder-mead", Space: "runtime_inflation", Behaviour: near, Values: fig(3), Results: 900},
		{Phase: "pairs", Space: "runtime_inflation+cherry_picker", Behaviour: inert, Values: fig(3), Results: 900},
		{Phase: "pairs", Space: "runtime_inflation+cherry_picker", Behaviour: b(2), Values: fig(3), Results: 901},
	}
	w, _ = candidates("p", same, 3)
	if len(w.Candidates) != 2 || w.Candidates[1].Behaviour.String() != b(2).String() {
		t.Errorf("%d candidates from two distinct runs: %+v", len(w.Candidates), w.Candidates)
	}
}

// TestSameCandidateRunsOnce: a candidate proposed again, even at the same
// time, takes the figures of its first run; the simulation runs once.
func TestSameCandidateRunsOnce(t *testing.T) {
	if testing.Short() {
		t.Skip("a tiny run")
	}
	st, err := prepare(Options{Scenario: "cheaters", Sets: tiny, Jobs: 2})
	if err != nil {
		t.Fatal(err)
	}
	b := Behaviour{Kind: "benchmark_inflation", Share: 0.1, K: 3}
	batch := []Evaluation{{Behaviour: b}, {Behaviour: b.clone()}, {Behaviour: b}}
	if err := st.e.runAll(batch); err != nil {
		t.Fatal(err)
	}
	if st.e.ran != 1 {
		t.Errorf("%d runs for one candidate proposed three times", st.e.ran)
	}
	for _, ev := range batch[1:] {
		if ev.Results != batch[0].Results || len(ev.Values) == 0 || ev.Values["v1peak"] != batch[0].Values["v1peak"] {
			t.Errorf("a repeat has %d results and %v, the first %d and %v", ev.Results, ev.Values, batch[0].Results, batch[0].Values)
		}
	}
}

// TestShardIntegrity: a shard edited after it was written (a figure
// changed, made negative, or given to a policy the attack does not
// search) is refused by the join, named.
func TestShardIntegrity(t *testing.T) {
	dir := t.TempDir()
	sh := &Shard{Scenario: "cheaters", ScenarioSHA256: "abc", Seed: 1, Budget: 20, MaxCost: 20, Policies: []string{"v1peak"}, Shard: 1, Shards: 1,
		Runs: []ShardRun{{Index: 0, Agent: "{kind: benchmark_inflation}", Values: map[string]float64{"v1peak": 1.5}}}}
	path, err := WriteShard(sh, dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ReadShards([]string{dir}); err != nil {
		t.Fatalf("the shard as written: %v", err)
	}
	orig, _ := os.ReadFile(path)
	for _, c := range []struct{ from, to, want string }{
		{`"v1peak": 1.5`, `"v1peak": 99`, "was edited after it was written"},
		{`"v1peak": 1.5`, `"v1peak": -5`, "was edited after it was written"},
		{`"seed": 1`, `"seed": 2`, "was edited after it was written"},
	} {
		if err := os.WriteFile(path, []byte(strings.Replace(string(orig), c.from, c.to, 1)), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := ReadShards([]string{dir}); err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), path) {
			t.Errorf("%s -> %s: %v", c.from, c.to, err)
		}
	}
	// Figures that are wrong though the digest matches (a shard written
	// so by hand): refused all the same.
	for _, bad := range []map[string]float64{{"v1peak": -5}, {"v3pfc-boinc": 2}} {
		sh.Runs[0].Values = bad
		if _, err := WriteShard(sh, dir); err != nil {
			t.Fatal(err)
		}
		if _, err := ReadShards([]string{dir}); err == nil {
			t.Errorf("figures %v accepted", bad)
		}
	}
}

// TestConfirmedCountsWhatGaveAFigure: a confirmation's Replications are
// those that gave the figure (an unbounded one included), not those run.
func TestConfirmedCountsWhatGaveAFigure(t *testing.T) {
	nan, inf := results.Num(math.NaN()), results.Num(math.Inf(1))
	ps := &results.PolicySummary{Gain: map[string]results.Num{"x": inf},
		PerReplication: map[string][]results.Num{"gain.x": {1.2, nan, inf, 1.1, nan}}}
	iv := confirmedOn(ps, "gain.x", 7, 5)
	if iv.Replications != 3 || !math.IsInf(float64(iv.Mean), 1) || iv.Seed != 7 {
		t.Errorf("confirmed %+v, want 3 replications that gave a figure and an unbounded mean", iv)
	}
}

// TestScore: a behaviour is judged by whichever of its gain and the
// honest accounts' harm breaks its bound more, each in units of its
// bound; harm above 1 (honest accounts over-paid) is no griefing.
func TestScore(t *testing.T) {
	for _, c := range []struct {
		gain, harm float64
		want       float64
		fig        string
	}{
		{1.1, 1, 1, "gain"},
		{1.21, 0.99, 2, "gain"},
		{1, 0.95, 1, "harm"},
		{0.5, 0.9025, 2, "harm"},
		{1.05, 1.2, math.Log(1.05) / math.Log(1.1), "gain"},
		{math.Inf(1), 0.5, math.Inf(1), "gain"},
		{0, math.NaN(), math.Inf(-1), "gain"},
	} {
		got, fig := Score(c.gain, c.harm)
		if fig != c.fig || !(got == c.want || math.Abs(got-c.want) < 1e-12) {
			t.Errorf("Score(%g, %g) = %g %s, want %g %s", c.gain, c.harm, got, fig, c.want, c.fig)
		}
	}
}

// TestSpaceReachesDeflationAndHalf: the search's space reaches claim
// factors below 1 for every inflating kind and half of the accounts.
func TestSpaceReachesDeflationAndHalf(t *testing.T) {
	for _, ks := range spaces(nil, 0) {
		for _, p := range ks.params {
			if p.name == "share" && p.hi < 0.5 {
				t.Errorf("%s: shares to %g, not half", ks.name, p.hi)
			}
			if p.name == "k" && strings.Contains(ks.start.Kind, "_inflation") && ks.start.Kind != "ncpus_inflation" && p.lo >= 1 {
				t.Errorf("%s: k from %g: no deflation", ks.name, p.lo)
			}
		}
	}
}

// TestCoalition: two behaviours on two groups of accounts in one run are
// one candidate with two agents and two figures, searched over both
// groups' settings; a policy proposes coalitions of its most profitable
// kinds beside its pairs; a kind in both groups is no coalition.
func TestCoalition(t *testing.T) {
	sp := spaces(nil, 0)
	churn, infl := spaceNamed(sp, "new_identity"), spaceNamed(sp, "benchmark_inflation")
	a, b := churn.start, infl.start
	a.Share, b.Share = 0.15, 0.25
	cs := coalition(churn, infl, a, b)
	x := cs.coords(cs.start)
	got := cs.behaviour(x)
	if n := len(got.Agents()); n != 2 || got.With == nil || math.Abs(got.With.Share-0.25) > 1e-9 || math.Abs(got.Share-0.15) > 1e-9 {
		t.Fatalf("coalition %s: %d agents", got, n)
	}
	if figs := got.Figures(); strings.Join(figs, " ") != "gain.new_identity gain.benchmark_inflation" {
		t.Errorf("figures %v", figs)
	}
	x[len(churn.params)] += 1 // the second group's share moves, the first's stays
	moved := cs.behaviour(x)
	if moved.With.Share <= 0.25 || moved.Share != got.Share {
		t.Errorf("second group's coordinate moved shares %g, %g", moved.Share, moved.With.Share)
	}
	if churn.coalesces(churn) || !churn.coalesces(infl) {
		t.Error("coalesces: a kind beside itself, or two kinds refused")
	}
	if unordered(cs.name) != unordered(coalition(infl, churn, b, a).name) {
		t.Errorf("%q and its reverse are not one coalition", cs.name)
	}
	known := []Evaluation{
		{Space: "new_identity", Behaviour: a, Values: map[string]results.Num{"p": 1.3}},
		{Space: "benchmark_inflation", Behaviour: b, Values: map[string]results.Num{"p": 1.2}},
	}
	var names []string
	for _, ks := range proposed(sp, known, "p", nil) {
		names = append(names, ks.name)
	}
	if !slices.Contains(names, "new_identity with benchmark_inflation") {
		t.Errorf("proposals %q have no coalition of the two most profitable kinds", names)
	}
}
