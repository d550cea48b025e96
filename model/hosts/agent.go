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
	ForgedOutput
	NewIdentity
	Sleeper
	numKinds
)

var kindNames = [...]string{"honest", "benchmark_inflation", "runtime_inflation", "fake_results", "failed_benchmark",
	"cherry_picker", "one_time_claim", "count_inflation", "colluding_fakes", "idle_vm", "ncpus_inflation", "forged_output", "new_identity", "sleeper"}

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
	// for ncpus_inflation how many times its CPUs the host reports, and
	// for forged_output how many times the work it did its output claims.
	K float64 `yaml:"k,omitempty"`
	// Every is how often a new_identity host registers as a new host;
	// Results, instead, after how many results it reported as one
	// (it then stops asking for work, finishes and reports what it
	// holds, and registers anew: nothing is abandoned).
	Every   param.Duration `yaml:"every,omitempty"`
	Results int            `yaml:"results,omitempty"`
	// Report is which time a runtime_inflation host inflates: "elapsed"
	// (the default, also when empty) or "cpu_time", where it reports k x its elapsed time
	// as CPU time and an elapsed time of 0, which BOINC's scheduler then
	// raises to the CPU time (ReportCPUTime).
	Report string `yaml:"report,omitempty"`
	// WorkFraction is the share of a job's runtime a fake_results host
	// (or a forged_output host: of its work)
	// spends before returning garbage.
	WorkFraction float64 `yaml:"work_fraction,omitempty"`
	// Threshold: a cherry_picker aborts a job still running after it.
	Threshold param.Duration `yaml:"threshold,omitempty"`
	// Channel, Claim and At: a one_time_claim host reports Claim through
	// Channel with the first job it gets at or after At, then is honest.
	Channel string         `yaml:"channel,omitempty"`
	Claim   float64        `yaml:"claim,omitempty"`
	At      param.Duration `yaml:"at,omitempty"`
	// And is a second behaviour of the same accounts (its kind and
	// parameters; no share of its own), so one account can combine two
	// cheats, e.g. benchmark_inflation and runtime_inflation. Figures
	// count such accounts under both names joined by "+", in the order
	// given, which is also the order the two apply in.
	And *AgentConfig `yaml:"and,omitempty"`
}

func (a *AgentConfig) validate(k param.Check) {
	kind, ok := a.validateKind(k)
	if !ok {
		return
	}
	k.Range("share", a.Share, 0, 1)
	if a.And == nil {
		return
	}
	and := k.Field("and")
	second, ok := a.And.validateKind(and)
	switch {
	case !ok:
	case a.And.Share != 0:
		and.Fail("share", a.And.Share, "the second behaviour is of the same accounts: give the share once, above")
	case a.And.And != nil:
		and.Fail("and", param.Raw("{kind: "+a.And.And.Kind+"}"), "at most two behaviours combine on one account")
	case second == kind:
		and.Fail("kind", a.And.Kind, "is the first behaviour's kind too: give one agent its parameters")
	case !(Behaviour{Kind: kind}).DoesWork() && !(Behaviour{Kind: second}).DoesWork():
		and.Fail("kind", a.And.Kind, "fake_results and colluding_fakes both return garbage: combine one of them with a behaviour of another kind")
	}
}

// validateKind checks the kind and its parameters, filling defaults.
func (a *AgentConfig) validateKind(k param.Check) (Kind, bool) {
	kind, ok := ParseKind(a.Kind)
	switch {
	case !ok:
		k.Fail("kind", a.Kind, "unknown agent kind (known: "+strings.Join(KindNames(), ", ")+")")
		return 0, false
	case kind == Honest:
		k.Fail("kind", a.Kind, "honest is what hosts without an agent are; list only cheating kinds")
		return 0, false
	}
	a.settings(kind, k)
	if a.Report != "" && kind != RuntimeInflation {
		k.Fail("report", a.Report, "only runtime_inflation chooses which time it inflates")
	}
	return kind, true
}

