package scenarios

import (
	"fmt"
	"math"
	"reflect"
	"regexp"
	"strings"

	"github.com/creditsim/creditsim/boinc"
	"github.com/creditsim/creditsim/model/hosts"
	"github.com/creditsim/creditsim/model/jobs"
	"github.com/creditsim/creditsim/model/param"
	"github.com/creditsim/creditsim/policy"
	"go.yaml.in/yaml/v3"
)

// Scenario is one simulation setup. Field names are the YAML keys.
type Scenario struct {
	Name        string `yaml:"name"`
	Description string `yaml:"description,omitempty"`
	// Seed is the master seed; replication r uses hash(seed, r).
	Seed         uint64         `yaml:"seed"`
	Replications int            `yaml:"replications"`
	Duration     param.Duration `yaml:"duration"`
	// Warmup: results sent before it are not counted in the figures.
	Warmup param.Duration `yaml:"warmup"`
	// ReferenceScale is the Cobblestones per GFLOPS-day at which deserved
	// credit D is computed, whatever each policy's own scale.
	ReferenceScale float64        `yaml:"reference_scale"`
	Policies       []PolicySpec   `yaml:"policies"`
	Server         Server         `yaml:"server"`
	Hosts          hosts.Config   `yaml:"hosts"`
	Projects       []jobs.Project `yaml:"projects"`
	Output         Output         `yaml:"output"`
	// Claims are figures the scenario says a run shows, with their
	// bounds; `creditsim scenarios --figures` checks them.
	Claims []Claim `yaml:"claims,omitempty"`
}

// Claim is one figure a scenario says a run shows: a policy instance's
// figure (summary.json's dotted name, e.g. cheat_ratio.fake_results),
// or its ratio to another figure (Vs), within [Min, Max]. Set lists
// overrides of the run it is checked on (--set syntax), and Variant says
// in a few words what they change.
type Claim struct {
	Text    string     `yaml:"text"`
	Policy  string     `yaml:"policy"`
	Figure  string     `yaml:"figure"`
	Vs      *FigureRef `yaml:"vs,omitempty"`
	Min     *float64   `yaml:"min,omitempty"`
	Max     *float64   `yaml:"max,omitempty"`
	Set     []string   `yaml:"set,omitempty"`
	Variant string     `yaml:"variant,omitempty"`
}

// FigureRef names one policy instance's figure.
type FigureRef struct {
	Policy string `yaml:"policy"`
	Figure string `yaml:"figure"`
}

// PolicySpec names a policy instance: a kind or preset (Base, default the
// name) and options that override the preset's. A bare string is a name.
type PolicySpec struct {
	Name    string            `yaml:"name"`
	Base    string            `yaml:"base,omitempty"`
	Options map[string]string `yaml:"options,omitempty"`
}

// UnmarshalYAML accepts "v1peak" or {name: ..., base: ..., options: ...}.
func (p *PolicySpec) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind == yaml.ScalarNode {
		*p = PolicySpec{Name: n.Value}
		return nil
	}
	type plain PolicySpec
	return n.Decode((*plain)(p))
}

// Spec converts to the registry's form.
func (p PolicySpec) Spec() policy.Spec {
	return policy.Spec{Name: p.Name, Base: p.Base, Options: policy.Options(p.Options)}
}

