package replay

import (
	"bufio"
	"encoding/json"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/creditsim/creditsim/internal/chunked"
	"github.com/creditsim/creditsim/policy"
	"github.com/creditsim/creditsim/sim"
)

// Tracer records every result of a run as the policies saw it, for
// run --trace: it is the engine's Tracer (the events, in the policies'
// order) and an Observer (the truth of each finished result). Rows are
// kept by result ID, which the engine hands out densely from 0.
type Tracer struct {
	policies []string
	// In chunks: a run's rows reach hundreds of megabytes, which a
	// slice would copy each time it grows.
	rows   chunked.Slice[Row]
	has    chunked.Slice[bool]
	credit chunked.Slice[float64] // len(policies) per row; NaN until validated
	seq    int64
}

// NewTracer returns a tracer for a run of the named policies.
func NewTracer(policies []string) *Tracer {
	return &Tracer{policies: policies}
}

// row is result r's row. Precondition: r.ID >= 0 (the engine's IDs).
func (t *Tracer) row(r *policy.Result) *Row {
	i := int(r.ID)
	if i >= t.rows.Len() {
		t.rows.Grow(i + 1)
		t.has.Grow(i + 1)
		np := len(t.policies)
		for k := t.credit.Len(); k < (i+1)*np; k++ {
			t.credit.Push(math.NaN())
		}
	}
	if !*t.has.At(i) {
		*t.rows.At(i), *t.has.At(i) = newRow(), true
	}
	return t.rows.At(i)
}

// copyView keeps what a policy reads of r.
func copyView(x *Row, r *policy.Result) {
	x.ResultID, x.WorkunitID = r.ID, r.WorkunitID
	x.AppID, x.VersionID, x.HostID, x.UserID, x.TeamID = int64(r.AppID), int64(r.VersionID), int64(r.HostID), int64(r.UserID), int64(r.TeamID)
	x.NCPUs, x.PFpops, x.PIops, x.NGPUs = int(r.HostNCPUs), r.HostPFpops, r.HostPIops, int(r.HostNGPUs)
	// p_gpu_fpops sums the host's GPUs, as BOINC's scheduler writes it;
	// an absurd claimed peak stays finite.
	x.GPUFpops = min(r.HostGPUPeak*float64(max(r.HostNGPUs, 1)), math.MaxFloat64)
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
			for p := range t.policies {
				c := t.credit.At(int(r.ID)*len(t.policies) + p)
				*c = 0
				if r.ValidateState == policy.Valid {
					*c = credit[p]
				}
			}
		}
	}
}

// Tick implements sim.Tracer; a replay regenerates ticks from the periods.
func (t *Tracer) Tick(policy.Tick) {}

// ResultDone implements sim.Observer: the FLOPs really done.
func (t *Tracer) ResultDone(r *sim.Record) {
	if i := int(r.View.ID); i < t.has.Len() && *t.has.At(i) {
		t.rows.At(i).TrueFlops = r.Flops
	}
}

// Day implements sim.Observer.
func (t *Tracer) Day(*sim.DayState) {}

// Write writes the trace to w: the header line with the server's
// periods, the run's end and the world, then a row per result in
// result-ID order.
func (t *Tracer) Write(w io.Writer, h Header) error {
	h.Policies = t.policies
	var ids []int
	for i := 0; i < t.has.Len(); i++ {
		if *t.has.At(i) {
			ids = append(ids, i)
		}
	}
	np := len(t.policies)
	return writeCSV(w, len(ids), func(k int) *Row { return t.rows.At(ids[k]) },
		func(k, p int) float64 { return *t.credit.At(ids[k]*np + p) }, &h, t.policies)
}

// traceColumns are the columns a trace writes, in order.
var traceColumns = []string{"result_id", "workunit_id", "app_id", "app_version_id", "host_id", "user_id", "team_id",
	"sent_time", "received_time", "validated_time", "sent_seq", "reported_seq", "validated_seq", "validated_rank",
	"outcome", "validate_state", "late", "elapsed_time", "cpu_time", "flops_estimate", "counted_flops", "output_flops",
	"runtime_outlier", "rsc_fpops_est", "rsc_fpops_bound", "p_ncpus", "p_fpops", "p_iops", "p_ngpus", "p_gpu_fpops",
	"consecutive_valid", "max_jobs_per_day", "true_flops"}

