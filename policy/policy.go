package policy

import (
	"fmt"
	"sort"
	"strings"

	"github.com/creditsim/creditsim/boinc"
	"github.com/creditsim/creditsim/internal/suggest"
)

// The vocabulary policies share with the engine and the models lives in
// package boinc; these names keep policy code reading as before.
type (
	// Resource is the processing resource an app version uses.
	Resource = boinc.Resource
	// Outcome is a result's outcome as the server records it.
	Outcome = boinc.Outcome
	// ValidateState is a result's validation state.
	ValidateState = boinc.ValidateState
)

// Resources, outcomes and validation states (package boinc's).
const (
	CPU         = boinc.CPU
	NVIDIA      = boinc.NVIDIA
	AMD         = boinc.AMD
	IntelGPU    = boinc.IntelGPU
	AppleGPU    = boinc.AppleGPU
	Success     = boinc.Success
	ClientError = boinc.ClientError
	Aborted     = boinc.Aborted
	NoReply     = boinc.NoReply
	NumOutcomes = boinc.NumOutcomes
	Unvalidated = boinc.Unvalidated
	Valid       = boinc.Valid
	Invalid     = boinc.Invalid
)

// Project, App and AppVersion are what the server knows of the project
// configuration. IDs are dense indexes into World's slices.
type Project struct {
	ID   int
	Name string
}

// App is an application of a project.
type App struct {
	ID             int
	ProjectID      int
	Name           string
	MinQuorum      int
	TargetNResults int
	DelayBound     float64 // seconds
}

// AppVersion is a version of an app for one platform and plan class.
type AppVersion struct {
	ID        int
	AppID     int
	ProjectID int
	Name      string
	Platform  string
	PlanClass string
	Resource  Resource
	CPUUsage  float64 // average CPUs used (avg_ncpus)
	GPUUsage  float64 // GPUs used, possibly fractional
	// Anonymous marks an anonymous-platform version: the host supplied the
	// binary, so the server knows nothing reliable of its devices.
	Anonymous bool
	// CountsFlops marks an app that counts the FLOPs it does and reports
	// them (the second credit system).
	CountsFlops bool
	// MultiThread marks a multi-threaded plan class: a job's avg_ncpus is
	// the CPU count its host reports (CPUUsage is then not used).
	MultiThread bool
}

// Sequential reports whether BOINC's scheduler treats v's results as
// those of a single-threaded version the server knows, raising an
// elapsed time reported below the CPU time to the CPU time: not
// anonymous platform (its version IDs are negative) and not
// multi-threaded (boinc.IsMultithread: the plan class names "mt"; a
// version marked MultiThread is taken to have such a plan class).
func (v *AppVersion) Sequential() bool {
	return !v.Anonymous && !v.MultiThread && !boinc.IsMultithread(v.PlanClass)
}

// World is the static configuration a policy instance is initialised with
// at the start of a replication.
type World struct {
	Projects []Project
	Apps     []App
	Versions []AppVersion
	// MaxHosts, MaxUsers and MaxTeams bound the IDs that events carry, so a
	// policy can size dense per-host state up front.
	MaxHosts, MaxUsers, MaxTeams int
	// Start and End of the simulated period, in seconds.
	Start, End float64
}

// HAVState is the server's dispatch state of a (host, app version) pair,
// kept by package sim (CREDIT-SPEC section 10) and shown to policies.
type HAVState struct {
	ConsecutiveValid int32
	MaxJobsPerDay    int32
}

// Result is one result as the server sees it: reported values, not truth.
// A *Result passed to a policy is valid only during the call.
//
// Counts and IDs are 32-bit and the fields are ordered so that no padding
// lies between them: the engine keeps one Result per result in flight
// (tens of millions in a large world), so its size is the simulation's
// memory and cache traffic.
type Result struct {
	ID         int64
	WorkunitID int64
	HostID     int32
	UserID     int32
	TeamID     int32
	ProjectID  int32
	AppID      int32
	VersionID  int32 // dense AppVersion ID; see AppVersion.Anonymous

	// Reported host benchmarks and devices at the time of sending.
	HostNCPUs   int32
	HostNGPUs   int32
	HostPFpops  float64 // Whetstone FLOPS per CPU (p_fpops), as reported
	HostPIops   float64 // Dhrystone integer ops per second per CPU (p_iops)
	HostGPUPeak float64 // peak FLOPS per GPU of the version's type, as reported

	SentTime     float64
	ReceivedTime float64 // 0 until reported
	// FlopsEstimate is the peak FLOPS the scheduler assumed for the job,
	// fixed at send time (result.flops_estimate).
	FlopsEstimate float64

	ElapsedTime float64 // reported, clamped to the turnaround
	CPUTime     float64 // reported, clamped to elapsed x CPUs
	// CountedFlops is the FLOP count the app reported (0 if it cannot count).
	CountedFlops float64
	// OutputFlops is the work the result's output shows, which a
	// project's own validator code can measure (post-assigned credit):
	// the FLOPs the host really did for it, 0 for a result that did none.
	// Reported results only; no host can change it.
	OutputFlops float64

	RscFpopsEst   float64
	RscFpopsBound float64

	HAV HAVState

	Outcome       Outcome
	ValidateState ValidateState
	// RuntimeOutlier is set by project code for jobs whose runtime is not
	// representative.
	RuntimeOutlier bool
	// ServerTrusted says the server trusts the host (its own trust,
	// server.trust; false when the server keeps none), as it stands when
	// the policy is shown the result.
	ServerTrusted bool
}

