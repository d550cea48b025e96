package plot

import "testing"

func TestJobStride(t *testing.T) {
	for _, n := range []int{0, 1, maxJobDots, maxJobDots + 1, 26601, 10 * maxJobDots} {
		s := jobStride(n)
		drawn := (n + s - 1) / s
		if s < 1 || drawn > maxJobDots || (s > 1 && (n+s-2)/(s-1) <= maxJobDots) {
			t.Errorf("jobStride(%d) = %d draws %d jobs; want the smallest step that draws at most %d", n, s, drawn, maxJobDots)
		}
	}
}

func TestOrdinalSuffix(t *testing.T) {
	for n, want := range map[int]string{1: "st", 2: "nd", 3: "rd", 4: "th", 7: "th", 11: "th", 12: "th", 13: "th", 21: "st", 22: "nd", 111: "th", 123: "rd"} {
		if got := ordinalSuffix(n); got != want {
			t.Errorf("ordinalSuffix(%d) = %q, want %q", n, got, want)
		}
	}
}

// TestLogTicks: a log axis gets at least three labels and at most
// maxLabels, from a span of less than a decade to one of 290 decades
// (a 1e287 claim beside credits of 1).
func TestLogTicks(t *testing.T) {
	for _, c := range []struct{ lo, hi float64 }{
		{0.8, 15}, {1, 10}, {0.9, 1.3}, {1, 1000}, {0.01, 1000}, {1e-3, 1e290}, {3e-5, 7e12},
	} {
		var labels []string
		for _, tk := range (logTicks{}).Ticks(c.lo, c.hi) {
			if tk.Label != "" {
				labels = append(labels, tk.Label)
			}
			if tk.Value < c.lo || tk.Value > c.hi {
				t.Errorf("[%g, %g]: tick %g outside the axis", c.lo, c.hi, tk.Value)
			}
		}
		if len(labels) < 3 || len(labels) > maxLabels {
			t.Errorf("[%g, %g]: labels %v, want 3 to %d", c.lo, c.hi, labels, maxLabels)
		}
	}
}