// Server holds the server-side settings shared by every project, named
// as in BOINC's config.xml. Defaults are those of the config.xml that
// BOINC's make_project writes for a new project (max_wus_to_send 50,
// daily_result_quota 500) and, for options it does not write, BOINC's
// code defaults (sched_config.cpp), with one exception:
// one_result_per_user_per_wu is on, where make_project writes 0, because
// with it off the scheduler often sends both replicas of a workunit to
// one host (its work array holds them side by side), and replication
// then checks nothing.
type Server struct {
	// DailyResultQuota is config.daily_result_quota: the initial and
	// maximum max_jobs_per_day of a (host, app version), which the
	// scheduler scales by the CPUs the host reports (or its GPUs, times
	// gpu_multiplier when set). make_project: 500.
	DailyResultQuota int `yaml:"daily_result_quota"`
	// ValidatorPeriod is how often the validator scans for workunits.
	ValidatorPeriod param.Duration `yaml:"validator_period"`
	// FeederPeriod is the main feeder's app-version update period (600 s).
	FeederPeriod param.Duration `yaml:"feeder_period"`
	// PerfInfoPeriod is how often the hosts' benchmark percentiles, which
	// cap reported CPU speed, are recomputed.
	PerfInfoPeriod param.Duration `yaml:"perf_info_period"`
	// MaxWUsToSend is config.max_wus_to_send: a reply holds at most
	// max_wus_to_send x (CPUs + gpu_multiplier x GPUs) jobs, the CPUs as
	// the host reports them (at least 1, at most max_ncpus). make_project:
	// 50; BOINC's code: 10.
	MaxWUsToSend int `yaml:"max_wus_to_send"`
	// GPUMultiplier is config.gpu_multiplier: a GPU counts as this many
	// CPUs in the reply limit and multiplies a GPU version's daily quota;
	// 0 (BOINC's default) leaves GPUs out of the reply limit.
	GPUMultiplier int `yaml:"gpu_multiplier"`
	// MaxNCPUs is config.max_ncpus: the most CPUs a host's reply and
	// in-progress limits count (BOINC's default 64).
	MaxNCPUs int `yaml:"max_ncpus"`
	// MaxJobsPerRPC was creditsim's own cap on one reply; it is refused
	// with a message naming max_wus_to_send.
	MaxJobsPerRPC *int `yaml:"max_jobs_per_rpc,omitempty"`
	// MaxJobsInProgress is BOINC's max_wus_in_progress: at most this many
	// jobs queued or running per CPU core on a host, as it reports them
	// (0: no limit, BOINC's default). MaxJobsInProgressGPU is
	// max_wus_in_progress_gpu, per GPU. A client that hits the limit gets
	// no work and backs off.
	MaxJobsInProgress    int `yaml:"max_jobs_in_progress"`
	MaxJobsInProgressGPU int `yaml:"max_jobs_in_progress_gpu"`
	// IgnoreDelayBound is config.ignore_delay_bound: the scheduler sends
	// work without checking it can be done before its deadline.
	IgnoreDelayBound bool `yaml:"ignore_delay_bound"`
	// OneResultPerUserPerWU is config.one_result_per_user_per_wu: a
	// workunit's results go to distinct users (creditsim's default: on;
	// make_project writes 0, off).
	// OneResultPerHostPerWU is one_result_per_host_per_wu: to distinct
	// hosts (BOINC's default: off). With both off a host may be sent two
	// results of one workunit.
	OneResultPerUserPerWU bool `yaml:"one_result_per_user_per_wu"`
	OneResultPerHostPerWU bool `yaml:"one_result_per_host_per_wu"`
	// ShmemWorkItems is config.shmem_work_items: the slots of the feeder's
	// shared-memory work array (BOINC's default, MAX_WU_RESULTS: 100),
	// shared among the apps by weight as the feeder's --allapps does.
	ShmemWorkItems int `yaml:"shmem_work_items"`
	// MaxClaimedCredit is the validator's --max_claimed_credit, which BOINC
	// had from 2006 to 2011: a result whose claimed credit (the first
	// system's claim: counted FLOPs, else CPU time x the mean benchmark, at
	// 100 per GFLOPS-day) is above it is invalid. 0 (default) is off.
	MaxClaimedCredit float64 `yaml:"max_claimed_credit"`
	// ValidatorComparesWork says the project's validator compares the
	// measure of work an output holds (the iterations or candidates that
	// post-assigned credit reads), so a forged_output result disagrees
	// with an honest replica (default); false: it compares the science
	// only, and a forger that did the whole job passes.
	ValidatorComparesWork bool `yaml:"validator_compares_work"`
	// Trust is the server's own record of the hosts it trusts, and the
	// project's checks that build it: a defence against colluders who
	// validate one another. Off unless confirmations > 0.
	Trust Trust `yaml:"trust,omitempty"`
}

