package results

import (
	"math"
	"strings"
	"testing"
)

func TestAggregateFigures(t *testing.T) {
	reps := []Figures{
		{"a": 1, "b": math.NaN(), "c": 5},
		{"a": 2, "b": math.NaN()},
		{"a": 3, "b": math.NaN(), "c": math.Inf(1)},
	}
	agg := AggregateFigures(reps)
	a := agg["a"]
	// mean 2, s = 1, t(0.975, 2) = 4.302652729911275.
	h := 4.302652729911275 / math.Sqrt(3)
	if a.Mean != 2 || math.Abs(a.Low-(2-h)) > 1e-9 || math.Abs(a.Hi-(2+h)) > 1e-9 || a.N != 3 {
		t.Errorf("a: %+v", a)
	}
	if b := agg["b"]; !math.IsNaN(b.Mean) || b.N != 0 {
		t.Errorf("b: %+v", b)
	}
	// Inf is never a value; one defined value gives a mean and no interval.
	if c := agg["c"]; c.Mean != 5 || !math.IsNaN(c.Low) || c.N != 1 {
		t.Errorf("c: %+v", c)
	}
	ps := NewPolicySummary(100, agg)
	js, err := JSON(ps)
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"NaN", "Inf"} {
		if contains(js, bad) {
			t.Errorf("summary JSON holds %s:\n%s", bad, js)
		}
	}
}

func contains(b []byte, s string) bool { return strings.Contains(string(b), s) }

func TestFormatFloat(t *testing.T) {
	for _, c := range []struct {
		in   float64
		want string
	}{
		{0, "0"}, {math.Copysign(0, -1), "0"}, {1.5, "1.5"}, {1.0 / 3, "0.333333333333"},
		{123456789.123456789, "123456789.123"}, {1e-20, "1e-20"}, {2e300, "2e+300"},
	} {
		if got := FormatFloat(c.in); got != c.want {
			t.Errorf("FormatFloat(%v) = %s, want %s", c.in, got, c.want)
		}
	}
	if b, _ := Num(math.NaN()).MarshalJSON(); string(b) != "null" {
		t.Errorf("NaN -> %s", b)
	}
}

func TestKnownFigure(t *testing.T) {
	for name, want := range map[string]bool{
		"honest_ratio": true, "worst_account_ratio": true, "cheat_ratio.benchmark_inflation": true,
		"rac_gflops.100": true, "settle_days.scale.a/v": true,
		"honest_ration": false, "cheat_ratio.": false, "ci95": false, "": false,
	} {
		if got := KnownFigure(name); got != want {
			t.Errorf("KnownFigure(%q) = %v, want %v", name, got, want)
		}
	}
	// Every family Flat produces is known.
	ps := PolicySummary{CheatRatio: map[string]Num{"k": 1}, CheatCreditPerDay: map[string]Num{"k": 1},
		DeviceNeutralityByPlanClass: map[string]Num{"c": 1}, CrossProject: map[string]Num{"a/b": 1},
		SettleDays: map[string]Num{"s": 1}, RACGFLOPS: map[string]Num{"100": 1}}
	for k := range ps.Flat() {
		if !KnownFigure(k) {
			t.Errorf("Flat gives %q, which KnownFigure rejects", k)
		}
	}
}