// Validation is a workunit for which the validator has found (or keeps) a
// canonical result.
type Validation struct {
	Time          float64
	WorkunitID    int64
	AppID         int
	RscFpopsEst   float64
	RscFpopsBound float64
	// Valid holds the results marked valid in this pass. For a late result
	// (the workunit already had a canonical result) it holds that one result
	// and Late is true; sim then grants the canonical credit and ignores the
	// value Validated returns, but the policy may update its statistics.
	Valid []*Result
	// Invalid holds results marked invalid in this pass.
	Invalid []*Result
	Late    bool
	// CanonicalCredit is the credit already granted (Late only).
	CanonicalCredit float64
}

// TickKind says which periodic server activity a Tick marks.
type TickKind uint8

// Tick kinds.
const (
	// FeederTick: the main feeder's period (600 s): app-version scales.
	FeederTick TickKind = iota
	// ValidatorPassEnd: a validator scan pass that processed work has ended.
	ValidatorPassEnd
	// DayTick: a day boundary of simulated time.
	DayTick
)

// Tick is a periodic server event.
type Tick struct {
	Kind TickKind
	Time float64
}

// ClientReport is an account-manager call from a client: the estimated
// credit it has accumulated for one project since the client started
// (runtime x peak FLOPS of the devices used), CPU and GPU apart as the
// BOINC client keeps them. A host reports every project it is attached
// to at each call, one report per project at the same Time.
type ClientReport struct {
	Time      float64
	HostID    int
	UserID    int
	TeamID    int
	ProjectID int
	// EstimatedCPUFlops and EstimatedGPUFlops are the running totals of
	// runtime x reported peak FLOPS of the CPUs and of the GPUs a
	// project's jobs used.
	EstimatedCPUFlops, EstimatedGPUFlops float64
	NCPUs                                int
	CPUPeak                              float64 // reported FLOPS per CPU
	NGPUs                                int
	GPUPeak                              float64 // reported FLOPS per GPU
}

// Policy is one credit system instance. Methods are called from one
// goroutine, in simulated-time order. A policy must not retain the pointers
// it is given.
type Policy interface {
	// Init resets the policy for a new replication of the world w.
	Init(w *World)
	// Sent: the scheduler sent r to a host.
	Sent(r *Result)
	// Reported: the server received r's outcome (or gave up at its deadline).
	Reported(r *Result)
	// Validated returns the credit every valid result of v gets. It must
	// return a finite, non-negative number.
	Validated(v *Validation) float64
	// Tick marks periodic server activity.
	Tick(t Tick)
	// ClientReport returns credit to grant the host's account for the
	// project now; job-based systems return 0. It is negative when an
	// accounting takes credit back (a reconciliation).
	ClientReport(c *ClientReport) float64
	// Scale is the instance's Cobblestones per GFLOPS-day.
	Scale() float64
}

// Gauge is a named internal value a policy exposes for time series, such
// as an app version's scale.
type Gauge struct {
	Name  string
	Value float64
}

// Gauger is implemented by policies with internal state worth plotting.
// Names must be stable within a run.
type Gauger interface {
	Gauges(dst []Gauge) []Gauge
}

// RuntimeAccounting is implemented by policies that credit runtime, not
// jobs (Science United): their credit reaches accounts through
// ClientReport. For the figures the engine attributes it to results:
// after each call it asks Accrued what that call paid for the runtime
// seconds each of the host's results ran since the previous call, so
// G(r) is the credit the accounting actually paid for r, whatever r's
// fate (runtime after a departed host's last call is never paid).
type RuntimeAccounting interface {
	// Accrued returns what the last call of r's host paid for runtime
	// seconds of r on the devices its version uses, at the reported
	// speeds r carries.
	Accrued(r *Result, runtime float64) float64
}