// Trust is a server option (not a credit policy): every credit system of
// a run sees the same validations. A host becomes trusted after
// Confirmations valid results in a row, each confirmed by a trusted host
// of another user or by the project's own check; an invalid result takes
// its trust away. An agreeing group that holds no trusted host is checked
// by the project (it computes the job itself, knowing the right output)
// with probability CheckRate, a group a trusted host vouches for with
// probability RecheckRate. A group the check finds wrong is invalid and
// its workunit asks for another result. With PairUntrusted, once the
// server trusts some host, a workunit one untrusted host holds a result
// of goes on to trusted hosts only, so untrusted hosts never form a
// quorum among themselves. With Escrow, an untrusted host's valid
// results are credited only when the server comes to trust it, and
// revoked if it returns an invalid result first; a host holding
// EscrowLimit results in escrow (0: DefaultEscrowLimit) gets no new work
// until they are released. With adaptive replication, only trusted hosts
// get jobs sent once.
type Trust struct {
	Confirmations int     `yaml:"confirmations"`
	CheckRate     float64 `yaml:"check_rate"`
	RecheckRate   float64 `yaml:"recheck_rate"`
	PairUntrusted bool    `yaml:"pair_untrusted"`
	Escrow        bool    `yaml:"escrow"`
	EscrowLimit   int     `yaml:"escrow_limit"`
	// HoldTrusted holds a trusted host's results in escrow too, each for
	// this long (0: not held), and revokes all it holds if one of its
	// results is found wrong meanwhile: a host that earns trust and then
	// cheats keeps nothing it made in the last HoldTrusted.
	HoldTrusted param.Duration `yaml:"hold_trusted"`
	// Audit: when a trusted host's result is found wrong, the project
	// checks every result the host holds (HoldTrusted), pays the right
	// ones at once and revokes only the wrong ones, instead of revoking
	// all: an honest host's rare wrong answer no longer costs it its held
	// week, for a check per result held. An untrusted host's escrow is
	// still revoked whole.
	Audit bool `yaml:"audit,omitempty"`
	// AbortUntrusts: a result its host aborted takes the host's trust
	// away, as an invalid one does (with escrow, what it holds is
	// revoked). A host that aborts the jobs it does not want (cherry
	// picking) then stays untrusted: paired with trusted hosts, it can
	// no longer use up a workunit's max_total_results among its kind,
	// and with escrow it is paid nothing. The price: a volunteer who
	// aborts a job starts earning trust again.
	AbortUntrusts bool `yaml:"abort_untrusts,omitempty"`
	// UntrustedQuota, when above 0, is the most jobs a day per CPU (or
	// GPU) the scheduler sends an untrusted host of a version, whatever
	// its max_jobs_per_day: BOINC's quota doubles with each success, so a
	// host that aborts most of what it gets keeps all of it. The price:
	// a new honest host is held to it until trusted.
	UntrustedQuota int `yaml:"untrusted_quota,omitempty"`
	// QuotaTenure holds a host record to untrusted_quota for this long
	// after it registers, trusted or not. A new identity starts a fresh
	// day's quota, and where the project's checks trust it within
	// minutes, that is max_jobs_per_day again: where honest hosts reach
	// their daily quota, accounts that register anew several times a day
	// did more work than their machines do honestly. The price: a new
	// honest host is held to untrusted_quota for that long.
	QuotaTenure param.Duration `yaml:"quota_tenure,omitempty"`
}

