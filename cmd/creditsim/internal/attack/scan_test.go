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

// TestAloneFindsWhatJointFinds: a policy searched alone meets the pairs a
// search of it beside other policies meets (pairs come from every
// policy's figures, searched or not), and confirms at least the worst
// that the joint search confirms for it, within the joint one's
// interval: a project that checks one system is not told it is safer
// than a joint search shows.
func TestAloneFindsWhatJointFinds(t *testing.T) {
	longtest.Skip(t, "two tiny attacks")
	t.Parallel()
	run := func(pols ...string) *Report {
		r, err := Run(Options{Scenario: "cheaters", Sets: tiny, Budget: 24, Jobs: 2, Policies: pols})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	alone, joint := run("v3pfc-boinc"), run("v1peak", "v3pfc-boinc")
	pairsOf := func(r *Report) []string {
		var out []string
		for _, ev := range r.Evaluations {
			if ev.Phase == "pairs" {
				out = append(out, ev.Behaviour.Agent())
			}
		}
		return out
	}
	if a, j := pairsOf(alone), pairsOf(joint); strings.Join(a, "|") != strings.Join(j, "|") || len(a) == 0 {
		t.Errorf("pairs alone %v, jointly %v", a, j)
	}
	worst := func(r *Report) Interval {
		for _, w := range r.Worst {
			if w.Policy == "v3pfc-boinc" {
				return w.Confirmed
			}
		}
		t.Fatal("no worst case for v3pfc-boinc")
		return Interval{}
	}
	a, j := worst(alone), worst(joint)
	t.Logf("v3pfc-boinc's worst: alone %.4g [%.4g, %.4g], jointly %.4g [%.4g, %.4g]", a.Mean, a.Low, a.High, j.Mean, j.Low, j.High)
	if !(a.Mean >= j.Low) {
		t.Errorf("searched alone, v3pfc-boinc's worst %.4g is below the joint search's interval [%.4g, %.4g]", a.Mean, j.Low, j.High)
	}
}
