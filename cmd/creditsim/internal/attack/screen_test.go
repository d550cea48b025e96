package attack

import (
	"bytes"
	"strings"
	"testing"

	"github.com/creditsim/creditsim/internal/longtest"
	"github.com/creditsim/creditsim/results"
)

// TestPairScreen: with a budget that affords it, every pair of kinds the
// space allows is screened once, in pooled runs that keep each pair's
// group apart and the pooled accounts under poolShare; each policy's
// most profitable screened pair then runs alone, and a pair known to pay
// ranks first; the report is the same on 1 and 2 jobs; and a budget too
// small for the screen says so.
func TestPairScreen(t *testing.T) {
	longtest.Skip(t, "two tiny attacks of about 80 runs")
	t.Parallel()
	st, err := prepare(Options{Scenario: "cheaters", Sets: tiny, Budget: MaxBudget})
	if err != nil {
		t.Fatal(err)
	}
	// A budget for the pairs' screen, not the coalitions'
	// (TestCoalitionScreen checks theirs).
	budget := len(st.sp) + 4*len(pools(screenSpaces(st.sp)))
	var outs [][]byte
	var rep *Report
	for _, jobs := range []int{1, 2} {
		r, err := Run(Options{Scenario: "cheaters", Sets: tiny, Budget: budget, Jobs: jobs})
		if err != nil {
			t.Fatal(err)
		}
		js, err := results.JSON(r)
		if err != nil {
			t.Fatal(err)
		}
		outs, rep = append(outs, js), r
	}
	if !bytes.Equal(outs[0], outs[1]) {
		t.Error("attack.json differs between 1 and 2 jobs")
	}
	sc := rep.Screen
	if sc == nil || sc.Skipped != "" || len(sc.Runs) == 0 {
		t.Fatalf("no screen at a budget of %d: %+v", budget, sc)
	}
	if sc.Coalitions != 0 || !strings.Contains(sc.CoalitionsSkipped, "too few") {
		t.Errorf("budget %d screened %d coalitions (%q); it affords the pairs only", budget, sc.Coalitions, sc.CoalitionsSkipped)
	}
	want := map[string]bool{}
	for _, ps := range screenSpaces(st.sp) {
		want[unordered(ps.name)] = true
	}
	seen := map[string]int{}
	figures := 0
	for i, r := range sc.Runs {
		groups, share := map[string]bool{}, 0.0
		for _, p := range r.Pairs {
			seen[unordered(p.Space)]++
			if groups[p.Behaviour.Name()] {
				t.Errorf("screen run %d holds two pairs of group %s", i, p.Behaviour.Name())
			}
			groups[p.Behaviour.Name()] = true
			share += p.Behaviour.Share
			figures += len(p.Values)
		}
		if share > poolShare+1e-9 || len(r.Pairs) > poolSize {
			t.Errorf("screen run %d: %d pairs on %.3g of the accounts", i, len(r.Pairs), share)
		}
	}
	for k := range want {
		if seen[k] != 1 {
			t.Errorf("pair %s screened %d times", k, seen[k])
		}
	}
	if len(seen) != len(want) || sc.Pairs != len(want) {
		t.Errorf("%d pairs screened, %d allowed (report says %d)", len(seen), len(want), sc.Pairs)
	}
	if figures == 0 {
		t.Fatal("no screened pair gave a figure")
	}
	ran := map[string]bool{}
	for _, ev := range rep.Evaluations {
		if ev.Phase == "pairs" {
			ran[unordered(ev.Space)] = true
		}
	}
	for _, p := range rep.Policies {
		top := sc.screened(p, 1, false)
		if len(top) == 1 && !ran[unordered(top[0])] {
			t.Errorf("%s's most profitable screened pair %s was not run alone", p, top[0])
		}
	}
	// A pair known to pay ranks first: colluding fakes that inflate their
	// benchmark validate one another's inflated claims, so CreditNew pays
	// them several times what either part earns alone (docs/attack.md).
	if top := sc.screened("v3pfc-boinc", 1, false); len(top) != 1 || unordered(top[0]) != unordered("benchmark_inflation+colluding_fakes") {
		t.Errorf("v3pfc-boinc's most profitable screened pair %v, want benchmark_inflation+colluding_fakes", top)
	}
	if rep.Runs+len(sc.Runs) > budget {
		t.Errorf("%d search runs and %d screening runs for a budget of %d", rep.Runs, len(sc.Runs), budget)
	}
	// One run short of it, the screen is left out, and the report says why.
	st, err = prepare(Options{Scenario: "cheaters", Sets: tiny, Budget: budget - 1})
	if err != nil {
		t.Fatal(err)
	}
	if st.screen.Runs != nil || !strings.Contains(st.screen.Skipped, "too few") {
		t.Errorf("budget %d: screen %+v", budget-1, st.screen)
	}
}

