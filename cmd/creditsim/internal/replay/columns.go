package replay

import (
	"fmt"
	"math"
	"regexp"
	"strconv"

	"github.com/creditsim/creditsim/policy"
)

func num(f func(r *Row, v float64)) func(r *Row, v float64) { return f }

// The range of whole columns: IDs within a signed 64-bit integer (below
// 2^63, so that no ID wraps), counts within a 32-bit one.
const (
	maxID    = 9.2e18
	maxCount = 1 << 31
)

// Columns are the CSV form's columns, named as BOINC's database names
// them where it has them. Only result_id and workunit_id are required;
// the policies a replay can run depend on which others are present
// (policy.Kind.Needs).
var Columns = []Column{
	{Name: "result_id", Doc: "result.id", set: num(func(r *Row, v float64) { r.ResultID = int64(v) }), whole: true, lo: -maxID, hi: maxID},
	{Name: "workunit_id", Doc: "result.workunitid", set: num(func(r *Row, v float64) { r.WorkunitID = int64(v) }), whole: true, lo: -maxID, hi: maxID},
	{Name: "app_id", Doc: "result.appid", set: num(func(r *Row, v float64) { r.AppID = int64(v) }), whole: true, lo: -maxID, hi: maxID},
	{Name: "app_version_id", Doc: "result.app_version_id (negative: anonymous platform)", set: num(func(r *Row, v float64) { r.VersionID = int64(v) }), whole: true, lo: -maxID, hi: maxID},
	{Name: "host_id", Doc: "result.hostid", set: num(func(r *Row, v float64) { r.HostID = int64(v) }), whole: true, lo: -maxID, hi: maxID},
	{Name: "user_id", Doc: "result.userid", set: num(func(r *Row, v float64) { r.UserID = int64(v) }), whole: true, lo: -maxID, hi: maxID},
	{Name: "team_id", Doc: "result.teamid", set: num(func(r *Row, v float64) { r.TeamID = int64(v) }), whole: true, lo: -maxID, hi: maxID},
	{Name: "sent_time", Doc: "result.sent_time", set: num(func(r *Row, v float64) { r.SentTime = v })},
	{Name: "received_time", Doc: "result.received_time", set: num(func(r *Row, v float64) { r.ReceivedTime = v })},
	{Name: "validated_time", Doc: "when the validator granted it (not in BOINC's tables: a trace has it; else the latest received time of its workunit's validated results)", set: num(func(r *Row, v float64) { r.ValidatedTime = v })},
	{Name: "sent_seq", Doc: "order of events of equal time (a trace's)", set: num(func(r *Row, v float64) { r.SentSeq = int64(v) }), whole: true, lo: -maxID, hi: maxID},
	{Name: "reported_seq", Doc: "", set: num(func(r *Row, v float64) { r.ReportedSeq = int64(v) }), whole: true, lo: -maxID, hi: maxID},
	{Name: "validated_seq", Doc: "", set: num(func(r *Row, v float64) { r.ValidatedSeq = int64(v) }), whole: true, lo: -maxID, hi: maxID},
	{Name: "validated_rank", Doc: "a trace's: the row's place in its validation (else result-ID order)", set: num(func(r *Row, v float64) { r.ValidatedRank = int64(v) }), whole: true, lo: -maxID, hi: maxID},
	{Name: "outcome", Doc: "success, client_error, aborted, no_reply, or result.outcome's code", text: func(r *Row, s string) error {
		if o, ok := outcomeNames[s]; ok {
			r.Outcome = o
			return nil
		}
		if n, err := strconv.Atoi(s); err == nil {
			if o, ok := outcomeCodes[n]; ok {
				r.Outcome = o
				return nil
			}
		}
		return fmt.Errorf("want success, client_error, aborted, no_reply or an outcome code 1, 3, 4, 6")
	}},
	{Name: "validate_state", Doc: "valid, invalid, init, or result.validate_state's code", text: func(r *Row, s string) error {
		if v, ok := validateNames[s]; ok {
			r.ValidateState = v
			return nil
		}
		if n, err := strconv.Atoi(s); err == nil {
			if v, ok := validateCodes[n]; ok {
				r.ValidateState = v
				return nil
			}
		}
		return fmt.Errorf("want valid, invalid, init or a validate_state code 0 to 5")
	}},
	{Name: "late", Doc: "1 if validated after its workunit's canonical result", set: num(func(r *Row, v float64) { r.Late = v != 0 })},
	{Name: "elapsed_time", Doc: "result.elapsed_time", set: num(func(r *Row, v float64) { r.ElapsedTime = v }), ranged: true, lo: -MaxSpan, hi: MaxSpan}, // a client may report a negative time; it is stored as 0
	{Name: "cpu_time", Doc: "result.cpu_time", set: num(func(r *Row, v float64) { r.CPUTime = v }), ranged: true, lo: 0, hi: MaxSpan},
	{Name: "flops_estimate", Doc: "result.flops_estimate", set: num(func(r *Row, v float64) { r.FlopsEstimate = v })},
	{Name: "counted_flops", Doc: "FLOPs the app counted (not a BOINC column: claimed_credit / COBBLESTONE_SCALE where apps count)", set: num(func(r *Row, v float64) { r.CountedFlops = v }), ranged: true, lo: 0, hi: math.MaxFloat64},
	{Name: "output_flops", Doc: "work the output shows, as the project measures it (post-assigned credit)", set: num(func(r *Row, v float64) { r.OutputFlops = v }), ranged: true, lo: 0, hi: math.MaxFloat64},
	{Name: "runtime_outlier", Doc: "result.runtime_outlier", set: num(func(r *Row, v float64) { r.RuntimeOutlier = v != 0 })},
	{Name: "rsc_fpops_est", Doc: "workunit.rsc_fpops_est", set: num(func(r *Row, v float64) { r.RscFpopsEst = v }), ranged: true, lo: 0, hi: math.MaxFloat64},
	{Name: "rsc_fpops_bound", Doc: "workunit.rsc_fpops_bound", set: num(func(r *Row, v float64) { r.RscFpopsBound = v }), ranged: true, lo: 0, hi: math.MaxFloat64},
	{Name: "p_ncpus", Doc: "host.p_ncpus", set: num(func(r *Row, v float64) { r.NCPUs = int(v) }), whole: true, lo: 0, hi: maxCount},
	{Name: "p_fpops", Doc: "host.p_fpops", set: num(func(r *Row, v float64) { r.PFpops = v })},
	{Name: "p_iops", Doc: "host.p_iops", set: num(func(r *Row, v float64) { r.PIops = v })},
	{Name: "p_ngpus", Doc: "host.p_ngpus", set: num(func(r *Row, v float64) { r.NGPUs = int(v) }), whole: true, lo: 0, hi: maxCount},
	{Name: "p_gpu_fpops", Doc: "host.p_gpu_fpops: the peak FLOPS of all the host's GPUs (one GPU's is this / p_ngpus)", set: num(func(r *Row, v float64) { r.GPUFpops = v })},
	{Name: "consecutive_valid", Doc: "host_app_version.consecutive_valid when credit was granted", set: num(func(r *Row, v float64) { r.HAVConsecutiveValid = int(v) }), whole: true, lo: 0, hi: maxCount},
	{Name: "max_jobs_per_day", Doc: "host_app_version.max_jobs_per_day", set: num(func(r *Row, v float64) { r.HAVMaxJobsDay = int(v) }), whole: true, lo: 0, hi: maxCount},
	{Name: "plan_class", Doc: "app_version.plan_class (cuda/nvidia, ati/amd, intel, apple: a GPU version)", text: func(r *Row, s string) error { r.PlanClass = s; return nil }},
	{Name: "claimed_credit", Doc: "result.claimed_credit", set: num(func(r *Row, v float64) { r.Claimed = v }), ranged: true, lo: 0, hi: math.MaxFloat64},
	{Name: "granted_credit", Doc: "result.granted_credit", set: num(func(r *Row, v float64) { r.Granted = v }), ranged: true, lo: 0, hi: math.MaxFloat64},
	{Name: "true_flops", Doc: "a trace's truth: FLOPs really done (ignored)", set: num(func(r *Row, v float64) { r.TrueFlops = v }), ranged: true, lo: 0, hi: math.MaxFloat64},
}

// creditPrefix marks a trace's truth columns of each policy's credit.
const creditPrefix = "credit."

func column(name string) *Column {
	for i := range Columns {
		if Columns[i].Name == name {
			return &Columns[i]
		}
	}
	return nil
}

var (
	nvidiaRE = regexp.MustCompile(`(?i)(^|[_\-.])(cuda|nvidia)`)
	amdRE    = regexp.MustCompile(`(?i)(^|[_\-.])(ati|amd)`)
	intelRE  = regexp.MustCompile(`(?i)(^|[_\-.])intel`)
	appleRE  = regexp.MustCompile(`(?i)(^|[_\-.])(apple|metal)`)
)

// ResourceOf reads a plan class the way BOINC's names go: a word
// starting cuda or nvidia, ati or amd, intel, apple or metal is a GPU.
func ResourceOf(planClass string) policy.Resource {
	switch {
	case nvidiaRE.MatchString(planClass):
		return policy.NVIDIA
	case amdRE.MatchString(planClass):
		return policy.AMD
	case intelRE.MatchString(planClass):
		return policy.IntelGPU
	case appleRE.MatchString(planClass):
		return policy.AppleGPU
	}
	return policy.CPU
}
