package report

import (
	"math"
	"testing"

	"github.com/creditsim/creditsim/results"
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
