package sim

import (
	"testing"

	"github.com/creditsim/creditsim/model/jobs"
	"github.com/creditsim/creditsim/policy"
)

// flatRate pays 1 credit per second of runtime.
type flatRate struct{ policy.Base }

func (flatRate) Init(*policy.World)                          {}
func (flatRate) Scale() float64                              { return 200 }
func (flatRate) Validated(*policy.Validation) float64        { return 0 }
func (flatRate) Accrued(_ *policy.Result, s float64) float64 { return s }

// TestPaidGrowsWithThePool: a result that starts running several pool
// chunks beyond the last one tracked still has its paid slot. A 100,000
// host world queued that many results before any ran, and paying the
// first of them panicked.
func TestPaidGrowsWithThePool(t *testing.T) {
	s := &Sim{pols: []policy.Policy{flatRate{}}, ras: []int{0}, hosts: make([]hostState, 1), reported: make([]hostReport, 1),
		versions: make([]policy.AppVersion, 1), apps: []appState{{cfg: &jobs.App{BoundFactor: 10}}}}
	s.wus.add()
	for s.results.n <= 3*resultChunk {
		s.results.add()
	}
	ri := int32(3 * resultChunk)
	s.trackRuntime(&s.hosts[0], ri)
	row := s.paidRow(ri)
	if row == nil {
		t.Fatalf("paid has %d rows, result %d needs one", len(s.paid)*resultChunk, ri)
	}
	s.pay(ri, 10)
	if row[0] != 10 || s.amRan(ri) != 0 {
		t.Errorf("paid %v, settled runtime %v, want 10 and 0", row[0], s.amRan(ri))
	}
}