// writeCSV writes n rows (row(k), with credit(k, p) for the policy
// credits[p]) in the CSV form, with a trace header when h is set and a
// credit.<policy> column per name (NaN: empty). No field needs quoting:
// numbers, outcome and state names, and policy names (a safe set).
func writeCSV(out io.Writer, n int, row func(k int) *Row, credit func(k, p int) float64, h *Header, credits []string) error {
	b := bufio.NewWriterSize(out, 1<<16)
	if h != nil {
		j, err := json.Marshal(h)
		if err != nil {
			return err
		}
		b.WriteString(headerPrefix)
		b.Write(j)
		b.WriteByte('\n')
	}
	head := append([]string(nil), traceColumns...)
	for _, p := range credits {
		head = append(head, creditPrefix+p)
	}
	b.WriteString(strings.Join(head, ","))
	b.WriteByte('\n')
	outcome := map[policy.Outcome]string{}
	for k, v := range outcomeNames {
		outcome[v] = k
	}
	state := map[policy.ValidateState]string{}
	for k, v := range validateNames {
		state[v] = k
	}
	var line []byte
	for k := 0; k < n; k++ {
		line = appendRow(line[:0], row(k), outcome, state)
		for p := range credits {
			line = appendFloat(line, credit(k, p))
		}
		line[len(line)-1] = '\n'
		if _, err := b.Write(line); err != nil {
			return err
		}
	}
	return b.Flush()
}

// appendRow appends r's trace columns to line, each followed by a comma.
func appendRow(line []byte, r *Row, outcome map[policy.Outcome]string, state map[policy.ValidateState]string) []byte {
	for _, x := range []int64{r.ResultID, r.WorkunitID, r.AppID, r.VersionID, r.HostID, r.UserID, r.TeamID} {
		line = appendInt(line, x)
	}
	for _, x := range []float64{r.SentTime, r.ReceivedTime, r.ValidatedTime} {
		line = appendFloat(line, x)
	}
	for _, x := range []int64{r.SentSeq, r.ReportedSeq, r.ValidatedSeq, r.ValidatedRank} {
		line = appendInt(line, x)
	}
	line = append(append(line, outcome[r.Outcome]...), ',')
	line = append(append(line, state[r.ValidateState]...), ',')
	line = appendBit(line, r.Late)
	for _, x := range []float64{r.ElapsedTime, r.CPUTime, r.FlopsEstimate, r.CountedFlops, r.OutputFlops} {
		line = appendFloat(line, x)
	}
	line = appendBit(line, r.RuntimeOutlier)
	line = appendFloat(appendFloat(line, r.RscFpopsEst), r.RscFpopsBound)
	line = appendInt(line, int64(r.NCPUs))
	line = appendFloat(appendFloat(line, r.PFpops), r.PIops)
	line = appendInt(line, int64(r.NGPUs))
	line = appendFloat(line, r.GPUFpops)
	line = appendInt(appendInt(line, int64(r.HAVConsecutiveValid)), int64(r.HAVMaxJobsDay))
	return appendFloat(line, r.TrueFlops)
}

// appendFloat, appendInt and appendBit append a value and a comma; NaN
// is an empty field.
func appendFloat(line []byte, x float64) []byte {
	if !math.IsNaN(x) {
		line = strconv.AppendFloat(line, x, 'g', -1, 64)
	}
	return append(line, ',')
}

func appendInt(line []byte, x int64) []byte { return append(strconv.AppendInt(line, x, 10), ',') }

func appendBit(line []byte, x bool) []byte {
	if x {
		return append(line, '1', ',')
	}
	return append(line, '0', ',')
}

// Each calls f with every recorded row in result-ID order and the credit
// each policy granted it (NaN: not validated; the slice is reused).
func (t *Tracer) Each(f func(r *Row, credit []float64) error) error {
	np := len(t.policies)
	credit := make([]float64, np)
	for i := 0; i < t.has.Len(); i++ {
		if !*t.has.At(i) {
			continue
		}
		for p := range credit {
			credit[p] = *t.credit.At(i*np + p)
		}
		if err := f(t.rows.At(i), credit); err != nil {
			return err
		}
	}
	return nil
}
