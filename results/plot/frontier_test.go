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
