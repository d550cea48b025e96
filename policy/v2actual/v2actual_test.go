package v2actual

import (
	"math"
	"testing"

	"github.com/creditsim/creditsim/policy"
)

// world: version 0 counts FLOPs (CPU), 1 is a CPU version that cannot,
// 2 a GPU version that cannot.
func newPolicy(t *testing.T, opts policy.Options) *Policy {
	t.Helper()
	p, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	p.Init(&policy.World{Versions: []policy.AppVersion{
		{ID: 0, Resource: policy.CPU, CPUUsage: 1, CountsFlops: true},
		{ID: 1, Resource: policy.CPU, CPUUsage: 1},
		{ID: 2, Resource: policy.NVIDIA, CPUUsage: 0.5, GPUUsage: 1},
	}})
	return p.(*Policy)
}

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-12*math.Abs(b) }

func TestClaims(t *testing.T) {
	counted := &policy.Result{VersionID: 0, CountedFlops: 8.64e14, CPUTime: 1e5, HostPFpops: 1e9, HostPIops: 1e9}
	bench := &policy.Result{VersionID: 1, CPUTime: 86400, HostPFpops: 1e9, HostPIops: 3e9} // mean 2 GFLOPS
	gpu := &policy.Result{VersionID: 2, CPUTime: 864, ElapsedTime: 8640, HostPFpops: 2e9, HostPIops: 2e9, HostGPUPeak: 1e12}
	for _, c := range []struct {
		opts policy.Options
		r    *policy.Result
		want float64
	}{
		// 8.64e14 FLOPs is 10 GFLOPS-days: 1000 credits at scale 100.
		{policy.Options{"factor": "1"}, counted, 1000},
		{policy.Options{"factor": "2.5"}, counted, 2500},
		{policy.Options{"factor": "1", "scale": "200"}, counted, 2000},
		// A day of CPU time at a mean benchmark of 2 GFLOPS: 200, times the factor.
		{policy.Options{"cpu_factor": "1"}, bench, 200},
		{policy.Options{"cpu_factor": "1.5"}, bench, 300},
		{policy.Options{"cpu_factor": "1", "benchmark": "whetstone"}, bench, 100},
		// GPU apps that cannot count.
		{policy.Options{"cpu_factor": "1"}, gpu, 864 * 2e9 * 100 / 86400e9},
		{policy.Options{"gpu": "peak_elapsed"}, gpu, (0.5*2e9 + 1e12) * 8640 * 100 / 86400e9},
		{policy.Options{"gpu": "fixed", "gpu_credit": "42"}, gpu, 42},
	} {
		if got := newPolicy(t, c.opts).Claim(c.r); !near(got, c.want) {
			t.Errorf("%v version %d: claim %v, want %v", c.opts, c.r.VersionID, got, c.want)
		}
	}
}

// TestCalibration: during the calibration the counting factor is the
// first system's granted credit over the raw counted credit, and the CPU
// factor the counting apps' credit per CPU second over the benchmark
// claims'; both are frozen after it.
func TestCalibration(t *testing.T) {
	p := newPolicy(t, policy.Options{"calibration": "1"})
	// A counting job claims 50 credits under the first system (CPU time
	// 43200 s at 1 GFLOPS mean... 1e9 x 43200 x 100 / 86400e9 = 50) and
	// counts 4.32e14 FLOPs = 5 GFLOPS-days = 500 raw credits: factor 0.1.
	job := func(t float64) *policy.Validation {
		return &policy.Validation{Time: t, Valid: []*policy.Result{{VersionID: 0, CPUTime: 43200, HostPFpops: 1e9, HostPIops: 1e9, CountedFlops: 4.32e14}}}
	}
	nc := func(t float64) *policy.Validation {
		return &policy.Validation{Time: t, Valid: []*policy.Result{{VersionID: 1, CPUTime: 86400, HostPFpops: 4e9, HostPIops: 4e9}}}
	}
	got := p.Validated(job(100))
	if f, _ := p.Factors(); !near(f, 0.1) || !near(got, 50) {
		t.Fatalf("factor %v, credit %v; want 0.1 and 50", f, got)
	}
	p.Validated(nc(200))
	// Counting: 50 credits per 43200 CPU s; benchmark claims 400 per 86400 s.
	if _, c := p.Factors(); !near(c, (50.0/43200)/(400.0/86400)) {
		t.Errorf("cpu factor %v", c)
	}
	// After the calibration day nothing moves.
	before, cb := p.Factors()
	p.Validated(&policy.Validation{Time: 100 + 86401, Valid: []*policy.Result{{VersionID: 0, CPUTime: 1, HostPFpops: 1e9, HostPIops: 1e9, CountedFlops: 1e18}}})
	if f, c := p.Factors(); f != before || c != cb {
		t.Errorf("factors moved after the calibration: %v %v, were %v %v", f, c, before, cb)
	}
}

func TestReplicasShareTheFirstSystemsRules(t *testing.T) {
	v := &policy.Validation{}
	for _, c := range []float64{10, 20, 60} {
		v.Valid = append(v.Valid, &policy.Result{VersionID: 0, CountedFlops: c * 8.64e11})
	}
	for rule, want := range map[string]float64{"boinc-pre2010": 20, "min": 10, "mean": 30} {
		if got := newPolicy(t, policy.Options{"factor": "1", "replicas": rule}).Validated(v); !near(got, want) {
			t.Errorf("%s: %v, want %v", rule, got, want)
		}
	}
}

func TestAbsurdCountStaysFinite(t *testing.T) {
	p := newPolicy(t, nil)
	got := p.Validated(&policy.Validation{Valid: []*policy.Result{{VersionID: 0, CountedFlops: 1e304, CPUTime: 1, HostPFpops: 1e9, HostPIops: 1e9}}})
	if math.IsInf(got, 0) || math.IsNaN(got) || got < 0 {
		t.Errorf("credit %v", got)
	}
}

func TestBadOptions(t *testing.T) {
	for _, o := range []policy.Options{{"factor": "-1"}, {"cpu_factor": "x"}, {"gpu": "linpack"}, {"calibration": "0"}, {"replicas": "max"}} {
		if _, err := New(o); err == nil {
			t.Errorf("%v accepted", o)
		}
	}
}

// max_granted_credit caps a workunit's credit (off by default: an absurd
// count is paid, kept finite).
func TestMaxGrantedCredit(t *testing.T) {
	v := &policy.Validation{Valid: []*policy.Result{{VersionID: 0, CountedFlops: 1e304, CPUTime: 1, HostPFpops: 1e9, HostPIops: 1e9}}}
	if got := newPolicy(t, policy.Options{"factor": "1"}).Validated(v); !(got > 1e290) {
		t.Errorf("no cap: %v, want the claim", got)
	}
	if got := newPolicy(t, policy.Options{"factor": "1", "max_granted_credit": "7.3e7"}).Validated(v); got != 7.3e7 {
		t.Errorf("max_granted_credit 7.3e7: %v", got)
	}
	if _, err := New(policy.Options{"max_granted_credit": "-3"}); err == nil {
		t.Error("a negative max_granted_credit was accepted")
	}
}