// Historian is implemented by policies that keep a history worth writing
// out, such as Science United's daily credit per user and project; the
// runner writes it as history-<instance>.csv.
type Historian interface {
	HistoryHeader() []string
	// History calls yield with each row in order until yield returns
	// false; a row is valid only during its call.
	History(yield func(row []string) bool)
}

// HostGauger is implemented by policies with per-host state worth
// plotting, such as a host's scale factor; the time series follow it for
// a few sample hosts. A gauge left out means undefined at that time.
type HostGauger interface {
	HostGauges(host int, now float64, dst []Gauge) []Gauge
}

// Prefetcher is implemented by policies whose Validated reads state
// scattered over memory by host or user (a host's row of statistics):
// the validator calls Prefetch with each result of a workunit one step
// before it validates that workunit, so the policy can ask the processor
// for what it will read while the engine works on the step before.
// Prefetch is a hint: it must not change the policy's state or anything
// it computes. r may end up in Valid, in Invalid or in neither.
type Prefetcher interface {
	Prefetch(r *Result)
}

// Base implements the events a job-based policy may ignore.
type Base struct{}

// Sent does nothing.
func (Base) Sent(*Result) {}

// Reported does nothing.
func (Base) Reported(*Result) {}

// Tick does nothing.
func (Base) Tick(Tick) {}

// ClientReport grants nothing.
func (Base) ClientReport(*ClientReport) float64 { return 0 }

// Options are an instance's option values as written in a scenario.
type Options map[string]string

// OptionError names an option and value that a policy rejects.
type OptionError struct {
	Option string
	Value  string
	Reason string
}

func (e *OptionError) Error() string {
	return fmt.Sprintf("option %s: %q: %s", e.Option, e.Value, e.Reason)
}

// OptionDoc documents one option of a policy kind.
type OptionDoc struct {
	Name    string
	Default string
	Doc     string
}

// Kind is a registered credit system.
type Kind struct {
	Name    string
	Doc     string
	Options []OptionDoc
	// Standard kinds run when a scenario names no policies.
	Standard bool
	// Needs names the result fields (as a replay's columns name them)
	// the kind's credit depends on besides IDs and validation, or
	// NeedsAccountManager: a replay runs it only on inputs that have them.
	Needs []string
	// NeedsWith, if set, adds what an instance needs under its options
	// (v3pfc's reported peaks need the host's benchmarks).
	NeedsWith func(opts Options) []string
	// New returns an instance configured by opts (missing options take
	// their defaults) or an *OptionError.
	New func(opts Options) (Policy, error)
	// Mechanisms are the parts of the system an ablation switches off
	// one at a time (creditsim ablate).
	Mechanisms []Mechanism
	// Requires says what a project must have for an instance with opts
	// to work as figures show it ("apps that count their FLOPs"); nil or
	// empty if nothing.
	Requires func(opts Options) string
	// Oracle says what of the model's truth the kind reads that a real
	// project reads from what hosts send: in a world without an agent of
	// kind FalsifiedBy, which falsifies it, its cheat figures are an
	// oracle's. Empty if nothing.
	Oracle, FalsifiedBy string
	// UseWhen is one line of advice: when a project should choose the
	// kind's default instance (the verdict's last column).
	UseWhen string
}

// Mechanism is one part of a credit system that an option switches off.
type Mechanism struct {
	Name   string // short, as in an instance name: "<instance>-no-<Name>"
	Doc    string // what it does, in a few words
	Option string // the option that switches it
	Off    string // the option's value that switches it off
}

// Ablation is an instance with one mechanism switched off.
type Ablation struct {
	Mechanism Mechanism
	Spec      Spec
}

// Ablations returns, for each mechanism of s's kind that s has on, the
// instance with that mechanism off and everything else as in s (named
// "<s.Name>-no-<mechanism>"). A kind without mechanisms has none.
func Ablations(s Spec) ([]Ablation, error) {
	k, opts, err := Resolve(s)
	if err != nil {
		return nil, err
	}
	base := s.Base
	if base == "" {
		base = s.Name
	}
	var out []Ablation
	for _, m := range k.Mechanisms {
		v, ok := opts[m.Option]
		if !ok {
			for _, o := range k.Options {
				if o.Name == m.Option {
					v = o.Default
				}
			}
		}
		if v == m.Off {
			continue // already off in this instance
		}
		o := Options{}
		for name, x := range s.Options {
			o[name] = x
		}
		o[m.Option] = m.Off
		out = append(out, Ablation{Mechanism: m, Spec: Spec{Name: s.Name + "-no-" + m.Name, Base: base, Options: o}})
	}
	return out, nil
}

