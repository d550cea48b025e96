package replay

import (
	"math"

	"github.com/creditsim/creditsim/policy"
)

// Row is one result as a replay reads it. Times are seconds; a column
// the input lacks is zero (NaN for the credits it compares with).
type Row struct {
	ResultID, WorkunitID                  int64
	AppID, VersionID, HostID, UserID      int64
	TeamID                                int64
	SentTime, ReceivedTime, ValidatedTime float64
	// SentSeq, ReportedSeq and ValidatedSeq order events of equal time
	// (a trace's order of the server's calls); 0 when unknown.
	SentSeq, ReportedSeq, ValidatedSeq int64
	// ValidatedRank is the row's place among its validation's results as
	// the validator showed them (valid ones, then invalid; a trace's):
	// the order their statistics were updated in. 0 when unknown: then
	// result-ID order (BOINC's validator query has no ORDER BY; reading
	// a workunit's results through the result table's index on
	// workunitid gives that order).
	ValidatedRank              int64
	Outcome                    policy.Outcome
	ValidateState              policy.ValidateState
	Late                       bool // validated after its workunit's canonical result
	ElapsedTime, CPUTime       float64
	FlopsEstimate              float64
	CountedFlops, OutputFlops  float64
	RuntimeOutlier             bool
	RscFpopsEst, RscFpopsBound float64
	NCPUs, NGPUs               int
	// PFpops, PIops and GPUFpops are host.p_fpops, p_iops and
	// p_gpu_fpops: the last is the peak of all the host's GPUs, as
	// BOINC's scheduler sums them (handle_request.cpp); one GPU's is
	// GPUFpops / NGPUs.
	PFpops, PIops, GPUFpops            float64
	HAVConsecutiveValid, HAVMaxJobsDay int
	PlanClass                          string
	// Claimed and Granted are the project's claimed and granted credit.
	Claimed, Granted float64
	// TrueFlops and Credit are a trace's truth columns: the FLOPs really
	// done and the credit each policy of the run granted (replay ignores
	// them; tests compare with them).
	TrueFlops float64
	Credit    map[string]float64
}

func newRow() Row { return Row{Claimed: math.NaN(), Granted: math.NaN(), TrueFlops: math.NaN()} }

// Column is one named column of the CSV form.
type Column struct {
	Name string
	Doc  string
	// set stores a parsed value in a row.
	set func(r *Row, v float64)
	// text columns (plan_class) and enumerations parse their own text.
	text func(r *Row, s string) error
	// whole columns hold whole numbers in [lo, hi]: IDs (a 64-bit ID's
	// range) and counts; ranged ones any number in [lo, hi] (times a job
	// took, credit, FLOP counts: none below 0).
	whole, ranged bool
	lo, hi        float64
}

// Outcome and validate-state names in the CSV form (BOINC's numeric codes
// are accepted too: outcome 1 success, 3 client error, 4 no reply, 6
// validate error; validate_state 0 init, 1 valid, 2 invalid).
var (
	outcomeNames  = map[string]policy.Outcome{"success": policy.Success, "client_error": policy.ClientError, "aborted": policy.Aborted, "no_reply": policy.NoReply}
	outcomeCodes  = map[int]policy.Outcome{1: policy.Success, 3: policy.ClientError, 4: policy.NoReply, 6: policy.ClientError}
	validateNames = map[string]policy.ValidateState{"init": policy.Unvalidated, "valid": policy.Valid, "invalid": policy.Invalid}
	validateCodes = map[int]policy.ValidateState{0: policy.Unvalidated, 1: policy.Valid, 2: policy.Invalid, 3: policy.Unvalidated, 4: policy.Unvalidated, 5: policy.Invalid}
)