// TestCoalitionScreen: where the budget affords both screens, every
// coalition of two kinds is screened once, after the pairs, in pooled
// runs that keep every group apart and the pooled accounts under
// poolShare; one run short of it, the coalitions are left out and the
// report says why; and a screened coalition's gain is the worse of its
// two groups' gains in its pooled run.
func TestCoalitionScreen(t *testing.T) {
	if testing.Short() {
		t.Skip("a pooled run of a tiny world")
	}
	t.Parallel()
	st, err := prepare(Options{Scenario: "cheaters", Sets: tiny, Budget: MaxBudget})
	if err != nil {
		t.Fatal(err)
	}
	coal := coalitionSpaces(st.sp)
	pairRuns, coalRuns := pools(screenSpaces(st.sp)), pools(coal)
	budget := len(st.sp) + 4*(len(pairRuns)+len(coalRuns))
	if st, err = prepare(Options{Scenario: "cheaters", Sets: tiny, Budget: budget}); err != nil {
		t.Fatal(err)
	}
	sc := st.screen
	if len(coal) == 0 || sc.Coalitions != len(coal) || len(sc.Runs) != len(pairRuns)+len(coalRuns) {
		t.Fatalf("budget %d: %d coalitions in %d runs, want %d in %d more runs than the pairs' %d", budget, sc.Coalitions, len(sc.Runs), len(coal), len(coalRuns), len(pairRuns))
	}
	seen := map[string]int{}
	for i, r := range sc.Runs[len(pairRuns):] {
		groups, share := map[string]bool{}, 0.0
		for _, p := range r.Pairs {
			if p.Behaviour.With == nil {
				t.Errorf("coalition run %d holds %s, not a coalition", i, p.Space)
			}
			seen[unordered(p.Space)]++
			names, sh := groupsOf(p.Behaviour)
			for _, n := range names {
				if groups[n] {
					t.Errorf("coalition run %d holds group %s twice", i, n)
				}
				groups[n] = true
			}
			share += sh
		}
		if share > poolShare+1e-9 || len(r.Pairs) > poolSize {
			t.Errorf("coalition run %d: %d coalitions on %.3g of the accounts", i, len(r.Pairs), share)
		}
	}
	for _, c := range coal {
		if seen[unordered(c.name)] != 1 {
			t.Errorf("coalition %s screened %d times", c.name, seen[unordered(c.name)])
		}
	}
	short, err := prepare(Options{Scenario: "cheaters", Sets: tiny, Budget: budget - 1})
	if err != nil {
		t.Fatal(err)
	}
	if short.screen.Coalitions != 0 || len(short.screen.Runs) != len(pairRuns) || !strings.Contains(short.screen.CoalitionsSkipped, "too few") {
		t.Errorf("budget %d: %d coalitions, %d runs, %q", budget-1, short.screen.Coalitions, len(short.screen.Runs), short.screen.CoalitionsSkipped)
	}
	// One pooled run of coalitions, read as the screen reads it, against
	// the same run's summary.
	r := &sc.Runs[len(pairRuns)]
	if err := st.e.screenRun(r); err != nil {
		t.Fatal(err)
	}
	var agents []string
	for _, p := range r.Pairs {
		agents = append(agents, p.Behaviour.Agents()...)
	}
	s, err := st.e.openAgents(agents, st.e.seed, 1)
	if err != nil {
		t.Fatal(err)
	}
	sum, _, err := st.e.run(s)
	if err != nil {
		t.Fatal(err)
	}
	figures := 0
	for _, p := range r.Pairs {
		for _, pol := range st.e.all {
			flat := sum.Policies[pol].Flat()
			worse, found := 0.0, false
			for _, fig := range p.Behaviour.Figures() {
				if v, ok := flat[fig]; ok && results.Defined(float64(v)) {
					worse, found = max(worse, float64(v)), true
				}
			}
			got, ok := p.Values[pol]
			if ok != found || ok && float64(got) != worse {
				t.Errorf("%s under %s: screened %v (%v), want the worse group's %v (%v)", p.Space, pol, got, ok, worse, found)
			}
			figures += len(p.Values)
		}
	}
	if figures == 0 {
		t.Error("no screened coalition gave a figure")
	}
}