// DefaultEscrowLimit is the most results a host holds in escrow when the
// scenario does not say.
const DefaultEscrowLimit = 500

// Output holds settings of what a run writes.
type Output struct {
	// SampleHosts says which hosts the daily time series and per-job
	// plots follow: default, a number, or counts per kind.
	SampleHosts hosts.SampleSpec `yaml:"sample_hosts"`
}

// Default returns the scenario defaults that a file's values override.
func Default() Scenario {
	var pols []PolicySpec
	for _, n := range policy.Standard() {
		pols = append(pols, PolicySpec{Name: n})
	}
	return Scenario{
		Seed:           1,
		Replications:   3,
		Duration:       param.Duration(30 * boinc.SecondsPerDay),
		Warmup:         param.Duration(7 * boinc.SecondsPerDay),
		ReferenceScale: policy.ScaleServer,
		Policies:       pols,
		Server: Server{
			DailyResultQuota: 500,
			ValidatorPeriod:  param.Duration(60),
			FeederPeriod:     param.Duration(600),
			PerfInfoPeriod:   param.Duration(boinc.SecondsPerDay),
			MaxWUsToSend:     50,
			MaxNCPUs:         64,
			ShmemWorkItems:   100,
			// make_project writes 0; see Server.
			OneResultPerUserPerWU: true,
			ValidatorComparesWork: true,
		},
		Hosts:  hosts.Default(),
		Output: Output{},
	}
}

// MaxShmemWorkItems bounds shmem_work_items: a scheduler scans every slot
// of the array for each request, so a huge array is a modelling error.
const MaxShmemWorkItems = 100000

// LongestDelayBound returns the longest delay bound of the scenario's
// apps in seconds and the field that sets it: the server sends no work
// in the last one, so every result sent can resolve.
func (s *Scenario) LongestDelayBound() (seconds float64, field string) {
	for i, p := range s.Projects {
		for j, a := range p.Apps {
			if float64(a.DelayBound) > seconds {
				seconds, field = float64(a.DelayBound), fmt.Sprintf("projects[%d].apps[%d].delay_bound", i, j)
			}
		}
	}
	return seconds, field
}

// Validate checks the whole scenario and returns every problem found.
func (s *Scenario) Validate() []param.FieldError {
	k := param.NewCheck()
	checkFinite(k, reflect.ValueOf(s).Elem(), "")
	if len(k.Errors()) > 0 {
		// Sums, bounds and comparisons of infinite values would only
		// repeat the problem in other words.
		return k.Errors()
	}
	s.validateRun(k)
	s.validatePolicies(k)
	s.validateClaims(k)
	s.Server.validate(k.Field("server"))
	s.Hosts.Validate(k.Field("hosts"))
	platforms := map[string]bool{}
	for _, p := range s.Hosts.Platforms {
		platforms[p.Name] = true
	}
	jobs.Validate(k.Field("projects"), s.Projects, platforms)
	if len(k.Errors()) == 0 {
		// Only for input otherwise valid: it would repeat their errors.
		s.checkReachable(k)
	}
	s.Output.SampleHosts.Validate(k.Field("output"))
	return k.Errors()
}

