package hosts

import (
	"strings"

	"github.com/creditsim/creditsim/model/param"
)

// Kind is a host behaviour; the names are stable (summaries, plots).
type Kind uint8

// Behaviour kinds. Honest is the zero value.
const (
	Honest Kind = iota
	BenchmarkInflation
	RuntimeInflation
	FakeResults
	FailedBenchmark
	numKinds
)

var kindNames = [...]string{"honest", "benchmark_inflation", "runtime_inflation", "fake_results", "failed_benchmark"}

func (k Kind) String() string { return kindNames[k] }

// NumKinds is the number of behaviour kinds.
const NumKinds = int(numKinds)

// KindNames lists the behaviour kinds that can be configured.
func KindNames() []string { return kindNames[1:] }

// plannedKinds are named by the design but not modelled yet.
var plannedKinds = []string{"count_inflation", "colluding_fakes", "one_time_claim", "cherry_picker"}

// ParseKind returns the kind named s.
func ParseKind(s string) (Kind, bool) {
	for i, n := range kindNames {
		if n == s {
			return Kind(i), true
		}
	}
	return 0, false
}

// AgentConfig gives a behaviour to a share of user accounts (and so to
// all their hosts).
type AgentConfig struct {
	Kind  string  `yaml:"kind"`
	Share float64 `yaml:"share"`
	// K is the inflation factor of benchmark_inflation and runtime_inflation.
	K float64 `yaml:"k,omitempty"`
	// WorkFraction is the share of a job's runtime a fake_results host
	// spends before returning garbage.
	WorkFraction float64 `yaml:"work_fraction,omitempty"`
}

func (a *AgentConfig) validate(k param.Check) {
	kind, ok := ParseKind(a.Kind)
	switch {
	case !ok:
		for _, p := range plannedKinds {
			if p == a.Kind {
				k.Fail("kind", a.Kind, "agent kind not modelled yet (known: "+strings.Join(KindNames(), ", ")+")")
				return
			}
		}
		k.Fail("kind", a.Kind, "unknown agent kind (known: "+strings.Join(KindNames(), ", ")+")")
		return
	case kind == Honest:
		k.Fail("kind", a.Kind, "honest is what hosts without an agent are; list only cheating kinds")
	}
	k.Range("share", a.Share, 0, 1)
	switch kind {
	case BenchmarkInflation, RuntimeInflation:
		if a.K == 0 {
			a.K = 2
		}
		k.Positive("k", a.K)
	case FakeResults:
		if a.WorkFraction == 0 {
			a.WorkFraction = 0.01
		}
		if !(a.WorkFraction > 0 && a.WorkFraction <= 1) {
			k.Fail("work_fraction", a.WorkFraction, "must be above 0 and at most 1")
		}
	}
}

// Behaviour is what a host does differently from an honest one. Package
// sim calls these hooks at the points where a real client could lie.
type Behaviour struct {
	Kind         Kind
	K            float64
	WorkFraction float64
}

// FailedBenchmarkFlops is what a client reports when its benchmark fails.
const FailedBenchmarkFlops = 1e9

// ReportedCPU returns the Whetstone and Dhrystone the client reports.
func (b Behaviour) ReportedCPU(whetstone, dhrystone float64) (float64, float64) {
	switch b.Kind {
	case BenchmarkInflation:
		return b.K * whetstone, b.K * dhrystone
	case FailedBenchmark:
		return FailedBenchmarkFlops, FailedBenchmarkFlops
	}
	return whetstone, dhrystone
}

// ReportedGPUPeak returns the GPU peak FLOPS the client reports.
func (b Behaviour) ReportedGPUPeak(peak float64) float64 {
	if b.Kind == BenchmarkInflation {
		return b.K * peak
	}
	return peak
}

// DoesWork reports whether the host computes its jobs at all.
func (b Behaviour) DoesWork() bool { return b.Kind != FakeResults }

// RunFraction is the share of a job's honest runtime the host spends on it.
func (b Behaviour) RunFraction() float64 {
	if b.Kind == FakeResults {
		return b.WorkFraction
	}
	return 1
}

// ReportTimes returns the elapsed and CPU time the client reports for a
// job that really took elapsed and cpu seconds, sinceSent seconds after it
// was sent: a runtime inflator multiplies both, but never claims more
// elapsed time than has passed since the job was sent (the server checks).
func (b Behaviour) ReportTimes(elapsed, cpu, sinceSent float64) (float64, float64) {
	if b.Kind != RuntimeInflation {
		return elapsed, cpu
	}
	e := b.K * elapsed
	if e > sinceSent {
		e = sinceSent
	}
	if elapsed > 0 {
		cpu *= e / elapsed
	}
	return e, cpu
}
