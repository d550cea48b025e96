package replay

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"math"
	"sort"
	"strconv"

	"github.com/creditsim/creditsim/policy"
	"github.com/creditsim/creditsim/sim"
)

// Tracer records every result of a run as the policies saw it, for
// run --trace: it is the engine's Tracer (the events, in the policies'
// order) and an Observer (the truth of each finished result).
type Tracer struct {
	policies []string
	rows     map[int64]*Row
	seq      int64
}

// NewTracer returns a tracer for a run of the named policies.
func NewTracer(policies []string) *Tracer {
	return &Tracer{policies: policies, rows: map[int64]*Row{}}
}

func (t *Tracer) row(r *policy.Result) *Row {
	x := t.rows[r.ID]
	if x == nil {
		n := newRow()
		x = &n
		x.Credit = map[string]float64{}
		t.rows[r.ID] = x
	}
	return x
}

// copyView keeps what a policy reads of r.
func copyView(x *Row, r *policy.Result) {
	x.ResultID, x.WorkunitID = r.ID, r.WorkunitID
	x.AppID, x.VersionID, x.HostID, x.UserID, x.TeamID = int64(r.AppID), int64(r.VersionID), int64(r.HostID), int64(r.UserID), int64(r.TeamID)
	x.NCPUs, x.PFpops, x.PIops, x.NGPUs, x.GPUPeak = int(r.HostNCPUs), r.HostPFpops, r.HostPIops, int(r.HostNGPUs), r.HostGPUPeak
	x.SentTime, x.FlopsEstimate = r.SentTime, r.FlopsEstimate
	x.RscFpopsEst, x.RscFpopsBound = r.RscFpopsEst, r.RscFpopsBound
	x.ReceivedTime, x.Outcome, x.ValidateState = r.ReceivedTime, r.Outcome, r.ValidateState
	x.ElapsedTime, x.CPUTime, x.CountedFlops, x.OutputFlops, x.RuntimeOutlier = r.ElapsedTime, r.CPUTime, r.CountedFlops, r.OutputFlops, r.RuntimeOutlier
	x.HAVConsecutiveValid, x.HAVMaxJobsDay = int(r.HAV.ConsecutiveValid), int(r.HAV.MaxJobsPerDay)
}

// Sent implements sim.Tracer.
func (t *Tracer) Sent(r *policy.Result) {
	x := t.row(r)
	copyView(x, r)
	t.seq++
	x.SentSeq = t.seq
}

// Reported implements sim.Tracer.
func (t *Tracer) Reported(r *policy.Result) {
	x := t.row(r)
	copyView(x, r)
	t.seq++
	x.ReportedSeq = t.seq
}

// Validated implements sim.Tracer.
func (t *Tracer) Validated(v *policy.Validation, credit []float64) {
	t.seq++
	rank := int64(0)
	for _, set := range [][]*policy.Result{v.Valid, v.Invalid} {
		for _, r := range set {
			x := t.row(r)
			copyView(x, r)
			rank++
			x.ValidatedTime, x.ValidatedSeq, x.ValidatedRank, x.Late = v.Time, t.seq, rank, v.Late
			for p, name := range t.policies {
				x.Credit[name] = 0
				if r.ValidateState == policy.Valid {
					x.Credit[name] = credit[p]
				}
			}
		}
	}
}

// Tick implements sim.Tracer; a replay regenerates ticks from the periods.
func (t *Tracer) Tick(policy.Tick) {}

// ResultDone implements sim.Observer: the FLOPs really done.
func (t *Tracer) ResultDone(r *sim.Record) {
	if x := t.rows[r.View.ID]; x != nil {
		x.TrueFlops = r.Flops
	}
}

// Day implements sim.Observer.
func (t *Tracer) Day(*sim.DayState) {}

// CSV writes the trace: the header line with the server's periods, the
// run's end and the world, then a row per result in result-ID order.
func (t *Tracer) CSV(h Header) ([]byte, error) {
	h.Policies = t.policies
	rows := make([]*Row, 0, len(t.rows))
	for _, r := range t.rows {
		rows = append(rows, r)
	}
	sort.Slice(rows, func(a, b int) bool { return rows[a].ResultID < rows[b].ResultID })
	return WriteCSV(rows, &h, t.policies)
}

// traceColumns are the columns a trace writes, in order.
var traceColumns = []string{"result_id", "workunit_id", "app_id", "app_version_id", "host_id", "user_id", "team_id",
	"sent_time", "received_time", "validated_time", "sent_seq", "reported_seq", "validated_seq", "validated_rank",
	"outcome", "validate_state", "late", "elapsed_time", "cpu_time", "flops_estimate", "counted_flops", "output_flops",
	"runtime_outlier", "rsc_fpops_est", "rsc_fpops_bound", "p_ncpus", "p_fpops", "p_iops", "p_ngpus", "p_gpu_fpops",
	"consecutive_valid", "max_jobs_per_day", "true_flops"}

// WriteCSV writes rows in the CSV form, with a trace header when h is
// set and a credit.<policy> column per name.
func WriteCSV(rows []*Row, h *Header, credits []string) ([]byte, error) {
	var b bytes.Buffer
	if h != nil {
		j, err := json.Marshal(h)
		if err != nil {
			return nil, err
		}
		b.WriteString(headerPrefix)
		b.Write(j)
		b.WriteByte('\n')
	}
	w := csv.NewWriter(&b)
	head := append([]string(nil), traceColumns...)
	for _, p := range credits {
		head = append(head, creditPrefix+p)
	}
	w.Write(head)
	f := func(x float64) string {
		if math.IsNaN(x) {
			return ""
		}
		return strconv.FormatFloat(x, 'g', -1, 64)
	}
	i := func(x int64) string { return strconv.FormatInt(x, 10) }
	b2i := func(x bool) string {
		if x {
			return "1"
		}
		return "0"
	}
	outcome := map[policy.Outcome]string{}
	for k, v := range outcomeNames {
		outcome[v] = k
	}
	state := map[policy.ValidateState]string{}
	for k, v := range validateNames {
		state[v] = k
	}
	for _, r := range rows {
		rec := []string{i(r.ResultID), i(r.WorkunitID), i(r.AppID), i(r.VersionID), i(r.HostID), i(r.UserID), i(r.TeamID),
			f(r.SentTime), f(r.ReceivedTime), f(r.ValidatedTime), i(r.SentSeq), i(r.ReportedSeq), i(r.ValidatedSeq), i(r.ValidatedRank),
			outcome[r.Outcome], state[r.ValidateState], b2i(r.Late), f(r.ElapsedTime), f(r.CPUTime), f(r.FlopsEstimate),
			f(r.CountedFlops), f(r.OutputFlops), b2i(r.RuntimeOutlier), f(r.RscFpopsEst), f(r.RscFpopsBound),
			strconv.Itoa(r.NCPUs), f(r.PFpops), f(r.PIops), strconv.Itoa(r.NGPUs), f(r.GPUPeak),
			strconv.Itoa(r.HAVConsecutiveValid), strconv.Itoa(r.HAVMaxJobsDay), f(r.TrueFlops)}
		for _, p := range credits {
			c, ok := r.Credit[p]
			if !ok {
				c = math.NaN()
			}
			rec = append(rec, f(c))
		}
		w.Write(rec)
	}
	w.Flush()
	return b.Bytes(), w.Error()
}