// validateRun checks the run's name, replications, times and scale.
func (s *Scenario) validateRun(k param.Check) {
	if strings.TrimSpace(s.Name) == "" {
		k.Fail("name", s.Name, "a scenario needs a name")
	} else if reason := FileNameProblem(s.Name); reason != "" {
		k.Fail("name", s.Name, reason+" (it names the default output folder)")
	}
	if s.Replications < 1 {
		k.Fail("replications", s.Replications, "must be at least 1")
	}
	if s.Replications > 1000 {
		k.Fail("replications", s.Replications, "at most 1000")
	}
	if !(s.Duration > 0) {
		k.Fail("duration", s.Duration, "a run must last longer than 0")
	} else if float64(s.Duration) > param.MaxRunDays*param.Day {
		k.Fail("duration", s.Duration, fmt.Sprintf("at most %d days (ten years) of simulated time", param.MaxRunDays))
	}
	if s.Warmup >= s.Duration && s.Duration > 0 {
		k.Fail("warmup", s.Warmup, "must be shorter than duration ("+param.FormatDuration(float64(s.Duration))+")")
	}
	// The server stops sending one delay bound before the end so that
	// every counted result can resolve; the window must not be empty.
	longest, where := s.LongestDelayBound()
	if s.Warmup < s.Duration && s.Warmup >= 0 && float64(s.Warmup)+longest >= float64(s.Duration) {
		k.Fail("duration", s.Duration, fmt.Sprintf("must exceed warmup (%s) plus the longest delay bound (%s, %s), or no result can be counted",
			param.FormatDuration(float64(s.Warmup)), where, param.FormatDuration(longest)))
	}
	if !(s.ReferenceScale > 0 && s.ReferenceScale <= 1e6) {
		// BOINC's scales are 100 and 200; a scale of 1e300 would carry
		// deserved credit past what a float can sum.
		k.Fail("reference_scale", s.ReferenceScale, "must be above 0 and at most 1e6 Cobblestones per GFLOPS-day (BOINC uses 100 or 200)")
	}
}

// validatePolicies checks each policy instance: a name, once, that can
// name files, and options its kind knows.
func (s *Scenario) validatePolicies(k param.Check) {
	if len(s.Policies) == 0 {
		k.Fail("policies", param.Raw("[]"), "name at least one policy (known: "+strings.Join(policy.Names(), ", ")+")")
	}
	seen := map[string]bool{}
	for i, p := range s.Policies {
		pk := k.Field("policies").Index(i)
		if p.Name == "" {
			pk.Fail("name", p.Name, "a policy instance needs a name")
			continue
		}
		if seen[p.Name] {
			pk.Fail("name", p.Name, "policy instance named twice")
		}
		if reason := FileNameProblem(p.Name); reason != "" {
			pk.Fail("name", p.Name, reason+" (it names output files)")
		}
		seen[p.Name] = true
		if _, err := policy.New(p.Spec()); err != nil {
			if oe, ok := err.(*policy.OptionError); ok {
				pk.Field("options").Fail(oe.Option, oe.Value, oe.Reason)
			} else if p.Base != "" {
				pk.Fail("base", p.Base, err.Error())
			} else {
				pk.Fail("name", p.Name, err.Error())
			}
		}
	}
}

// validateClaims checks that each claim says what it shows, of which
// figure and policy, and gives a bound.
func (s *Scenario) validateClaims(k param.Check) {
	for i, c := range s.Claims {
		ck := k.Field("claims").Index(i)
		if c.Text == "" {
			ck.Fail("text", c.Text, "say in words what the claim shows")
		}
		if c.Figure == "" {
			ck.Fail("figure", c.Figure, "name a figure of summary.json")
		}
		// A claim about a policy the run leaves out (--policies) is not an
		// error here: checking it finds the figure undefined.
		if c.Policy == "" {
			ck.Fail("policy", c.Policy, "name the policy instance the figure is of")
		}
		if c.Vs != nil && (c.Vs.Policy == "" || c.Vs.Figure == "") {
			ck.Fail("vs", param.Raw("{}"), "name a policy instance and a figure")
		}
		if len(c.Set) > 0 && c.Variant == "" {
			ck.Fail("variant", c.Variant, "say in a few words what set changes")
		}
		if c.Min == nil && c.Max == nil {
			ck.Fail("min", param.Raw("(none)"), "give min, max or both")
		}
		if c.Min != nil && c.Max != nil && !(*c.Min <= *c.Max) {
			ck.Fail("max", *c.Max, fmt.Sprintf("is below min (%g)", *c.Min))
		}
	}
}

