package sim

import (
	"github.com/creditsim/creditsim/model/hosts"
	"github.com/creditsim/creditsim/model/jobs"
	"github.com/creditsim/creditsim/policy"
)

// Server holds the server settings (see scenarios.Server).
type Server struct {
	DailyResultQuota int
	ValidatorPeriod  float64
	FeederPeriod     float64
	PerfInfoPeriod   float64
	// MaxWUsToSend, GPUMultiplier and MaxNCPUs are config.xml's
	// max_wus_to_send (per CPU; 0 no limit), gpu_multiplier and
	// max_ncpus.
	MaxWUsToSend, GPUMultiplier, MaxNCPUs int
	// OneResultPerUserPerWU and OneResultPerHostPerWU are config.xml's
	// options of those names.
	OneResultPerUserPerWU, OneResultPerHostPerWU bool
	// ShmemWorkItems is the feeder's work array size (shmem_work_items).
	ShmemWorkItems int
	// MaxJobsInProgress and MaxJobsInProgressGPU limit the jobs queued or
	// running per CPU core and per GPU; 0 is no limit.
	MaxJobsInProgress    int
	MaxJobsInProgressGPU int
	// IgnoreDelayBound turns the deadline check off.
	IgnoreDelayBound bool
	// MaxClaimedCredit is the validator's --max_claimed_credit (2006 to
	// 2011): a result claiming more (ClaimedCredit) is invalid; 0 is off.
	MaxClaimedCredit float64
	// ValidatorComparesWork: the project's validator compares the work
	// measure of the outputs, so a forged one disagrees with an honest
	// replica's.
	ValidatorComparesWork bool
	// Trust is the server's record of trusted hosts and the project's
	// checks (scenarios.Trust); off when Confirmations is 0.
	Trust Trust
}

// Trust: a host is trusted after Confirmations confirmed valid results in
// a row; the project checks an agreeing group no trusted host is in with
// probability CheckRate, one a trusted host vouches for with RecheckRate.
// With PairUntrusted a workunit an untrusted host holds a result of goes
// on to trusted hosts only, once any host is trusted.
// With Escrow an untrusted host's valid results wait, uncredited, until
// it is trusted (released) or returns an invalid result (revoked); a host
// holding EscrowLimit of them gets no work.
type Trust struct {
	Confirmations          int
	CheckRate, RecheckRate float64
	PairUntrusted          bool
	Escrow                 bool
	EscrowLimit            int
	// HoldTrusted holds trusted hosts' results too, each for this many
	// seconds (0: not held).
	HoldTrusted float64
	// Audit checks what a host holds when one of its results is found
	// wrong, revoking only the wrong ones (else all are revoked).
	Audit bool
	// AbortUntrusts takes a host's trust away when it aborts a result.
	AbortUntrusts bool
	// UntrustedQuota caps an untrusted host's max_jobs_per_day (0: no cap).
	UntrustedQuota int
	// QuotaTenure holds a host to UntrustedQuota for this many seconds
	// after it arrives, trusted or not (0: only while untrusted).
	QuotaTenure float64
}

// Config is one replication of a scenario.
type Config struct {
	// Seed is this replication's seed (already hashed from the master
	// seed and replication number).
	Seed     uint64
	Duration float64 // seconds
	Server   Server
	Hosts    *hosts.Config
	Projects []jobs.Project
	// Policies are fresh instances, one per policy of the scenario.
	Policies []policy.Policy
	// Observer receives the truth of each finished result and the daily
	// state; it may be nil.
	Observer Observer
	// SampleHosts says which hosts the daily state follows.
	SampleHosts hosts.SampleSpec
	// Tracer, if set, sees every event the policies see, right after
	// them and in the same order (run --trace).
	Tracer Tracer
}

// Tracer sees what the policies see. Validated gets the credit each
// policy granted the workunit (for a late result, the canonical credit).
type Tracer interface {
	Sent(r *policy.Result)
	Reported(r *policy.Result)
	Validated(v *policy.Validation, credit []float64)
	Tick(t policy.Tick)
}

// Observer sees what a real server never does. Its methods are called
// from the simulation goroutine, in time order; pointers are valid only
// during the call.
type Observer interface {
	// ResultDone is called once per sent result when its fate is final
	// (granted, invalid, error, timeout) and, with runtime accounting,
	// its runtime has been paid for or can no longer be (Record.Time is
	// when the fate became final).
	ResultDone(r *Record)
	// Day is called at each day boundary and at the end.
	Day(d *DayState)
}

// SlotPrefetcher is implemented by observers that keep state per
// workunit slot (Record.Slot). Before a result of the slot's workunit is
// recorded, the engine calls PrefetchSlot with stage 0 and, a step
// later, stage 1, so that the observer can ask for what ResultDone will
// read in two dependent steps. A hint: it must not change anything the
// observer computes.
type SlotPrefetcher interface {
	PrefetchSlot(slot int32, stage int)
}

// Record is a finished result: the server view, the truth, and the credit
// each policy granted it.
type Record struct {
	View    *policy.Result
	Host    *hosts.Host
	Version *policy.AppVersion
	// Flops is the FLOPs really done (0 for a fake result); for a failed
	// or timed-out result, including one abandoned by a host that left,
	// the FLOPs done before it stopped (all of them for a job that
	// finished but was never reported).
	Flops float64
	// Efficiency is the host's actual / peak FLOPS for this version.
	Efficiency float64
	// DeviceSeconds is elapsed time x (CPU + GPU usage), the device time
	// allocated to the job.
	DeviceSeconds float64
	// Granted[p] is the credit policy p granted (0 unless valid); for a
	// runtime-accounting policy, what its account-manager calls paid for
	// the time the result ran, whatever its fate.
	Granted []float64
	// EstRuntime is the runtime the server estimated at send time,
	// R(J, H) = E(J) x ETmean(H, V) once the host has 10 samples of the
	// version, else E(J) / peak FLOPS; Runtime is the true time it ran.
	EstRuntime, Runtime float64
	// Replicas is how many results the workunit is meant to get
	// (target_nresults; 1 when adaptive replication sends it once).
	Replicas int
	// Time is when the result's fate became final. With runtime
	// accounting the record can come later: once the account manager has
	// paid (or can no longer pay) for the time the result ran.
	Time float64
	// Slot is where the workunit is stored while it is in progress: the
	// same for all its results, and reused once all of them are recorded;
	// SlotGen tells the slot's successive workunits apart. An observer
	// can keep per-workunit state in a dense table by slot instead of a
	// map by workunit ID.
	Slot    int32
	SlotGen uint32
}

// DayState is the state at a day boundary.
type DayState struct {
	Day   int     // days since the start
	Time  float64 // seconds
	Final bool    // the end of the run
	Sim   *Sim
}
