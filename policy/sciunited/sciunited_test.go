package sciunited

import (
	"math"
	"testing"

	"github.com/creditsim/creditsim/policy"
)

func newPolicy(t *testing.T, opts policy.Options) *Policy {
	t.Helper()
	p, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	p.Init(&policy.World{Projects: []policy.Project{{ID: 0, Name: "p"}, {ID: 1, Name: "q"}},
		Versions: []policy.AppVersion{{ID: 0, Resource: policy.CPU, CPUUsage: 1}}})
	return p.(*Policy)
}

// call is an account-manager call of host 1 (user 7) for project 0 from
// an 8-core 4 GFLOPS host without GPU.
func call(t, est float64) *policy.ClientReport {
	return &policy.ClientReport{Time: t, HostID: 1, UserID: 7, ProjectID: 0, EstimatedFlops: est, NCPUs: 8, CPUPeak: 4e9}
}

func TestDeltasAndHistory(t *testing.T) {
	p := newPolicy(t, nil)
	day := 8.64e13 // FLOPs of 1 GFLOPS for a day: 200 credits
	if got := p.ClientReport(call(1000, 5*day)); got != 0 {
		t.Errorf("first call credited %v, want nothing", got)
	}
	if got := p.ClientReport(call(1000+43200, 6*day)); got != 200 {
		t.Errorf("second call: %v, want 200 (one GFLOPS-day at scale 200)", got)
	}
	// A total that went down (a reinstalled client) credits nothing.
	if got := p.ClientReport(call(1000+86400, 2*day)); got != 0 {
		t.Errorf("decrease: %v", got)
	}
	if got := p.ClientReport(call(2*86400, 2.5*day)); got != 100 {
		t.Errorf("after the decrease: %v, want 100", got)
	}
	h := p.History()
	if len(h) != 2 || h[0][0] != "0" || h[0][1] != "7" || h[0][2] != "p" || h[0][3] != "200" || h[1][0] != "2" || h[1][3] != "100" {
		t.Errorf("history %v", h)
	}
}

// TestSanityCheck: a delta is at most the plausible FLOPS x devices x the
// wall time; an implausible CPU speed is reset to the default.
func TestSanityCheck(t *testing.T) {
	lim := &newPolicy(t, nil).lim
	for _, c := range []struct {
		name        string
		cpuPeak     float64
		ncpus       int
		delta, wall float64
		want        float64
	}{
		{"plausible, under the bound", 4e9, 8, 1e13, 1000, 1e13},
		{"plausible, over the bound", 4e9, 8, 1e15, 1000, 8 * 4e9 * 1000},
		{"a lie below the limits passes", 90e9, 8, 90e9 * 8 * 1000, 1000, 90e9 * 8 * 1000},
		{"implausible speed reset", 1e12, 8, 1e16, 1000, 8 * 4.3e9 * 1000},
		{"implausible count reset", 4e9, 1000, 1e16, 1000, 4 * 4e9 * 1000},
	} {
		r := &policy.ClientReport{Time: 1000 + c.wall, EstimatedFlops: c.delta, NCPUs: c.ncpus, CPUPeak: c.cpuPeak}
		if got := lim.Delta(r, 1000, 0); math.Abs(got-c.want) > 1e-6*c.want {
			t.Errorf("%s: delta %g, want %g", c.name, got, c.want)
		}
	}
	gpu := &policy.ClientReport{Time: 2000, EstimatedFlops: 1e20, NCPUs: 4, CPUPeak: 4e9, NGPUs: 20, GPUPeak: 1e15}
	if got, want := lim.Delta(gpu, 1000, 0), (4*4e9+1*5e12)*1000; got != want {
		t.Errorf("implausible GPUs: %g, want %g", got, want)
	}
}

// TestAccrued: a result's credit is its runtime x the plausible peak of
// its devices at the scale, times the share the host's last call granted;
// nothing before the host's first call.
func TestAccrued(t *testing.T) {
	p := newPolicy(t, nil)
	r := &policy.Result{HostID: 1, ProjectID: 0, VersionID: 0, HostPFpops: 4e9}
	if got := p.Accrued(r, 21600); got != 0 {
		t.Errorf("before the first call: %v", got)
	}
	p.ClientReport(call(0, 0))
	// 21600 s at 4 GFLOPS = 8.64e13 FLOPs: 200 credits.
	if got := p.Accrued(r, 21600); got != 200 {
		t.Errorf("after the first call: %v, want 200", got)
	}
	// An implausible speed counts as the default 4.3 GFLOPS.
	liar := &policy.Result{HostID: 1, ProjectID: 0, VersionID: 0, HostPFpops: 1e304}
	if got, want := p.Accrued(liar, 21600), 200*4.3/4; math.Abs(got-want) > 1e-9 {
		t.Errorf("implausible speed: %v, want %v", got, want)
	}
	// A host clamped to half its claim gets half.
	p.ClientReport(call(1000, 2*8*4e9*1000))
	if got := p.Accrued(r, 21600); math.Abs(got-100) > 1e-9 {
		t.Errorf("clamped host: %v, want 100", got)
	}
}

func TestBadOptions(t *testing.T) {
	for _, o := range []policy.Options{{"scale": "0"}, {"max_cpus": "-1"}, {"default_gpu_flops": "x"}} {
		if _, err := New(o); err == nil {
			t.Errorf("%v accepted", o)
		}
	}
}

// TestReconciliation: with reconciliation on, a host's total is brought to
// the peak-FLOP credit of its validated jobs at the next call after a
// reconciliation day; the user sees the decrease in the history.
func TestReconciliation(t *testing.T) {
	p := newPolicy(t, policy.Options{"reconcile": "1"})
	day := 8.64e13
	p.ClientReport(call(1000, 0))
	p.ClientReport(call(44200, 2*day)) // 400 credits
	// One validated job worth 100 credits: 1e4 s at 4.32 GFLOPS.
	p.Validated(&policy.Validation{Valid: []*policy.Result{{HostID: 1, ProjectID: 0, ElapsedTime: 1e4, FlopsEstimate: 4.32e9}}})
	p.Tick(policy.Tick{Kind: policy.DayTick, Time: 86400})
	if got := p.ClientReport(call(90000, 2.5*day)); math.Abs(got-(100-300)) > 1e-9 {
		t.Errorf("call after reconciliation: %v, want 100 - 300", got)
	}
	abs, net, granted := p.Reconciled()
	if abs != 300 || net != -300 || granted != 500 {
		t.Errorf("moved %v (net %v) of %v granted", abs, net, granted)
	}
	h := p.History()
	if last := h[len(h)-1]; last[0] != "1" || last[3] != "-200" {
		t.Errorf("history %v", h)
	}
	// Off by default: validated jobs change nothing.
	q := newPolicy(t, nil)
	q.ClientReport(call(1000, 0))
	q.Validated(&policy.Validation{Valid: []*policy.Result{{HostID: 1, ElapsedTime: 1e4, FlopsEstimate: 8.64e9}}})
	q.Tick(policy.Tick{Kind: policy.DayTick, Time: 86400})
	if got := q.ClientReport(call(90000, day)); got != 200 {
		t.Errorf("without reconciliation: %v, want 200", got)
	}
}
