package report

import (
	stdhtml "html"
	"math"
	"strings"
	"testing"

	"github.com/creditsim/creditsim/results"
	"github.com/creditsim/creditsim/results/plot"
)

// TestCell: a ratio above 1e6 reads "unbounded" in the report's tables,
// as on the scorecard; a total keeps its digits; an interval is shown
// only where there is one.
func TestCell(t *testing.T) {
	nan := results.Num(math.NaN())
	for _, c := range []struct {
		fig  string
		n    results.Num
		ci   [2]results.Num
		ok   bool
		want string
	}{
		{"worst_account_ratio", 4.6e287, [2]results.Num{}, false, "unbounded"},
		{"worst_account_ratio", 2.008, [2]results.Num{1.32, 3.05}, true, "2.008 [1.32, 3.05]"},
		{"cheat_ratio.one_time_claim", 4.6e287, [2]results.Num{1.5, 1e290}, true, "unbounded [1.5, unbounded]"},
		{"total_credit", 2.905e7, [2]results.Num{2.54e7, 3.27e7}, true, "2.905e+07 [2.54e+07, 3.27e+07]"},
		{"honest_ratio", 1.5, [2]results.Num{nan, nan}, true, "1.5"},
		{"honest_ratio", nan, [2]results.Num{}, false, "–"},
	} {
		if got := cell(c.fig, c.n, c.ci, c.ok); got != c.want {
			t.Errorf("cell(%s, %v) = %q, want %q", c.fig, c.n, got, c.want)
		}
	}
}

// TestReportLayout: the report opens with the answer (its sentences, the
// scorecard, its picture) before any other figure; each system's own
// plots are collapsed under its name; a figure the run did not produce
// is neither a column of dashes nor defined; what is not measured is
// said once, with why.
func TestReportLayout(t *testing.T) {
	nan := results.Num(math.NaN())
	ps := func(cv float64) *results.PolicySummary {
		return &results.PolicySummary{Scale: 200, HostNeutralityCV: results.Num(cv), HostNeutralityRange: 1.2, DeviceNeutrality: nan,
			ProjectNeutrality: nan, HonestRatio: 1, WorstGain: nan, WorstAccountGain: nan, AccountGainNoise: nan, Harm: nan,
			FailedBenchmarkRatio: nan, WorstAccountRatio: 1.3, TotalCredit: 1e6, HostGDEfficiencySlope: nan, CreditSpread: nan}
	}
	s := &results.Summary{Scenario: "calm", Replications: 1, Twin: "no agents", Policies: map[string]*results.PolicySummary{"a": ps(0.05), "b": ps(0.2)},
		Outcomes: map[string]results.Num{"success": 0.97}, RuntimeEstimateError: 0.1}
	plots := []plot.Plot{
		{File: "scorecard.png", Title: "Scorecard"},
		{File: "host-neutrality.png", Title: "Host neutrality"},
		{File: "dynamics-a.png", Title: "Dynamics: a", Policy: "a"},
		{File: "rac-a.png", Title: "RAC: a", Policy: "a"},
		{File: "rac-b.png", Title: "RAC: b", Policy: "b"},
	}
	b, err := Report(s, []string{"a", "b"}, "A calm world.", plots, []byte("name: calm\n"))
	if err != nil {
		t.Fatal(err)
	}
	html := stdhtml.UnescapeString(string(b))
	at := func(sub string) int {
		t.Helper()
		i := strings.Index(html, sub)
		if i < 0 {
			t.Fatalf("report.html lacks %q", sub)
		}
		return i
	}
	if !(at("The answer") < at("Fairest: a") && at("Fairest: a") < at(`src="scorecard.png"`) && at(`src="scorecard.png"`) < at(`src="host-neutrality.png"`)) {
		t.Error("the answer and its picture do not come before the other figures")
	}
	if !(at("<details><summary>a</summary>") < at(`src="dynamics-a.png"`) && at(`src="rac-a.png"`) < at("<details><summary>b</summary>")) {
		t.Error("a system's plots are not collapsed under its name")
	}
	for _, want := range []string{"cheat resistance (gain, worst account's gain, harm): not measured: no cheaters in this world.",
		"device neutrality: not measured", "project neutrality: not measured"} {
		if n := strings.Count(html, want); n != 1 {
			t.Errorf("%q said %d times, want once", want, n)
		}
	}
	for _, absent := range []string{"harm to honest accounts", "worst gain over the honest twin", "<dt>harm</dt>", "<dt>device_neutrality</dt>",
		"<dt>price</dt>", "What the server's checks cost"} {
		if strings.Contains(html, absent) {
			t.Errorf("report.html shows %q, which this run did not produce", absent)
		}
	}
	for _, want := range []string{"<dt>host_neutrality_cv</dt>", "<dt>outcomes</dt>"} {
		at(want)
	}
}
