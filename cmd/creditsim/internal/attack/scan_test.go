package attack

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/creditsim/creditsim/internal/longtest"
	"github.com/creditsim/creditsim/results"
)

// TestShareScan: a share scan runs the search once per share, every
// candidate's share pinned there (the shares' order given does not
// matter: the steps come out sorted), and names for each policy the
// smallest share whose confirmed worst gain is over the bound, as its
// gains say; the outputs gain the scan's plot and table.
func TestShareScan(t *testing.T) {
	longtest.Skip(t, "two tiny attacks")
	t.Parallel()
	opts := Options{Scenario: "cheaters", Sets: tiny, Budget: 16, Jobs: 2}
	opts.ShareTwins()
	sc, err := RunScan(opts, []float64{0.25, 0.1})
	if err != nil {
		t.Fatal(err)
	}
	// The twins do not depend on the share: each seed's (the search's,
	// and the confirmation's) is simulated once for the whole scan.
	if opts.twins.calls != 2 {
		t.Errorf("the scan simulated %d sets of twins, want 2 (one per seed)", opts.twins.calls)
	}
	if len(sc.Steps) != 2 || sc.Steps[0].Share != 0.1 || sc.Steps[1].Share != 0.25 {
		t.Fatalf("steps %+v", sc.Steps)
	}
	for _, st := range sc.Steps {
		if len(st.Worst) == 0 {
			t.Errorf("share %g: no worst case", st.Share)
		}
		for _, w := range st.Worst {
			if w.Behaviour.Share != st.Share {
				t.Errorf("share %g: %s's worst case %s holds %g of accounts, not the pinned share", st.Share, w.Policy, w.Behaviour, w.Behaviour.Share)
			}
		}
	}
	for _, p := range []string{"v1peak", "v2actual", "v3pfc-boinc"} {
		shares, gains := sc.Gains(p)
		want := math.NaN()
		for i, g := range gains {
			if g > Bound {
				want = shares[i]
				break
			}
		}
		got, ok := sc.FirstOverBound[p]
		if ok != !math.IsNaN(want) || ok && got != want {
			t.Errorf("%s: gains %v at %v: smallest share over the bound %v (%v), want %v", p, gains, shares, got, ok, want)
		}
	}
	rep, err := Run(opts)
	if err != nil {
		t.Fatal(err)
	}
	if opts.twins.calls != 2 {
		t.Errorf("the search after the scan simulated twins again (%d sets)", opts.twins.calls)
	}
	rep.Scan = sc
	dir := filepath.Join(t.TempDir(), "att")
	if err := Write(rep, dir, results.Replace{}); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(filepath.Join(dir, "attack-shares.png")); err != nil || fi.Size() < 1000 {
		t.Errorf("attack-shares.png: %v", err)
	}
	html, _ := os.ReadFile(filepath.Join(dir, "attack.html"))
	if !strings.Contains(string(html), "<h2>Share scan</h2>") || !strings.Contains(ScanTable(sc, rep.Policies), "over 1.1 from") {
		t.Error("no share scan in attack.html or the table")
	}
}

// Shares outside the search's own range, repeated, or not numbers are
// refused before anything runs.
func TestShareScanInput(t *testing.T) {
	for _, c := range []struct {
		shares []float64
		want   string
	}{
		{[]float64{0.6}, "--shares: 0.6: each share of accounts must be 0.002 to 0.5"},
		{[]float64{0.1, 0.1}, "--shares: 0.1 is given twice"},
		{nil, "give at least one share"},
	} {
		if _, err := RunScan(Options{Scenario: "cheaters", Sets: tiny}, c.shares); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: %v, want %q", c.shares, err, c.want)
		}
	}
	if _, err := ParseShares("0.01, x"); err == nil || !strings.Contains(err.Error(), `"x" is not a number`) {
		t.Errorf("ParseShares: %v", err)
	}
	if s, err := ParseShares("0.01,0.25"); err != nil || len(s) != 2 || s[1] != 0.25 {
		t.Errorf("ParseShares: %v, %v", s, err)
	}
}

// TestAloneFindsWhatJointFinds: v4trust searched alone under defended's
// server meets the same pairs and coalitions as searched beside CreditNew
// (the pairs come from every policy of the scenario), and confirms a
// worst case within the joint search's interval, which is narrow enough
// to say something (its high end under 1.5 x its low end).
func TestAloneFindsWhatJointFinds(t *testing.T) {
	longtest.Skip(t, "two small attacks under defended's server")
	t.Parallel()
	sets := []string{"hosts.initial=150", "duration=21d", "warmup=5d", "hosts.arrivals_per_day=0", "policies=[v3pfc-boinc, v4trust]"}
	run := func(pols ...string) *Report {
		r, err := Run(Options{Scenario: "defended", Sets: sets, Budget: 40, Confirm: 5, Jobs: 2, Policies: pols})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	alone, joint := run("v4trust"), run("v3pfc-boinc", "v4trust")
	pairsOf := func(r *Report) []string {
		var out []string
		for _, ev := range r.Evaluations {
			if ev.Phase == "pairs" {
				out = append(out, ev.Behaviour.Key())
			}
		}
		return out
	}
	if a, j := pairsOf(alone), pairsOf(joint); strings.Join(a, "|") != strings.Join(j, "|") || len(a) == 0 {
		t.Errorf("pairs alone %v, jointly %v", a, j)
	}
	worst := func(r *Report) Worst {
		for _, w := range r.Worst {
			if w.Policy == "v4trust" {
				return w
			}
		}
		t.Fatal("no worst case for v4trust")
		return Worst{}
	}
	// Each worst case is judged by its score (gain or harm, whichever
	// breaks its bound more); the joint one's interval of scores runs from
	// its least bad ends (low gain, high harm) to its worst.
	a, j := worst(alone), worst(joint)
	score := func(gain, harm results.Num) float64 { sc, _ := Score(float64(gain), float64(harm)); return sc }
	as := score(a.Confirmed.Mean, a.Harm.Mean)
	lo, hi := score(j.Confirmed.Low, j.Harm.High), score(j.Confirmed.High, j.Harm.Low)
	t.Logf("v4trust's worst: alone %s (gain %.4g, harm %.4g: score %.3g); jointly %s (gain %.4g [%.4g, %.4g], harm %.4g [%.4g, %.4g]: scores %.3g to %.3g)",
		a.Behaviour, a.Confirmed.Mean, a.Harm.Mean, as, j.Behaviour, j.Confirmed.Mean, j.Confirmed.Low, j.Confirmed.High, j.Harm.Mean, j.Harm.Low, j.Harm.High, lo, hi)
	if !(hi-lo < 1) {
		t.Fatalf("the joint interval of scores [%.3g, %.3g] spans a whole bound: too wide to judge by", lo, hi)
	}
	if !(as >= lo && as <= hi) {
		t.Errorf("searched alone, v4trust's worst scores %.3g, outside the joint search's [%.3g, %.3g]", as, lo, hi)
	}
}
