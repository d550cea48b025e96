package results

import (
	"math"
	"strings"
	"testing"
)

// TestNewVerdict: fairness is taken at its worst over the worlds without
// cheaters only, cheating over the worlds with them, each figure names
// its world, an oracle keeps its label only where no world with cheaters
// falsifies it, and the sentences name the fairest and least cheatable.
func TestNewVerdict(t *testing.T) {
	nan := Num(math.NaN())
	ps := func(cv, dev, harm float64, gain map[string]Num, oracle string) *PolicySummary {
		return &PolicySummary{HostNeutralityCV: Num(cv), DeviceNeutrality: Num(dev), ProjectNeutrality: nan, HonestRatio: 1,
			WorstGain: nan, WorstAccountGain: nan, Harm: Num(harm), Gain: gain, Oracle: oracle}
	}
	world := func(name string, cheats bool, a, b *PolicySummary) World {
		return World{Name: name, Cheats: cheats, Summary: &Summary{Replications: 1, Policies: map[string]*PolicySummary{"a": a, "b": b}}}
	}
	worlds := []World{
		world("calm", false, ps(0.05, 1.02, math.NaN(), nil, "o"), ps(0.2, 1.5, math.NaN(), nil, "")),
		world("gpus", false, ps(0.08, 0.97, math.NaN(), nil, "o"), ps(0.1, 3, math.NaN(), nil, "")),
		// A cheater's claim would wreck a's fairness here; it must not count.
		world("fakes", true, ps(5, 40, 0.9, map[string]Num{"fake_results": 2, "failed_benchmark": 9}, "o"), ps(0.1, 1, 0.6, map[string]Num{"fake_results": 1.05}, "")),
		world("forgers", true, ps(0.05, 1, 0.95, map[string]Num{"forged_output": 6}, ""), ps(0.1, 1, 0.99, map[string]Num{"forged_output": 1}, "")),
	}
	v := NewVerdict(worlds, []string{"a", "b"}, func(p string) string { return "advice for " + p }, 300)
	if v.Worlds != 4 || v.CheatWorlds != 2 {
		t.Fatalf("worlds %d, with cheaters %d; want 4, 2", v.Worlds, v.CheatWorlds)
	}
	a, b := v.Card.Rows[0], v.Card.Rows[1]
	for _, c := range []struct {
		what      string
		got, want float64
		from      string
		wantFrom  string
	}{
		{"a host CV", a.Values[ColHostCV], 0.08, v.From[0][ColHostCV], "gpus"},
		{"a device", a.Values[ColDevice], 0.97, v.From[0][ColDevice], "gpus"},
		{"b device", b.Values[ColDevice], 3, v.From[1][ColDevice], "gpus"},
		{"a gain", a.Values[ColGain], 6, v.From[0][ColGain], "forgers"},
		{"b gain", b.Values[ColGain], 1.05, v.From[1][ColGain], "fakes"},
		{"b harm", b.Values[ColHarm], 0.6, v.From[1][ColHarm], "fakes"},
	} {
		if c.got != c.want || c.from != c.wantFrom {
			t.Errorf("%s = %v from %q, want %v from %q", c.what, c.got, c.from, c.want, c.wantFrom)
		}
	}
	if a.GainKind != "forged_output" {
		t.Errorf("a's worst kind %q, want forged_output (failed_benchmark is a fault, not a cheat)", a.GainKind)
	}
	text := v.Markdown()
	for _, want := range []string{
		"| `a` | 0.08 (gpus) | 0.97 (gpus) | – | 6 forged_output (forgers) ! | 0.9 (fakes) ! | nothing more | advice for a |",
		"Fairest: a,",
		"; a fails the 1.1 bound in the worlds with cheaters (worst gain 6, forged_output); the fairest that holds it: b (device neutrality 3).",
		"held to the 1.1 bound (gain over the honest twin, and the worst account's beyond chance) by b.",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("verdict lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "oracle") {
		t.Errorf("a is labelled an oracle though the forgers' world falsifies it:\n%s", text)
	}
	worlds[3].Summary.Policies["a"].Oracle = "o"
	worlds[2].Summary.Policies["b"].Gain["fake_results"] = 1.3
	text = NewVerdict(worlds, []string{"a", "b"}, func(string) string { return "" }, 300).Markdown()
	for _, want := range []string{"a is an oracle in these worlds: o.", "No system holds every behaviour of the worlds", "the least cheatable: b (1.3 fake_results in fakes)"} {
		if !strings.Contains(text, want) {
			t.Errorf("verdict lacks %q:\n%s", want, text)
		}
	}
}
