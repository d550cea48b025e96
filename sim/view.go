package sim

import (
	"github.com/creditsim/creditsim/boinc"
	"github.com/creditsim/creditsim/model/hosts"
	"github.com/creditsim/creditsim/policy"
)

// serverView is what the engine stores of a result's server view apart
// from the record's own fields: the fields of policy.Result that are
// fixed when the result is sent or updated by the validator, and that
// nothing else holds. The rest show fills in when a policy, the tracer
// or the observer is shown the result: the workunit ID, project, app,
// rsc_fpops_est and rsc_fpops_bound from the workunit and the version;
// the host, version and sent time from the result's own fields; the
// user, team and what the host reported (devices, benchmarks, GPU peak)
// from the host as the scheduler saw it, which is fixed from its
// arrival. ID, ReceivedTime, CountedFlops, Outcome and ValidateState are
// among the record's own fields (some sharing a slot with a field dead
// by then); ElapsedTime and CPUTime are computed from the time the job
// ran (reportedTimes); OutputFlops is the workunit's FLOPs when the job
// ran to its end on a host that does the work (fOutput), else 0; and
// RuntimeOutlier is always false, as the engine never flags a result so.
// Storing them once instead of once per result is what makes a result
// record 96 bytes.
type serverView struct {
	FlopsEstimate float64
	HAV           policy.HAVState
}

// hostReport is a host as the scheduler sees it: its user and team and
// what its client reports, fixed from its arrival, and its true CPU
// count (which a multi-threaded job's CPU time is computed with).
type hostReport struct {
	user, team   int32
	ncpus, ngpus int32
	pf, pi       float64 // benchmarks per CPU
	gpuPeak      float64
	trueNCPUs    int32
	// outFactor is how many times the FLOPs of its workunit a job's
	// output claims to hold when it ran to its end: 1, or a forger's
	// k x its work fraction.
	outFactor float64
}

// show writes result r's whole server view into dst and returns dst.
// r must be sent and its workunit not yet freed (the workunit's
// generation is part of the workunit ID).
func (s *Sim) show(r *result, dst *policy.Result) *policy.Result {
	w := s.wu(r.wu)
	v := &r.view
	av := &s.versions[r.vid]
	hr := &s.reported[r.host]
	elapsed, cpu := s.reportedTimes(r)
	*dst = policy.Result{
		ID: s.viewID(r), WorkunitID: int64(r.wu)<<32 | int64(w.gen),
		HostID: r.host, UserID: hr.user, TeamID: hr.team,
		ProjectID: int32(av.ProjectID), AppID: int32(av.AppID), VersionID: r.vid,
		HostNCPUs: hr.ncpus, HostNGPUs: hr.ngpus,
		HostPFpops: hr.pf, HostPIops: hr.pi, HostGPUPeak: hr.gpuPeak,
		SentTime: r.sentTime, ReceivedTime: r.receivedTime(), FlopsEstimate: v.FlopsEstimate,
		ElapsedTime: elapsed, CPUTime: cpu, CountedFlops: r.countedFlops(),
		RscFpopsEst: w.est, RscFpopsBound: s.bound(w),
		HAV: v.HAV, Outcome: r.outcome(), ValidateState: r.validateState(),
	}
	if r.has(fOutput) {
		dst.OutputFlops = w.flops * hr.outFactor
	}
	if s.cfg != nil && s.cfg.Server.Trust.Confirmations > 0 {
		dst.ServerTrusted = s.hosts[r.host].trusted
	}
	if r.has(fClaimed) {
		s.showClaim(r, dst)
	}
	return dst
}

// showClaim puts a one_time_claim host's absurd value where it put it in
// result r's view: its GPU peak or its CPU benchmarks (oneTimeClaim).
func (s *Sim) showClaim(r *result, dst *policy.Result) {
	b := s.hosts[r.host].h.Behaviour.Find(hosts.OneTimeClaim)
	if b.Channel == "gpu_peak" {
		dst.HostGPUPeak = b.Claim
	} else {
		dst.HostPFpops, dst.HostPIops = b.Claim, b.Claim
	}
}

// shown returns result r's server view in the engine's one scratch
// view, for a call that does not keep it.
func (s *Sim) shown(r *result) *policy.Result { return s.show(r, &s.scratchView) }

// reportedPeak is policy.ReportedPeak of result r's view.
func (s *Sim) reportedPeak(r *result, av *policy.AppVersion) (cpu, gpu float64) {
	hr := &s.reported[r.host]
	pf, gpuPeak := hr.pf, hr.gpuPeak
	if r.has(fClaimed) {
		if b := s.hosts[r.host].h.Behaviour.Find(hosts.OneTimeClaim); b.Channel == "gpu_peak" {
			gpuPeak = b.Claim
		} else {
			pf = b.Claim
		}
	}
	return policy.ReportedPeakOf(hr.ncpus, pf, gpuPeak, av)
}

// deadline returns result r's report deadline: its sent time plus its
// app's delay bound, as the scheduler set it.
func (s *Sim) deadline(r *result) float64 { return r.sentTime + s.delayOf[r.vid] }

// viewID is result r's ID in its view: the number of results sent when
// it was sent. The record keeps its low 32 bits; the high ones are the
// latest send's, less one where the low bits have wrapped since.
func (s *Sim) viewID(r *result) int64 {
	id := s.nResults&^0xffffffff | int64(r.id)
	if id > s.nResults {
		id -= 1 << 32
	}
	return id
}

// reportedTimes returns result r's ElapsedTime and CPUTime as the
// server has them: 0 until the job has ended on its host; then the
// time it ran and that times its CPUs and its version's CPU-time
// fraction, as an honest client reports them; once the scheduler has
// the report, as it stores them (checkTimes). Computing them takes the
// same operations in the same order as setting them did, so the values
// are the same bits. A host that reports other times (fAltTimes) has
// its values kept in altTimes, checked when reported.
func (s *Sim) reportedTimes(r *result) (elapsed, cpu float64) {
	switch {
	case !r.has(fTimes):
		return 0, 0
	case r.has(fAltTimes):
		t := s.altTimes[r.id]
		return t[0], t[1]
	}
	hr := &s.reported[r.host]
	v := &s.versions[r.vid]
	elapsed = r.ran
	cpu = elapsed * hr.cpusRun(v) * s.verCfg[r.vid].CPUTimeFraction
	if s.clamped(r) {
		elapsed, cpu = s.checkTimes(r, elapsed, cpu, r.receivedTime())
	}
	return elapsed, cpu
}

// clamped reports whether result r's times have been checked: the
// scheduler checks a result the client reports, not one that timed out.
func (s *Sim) clamped(r *result) bool {
	return r.has(fReceived) && r.outcome() != policy.NoReply
}

// checkTimes is boinc.CheckTimes for result r's times reported at
// received: its version's kind and the CPU count its host reports.
func (s *Sim) checkTimes(r *result, elapsed, cpu, received float64) (float64, float64) {
	return boinc.CheckTimes(elapsed, cpu, boinc.Report{Sequential: s.seq[r.vid], Sent: r.sentTime, Received: received,
		NCPUs: float64(s.reported[r.host].ncpus)})
}

// cpusRun is hostState.cpusRun from what the host reported and its true
// CPU count.
func (hr *hostReport) cpusRun(v *policy.AppVersion) float64 {
	return cpusRun(v, float64(hr.ncpus), float64(hr.trueNCPUs))
}
