package runner

import (
	"math"
	"testing"

	"github.com/creditsim/creditsim/results"
)

// TestPriceIntervals: the price's intervals are over replications, the
// verdict's price (results sent plus the project's checks) is summed per
// replication before its interval is taken, and fewer than three
// replications give none.
func TestPriceIntervals(t *testing.T) {
	reps := []results.Figures{
		{"results_per_validated_workunit": 2.0, "project_checks_per_validated_workunit": 0.2},
		{"results_per_validated_workunit": 2.2, "project_checks_per_validated_workunit": 0.1},
		{"results_per_validated_workunit": 2.1, "project_checks_per_validated_workunit": 0.3},
	}
	ci := priceIntervals(reps)
	sum := &results.Summary{PriceCI95: ci}
	lo, hi := sum.JobsPerValidatedWorkunitCI95()
	// Per replication 2.2, 2.3, 2.4: mean 2.3, sd 0.1, t(2) 4.303.
	half := 4.303 * 0.1 / math.Sqrt(3)
	if math.Abs(lo-(2.3-half)) > 1e-3 || math.Abs(hi-(2.3+half)) > 1e-3 {
		t.Errorf("computed per validated workunit [%g, %g], want 2.3 ± %.4f", lo, hi, half)
	}
	r := ci["results_per_validated_workunit"]
	if !(float64(r[0]) < 2.1 && float64(r[1]) > 2.1) {
		t.Errorf("results per validated workunit %v does not hold its mean 2.1", r)
	}
	if got := priceIntervals(reps[:2]); got != nil {
		t.Errorf("two replications gave intervals %v", got)
	}
	if lo, hi := (&results.Summary{}).JobsPerValidatedWorkunitCI95(); !math.IsNaN(lo) || !math.IsNaN(hi) {
		t.Errorf("no interval gave [%g, %g]", lo, hi)
	}
}
