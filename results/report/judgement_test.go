package report

import (
	stdhtml "html"
	"math"
	"strings"
	"testing"

	"github.com/creditsim/creditsim/results"
)

// TestOneJudgement feeds the same summary to every printer of the bound
// (the terminal's scorecard, which run and sweep print; report.html; the
// verdict over worlds) and checks they say the same: a system whose
// every behaviour gains at most 1.1 but whose worst account gains beyond
// what honest accounts reach by chance does not hold the bound, anywhere;
// a fairest system that fails it is said to in the same sentence.
func TestOneJudgement(t *testing.T) {
	nan := results.Num(math.NaN())
	ps := func(cv, gain, acct float64) *results.PolicySummary {
		return &results.PolicySummary{Scale: 200, HostNeutralityCV: results.Num(cv), HostNeutralityRange: 1.2, DeviceNeutrality: nan,
			ProjectNeutrality: nan, HonestRatio: 1, WorstGain: results.Num(gain), WorstAccountGain: results.Num(acct), AccountGainNoise: 1.2,
			Harm: 1, Gain: map[string]results.Num{"fake_results": results.Num(gain)}, FailedBenchmarkRatio: nan, WorstAccountRatio: 1.3,
			TotalCredit: 1e6, HostGDEfficiencySlope: nan, CreditSpread: nan}
	}
	// a: fairest, every kind held, one account beyond chance; b: holds.
	s := &results.Summary{Scenario: "w", Replications: 1, Twin: "ran", Policies: map[string]*results.PolicySummary{
		"a": ps(0.05, 1.05, 1.6), "b": ps(0.08, 1.02, 1.1)}}
	names := []string{"a", "b"}
	held := "Every behaviour here is held to the 1.1 bound (gain over the honest twin, and the worst account's beyond chance) by b."
	caveat := "a fails the 1.1 bound here (worst account's gain 1.6, above the 1.2 honest accounts reach by chance); the fairest that holds it: b (host spread (CV) 0.08)"
	text := results.NewScorecard(s, names).Text()
	html, err := Report(s, names, "", nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	page := stdhtml.UnescapeString(string(html))
	verdict := results.NewVerdict([]results.World{{Name: "w", Summary: s, Cheats: true}, {Name: "calm", Summary: s}}, names, func(string) string { return "" }, 300).Markdown()
	for _, c := range []struct{ printer, out string }{{"scorecard", text}, {"report.html", page}} {
		for _, want := range []string{held, caveat} {
			if !strings.Contains(c.out, want) {
				t.Errorf("%s lacks %q:\n%s", c.printer, want, c.out)
			}
		}
		if strings.Contains(c.out, "by a and b") || strings.Contains(c.out, "by a.") {
			t.Errorf("%s says a holds the bound", c.printer)
		}
	}
	for _, want := range []string{"held to the 1.1 bound (gain over the honest twin, and the worst account's beyond chance) by b.",
		"a fails the 1.1 bound in the worlds with cheaters (worst account's gain 1.6, above the 1.2 honest accounts reach by chance)"} {
		if !strings.Contains(verdict, want) {
			t.Errorf("the verdict lacks %q:\n%s", want, verdict)
		}
	}
	if !strings.Contains(page, `class="bad"><b>1.6 (chance 1.2)`) && !strings.Contains(page, `class="bad">1.6 (chance 1.2)`) {
		t.Errorf("report.html does not flag a's account gain:\n%s", page)
	}
}
