package report

import (
	"math"
	"strings"
	"testing"

	"github.com/creditsim/creditsim/results"
)

// TestServerAblation: the page sets each configuration's price under one
// head (a figure a configuration lacks is "–"), each policy's worst gain
// and harm under each configuration, and shows the frontier when drawn.
func TestServerAblation(t *testing.T) {
	sum := func(gain, harm float64, price map[string]results.Num) *results.Summary {
		return &results.Summary{Price: price, Policies: map[string]*results.PolicySummary{
			"v4trust": {WorstGain: results.Num(gain), Harm: results.Num(harm)}}}
	}
	cfgs := []ServerConfig{
		{Name: "as configured", Summary: sum(1.02, 0.97, map[string]results.Num{"results_per_validated_workunit": 2.07, "honest_revoked_share": 0.001})},
		{Name: "no-trust", Doc: "the server keeps no trust of its own", Summary: sum(9.5, 0.6, map[string]results.Num{"results_per_validated_workunit": 1.56})},
		{Name: "no-check_rate", Doc: "the project checks", Summary: sum(math.NaN(), math.NaN(), map[string]results.Num{"results_per_validated_workunit": 1.56})},
	}
	page, err := ServerAblation("defended", cfgs, []string{"v4trust"}, true)
	if err != nil {
		t.Fatal(err)
	}
	html := string(page)
	for _, want := range []string{
		`<img src="frontier.png"`,
		"<td>1.02 / 0.97</td><td>9.5 / 0.6</td><td>– / –</td>",
		"<th>results sent per validated workunit</th><th>honest valid results whose escrowed credit was revoked</th>",
		"<td>1.560</td><td>–</td>",
		"none: as configured",
	} {
		if !strings.Contains(html, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	if page, _ = ServerAblation("defended", cfgs, []string{"v4trust"}, false); strings.Contains(string(page), "frontier.png") {
		t.Error("the page shows a frontier that was not drawn")
	}
}
