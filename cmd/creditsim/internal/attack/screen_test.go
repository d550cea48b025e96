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
	budget := len(st.sp) + 4*len(st.screen.Runs)
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
		top := sc.screened(p, 1)
		if len(top) == 1 && !ran[unordered(top[0])] {
			t.Errorf("%s's most profitable screened pair %s was not run alone", p, top[0])
		}
	}
	// A pair known to pay ranks first: colluding fakes that inflate their
	// benchmark validate one another's inflated claims, so CreditNew pays
	// them several times what either part earns alone (docs/attack.md).
	if top := sc.screened("v3pfc-boinc", 1); len(top) != 1 || unordered(top[0]) != unordered("benchmark_inflation+colluding_fakes") {
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
