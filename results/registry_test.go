package results

import (
	"go/parser"
	"go/token"
	"math"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// Every figure field of PolicySummary is registered, under its JSON
// name, and every registered figure has its field: a figure is declared
// once, in Registry.
func TestRegistryCoversSummary(t *testing.T) {
	fields := map[string]bool{}
	typ := reflect.TypeOf(PolicySummary{})
	for i := 0; i < typ.NumField(); i++ {
		name, _, _ := strings.Cut(typ.Field(i).Tag.Get("json"), ",")
		switch name {
		case "ci95", "ci95_low_cut", "ci95_high_cut", "per_replication", "requires", "oracle":
			continue // about the figures, not figures
		}
		fields[name] = true
	}
	seen := map[string]bool{}
	for _, f := range Registry {
		if seen[f.Name] {
			t.Errorf("figure %q registered twice", f.Name)
		}
		seen[f.Name] = true
		if !fields[f.Name] {
			t.Errorf("registered figure %q has no field in PolicySummary", f.Name)
		}
		if f.Text == "" || f.Short == "" || f.Axis == "" {
			t.Errorf("figure %q lacks its definition, short name or axis label", f.Name)
		}
		if f.Family() != (f.family != nil) || !f.Family() && f.scalar == nil {
			t.Errorf("figure %q: accessor does not match its kind", f.Name)
		}
		if f.Family() && (f.Member == "" || !strings.HasSuffix(f.Prefix, ".")) {
			t.Errorf("family %q needs a member name and a prefix ending in a dot", f.Name)
		}
		if f.Direction == Calibration && f.Bound != 0 {
			t.Errorf("calibration figure %q has a bound", f.Name)
		}
	}
	for name := range fields {
		if !seen[name] {
			t.Errorf("PolicySummary field %q is not in Registry", name)
		}
	}
	// Flat and NewPolicySummary go through the registry both ways.
	reps := []Figures{{"honest_ratio": 2, "cheat_ratio.fake": 3, "device_neutrality.cuda": 0.5, "settle_days.scale": 4}}
	ps := NewPolicySummary(100, 30, reps)
	flat := ps.Flat()
	for k, want := range map[string]float64{"scale": 100, "honest_ratio": 2, "cheat_ratio.fake": 3, "device_neutrality.cuda": 0.5, "settle_days.scale": 4} {
		if got := float64(flat[k]); got != want {
			t.Errorf("Flat()[%q] = %v, want %v", k, got, want)
		}
	}
	if ps.DeviceNeutralityByPlanClass["cuda"] != 0.5 || !math.IsNaN(float64(ps.DeviceNeutrality)) {
		t.Errorf("members went to the wrong field: %+v", ps)
	}
}

func TestFigureReading(t *testing.T) {
	inf, nan := math.Inf(1), math.NaN()
	for _, c := range []struct {
		fig      string
		x        float64
		flagged  bool
		distance float64
	}{
		{"device_neutrality", 1, false, 0},
		{"device_neutrality", 1.2, true, math.Log(1.2)},
		{"device_neutrality", 1 / 1.2, true, math.Log(1.2)},
		{"device_neutrality", 0, true, inf},
		{"device_neutrality", nan, false, inf},
		{"cheat_ratio.benchmark_inflation", 1.1, false, 1.1},
		{"cheat_ratio.benchmark_inflation", 1.11, true, 1.11},
		{"cheat_credit_per_day.fake_results", 0.2, true, 0.2},
		// Harm: honest accounts keep at least HarmFloor, and are paid
		// no more than CheatBound times theirs in the twin.
		{"harm", 0.96, false, -math.Log(0.96)},
		{"harm", 0.94, true, -math.Log(0.94)},
		{"harm", 1.09, false, math.Log(1.09)},
		{"harm", 1.11, true, math.Log(1.11)},
		{"host_neutrality_cv", 5, false, 5}, // no bound: ranked, not flagged
		{"honest_ratio", 3, false, inf},     // calibration: never best
	} {
		f := MustLookup(c.fig)
		if got := f.Flagged(c.x); got != c.flagged {
			t.Errorf("%s.Flagged(%v) = %v, want %v", c.fig, c.x, got, c.flagged)
		}
		if got := f.Distance(c.x); math.Abs(got-c.distance) > 1e-12 && got != c.distance {
			t.Errorf("%s.Distance(%v) = %v, want %v", c.fig, c.x, got, c.distance)
		}
	}
}

// TestHarmUnits: 1 at either bound, 0 unharmed, +Inf for nothing kept.
func TestHarmUnits(t *testing.T) {
	for _, c := range []struct{ x, want float64 }{
		{1, 0}, {HarmFloor, 1}, {CheatBound, 1}, {HarmFloor * HarmFloor, 2}, {0, math.Inf(1)}, {math.NaN(), math.Inf(1)},
	} {
		if got := HarmUnits(c.x); math.Abs(got-c.want) > 1e-12 && got != c.want {
			t.Errorf("HarmUnits(%v) = %v, want %v", c.x, got, c.want)
		}
	}
}

func TestLookup(t *testing.T) {
	for _, c := range []struct{ name, fig, member string }{
		{"honest_ratio", "honest_ratio", ""},
		{"cheat_ratio.fake_results", "cheat_ratio", "fake_results"},
		{"cheat_ratio", "cheat_ratio", ""},
		{"device_neutrality.cuda", "device_neutrality_by_plan_class", "cuda"},
		{"device_neutrality", "device_neutrality", ""},
		{"cross_project.a/b", "cross_project", "a/b"},
	} {
		f, member, ok := Lookup(c.name)
		if !ok || f.Name != c.fig || member != c.member {
			t.Errorf("Lookup(%q) = %v, %q, %v; want %s, %q", c.name, f, member, ok, c.fig, c.member)
		}
	}
	if Definition("outcomes") == "" || Definition("cheat_ratio.x") == "" || Definition("nope") != "" {
		t.Error("Definition misses a run figure or a family member, or invents one")
	}
	if len(Glossary()) != len(Registry)+len(RunDefinitions) {
		t.Error("the glossary does not define every figure once")
	}
}

// The core stays free of drawing and HTML: those live in results/plot and
// results/report.
func TestNoDrawingInCore(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, file := range files {
		if strings.HasSuffix(file, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), file, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			if p := strings.Trim(imp.Path.Value, `"`); strings.HasPrefix(p, "gonum.org/v1/plot") || p == "html/template" {
				t.Errorf("%s imports %s", file, p)
			}
		}
	}
}
