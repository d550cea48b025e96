package policy

import (
	"fmt"
	"math"
	"testing"
)

func TestPre2010(t *testing.T) {
	for _, c := range []struct {
		claims []float64
		want   float64
	}{
		{[]float64{5}, 5},
		{[]float64{5, 3}, 3},                // two: min
		{[]float64{5, 3, 4}, 4},             // drop 5 and 3
		{[]float64{1, 2, 3, 10}, 2.5},       // drop 10 and 1, (2+3)/2
		{[]float64{7, 0.0005, 9}, 7},        // the tiny claim is ignored: two left, min
		{[]float64{0.0001, 0}, MinClaim},    // none left: the floor
		{[]float64{math.NaN(), 4}, 4},       // NaN is never a claim
		{[]float64{2, 2, 2, 2, 2}, 2},       // identical claims
		{[]float64{1, 100, 1000, 1e6}, 550}, // outliers at both ends dropped
	} {
		if got := Pre2010(c.claims); got != c.want {
			t.Errorf("Pre2010(%v) = %v, want %v", c.claims, got, c.want)
		}
	}
}

func TestFlopsToCredit(t *testing.T) {
	// 1 GFLOPS for a day is 100 credits at the classic scale, 200 at the server's.
	day := 1e9 * SecondsPerDay
	if got := FlopsToCredit(day, ScaleClassic); got != 100 {
		t.Errorf("classic: %v", got)
	}
	if got := FlopsToCredit(day, ScaleServer); got != 200 {
		t.Errorf("server: %v", got)
	}
	if got := CreditToFlops(200, ScaleServer); got != day {
		t.Errorf("inverse: %v", got)
	}
}

func TestDailyDecayFactor(t *testing.T) {
	r := RAC{Avg: 1, AvgTime: 1000}
	r.UpdateAverage(1000+SecondsPerDay, 0, 0, CreditHalfLife)
	if math.Abs(r.Avg-0.9057236642639067) > 1e-15 {
		t.Errorf("one day's decay = %v, want 2^(-1/7)", r.Avg)
	}
	if got := (RAC{Avg: 8, AvgTime: 1}).Decayed(1+3*CreditHalfLife, CreditHalfLife); math.Abs(got-1) > 1e-12 {
		t.Errorf("three half-lives: %v, want 1", got)
	}
	if got := (RAC{Avg: 8}).Decayed(5e6, CreditHalfLife); got != 8 {
		t.Errorf("never updated: %v", got)
	}
}

func TestDecayIdle(t *testing.T) {
	const now = 10 * SecondsPerDay
	for _, c := range []struct {
		rac       RAC
		threshold float64
		decayed   bool
	}{
		{RAC{Avg: 50, AvgTime: now - 2*SecondsPerDay}, 0.1, true},
		{RAC{Avg: 50, AvgTime: now - 3600}, 0.1, false}, // touched within a day
		{RAC{Avg: 0.1, AvgTime: 1}, 0.1, false},         // at or below 0.1: frozen
		{RAC{Avg: 0.05, AvgTime: 1}, 0, true},           // app versions: threshold 0
	} {
		r := c.rac
		got := r.DecayIdle(now, c.threshold, SecondsPerDay, CreditHalfLife)
		if got != c.decayed || got != (r.AvgTime == now) || got == (r.Avg == c.rac.Avg) {
			t.Errorf("%+v: decayed %v (now %+v), want %v", c.rac, got, r, c.decayed)
		}
	}
}

func TestFirstGrantSpike(t *testing.T) {
	// A host's first job, back an hour after it was sent, sets RAC to 24 x credit.
	var r RAC
	r.UpdateAverage(7200, 3600, 10, CreditHalfLife)
	if r.Avg != 240 {
		t.Errorf("first grant: %v, want 240", r.Avg)
	}
}

func TestOptions(t *testing.T) {
	o := Options{"scale": "200", "bad": "x", "neg": "-1", "rule": "min"}
	if v, err := o.Float("scale", 100, true); err != nil || v != 200 {
		t.Errorf("scale: %v %v", v, err)
	}
	if v, _ := o.Float("absent", 7, true); v != 7 {
		t.Errorf("default: %v", v)
	}
	if _, err := o.Float("bad", 1, false); err == nil {
		t.Error("bad float accepted")
	}
	if _, err := o.Float("neg", 1, true); err == nil {
		t.Error("negative accepted")
	}
	if _, err := o.Choice("rule", "mean", "mean", "max"); err == nil {
		t.Error("bad choice accepted")
	}
}

