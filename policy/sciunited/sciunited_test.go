package sciunited

import (
	"cmp"
	"maps"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
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
		Versions: []policy.AppVersion{{ID: 0, Resource: policy.CPU, CPUUsage: 1},
			{ID: 1, Resource: policy.NVIDIA, CPUUsage: 0.1, GPUUsage: 1}},
		MaxHosts: 4})
	return p.(*Policy)
}

// call is an account-manager call of host 1 (user 7) for project 0 from
// an 8-core 4 GFLOPS host without GPU.
func call(t, est float64) *policy.ClientReport {
	return &policy.ClientReport{Time: t, HostID: 1, UserID: 7, ProjectID: 0, EstimatedCPUFlops: est, NCPUs: 8, CPUPeak: 4e9}
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
	h := history(p)
	if len(h) != 2 || h[0][0] != "0" || h[0][1] != "7" || h[0][2] != "p" || h[0][3] != "200" || h[1][0] != "2" || h[1][3] != "100" {
		t.Errorf("history %v", h)
	}
}

// TestSanityCheck: the deployed handler's values. A resource's increase
// is at most its plausible FLOPS x devices x the time since the last
// call; an implausible speed or count is reset to its default (1 GFLOPS
// and 4 CPUs, 100 GFLOPS and 1 GPU).
func TestSanityCheck(t *testing.T) {
	lim := &newPolicy(t, nil).lim
	for _, c := range []struct {
		name          string
		cpuPeak       float64
		ncpus         int
		gpuPeak       float64
		ngpus         int
		wantCPU, want float64
	}{
		{"plausible", 4e9, 8, 0, 0, 8 * 4e9 * 1000, 0},
		{"a lie below the limits passes", 90e9, 8, 0, 0, 90e9 * 8 * 1000, 0},
		{"implausible speed reset", 1e12, 8, 0, 0, 8 * 1e9 * 1000, 0},
		{"implausible count reset", 4e9, 1000, 0, 0, 4 * 4e9 * 1000, 0},
		{"plausible GPUs", 4e9, 4, 10e12, 2, 4 * 4e9 * 1000, 2 * 10e12 * 1000},
		{"implausible GPU speed reset", 4e9, 4, 1e15, 2, 4 * 4e9 * 1000, 2 * 100e9 * 1000},
		{"implausible GPU count reset", 4e9, 4, 10e12, 20, 4 * 4e9 * 1000, 1 * 10e12 * 1000},
	} {
		r := &policy.ClientReport{NCPUs: c.ncpus, CPUPeak: c.cpuPeak, NGPUs: c.ngpus, GPUPeak: c.gpuPeak}
		cpu, gpu := lim.Bounds(r, 1000)
		if math.Abs(cpu-c.wantCPU) > 1e-9*c.wantCPU || math.Abs(gpu-c.want) > 1e-9*c.want {
			t.Errorf("%s: bounds %g, %g; want %g, %g", c.name, cpu, gpu, c.wantCPU, c.want)
		}
	}
}

// TestResourcesLimitedApart: an excess of CPU estimated credit cannot
// use room left by the GPU, and the excess is lost, not carried.
func TestResourcesLimitedApart(t *testing.T) {
	p := newPolicy(t, nil)
	rep := func(t, cpu, gpu float64) *policy.ClientReport {
		return &policy.ClientReport{Time: t, HostID: 2, ProjectID: 0, EstimatedCPUFlops: cpu, EstimatedGPUFlops: gpu,
			NCPUs: 2, CPUPeak: 1e9, NGPUs: 1, GPUPeak: 1e12}
	}
	p.ClientReport(rep(0, 0, 0))
	// 1000 s: CPU bound 2e12 FLOPs, GPU bound 1e15. CPU claims 10x its
	// bound, the GPU a tenth of its own.
	got := p.ClientReport(rep(1000, 2e13, 1e14))
	want := policy.FlopsToCredit(2e12+1e14, policy.ScaleServer)
	if math.Abs(got-want) > 1e-12*want {
		t.Errorf("credit %v, want %v (CPU at its bound plus the GPU's claim)", got, want)
	}
	// The next interval's claims are measured from the reported totals:
	// the cut CPU excess is gone.
	got = p.ClientReport(rep(2000, 2e13+1e12, 1e14))
	if want := policy.FlopsToCredit(1e12, policy.ScaleServer); math.Abs(got-want) > 1e-12*want {
		t.Errorf("after the cut: %v, want %v", got, want)
	}
}

// TestHostLevelInterval: dt is the time since the host's previous call,
// shared by every project it reports; a project first reported by a host
// already known is limited to rate x dt, not refused.
func TestHostLevelInterval(t *testing.T) {
	p := newPolicy(t, nil)
	q := func(t, est float64) *policy.ClientReport {
		c := call(t, est)
		c.ProjectID = 1
		return c
	}
	p.ClientReport(call(0, 0))
	p.ClientReport(call(1000, 0)) // the host's second call: project 1 not yet reported
	if got := p.ClientReport(q(1000, 1e15)); got != policy.FlopsToCredit(8*4e9*1000, policy.ScaleServer) {
		t.Errorf("new project on a known host: %v, want its rate x dt", got)
	}
	// The next call reports both projects at once: each has dt = 500.
	p.ClientReport(call(1500, 1e12))
	if got, want := p.ClientReport(q(1500, 1e15+1e12)), policy.FlopsToCredit(1e12, policy.ScaleServer); math.Abs(got-want) > 1e-12*want {
		t.Errorf("second project at the same call: %v, want %v", got, want)
	}
}

