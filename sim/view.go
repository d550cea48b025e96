package sim

import "github.com/creditsim/creditsim/policy"

// serverView is what the engine stores of a result's server view: the
// fields of policy.Result that differ between the results of one
// workunit. The rest (workunit ID, project, app, rsc_fpops_est and
// rsc_fpops_bound) the workunit and the version already hold, and show
// fills them in when a policy, the tracer or the observer is shown the
// result. Storing them once per workunit instead of once per result is
// what makes a result record four whole cache lines.
type serverView struct {
	ID        int64
	HostID    int32
	UserID    int32
	TeamID    int32
	VersionID int32
	HostNCPUs int32
	HostNGPUs int32

	HostPFpops  float64
	HostPIops   float64
	HostGPUPeak float64

	SentTime      float64
	ReceivedTime  float64
	FlopsEstimate float64

	ElapsedTime  float64
	CPUTime      float64
	CountedFlops float64
	OutputFlops  float64

	HAV            policy.HAVState
	Outcome        policy.Outcome
	ValidateState  policy.ValidateState
	RuntimeOutlier bool
}

// show writes result r's whole server view into dst and returns dst.
// r must be sent and its workunit not yet freed (the workunit's
// generation is part of the workunit ID).
func (s *Sim) show(r *result, dst *policy.Result) *policy.Result {
	w := s.wu(r.wu)
	v := &r.view
	av := &s.versions[v.VersionID]
	*dst = policy.Result{
		ID: v.ID, WorkunitID: int64(r.wu)<<32 | int64(w.gen),
		HostID: v.HostID, UserID: v.UserID, TeamID: v.TeamID,
		ProjectID: int32(av.ProjectID), AppID: int32(av.AppID), VersionID: v.VersionID,
		HostNCPUs: v.HostNCPUs, HostNGPUs: v.HostNGPUs,
		HostPFpops: v.HostPFpops, HostPIops: v.HostPIops, HostGPUPeak: v.HostGPUPeak,
		SentTime: v.SentTime, ReceivedTime: v.ReceivedTime, FlopsEstimate: v.FlopsEstimate,
		ElapsedTime: v.ElapsedTime, CPUTime: v.CPUTime, CountedFlops: v.CountedFlops, OutputFlops: v.OutputFlops,
		RscFpopsEst: w.w.Est, RscFpopsBound: w.w.Bound,
		HAV: v.HAV, Outcome: v.Outcome, ValidateState: v.ValidateState, RuntimeOutlier: v.RuntimeOutlier,
	}
	return dst
}

// shown returns result r's server view in the engine's one scratch
// view, for a call that does not keep it.
func (s *Sim) shown(r *result) *policy.Result { return s.show(r, &s.scratchView) }

// reportedPeak is policy.ReportedPeak of the stored view.
func (v *serverView) reportedPeak(av *policy.AppVersion) (cpu, gpu float64) {
	return policy.ReportedPeakOf(v.HostNCPUs, v.HostPFpops, v.HostGPUPeak, av)
}