func ExampleFlopsToCredit() {
	// Seed 000: a 1 GFLOPS machine running full time earns 100 credits a day.
	fmt.Println(FlopsToCredit(1e9*86400, ScaleClassic))
	// Output: 100
}

// TestReportedPeak: CPUs used x reported Whetstone (for a multi-threaded
// version the CPUs the host reports), plus GPUs used x the reported GPU
// peak for a GPU version.
func TestReportedPeak(t *testing.T) {
	r := &Result{HostNCPUs: 8, HostPFpops: 3e9, HostGPUPeak: 5e12}
	for _, c := range []struct {
		v        AppVersion
		cpu, gpu float64
	}{
		{AppVersion{Resource: CPU, CPUUsage: 1}, 3e9, 0},
		{AppVersion{Resource: CPU, CPUUsage: 4}, 12e9, 0},
		{AppVersion{Resource: CPU, CPUUsage: 1, MultiThread: true}, 24e9, 0},
		{AppVersion{Resource: NVIDIA, CPUUsage: 0.1, GPUUsage: 0.5}, 0.3e9, 2.5e12},
	} {
		cpu, gpu := ReportedPeak(r, &c.v)
		if math.Abs(cpu-c.cpu) > 1e-6*c.cpu || gpu != c.gpu {
			t.Errorf("%+v: cpu %g gpu %g, want %g and %g", c.v, cpu, gpu, c.cpu, c.gpu)
		}
	}
}

// TestCount32: a count narrowed to a Result's 32-bit field saturates
// instead of wrapping, so an absurd reported CPU count stays the largest.
func TestCount32(t *testing.T) {
	for _, c := range []struct {
		n    int
		want int32
	}{
		{0, 0}, {4, 4}, {-1, -1},
		{math.MaxInt32, math.MaxInt32}, {math.MaxInt32 + 1, math.MaxInt32}, {1 << 40, math.MaxInt32},
		{math.MinInt32 - 1, math.MinInt32},
	} {
		if got := Count32(c.n); got != c.want {
			t.Errorf("Count32(%d) = %d, want %d", c.n, got, c.want)
		}
	}
}

// TestUpdateAverageDecay: averages updated through one shared Decay end
// bit-identical to UpdateAverage, whether consecutive updates share a gap
// (the memo's hit) or not (a miss, a first update, a zero or negative
// gap in between).
func TestUpdateAverageDecay(t *testing.T) {
	type upd struct{ now, start, work float64 }
	cases := []struct {
		name string
		last []float64 // each average's AvgTime before (0: never updated)
		upds []upd     // applied to every average in turn
	}{
		{"one last update, equal gaps", []float64{1000, 1000, 1000}, []upd{{90000, 500, 12}, {200000, 80000, 3}}},
		{"different last updates", []float64{1000, 5000, 1000, 7.5}, []upd{{90000, 500, 12}, {90000, 600, 0}}},
		{"first updates among others", []float64{0, 1000, 0}, []upd{{86400, 100, 7}, {86401, 200, 1e-3}}},
		{"zero and negative gaps", []float64{86400, 90000, 86400}, []upd{{86400, 0, 5}, {86000, 0, 2}, {1e6, 0, 1e300}}},
		{"tiny gap (first-order branch)", []float64{1e5, 1e5}, []upd{{1e5 + 0.01, 0, 4}}},
	}
	for _, c := range cases {
		var d Decay
		for _, u := range c.upds {
			for i, last := range c.last {
				want := RAC{Avg: float64(i + 1), AvgTime: last}
				got := want
				want.UpdateAverage(u.now, u.start, u.work, CreditHalfLife)
				got.UpdateAverageDecay(u.now, u.start, u.work, CreditHalfLife, &d)
				if math.Float64bits(got.Avg) != math.Float64bits(want.Avg) || got.AvgTime != want.AvgTime {
					t.Errorf("%s, average %d, update %+v: got %+v, want %+v", c.name, i, u, got, want)
				}
			}
		}
	}
}