// settings fills the defaults of kind's settings and checks their
// ranges.
func (a *AgentConfig) settings(kind Kind, k param.Check) {
	switch kind {
	case BenchmarkInflation, RuntimeInflation, CountInflation:
		if a.K == 0 {
			a.K = 2
		}
		k.Positive("k", a.K)
		if kind == RuntimeInflation {
			if a.Report != "" && a.Report != ReportElapsed && a.Report != ReportCPUTime {
				k.Fail("report", a.Report, "unknown time to inflate (known: "+ReportElapsed+", "+ReportCPUTime+")")
			}
		}
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
	case NewIdentity:
		a.identitySettings(k)
	case ForgedOutput:
		if a.K == 0 {
			a.K = 10
		}
		if !(a.K >= 1) {
			k.Fail("k", a.K, "the output claims k x the work done: must be at least 1")
		}
		if a.WorkFraction == 0 {
			a.WorkFraction = 1
		}
		if !(a.WorkFraction > 0 && a.WorkFraction <= 1) {
			k.Fail("work_fraction", a.WorkFraction, "must be above 0 and at most 1")
		}
	case FakeResults, ColludingFakes, Sleeper:
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

// identitySettings checks a new_identity agent: it registers anew every
// some time (every, default 5 days) or after a count of results
// (results), not both.
func (a *AgentConfig) identitySettings(k param.Check) {
	switch {
	case a.Every != 0 && a.Results != 0:
		k.Fail("results", a.Results, "give every (a time) or results (a count), not both")
	case a.Results != 0:
		if a.Results < 1 || a.Results > 100000 {
			k.Fail("results", a.Results, "results reported per identity: must be 1 to 100000")
		}
	default:
		if a.Every == 0 {
			a.Every = param.Duration(5 * param.Day)
		}
		k.DurationRange("every", a.Every, 3600, 365*param.Day)
	}
}

// Times a runtime_inflation host can inflate (AgentConfig.Report).
const (
	ReportElapsed = "elapsed"
	ReportCPUTime = "cpu_time"
)

// Behaviour returns the behaviour a validated agent gives its accounts.
func (a *AgentConfig) Behaviour() Behaviour {
	k, _ := ParseKind(a.Kind)
	b := Behaviour{Kind: k, K: a.K, WorkFraction: a.WorkFraction, Threshold: float64(a.Threshold),
		Channel: a.Channel, Claim: a.Claim, At: float64(a.At), ReportCPU: a.Report == ReportCPUTime, Every: float64(a.Every),
		EveryResults: a.Results}
	if a.And != nil {
		and := a.And.Behaviour()
		b.And = &and
	}
	return b
}

// Behaviour is what a host does differently from an honest one. Package
// sim calls these hooks at the points where a real client could lie.
// With And set, the host does both: each hook applies b's part, then
// And's on its result.
type Behaviour struct {
	Kind         Kind
	K            float64
	WorkFraction float64
	Threshold    float64 // cherry_picker: seconds of running before it aborts
	Channel      string  // one_time_claim
	Claim        float64 // one_time_claim
	At           float64 // one_time_claim: seconds from the start
	ReportCPU    bool    // runtime_inflation: inflates the CPU time (report: cpu_time)
	Every        float64 // new_identity: seconds between new registrations
	EveryResults int     // new_identity: results reported per identity (instead of Every)
	// And is a second behaviour of the same host (of another kind, with
	// no And of its own), or nil.
	And *Behaviour
}

// Find returns the part of b of kind k (b itself or b.And), or nil.
func (b *Behaviour) Find(k Kind) *Behaviour {
	switch {
	case b.Kind == k:
		return b
	case b.And != nil && b.And.Kind == k:
		return b.And
	}
	return nil
}

// Group is what figures count a host under: its kind, or for a
// combined behaviour the ordered pair of kinds.
type Group uint16

// NumGroups is the number of groups: every kind alone, then every
// ordered pair.
const NumGroups = NumKinds * (NumKinds + 1)

// Group returns b's group.
func (b *Behaviour) Group() Group {
	if b.And == nil {
		return Group(b.Kind)
	}
	return Group(NumKinds + int(b.Kind)*NumKinds + int(b.And.Kind))
}

// Kinds returns the group's kinds: the second is Honest for a kind alone.
func (g Group) Kinds() (Kind, Kind) {
	if int(g) < NumKinds {
		return Kind(g), Honest
	}
	i := int(g) - NumKinds
	return Kind(i / NumKinds), Kind(i % NumKinds)
}

// String is the group's name: the kind, or both kinds joined by "+".
func (g Group) String() string {
	a, b := g.Kinds()
	if b == Honest {
		return a.String()
	}
	return a.String() + "+" + b.String()
}

// ParseGroup returns the group named s (a kind, or two joined by "+").
func ParseGroup(s string) (Group, bool) {
	first, second, pair := strings.Cut(s, "+")
	a, ok := ParseKind(first)
	if !ok {
		return 0, false
	}
	if !pair {
		return Group(a), true
	}
	b, ok := ParseKind(second)
	if !ok || b == Honest || a == Honest || a == b {
		return 0, false
	}
	return Group(NumKinds + int(a)*NumKinds + int(b)), true
}

// Name is the name of b's group.
func (b *Behaviour) Name() string { return b.Group().String() }

// AbortAfter is the running time after which the host aborts a job (a
// cherry picker keeping only short ones), or +Inf.
func (b Behaviour) AbortAfter() float64 {
	t := math.Inf(1)
	if b.Kind == CherryPicker {
		t = b.Threshold
	}
	if b.And != nil {
		t = min(t, b.And.AbortAfter())
	}
	return t
}

// FailedBenchmarkFlops is what a client reports when its benchmark fails.
const FailedBenchmarkFlops = 1e9

// ReportedCPU returns the Whetstone and Dhrystone the client reports.
func (b Behaviour) ReportedCPU(whetstone, dhrystone float64) (float64, float64) {
	switch b.Kind {
	case BenchmarkInflation:
		whetstone, dhrystone = b.K*whetstone, b.K*dhrystone
	case FailedBenchmark:
		whetstone, dhrystone = FailedBenchmarkFlops, FailedBenchmarkFlops
	}
	if b.And != nil {
		return b.And.ReportedCPU(whetstone, dhrystone)
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
		n = max(n, int(math.Round(b.K*float64(n))))
	}
	if b.And != nil {
		return b.And.ReportedNCPUs(n)
	}
	return n
}

// ReportedGPUPeak returns the GPU peak FLOPS the client reports.
func (b Behaviour) ReportedGPUPeak(peak float64) float64 {
	if b.Kind == BenchmarkInflation {
		peak *= b.K
	}
	if b.And != nil {
		return b.And.ReportedGPUPeak(peak)
	}
	return peak
}

// ReportedCount returns the FLOP count the client reports for a job whose
// app counted flops: a count inflator multiplies it.
func (b Behaviour) ReportedCount(flops float64) float64 {
	if b.Kind == CountInflation {
		flops *= b.K
	}
	if b.And != nil {
		return b.And.ReportedCount(flops)
	}
	return flops
}

// DoesWork reports whether the host computes its jobs at all.
func (b Behaviour) DoesWork() bool {
	return b.Kind != FakeResults && b.Kind != ColludingFakes && (b.And == nil || b.And.DoesWork())
}

// Sleeps reports whether the host works honestly until the server
// trusts it, then returns colluders' garbage (sleeper): its awake jobs
// run WorkFraction of their time and agree with colluding_fakes' output.
func (b Behaviour) Sleeps() bool {
	return b.Kind == Sleeper || b.And != nil && b.And.Sleeps()
}

// Colludes reports whether the host's garbage agrees with that of the
// other colluding hosts (colluding_fakes), so that two of them can form a
// quorum.
func (b Behaviour) Colludes() bool {
	return b.Kind == ColludingFakes || b.And != nil && b.And.Colludes()
}

// RunFraction is the share of a job's honest runtime the host spends on
// it: below 1 for a fake, K for an idle VM (it holds its CPUs and does
// the work, slowly).
func (b Behaviour) RunFraction() float64 {
	f := 1.0
	switch b.Kind {
	case FakeResults, ColludingFakes, ForgedOutput:
		f = b.WorkFraction
	case IdleVM:
		f = b.K
	}
	if b.And != nil {
		f *= b.And.RunFraction()
	}
	return f
}

// Reregisters returns how often the host registers as a new host
// (new_identity), or 0.
func (b Behaviour) Reregisters() float64 {
	switch {
	case b.Kind == NewIdentity:
		return b.Every
	case b.And != nil:
		return b.And.Reregisters()
	}
	return 0
}

// ReregistersAfter returns after how many reported results the host
// registers as a new host (new_identity by count), or 0.
func (b Behaviour) ReregistersAfter() int {
	switch {
	case b.Kind == NewIdentity:
		return b.EveryResults
	case b.And != nil:
		return b.And.ReregistersAfter()
	}
	return 0
}

// Forges reports whether the host forges its outputs' work measure
// (forged_output).
func (b Behaviour) Forges() bool {
	return b.Kind == ForgedOutput || b.And != nil && b.And.Forges()
}

// Forged returns the share of a job's FLOPs the host really does (a
// forger's work fraction, else all: a fake's few FLOPs are not counted,
// it does no work, DoesWork) and how many times the work it did its
// output claims to hold (a forger's k, else 1).
func (b Behaviour) Forged() (done, claim float64) {
	done, claim = 1, 1
	if b.Kind == ForgedOutput {
		done, claim = b.WorkFraction, b.K
	}
	if b.And != nil {
		d, c := b.And.Forged()
		done, claim = done*d, claim*c
	}
	return done, claim
}

// ReportTimes returns the elapsed and CPU time the client reports for a
// job that really took elapsed and cpu seconds, sinceSent seconds after it
// was sent: a runtime inflator multiplies both, but never claims more
// elapsed time than has passed since the job was sent (the server checks);
// one that inflates the CPU time reports k x elapsed as CPU time and an
// elapsed time of 0, for the scheduler to raise it to the CPU time; an
// idle VM reports the truth, the CPU time it used being 1/K of what its
// CPUs would have given over the elapsed time.
func (b Behaviour) ReportTimes(elapsed, cpu, sinceSent float64) (float64, float64) {
	switch {
	case b.Kind == IdleVM:
		cpu /= b.K
	case b.Kind == RuntimeInflation && b.ReportCPU:
		elapsed, cpu = 0, b.K*elapsed
	case b.Kind == RuntimeInflation:
		e := b.K * elapsed
		if e > sinceSent {
			e = sinceSent
		}
		if elapsed > 0 {
			cpu *= e / elapsed
		}
		elapsed = e
	}
	if b.And != nil {
		return b.And.ReportTimes(elapsed, cpu, sinceSent)
	}
	return elapsed, cpu
}
