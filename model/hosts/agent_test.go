package hosts

import (
	"math"
	"testing"
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
