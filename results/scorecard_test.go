package results

import (
	"math"
	"strings"
	"testing"
)

// TestVerdictTies: two systems whose deciding figures lie within each
// other's 95% intervals tie, and the verdict says so; without intervals,
// within 1%; a system outside does not tie; what a system needs is said.
func TestVerdictTies(t *testing.T) {
	nan := Num(math.NaN())
	ps := func(cv float64, ci [2]Num, requires string) *PolicySummary {
		p := &PolicySummary{HostNeutralityCV: Num(cv), DeviceNeutrality: nan, ProjectNeutrality: nan, HonestRatio: 1,
			WorstGain: nan, WorstAccountGain: nan, Harm: nan, CI95: map[string][2]Num{}, Requires: requires}
		if ci != [2]Num{} {
			p.CI95["host_neutrality_cv"] = ci
		}
		return p
	}
	for _, c := range []struct {
		name string
		reps int
		a, b *PolicySummary
		tie  bool
	}{
		{"within each other's intervals", 3, ps(0.05, [2]Num{0.04, 0.07}, ""), ps(0.06, [2]Num{0.045, 0.08}, "apps that count their FLOPs"), true},
		{"one outside the other's interval", 3, ps(0.05, [2]Num{0.04, 0.07}, ""), ps(0.075, [2]Num{0.045, 0.1}, ""), false},
		{"no intervals, within 1%", 1, ps(0.0580976002110, [2]Num{}, ""), ps(0.0580976002131, [2]Num{}, ""), true},
		{"no intervals, 2% apart", 1, ps(0.05, [2]Num{}, ""), ps(0.051, [2]Num{}, ""), false},
	} {
		s := &Summary{Replications: c.reps, Policies: map[string]*PolicySummary{"a": c.a, "b": c.b}}
		v := NewScorecard(s, []string{"a", "b"}).Verdict[0]
		if got := strings.Contains(v, "a and b tie"); got != c.tie {
			t.Errorf("%s: verdict %q; tie %v, want %v", c.name, v, got, c.tie)
		}
		if c.tie && c.b.Requires != "" && !strings.Contains(v, "b needs "+c.b.Requires) {
			t.Errorf("%s: verdict %q does not say what b needs", c.name, v)
		}
	}
}
