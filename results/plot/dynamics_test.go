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
