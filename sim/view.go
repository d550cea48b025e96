package sim

import (
	"github.com/creditsim/creditsim/model/hosts"
	"github.com/creditsim/creditsim/policy"
)

// serverView is what the engine stores of a result's server view: the
// fields of policy.Result that differ between the results of one
// workunit and that neither the result's hot fields nor its host hold.
// The rest show fills in when a policy, the tracer or the observer is
// shown the result: the workunit ID, project, app, rsc_fpops_est and
// rsc_fpops_bound from the workunit and the version; the host, version
// and sent time from the result's own fields; the user, team and what
// the host reported (devices, benchmarks, GPU peak) from the host as the
// scheduler saw it, which is fixed from its arrival. Storing them once
// instead of once per result is what makes a result record two whole
// cache lines. ReceivedTime, Outcome and ValidateState are among the
// result's own fields; OutputFlops is the workunit's FLOPs when the job
// ran to its end on a host that does the work (fOutput), else 0; and
// RuntimeOutlier is always false, as the engine never flags a result so.
type serverView struct {
	ID            int64
	FlopsEstimate float64
	ElapsedTime   float64
	CPUTime       float64
	CountedFlops  float64
	HAV           policy.HAVState
}

// hostReport is a host as the scheduler sees it: its user and team and
// what its client reports, fixed from its arrival.
type hostReport struct {
	user, team   int32
	ncpus, ngpus int32
	pf, pi       float64 // benchmarks per CPU
	gpuPeak      float64
}

// show writes result r's whole server view into dst and returns dst.
// r must be sent and its workunit not yet freed (the workunit's
// generation is part of the workunit ID).
func (s *Sim) show(r *result, dst *policy.Result) *policy.Result {
	w := s.wu(r.wu)
	v := &r.view
	av := &s.versions[r.vid]
	hr := &s.reported[r.host]
	*dst = policy.Result{
		ID: v.ID, WorkunitID: int64(r.wu)<<32 | int64(w.gen),
		HostID: r.host, UserID: hr.user, TeamID: hr.team,
		ProjectID: int32(av.ProjectID), AppID: int32(av.AppID), VersionID: r.vid,
		HostNCPUs: hr.ncpus, HostNGPUs: hr.ngpus,
		HostPFpops: hr.pf, HostPIops: hr.pi, HostGPUPeak: hr.gpuPeak,
		SentTime: r.sentTime, ReceivedTime: r.receivedTime(), FlopsEstimate: v.FlopsEstimate,
		ElapsedTime: v.ElapsedTime, CPUTime: v.CPUTime, CountedFlops: v.CountedFlops,
		RscFpopsEst: w.est, RscFpopsBound: s.bound(w),
		HAV: v.HAV, Outcome: r.outcome, ValidateState: r.validateState,
	}
	if r.has(fOutput) {
		dst.OutputFlops = w.flops
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