// validate checks the server's options.
func (sv Server) validate(k param.Check) {
	if sv.DailyResultQuota < 1 {
		k.Fail("daily_result_quota", sv.DailyResultQuota, "must be at least 1")
	}
	k.DurationRange("validator_period", sv.ValidatorPeriod, param.Second, param.Day)
	k.DurationRange("feeder_period", sv.FeederPeriod, param.Second, param.Day)
	k.DurationRange("perf_info_period", sv.PerfInfoPeriod, param.Minute, 365*param.Day)
	if sv.MaxJobsPerRPC != nil {
		k.Fail("max_jobs_per_rpc", *sv.MaxJobsPerRPC,
			"is gone: BOINC's limit is per CPU, server.max_wus_to_send (a reply holds max_wus_to_send x (CPUs + gpu_multiplier x GPUs) jobs)")
	}
	if sv.MaxWUsToSend < 0 {
		k.Fail("max_wus_to_send", sv.MaxWUsToSend, "must be 0 (no limit) or more")
	}
	if sv.GPUMultiplier < 0 {
		k.Fail("gpu_multiplier", sv.GPUMultiplier, "must be 0 (GPUs not counted) or more")
	}
	if sv.MaxNCPUs < 1 {
		k.Fail("max_ncpus", sv.MaxNCPUs, "must be at least 1")
	}
	if sv.ShmemWorkItems < 1 || sv.ShmemWorkItems > MaxShmemWorkItems {
		k.Fail("shmem_work_items", sv.ShmemWorkItems, fmt.Sprintf("must be 1 to %d", MaxShmemWorkItems))
	}
	k.NonNegative("max_claimed_credit", sv.MaxClaimedCredit)
	if sv.MaxJobsInProgress < 0 {
		k.Fail("max_jobs_in_progress", sv.MaxJobsInProgress, "must be 0 (no limit) or more")
	}
	if sv.MaxJobsInProgressGPU < 0 {
		k.Fail("max_jobs_in_progress_gpu", sv.MaxJobsInProgressGPU, "must be 0 (no limit) or more")
	}
	sv.Trust.validate(k.Field("trust"))
}

// validate checks the trust options: off (confirmations 0) takes no rates.
func (t Trust) validate(k param.Check) {
	if t.Confirmations < 0 || t.Confirmations > 10000 {
		k.Fail("confirmations", t.Confirmations, "must be 0 (off) to 10000")
	}
	k.Range("check_rate", t.CheckRate, 0, 1)
	k.Range("recheck_rate", t.RecheckRate, 0, 1)
	if t.EscrowLimit < 0 || t.EscrowLimit > 100000 {
		k.Fail("escrow_limit", t.EscrowLimit, fmt.Sprintf("must be 0 (the default, %d) to 100000", DefaultEscrowLimit))
	}
	k.DurationRange("hold_trusted", t.HoldTrusted, 0, 365*param.Day)
	if t.UntrustedQuota < 0 || t.UntrustedQuota > 100000 {
		k.Fail("untrusted_quota", t.UntrustedQuota, "must be 0 (no cap) to 100000 jobs a day per CPU")
	}
	k.DurationRange("quota_tenure", t.QuotaTenure, 0, 365*param.Day)
	if t.QuotaTenure > 0 && t.UntrustedQuota == 0 {
		k.Fail("quota_tenure", t.QuotaTenure, "holds a new host to untrusted_quota: give untrusted_quota (e.g. 30)")
	}
	if t.Audit && !t.Escrow {
		k.Fail("audit", t.Audit, "checks what a host holds in escrow: needs escrow: true")
	}
	if t.HoldTrusted > 0 && !t.Escrow {
		k.Fail("hold_trusted", t.HoldTrusted, "holds trusted hosts' credit in escrow: needs escrow: true")
	}
	if t.Confirmations == 0 && (t.CheckRate > 0 || t.RecheckRate > 0 || t.PairUntrusted || t.Escrow || t.EscrowLimit > 0 || t.AbortUntrusts || t.UntrustedQuota != 0) {
		k.Fail("confirmations", t.Confirmations, "is 0, so trust is off and its other options do nothing: give confirmations (e.g. 10)")
	}
}

