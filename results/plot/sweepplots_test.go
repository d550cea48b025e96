package plot

import (
	"bytes"
	"fmt"
	"image/png"
	"math"
	"testing"

	"github.com/creditsim/creditsim/results"
)

func TestFigureAxis(t *testing.T) {
	for _, c := range []struct {
		fig  string
		log  bool
		ref  float64
		note string
	}{
		{"cheat_ratio.benchmark_inflation", true, results.CheatBound, "bound 1.1"},
		{"worst_account_ratio", true, results.CheatBound, "bound 1.1"},
		{"device_neutrality", false, 1, "neutral"},
		{"device_neutrality.cuda", false, 1, "neutral"},
		{"project_neutrality", false, 1, "neutral"},
		{"failed_benchmark_ratio", false, 1, "G = D"}, // absolute G/D, not relative to honest hosts
		{"honest_ratio", false, 0, ""},
		{"total_credit", false, 0, ""},
	} {
		label, log, ref, note := figureAxis(c.fig)
		if log != c.log || ref != c.ref || note != c.note || label == "" {
			t.Errorf("figureAxis(%q) = %q, %v, %v, %q; want log %v, ref %v, %q", c.fig, label, log, ref, note, c.log, c.ref, c.note)
		}
		// gonum shrinks the data area to fit the Y label: keep it short.
		if len(label) > 50 {
			t.Errorf("figureAxis(%q) label %q is %d characters; keep it under 50", c.fig, label, len(label))
		}
	}
}

// TestFigureFloor: harm, and only harm, has a floor line (0.95) on a
// sweep's plot besides its reference.
func TestFigureFloor(t *testing.T) {
	for fig, want := range map[string]float64{"harm": results.HarmFloor, "worst_gain": 0, "device_neutrality": 0, "no_such_figure": 0} {
		if got := figureFloor(fig); got != want {
			t.Errorf("figureFloor(%q) = %g, want %g", fig, got, want)
		}
	}
}

func TestSweepLines(t *testing.T) {
	nan := math.NaN()
	xs := []string{"0", "0.1", "0.2"}
	series := []SweepSeries{
		{Name: "a", Mean: []float64{nan, 10, 11}, Lo: []float64{nan, 9, 10}, Hi: []float64{nan, 11, 12}},
		{Name: "b", Mean: []float64{nan, 1, 1.02}, Lo: []float64{nan, nan, 0.9}, Hi: []float64{nan, nan, 1.1}},
	}
	b, err := SweepLines("t", "share", "cheat_ratio.x", xs, series)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	// The legend sits in a column right of an 8-inch plot (96 dpi).
	if w := img.Bounds().Dx(); w <= 8*96 {
		t.Errorf("width %d px: the legend column is missing", w)
	}
	again, err := SweepLines("t", "share", "cheat_ratio.x", xs, series)
	if err != nil || !bytes.Equal(b, again) {
		t.Errorf("a second drawing differs (err %v)", err)
	}
	undefined := []SweepSeries{{Name: "a", Mean: []float64{nan, nan, nan}, Lo: []float64{nan, nan, nan}, Hi: []float64{nan, nan, nan}}}
	if b, err := SweepLines("t", "share", "cheat_ratio.x", xs, undefined); b != nil || err != nil {
		t.Errorf("all undefined: got %d bytes, %v; want no plot", len(b), err)
	}
}

func TestSweepHeat(t *testing.T) {
	nan := math.NaN()
	z := [][]float64{{1, 2}, {nan, 4}}
	b, err := SweepHeat("t", "x", "y", []string{"a", "b"}, []string{"c", "d"}, z)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := png.Decode(bytes.NewReader(b)); err != nil {
		t.Fatalf("not a PNG: %v", err)
	}
	if b, err := SweepHeat("t", "x", "y", []string{"a"}, []string{"c"}, [][]float64{{nan}}); b != nil || err != nil {
		t.Errorf("all undefined: got %d bytes, %v; want no plot", len(b), err)
	}
}

func Example_short() {
	fmt.Println(short(2.41564483395), short(1e304), short(0.000123456))
	// Output: 2.416 1e+304 0.0001235
}
