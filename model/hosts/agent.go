package hosts

import (
	"math"
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
	CherryPicker
	OneTimeClaim
	CountInflation
	ColludingFakes
	IdleVM
	NCPUsInflation
	numKinds
)

var kindNames = [...]string{"honest", "benchmark_inflation", "runtime_inflation", "fake_results", "failed_benchmark",
	"cherry_picker", "one_time_claim", "count_inflation", "colluding_fakes", "idle_vm", "ncpus_inflation"}

func (k Kind) String() string { return kindNames[k] }

// NumKinds is the number of behaviour kinds.
const NumKinds = int(numKinds)

// KindNames lists the behaviour kinds that can be configured.
func KindNames() []string { return kindNames[1:] }

// OneTimeChannels are where a one_time_claim host puts its absurd value:
// the GPU peak or the CPU benchmark it reports with one job, or the FLOP
// count one job reports (apps that count FLOPs).
var OneTimeChannels = []string{"gpu_peak", "cpu_benchmark", "flop_count"}

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
	// K is the inflation factor of benchmark_inflation, runtime_inflation
	// and count_inflation, and for idle_vm how many times its honest
	// runtime a job takes (the VM sits idle the rest of the time), and
	// for ncpus_inflation how many times its CPUs the host reports.
	K float64 `yaml:"k,omitempty"`
	// WorkFraction is the share of a job's runtime a fake_results host
	// spends before returning garbage.
	WorkFraction float64 `yaml:"work_fraction,omitempty"`
	// Threshold: a cherry_picker aborts a job still running after it.
	Threshold param.Duration `yaml:"threshold,omitempty"`
	// Channel, Claim and At: a one_time_claim host reports Claim through
	// Channel with the first job it gets at or after At, then is honest.
	Channel string         `yaml:"channel,omitempty"`
	Claim   float64        `yaml:"claim,omitempty"`
	At      param.Duration `yaml:"at,omitempty"`
}

func (a *AgentConfig) validate(k param.Check) {
	kind, ok := ParseKind(a.Kind)
	switch {
	case !ok:
		k.Fail("kind", a.Kind, "unknown agent kind (known: "+strings.Join(KindNames(), ", ")+")")
		return
	case kind == Honest:
		k.Fail("kind", a.Kind, "honest is what hosts without an agent are; list only cheating kinds")
	}
	k.Range("share", a.Share, 0, 1)
	switch kind {
	case BenchmarkInflation, RuntimeInflation, CountInflation:
		if a.K == 0 {
			a.K = 2
		}
		k.Positive("k", a.K)
	case NCPUsInflation:
		if a.K == 0 {
			a.K = 4
		}
		if !(a.K >= 1 && a.K <= MaxNCPUsFactor) {
			k.Fail("k", a.K, "reports k x its CPUs: must be 1 to 1000")
		}
	case IdleVM:
		if a.K == 0 {
			a.K = 10
		}
		if !(a.K >= 1) {
			k.Fail("k", a.K, "an idle VM takes at least its honest runtime: must be at least 1")
		}
	case FakeResults, ColludingFakes:
		if a.WorkFraction == 0 {
			a.WorkFraction = 0.01
		}
		if !(a.WorkFraction > 0 && a.WorkFraction <= 1) {
			k.Fail("work_fraction", a.WorkFraction, "must be above 0 and at most 1")
		}
	case CherryPicker:
		if a.Threshold == 0 {
			a.Threshold = param.Duration(3600)
		}
		k.DurationRange("threshold", a.Threshold, param.Second, 30*param.Day)
	case OneTimeClaim:
		if a.Channel == "" {
			a.Channel = "gpu_peak"
		}
		if a.Claim == 0 {
			a.Claim = 1e304
		}
		ok := false
		for _, c := range OneTimeChannels {
			ok = ok || c == a.Channel
		}
		if !ok {
			k.Fail("channel", a.Channel, "unknown channel (known: "+strings.Join(OneTimeChannels, ", ")+")")
		}
		k.Positive("claim", a.Claim)
		k.NonNegative("at", float64(a.At))
	}
}

// Behaviour is what a host does differently from an honest one. Package
// sim calls these hooks at the points where a real client could lie.
type Behaviour struct {
	Kind         Kind
	K            float64
	WorkFraction float64
	Threshold    float64 // cherry_picker: seconds of running before it aborts
	Channel      string  // one_time_claim
	Claim        float64 // one_time_claim
	At           float64 // one_time_claim: seconds from the start
}

// AbortAfter is the running time after which the host aborts a job (a
// cherry picker keeping only short ones), or +Inf.
func (b Behaviour) AbortAfter() float64 {
	if b.Kind == CherryPicker {
		return b.Threshold
	}
	return math.Inf(1)
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

// MaxNCPUsFactor bounds ncpus_inflation's k, so that a reported CPU count
// stays an int.
const MaxNCPUsFactor = 1000

// ReportedNCPUs returns the CPU count the client reports: an ncpus
// inflator reports k x its own (at least its own), which a multi-threaded
// app's plan class takes as the job's avg_ncpus.
func (b Behaviour) ReportedNCPUs(n int) int {
	if b.Kind == NCPUsInflation {
		return max(n, int(math.Round(b.K*float64(n))))
	}
	return n
}

// ReportedGPUPeak returns the GPU peak FLOPS the client reports.
func (b Behaviour) ReportedGPUPeak(peak float64) float64 {
	if b.Kind == BenchmarkInflation {
		return b.K * peak
	}
	return peak
}

// ReportedCount returns the FLOP count the client reports for a job whose
// app counted flops: a count inflator multiplies it.
func (b Behaviour) ReportedCount(flops float64) float64 {
	if b.Kind == CountInflation {
		return b.K * flops
	}
	return flops
}

// DoesWork reports whether the host computes its jobs at all.
func (b Behaviour) DoesWork() bool { return b.Kind != FakeResults && b.Kind != ColludingFakes }

// Colludes reports whether the host's garbage agrees with that of the
// other colluding hosts (colluding_fakes), so that two of them can form a
// quorum.
func (b Behaviour) Colludes() bool { return b.Kind == ColludingFakes }

// RunFraction is the share of a job's honest runtime the host spends on
// it: below 1 for a fake, K for an idle VM (it holds its CPUs and does
// the work, slowly).
func (b Behaviour) RunFraction() float64 {
	switch b.Kind {
	case FakeResults, ColludingFakes:
		return b.WorkFraction
	case IdleVM:
		return b.K
	}
	return 1
}

// ReportTimes returns the elapsed and CPU time the client reports for a
// job that really took elapsed and cpu seconds, sinceSent seconds after it
// was sent: a runtime inflator multiplies both, but never claims more
// elapsed time than has passed since the job was sent (the server checks);
// an idle VM reports the truth, the CPU time it used being 1/K of what
// its CPUs would have given over the elapsed time.
func (b Behaviour) ReportTimes(elapsed, cpu, sinceSent float64) (float64, float64) {
	if b.Kind == IdleVM {
		return elapsed, cpu / b.K
	}
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