// safeName is the set of names that become file names.
var safeName = regexp.MustCompile(`^[A-Za-z0-9_][A-Za-z0-9._-]*$`)

// FileNameProblem says why a name cannot become a file name ("" when it
// can): letters, digits, '-', '_' and '.' only, no leading dot, at most
// 64 characters.
func FileNameProblem(name string) string {
	switch {
	case len(name) > 64:
		return "longer than 64 characters"
	case !safeName.MatchString(name):
		return "may hold only letters, digits, '-', '_' and '.', and may not start with '.'"
	}
	return ""
}

// checkFinite reports every number of v (a scenario value) that is NaN or
// infinite, by its YAML path, except an agent's claim, where .inf
// deliberately tests a policy's sanity checks.
func checkFinite(k param.Check, v reflect.Value, path string) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			checkFinite(k, v.Elem(), path)
		}
	case reflect.Struct:
		t := v.Type()
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			if !f.IsExported() {
				continue
			}
			name := strings.Split(f.Tag.Get("yaml"), ",")[0]
			if name == "" || name == "-" {
				continue
			}
			if name == "claim" && strings.Contains(path, "agents[") {
				continue
			}
			checkFinite(k, v.Field(i), join(path, name))
		}
	case reflect.Slice, reflect.Array:
		for i := 0; i < v.Len(); i++ {
			checkFinite(k, v.Index(i), fmt.Sprintf("%s[%d]", path, i))
		}
	case reflect.Map:
		for _, key := range v.MapKeys() {
			checkFinite(k, v.MapIndex(key), join(path, fmt.Sprint(key.Interface())))
		}
	case reflect.Float32, reflect.Float64:
		if x := v.Float(); math.IsNaN(x) || math.IsInf(x, 0) {
			failNotFinite(k, path, x)
		}
	}
}

// failNotFinite fails the field at path for x, NaN or infinite, written
// as YAML writes it.
func failNotFinite(k param.Check, path string, x float64) {
	c, field := k, path
	if i := strings.LastIndex(path, "."); i >= 0 {
		c, field = k.Field(path[:i]), path[i+1:]
	}
	text := ".nan"
	if math.IsInf(x, 1) {
		text = ".inf"
	} else if math.IsInf(x, -1) {
		text = "-.inf"
	}
	c.Fail(field, param.Raw(text), "must be a finite number")
}

// checkReachable fails an app no host can ever run: none of its versions
// is for a platform hosts have, on a device they have, released before
// the end.
func (s *Scenario) checkReachable(k param.Check) {
	platform := map[string]bool{}
	for _, p := range s.Hosts.Platforms {
		platform[p.Name] = platform[p.Name] || p.Share > 0
	}
	vendor := map[string]bool{}
	if s.Hosts.GPU.Share > 0 {
		for _, v := range s.Hosts.GPU.Vendors {
			vendor[v.Vendor] = vendor[v.Vendor] || v.Share > 0
		}
	}
	for pi, p := range s.Projects {
		for ai, a := range p.Apps {
			ok := false
			for _, v := range a.Versions {
				res := v.Resource
				if res == "" {
					res = "cpu"
				}
				ok = ok || platform[v.Platform] && (res == "cpu" || vendor[res]) &&
					float64(v.Release) < float64(s.Duration) && (!v.Anonymous || v.AnonymousShare > 0)
			}
			if !ok && len(a.Versions) > 0 {
				k.Field("projects").Index(pi).Field("apps").Index(ai).Fail("versions", param.Raw(a.Name),
					"no host can run any version of this app (no host has its platform and device, or it is released after the end)")
			}
		}
	}
}