// NeedsAccountManager marks a kind paid at account-manager calls, which no
// file of results holds.
const NeedsAccountManager = "account-manager calls"

// Preset is a named instance: a kind and a set of options.
type Preset struct {
	Name    string
	Kind    string
	Doc     string
	Options Options
	// Standard presets run when a scenario names no policies.
	Standard bool
	// UseWhen is one line of advice, as Kind.UseWhen.
	UseWhen string
}

var (
	kinds   = map[string]*Kind{}
	presets = map[string]*Preset{}
)

// Register adds a kind; it is called from a policy package's init and
// panics on a duplicate name, which is a programming error.
func Register(k *Kind) {
	if _, dup := kinds[k.Name]; dup {
		panic("policy: duplicate kind " + k.Name)
	}
	kinds[k.Name] = k
}

// RegisterPreset adds a named instance of a registered kind.
func RegisterPreset(p *Preset) {
	if _, dup := presets[p.Name]; dup {
		panic("policy: duplicate preset " + p.Name)
	}
	presets[p.Name] = p
}

// Kinds returns the registered kinds sorted by name.
func Kinds() []*Kind {
	out := make([]*Kind, 0, len(kinds))
	for _, k := range kinds {
		out = append(out, k)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Presets returns the registered presets sorted by name.
func Presets() []*Preset {
	out := make([]*Preset, 0, len(presets))
	for _, p := range presets {
		out = append(out, p)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Spec names an instance: Base is a preset or kind name; Options override
// the preset's.
type Spec struct {
	Name    string
	Base    string
	Options Options
}

// Resolve returns the kind and merged options of s, or an error naming
// what is unknown.
func Resolve(s Spec) (*Kind, Options, error) {
	base := s.Base
	if base == "" {
		base = s.Name
	}
	opts := Options{}
	if p, ok := presets[base]; ok {
		for k, v := range p.Options {
			opts[k] = v
		}
		base = p.Kind
	}
	k, ok := kinds[base]
	if !ok {
		return nil, nil, fmt.Errorf("unknown policy %q%s (known: %s)", base, suggest.DidYouMean(base, Names()), strings.Join(Names(), ", "))
	}
	known := map[string]bool{}
	for _, o := range k.Options {
		known[o.Name] = true
	}
	for name, v := range s.Options {
		if !known[name] {
			return nil, nil, &OptionError{Option: name, Value: v, Reason: "unknown option of " + k.Name + " (known: " + optionNames(k) + ")"}
		}
		opts[name] = v
	}
	return k, opts, nil
}

// Needed returns what a project must have for instance s to work
// (Kind.Requires), and what of the model's truth it reads (Kind.Oracle)
// unless agentKinds, a world's agent kinds, hold the one that falsifies
// it; empty when s does not resolve.
func Needed(s Spec, agentKinds []string) (requires, oracle string) {
	k, opts, err := Resolve(s)
	if err != nil {
		return "", ""
	}
	if k.Requires != nil {
		requires = k.Requires(opts)
	}
	oracle = k.Oracle
	for _, a := range agentKinds {
		if a == k.FalsifiedBy {
			oracle = ""
		}
	}
	return requires, oracle
}

// New returns a fresh instance for s.
func New(s Spec) (Policy, error) {
	k, opts, err := Resolve(s)
	if err != nil {
		return nil, err
	}
	return k.New(opts)
}

// Standard lists the kind and preset names a scenario runs by default.
func Standard() []string {
	var out []string
	for n, k := range kinds {
		if k.Standard {
			out = append(out, n)
		}
	}
	for n, p := range presets {
		if p.Standard {
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out
}

// UseWhen is the advice of the kind or preset name, "" if it has none.
func UseWhen(name string) string {
	if p := presets[name]; p != nil {
		return p.UseWhen
	}
	if k := kinds[name]; k != nil {
		return k.UseWhen
	}
	return ""
}

// Names lists every kind and preset name, sorted.
func Names() []string {
	var out []string
	for n := range kinds {
		out = append(out, n)
	}
	for n := range presets {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

func optionNames(k *Kind) string {
	var s []string
	for _, o := range k.Options {
		s = append(s, o.Name)
	}
	return strings.Join(s, ", ")
}
