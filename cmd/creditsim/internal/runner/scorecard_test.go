package runner

import (
	"encoding/json"
	"html"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/creditsim/creditsim/results"
	"github.com/creditsim/creditsim/scenarios"
)

// TestScorecardMatchesSummary: the scorecard report.html opens with is
// the summary's figures: per policy its host spread, neutralities, the
// largest gain over the honest twin of the kinds present (named), the
// worst account's gain, the harm and honest G/D; a mark on every value
// past its bound, the one bound 1.1 for every kind; the best of each
// column marked; and the verdict printed.
func TestScorecardMatchesSummary(t *testing.T) {
	t.Parallel()
	skipLong(t)
	s, err := scenarios.Open("cheaters", []string{"hosts.initial=150", "replications=2", "duration=20d", "warmup=6d"})
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "out")
	oc, err := Run(s, Options{Out: dir, NoPlots: false})
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	var sum results.Summary
	if err := json.Unmarshal(b, &sum); err != nil {
		t.Fatal(err)
	}
	sc := results.NewScorecard(&sum, oc.Policies)
	page, err := os.ReadFile(filepath.Join(dir, "report.html"))
	if err != nil {
		t.Fatal(err)
	}
	section := html.UnescapeString(string(page))
	if i := strings.Index(section, `<section id="answer">`); i < 0 || i > strings.Index(section, "Every figure, with its interval") || i > strings.Index(section, "<img") {
		t.Fatal("report.html does not open with the answer, its scorecard before any other figure")
	} else {
		section = section[i:strings.Index(section, "</section>")]
	}
	for i, r := range sc.Rows {
		ps := sum.Policies[r.Policy]
		worstKind, worstV := "", math.Inf(-1)
		for k, v := range ps.Gain {
			if k != "failed_benchmark" && float64(v) > worstV {
				worstKind, worstV = k, float64(v)
			}
		}
		same := func(name string, got float64, want results.Num) {
			if !(got == float64(want) || math.IsNaN(got) && math.IsNaN(float64(want))) {
				t.Errorf("%s %s: scorecard %v, summary %v", r.Policy, name, got, want)
			}
		}
		same("host CV", r.Values[results.ColHostCV], ps.HostNeutralityCV)
		same("worst account's gain", r.Values[results.ColAccountGain], ps.WorstAccountGain)
		same("harm", r.Values[results.ColHarm], ps.Harm)
		same("honest G/D", r.Values[results.ColHonest], ps.HonestRatio)
		if r.Values[results.ColGain] != worstV || r.GainKind != worstKind {
			t.Errorf("%s: worst gain %v (%s), summary's largest %v (%s)", r.Policy, r.Values[results.ColGain], r.GainKind, worstV, worstKind)
		}
		if r.Flag[results.ColGain] != (worstV > results.CheatBound) {
			t.Errorf("%s: gain mark %v for %v", r.Policy, r.Flag[results.ColGain], worstV)
		}
		if ag := r.Values[results.ColAccountGain]; r.Flag[results.ColAccountGain] != (ag > results.CheatBound) {
			t.Errorf("%s: account gain mark %v for %v", r.Policy, r.Flag[results.ColAccountGain], ag)
		}
		if !strings.Contains(section, results.FormatScore(worstV)+" ("+worstKind+")") {
			t.Errorf("%s: report's scorecard lacks its worst gain %s (%s)", r.Policy, results.FormatScore(worstV), worstKind)
		}
		if sc.Best[results.ColHostCV] != i && r.Values[results.ColHostCV] < sc.Rows[sc.Best[results.ColHostCV]].Values[results.ColHostCV] {
			t.Errorf("%s has a lower host CV than the one marked best", r.Policy)
		}
	}
	if len(sc.Verdict) < 3 || !strings.HasPrefix(sc.Verdict[0], "Fairest: ") {
		t.Fatalf("verdict %q", sc.Verdict)
	}
	for _, v := range sc.Verdict {
		if !strings.Contains(section, v) {
			t.Errorf("report's scorecard lacks the verdict line %q", v)
		}
	}
}
