package plot

import (
	"bytes"
	"image/png"
	"math"
	"testing"
)

// TestFrontier: the frontier draws gains of 0 and 1e304 and undefined
// ones without failing, decodes as a PNG, and is nil with nothing to draw.
func TestFrontier(t *testing.T) {
	names := []string{"v3pfc-boinc", "v4trust"}
	pts := []FrontierPoint{
		{"v3pfc-boinc", "as configured", 3.3, 0}, {"v4trust", "as configured", 3.3, 1.02},
		{"v3pfc-boinc", "no-escrow", 3.31, 1e304}, {"v4trust", "no-escrow", 3.31, math.NaN()},
		{"v3pfc-boinc", "no-trust", 2.3, 14.4}, {"v4trust", "no-trust", 2.3, math.Inf(1)},
	}
	b, err := Frontier("test", pts, names)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := png.Decode(bytes.NewReader(b)); err != nil {
		t.Fatalf("not a PNG: %v", err)
	}
	if b, err := Frontier("test", []FrontierPoint{{"v4trust", "x", math.NaN(), 1}}, names); b != nil || err != nil {
		t.Errorf("nothing to draw: %d bytes, %v", len(b), err)
	}
}

// TestFrontierTicks: gains past results.Unbounded get a row of their
// own, named once on the axis; without them the axis is the log axis.
func TestFrontierTicks(t *testing.T) {
	for _, tc := range []struct {
		unbounded bool
		last      string
		lastAt    float64
	}{
		{false, "100000", 1e5},
		{true, "unbounded", unboundedRow},
	} {
		ticks := frontierTicks{unbounded: tc.unbounded}.Ticks(0.3, 2e5)
		last := ticks[len(ticks)-1]
		if last.Label != tc.last || last.Value != tc.lastAt {
			t.Errorf("unbounded %v: last tick %q at %g, want %q at %g", tc.unbounded, last.Label, last.Value, tc.last, tc.lastAt)
		}
		for _, tk := range ticks[:len(ticks)-1] {
			if tc.unbounded && tk.Value > cheatHigh {
				t.Errorf("tick %q at %g lies between the edge and the unbounded row", tk.Label, tk.Value)
			}
		}
	}
}
