package results

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
)

// TestAggregateFigures: DESIGN section 10's replications rule. A ratio
// figure is summarised by the geometric mean with a log-scale interval;
// an additive one arithmetically; a ratio figure with a zero value
// arithmetically with its low bound cut at 0; huge values keep finite,
// non-zero intervals; NaN and Inf are not values.
func TestAggregateFigures(t *testing.T) {
	reps := []Figures{
		{"honest_ratio": 1, "total_credit": 101, "cheat_ratio.x": 0, "b": math.NaN(), "c": 5, "worst_account_ratio": 3.8e288, "host_gd_efficiency_slope": 1e300},
		{"honest_ratio": 2, "total_credit": 102, "cheat_ratio.x": 1, "b": math.NaN(), "worst_account_ratio": 3.9e288, "host_gd_efficiency_slope": 2e300},
		{"honest_ratio": 4, "total_credit": 103, "cheat_ratio.x": 2, "b": math.NaN(), "c": math.Inf(1), "worst_account_ratio": 4e288, "host_gd_efficiency_slope": 3e300},
	}
	agg := AggregateFigures(reps, 30)
	t975 := 4.302652729911275 // t(0.975, 2)
	g := agg["honest_ratio"]
	// logs 0, ln 2, 2 ln 2: mean ln 2, s = ln 2.
	h := t975 * math.Ln2 / math.Sqrt(3)
	if !g.Geometric || math.Abs(g.Mean-2) > 1e-12 || math.Abs(g.Low-math.Exp(math.Ln2-h)) > 1e-9 || math.Abs(g.Hi-math.Exp(math.Ln2+h)) > 1e-9 || g.Low <= 0 {
		t.Errorf("geometric: %+v", g)
	}
	a := agg["total_credit"]
	h = t975 / math.Sqrt(3)
	if a.Geometric || a.Mean != 102 || math.Abs(a.Low-(102-h)) > 1e-9 || math.Abs(a.Hi-(102+h)) > 1e-9 || a.N != 3 || a.LowCut {
		t.Errorf("arithmetic: %+v", a)
	}
	if z := agg["cheat_ratio.x"]; z.Geometric || z.Mean != 1 || z.Low != 0 || !z.LowCut || !(z.Hi > 1) {
		t.Errorf("ratio with a zero: %+v", z)
	}
	if b := agg["b"]; !math.IsNaN(b.Mean) || b.N != 0 {
		t.Errorf("b: %+v", b)
	}
	// +Inf (an unbounded gain) makes the mean and the high end unbounded
	// and counts as a replication that gave a figure; the one finite
	// value gives no interval's low end.
	if c := agg["c"]; !math.IsInf(c.Mean, 1) || !math.IsInf(c.Hi, 1) || !math.IsNaN(c.Low) || c.N != 2 || c.Unbounded != 1 {
		t.Errorf("c: %+v", c)
	}
	if x := agg["worst_account_ratio"]; !(x.Low > 0 && x.Low < x.Mean && x.Mean < x.Hi) || math.IsInf(x.Hi, 0) {
		t.Errorf("huge ratios: %+v", x)
	}
	if x := agg["host_gd_efficiency_slope"]; x.Mean != 2e300 || !(x.Low < x.Mean && x.Mean < x.Hi) || math.IsInf(x.Low, 0) || math.IsInf(x.Hi, 0) {
		t.Errorf("huge additive values: %+v", x)
	}
	ps := NewPolicySummary(100, 30, reps)
	if got := ps.PerReplication["honest_ratio"]; len(got) != 3 || got[2] != 4 {
		t.Errorf("per_replication %v", got)
	}
	if len(ps.CI95LowCut) != 1 || ps.CI95LowCut[0] != "cheat_ratio.x" {
		t.Errorf("ci95_low_cut %v", ps.CI95LowCut)
	}
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

// TestIntervalRanges: an interval keeps to its figure's range, cut and
// marked where the t-interval leaves it (settle days in [0, the days
// simulated], totals at least 0); fewer than three replications give no
// interval.
func TestIntervalRanges(t *testing.T) {
	reps := []Figures{
		{"settle_days.scale": 0, "total_credit": 0, "honest_ratio": 1},
		{"settle_days.scale": 29, "total_credit": 0, "honest_ratio": 2},
		{"settle_days.scale": 30, "total_credit": 100, "honest_ratio": 4},
	}
	agg := AggregateFigures(reps, 30)
	if s := agg["settle_days.scale"]; s.Low != 0 || s.Hi != 30 || !s.LowCut || !s.HighCut {
		t.Errorf("settle days: %+v, want [0, 30] cut at both ends", s)
	}
	if c := agg["total_credit"]; c.Low != 0 || !c.LowCut || c.HighCut || !(c.Hi > 100) {
		t.Errorf("total credit: %+v, want cut at 0 only", c)
	}
	ps := NewPolicySummary(100, 30, reps)
	if len(ps.CI95HighCut) != 1 || ps.CI95HighCut[0] != "settle_days.scale" {
		t.Errorf("ci95_high_cut %v", ps.CI95HighCut)
	}
	for k, ci := range ps.CI95 {
		f, _, _ := Lookup(k)
		lo, hi := f.Range(30)
		if float64(ci[0]) < lo || float64(ci[1]) > hi {
			t.Errorf("%s: [%v, %v] outside [%v, %v]", k, ci[0], ci[1], lo, hi)
		}
	}
	two := NewPolicySummary(100, 30, reps[:2])
	if len(two.CI95) != 0 {
		t.Errorf("two replications give intervals %v", two.CI95)
	}
	if got := two.PerReplication["settle_days.scale"]; len(got) != 2 {
		t.Errorf("two replications: per_replication %v", got)
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

// A scorecard value above 1e6 or +Inf says "unbounded", not its
// meaningless digits; undefined is a dash.
func TestFormatScore(t *testing.T) {
	for x, want := range map[float64]string{1.0: "1", 1.23456: "1.23", 1e6: "1e+06", 2.55e286: "unbounded", math.NaN(): "–", math.Inf(1): "unbounded", math.Inf(-1): "–", 0: "0"} {
		if got := FormatScore(x); got != want {
			t.Errorf("FormatScore(%g) = %q, want %q", x, got, want)
		}
	}
}

// An unbounded figure (+Inf) is written "unbounded" in JSON and CSV, never
// null or empty as if undefined, and reads back as +Inf.
func TestUnboundedRoundTrip(t *testing.T) {
	b, err := json.Marshal(map[string]Num{"gain.x": Num(math.Inf(1)), "u": Num(math.NaN())})
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"gain.x":"unbounded","u":null}`; string(b) != want {
		t.Errorf("JSON %s, want %s", b, want)
	}
	var back map[string]Num
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if !math.IsInf(float64(back["gain.x"]), 1) || !math.IsNaN(float64(back["u"])) {
		t.Errorf("read back %v", back)
	}
	if got := FormatFloat(math.Inf(1)); got != UnboundedWord {
		t.Errorf("FormatFloat(+Inf) = %q", got)
	}
}
