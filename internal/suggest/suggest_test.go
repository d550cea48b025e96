package suggest

import "testing"

func TestNearest(t *testing.T) {
	names := []string{"baseline", "cheaters", "cherry-picker", "gpu-mix"}
	for _, c := range []struct{ in, want string }{
		{"baselin", "baseline"},
		{"cheeters", "cheaters"},
		{"Baseline", "baseline"},
		{"cherry_picker", "cherry-picker"},
		{"baseline", ""}, // already a name
		{"zzzzzzzz", ""}, // nothing near
		{"gpu", ""},      // too far from gpu-mix for a 3-letter name
	} {
		if got := Nearest(c.in, names); got != c.want {
			t.Errorf("Nearest(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	if got := DidYouMean("cheeters", names); got != " (did you mean cheaters?)" {
		t.Errorf("DidYouMean: %q", got)
	}
}
