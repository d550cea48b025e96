package hosts

import (
	"math"
	"testing"

	"github.com/creditsim/creditsim/model/param"
)

func TestBehaviourHooks(t *testing.T) {
	for _, c := range []struct {
		b                 Behaviour
		pf, gpu, e, abort float64
		works             bool
	}{
		{Behaviour{}, 4e9, 1e12, 100, math.Inf(1), true},
		{Behaviour{Kind: BenchmarkInflation, K: 3}, 12e9, 3e12, 100, math.Inf(1), true},
		{Behaviour{Kind: RuntimeInflation, K: 3}, 4e9, 1e12, 250, math.Inf(1), true}, // capped at 250 s since sent
		{Behaviour{Kind: FailedBenchmark}, 1e9, 1e12, 100, math.Inf(1), true},
		{Behaviour{Kind: FakeResults, WorkFraction: 0.01}, 4e9, 1e12, 100, math.Inf(1), false},
		{Behaviour{Kind: CherryPicker, Threshold: 3600}, 4e9, 1e12, 100, 3600, true},
		{Behaviour{Kind: OneTimeClaim, Channel: "gpu_peak", Claim: 1e304}, 4e9, 1e12, 100, math.Inf(1), true},
		{Behaviour{Kind: IdleVM, K: 4}, 4e9, 1e12, 100, math.Inf(1), true}, // reports the true times
	} {
		pf, _ := c.b.ReportedCPU(4e9, 8e9)
		e, _ := c.b.ReportTimes(100, 100, 250)
		if c.b.Colludes() != (c.b.Kind == ColludingFakes) || c.b.ReportedCount(10) != map[bool]float64{true: 50, false: 10}[c.b.Kind == CountInflation] {
			t.Errorf("%s: colludes %v, count 10 reported as %g", c.b.Kind, c.b.Colludes(), c.b.ReportedCount(10))
		}
		if pf != c.pf || c.b.ReportedGPUPeak(1e12) != c.gpu || e != c.e || c.b.AbortAfter() != c.abort || c.b.DoesWork() != c.works {
			t.Errorf("%s: cpu %g gpu %g elapsed %g abort %g works %v", c.b.Kind, pf, c.b.ReportedGPUPeak(1e12), e, c.b.AbortAfter(), c.b.DoesWork())
		}
	}
}

// TestIdleVM: an idle VM runs each job K times its honest runtime and
// reports the truth: the elapsed time, and the CPU time it used (1/K of
// the CPUs' time over it). k below 1 is refused; none defaults to 10.
func TestIdleVM(t *testing.T) {
	b := Behaviour{Kind: IdleVM, K: 4}
	if f := b.RunFraction(); f != 4 {
		t.Errorf("run fraction %g, want 4", f)
	}
	if e, cpu := b.ReportTimes(400, 800, 1e6); e != 400 || cpu != 200 {
		t.Errorf("reports elapsed %g cpu %g, want 400 and 200", e, cpu)
	}
	for _, c := range []struct {
		k     float64
		ok    bool
		wantK float64
	}{{0, true, 10}, {1, true, 1}, {0.5, false, 0}, {-2, false, 0}} {
		a := AgentConfig{Kind: "idle_vm", Share: 0.1, K: c.k}
		k := param.NewCheck()
		a.validate(k)
		if ok := len(k.Errors()) == 0; ok != c.ok {
			t.Errorf("k %g: accepted %v, want %v (%v)", c.k, ok, c.ok, k.Errors())
		}
		if c.ok && a.K != c.wantK {
			t.Errorf("k %g: became %g, want %g", c.k, a.K, c.wantK)
		}
	}
}

// TestNCPUsInflation: the reported CPU count is k x the host's, never
// fewer than it has; k outside 1 to 1000 is refused.
func TestNCPUsInflation(t *testing.T) {
	b := Behaviour{Kind: NCPUsInflation, K: 2.5}
	for _, c := range []struct{ n, want int }{{1, 3}, {4, 10}, {8, 20}} {
		if got := b.ReportedNCPUs(c.n); got != c.want {
			t.Errorf("%d CPUs reported as %d, want %d", c.n, got, c.want)
		}
	}
	if got := (Behaviour{}).ReportedNCPUs(6); got != 6 {
		t.Errorf("an honest host reports %d of 6 CPUs", got)
	}
	for _, c := range []struct {
		k  float64
		ok bool
	}{{0, true}, {1, true}, {1000, true}, {0.5, false}, {1001, false}} {
		a := AgentConfig{Kind: "ncpus_inflation", Share: 0.1, K: c.k}
		k := param.NewCheck()
		a.validate(k)
		if ok := len(k.Errors()) == 0; ok != c.ok {
			t.Errorf("k %g: accepted %v, want %v", c.k, ok, c.ok)
		}
	}
}
