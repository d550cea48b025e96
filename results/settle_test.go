package results

import (
	"math"
	"testing"
)

func TestSettleDays(t *testing.T) {
	days := []float64{1, 2, 3, 4, 5, 6}
	for _, c := range []struct {
		name string
		v    []float64
		want float64
	}{
		{"flat", []float64{1, 1, 1, 1, 1, 1}, 1},
		{"converging", []float64{3, 2, 1.2, 1.04, 0.98, 1}, 4},
		{"leaves late", []float64{1, 1, 1, 1, 1.2, 1}, 6},
		{"inside the band", []float64{1.04, 0.96, 1, 1, 1, 1}, 1},
		{"final zero", []float64{1, 0, 0, 0, 0, 0}, math.NaN()},
	} {
		got := SettleDays(days, c.v, 0.05)
		if got != c.want && !(math.IsNaN(got) && math.IsNaN(c.want)) {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}