// TestAccrued: what a call paid for a result's runtime is its estimated
// FLOPs at the reported speed x the share of the claim the call granted;
// nothing before the host's second call.
func TestAccrued(t *testing.T) {
	p := newPolicy(t, nil)
	r := &policy.Result{HostID: 1, ProjectID: 0, VersionID: 0, HostPFpops: 4e9}
	if got := p.Accrued(r, 21600); got != 0 {
		t.Errorf("before any call: %v", got)
	}
	p.ClientReport(call(0, 0))
	if got := p.Accrued(r, 21600); got != 0 {
		t.Errorf("after the first call (which pays nothing): %v", got)
	}
	p.ClientReport(call(1000, 1e12))
	// 21600 s at 4 GFLOPS = 8.64e13 FLOPs: 200 credits.
	if got := p.Accrued(r, 21600); got != 200 {
		t.Errorf("unclamped: %v, want 200", got)
	}
	// A host clamped to half its claim gets half.
	p.ClientReport(call(2000, 1e12+2*8*4e9*1000))
	if got := p.Accrued(r, 21600); math.Abs(got-100) > 1e-9 {
		t.Errorf("clamped host: %v, want 100", got)
	}
	// An absurd speed cut to almost nothing stays finite and small.
	liar := &policy.Result{HostID: 1, ProjectID: 0, VersionID: 0, HostPFpops: 1e303}
	p.ClientReport(call(3000, 1e12+2*8*4e9*1000+21600*1e303))
	if got := p.Accrued(liar, 21600); !(got > 0) || got > policy.FlopsToCredit(8*4e9*1000, policy.ScaleServer)*1.000001 {
		t.Errorf("absurd speed: %v, want at most the call's bound", got)
	}
	// A GPU job: its CPU part at the CPU's share, its GPU part at the GPU's.
	g := &policy.Result{HostID: 3, ProjectID: 0, VersionID: 1, HostPFpops: 2e9, HostGPUPeak: 1e12}
	rep := func(t, cpu, gpu float64) *policy.ClientReport {
		return &policy.ClientReport{Time: t, HostID: 3, ProjectID: 0, EstimatedCPUFlops: cpu, EstimatedGPUFlops: gpu,
			NCPUs: 1, CPUPeak: 2e9, NGPUs: 1, GPUPeak: 1e12}
	}
	p.ClientReport(rep(0, 0, 0))
	p.ClientReport(rep(1000, 4e12, 1e15)) // CPU claim 2x its bound: share 1/2; GPU exactly its bound
	want := 0.5*policy.FlopsToCredit(1000*0.1*2e9, policy.ScaleServer) + policy.FlopsToCredit(1000*1e12, policy.ScaleServer)
	if got := p.Accrued(g, 1000); math.Abs(got-want) > 1e-12*want {
		t.Errorf("GPU job: %v, want %v", got, want)
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
	h := history(p)
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

// history collects p's history rows.
func history(p *Policy) [][]string {
	var rows [][]string
	for row := range p.History {
		rows = append(rows, slices.Clone(row))
	}
	return rows
}

// TestHistoryStops: History stops when yield returns false.
func TestHistoryStops(t *testing.T) {
	p := newPolicy(t, nil)
	p.ClientReport(call(1000, 0))
	p.ClientReport(call(2000, 86400e9))
	p.ClientReport(call(90000, 2*86400e9))
	if n := len(history(p)); n < 2 {
		t.Fatalf("%d rows, want at least 2 to test stopping", n)
	}
	n := 0
	for range p.History {
		n++
		break
	}
	if n != 1 {
		t.Errorf("%d rows after a break, want 1", n)
	}
}

// TestHistoryAcrossChunks checks the chunked history against a plain
// map of (day, user, project) totals over more rows than two chunks, with
// days whose rows straddle a chunk's end, and rows that grow after
// others were added the same day.
func TestHistoryAcrossChunks(t *testing.T) {
	p := newPolicy(t, nil)
	type key struct{ day, user, project int }
	want := map[key]float64{}
	rng := rand.New(rand.NewPCG(1, 2))
	rows := 0
	for day := 3; rows < 2*historyChunk+100; day += 1 + rng.IntN(2) {
		users := 1 + rng.IntN(historyChunk/2)
		for range 2 * users {
			k := key{day, rng.IntN(users), rng.IntN(2)}
			c := float64(1 + rng.IntN(1000))
			if _, ok := want[k]; !ok {
				rows++
			}
			want[k] += c
			p.addHistory(int32(k.day), k.user, k.project, c)
		}
	}
	if p.rows != rows || len(p.history) < 3 {
		t.Fatalf("%d rows in %d chunks, want %d in at least 3", p.rows, len(p.history), rows)
	}
	keys := slices.SortedFunc(maps.Keys(want), func(a, b key) int {
		return cmp.Or(cmp.Compare(a.day, b.day), cmp.Compare(a.user, b.user), cmp.Compare(a.project, b.project))
	})
	got := history(p)
	if len(got) != len(keys) {
		t.Fatalf("%d rows, want %d", len(got), len(keys))
	}
	for i, k := range keys {
		w := []string{strconv.Itoa(k.day), strconv.Itoa(k.user), []string{"p", "q"}[k.project], strconv.FormatFloat(want[k], 'g', 12, 64)}
		if !slices.Equal(got[i], w) {
			t.Fatalf("row %d: %v, want %v", i, got[i], w)
		}
	}
}
