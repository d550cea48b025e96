package replay

import (
	"fmt"
	"math"
	"sort"

	"github.com/creditsim/creditsim/boinc"
	"github.com/creditsim/creditsim/policy"
)

// Synthetic times for an input without them (credit_test_data): one
// workunit every creditTestStep seconds, so the feeder's 600 s period
// updates version scales every 20 workunits, as credit_test does every
// 20 results.
const (
	creditTestStep = 30.0
	defaultFeeder  = 600.0
)

// Supported reports whether a policy kind, with the options it resolved
// to, can run on an input, and if not, which of its needs the input
// lacks.
func Supported(k *policy.Kind, opts policy.Options, in *Input) (bool, string) {
	needs := k.Needs
	if k.NeedsWith != nil {
		needs = append(append([]string(nil), needs...), k.NeedsWith(opts)...)
	}
	for _, n := range needs {
		if n == policy.NeedsAccountManager {
			return false, "it is paid at account-manager calls, which no result file holds"
		}
		if !in.Has[n] {
			return false, "the input has no " + n + " column"
		}
	}
	return true, ""
}

// Outcome is what a replay gave: per row (in input order) the credit
// each policy granted, and the world and times it ran in.
type Outcome struct {
	Policies []string
	Credit   [][]float64 // [row][policy]
	World    *policy.World
	End      float64
	// Dense IDs of each row's host, user and version in World.
	host, user, version []int
	rac                 [][]policy.RAC // [policy][host]
	userRAC             [][]policy.RAC
}

type event struct {
	t    float64
	rank int // 0 day, 1 feeder, 2 result events, 3 validator pass end
	seq  int64
	id   int64
	kind int // evSent, evReported, evValidated for rank 2
	rows []int
}

const (
	evReported = iota
	evSent
	evValidated
)

// Run replays in through policies (instances of the given specs), which
// must be supported by the input.
func Run(in *Input, names []string, specs []policy.Spec) (*Outcome, error) {
	return RunProgress(in, names, specs, nil)
}

// RunProgress is Run that calls progress (if not nil) with the share of
// the replay's events done, now and then.
func RunProgress(in *Input, names []string, specs []policy.Spec, progress func(done float64)) (*Outcome, error) {
	var span timeSpan
	for i := range in.Rows {
		span.add(&in.Rows[i], 0)
	}
	if err := span.check(in.File, in.Header); err != nil {
		return nil, err
	}
	w, idx := buildWorld(in)
	checkTimes(in, w, idx)
	o := &Outcome{Policies: names, World: w, Credit: make([][]float64, len(in.Rows))}
	o.host, o.user, o.version = idx.host, idx.user, idx.version
	pols, err := newPolicies(names, specs, w)
	if err != nil {
		return nil, err
	}
	events, end := schedule(in)
	o.End = end
	w.End = end
	views := make([]policy.Result, len(in.Rows))
	for i := range in.Rows {
		views[i] = view(&in.Rows[i], idx, i)
		o.Credit[i] = make([]float64, len(pols))
	}
	o.rac, o.userRAC = racRows(len(pols), w.MaxHosts), racRows(len(pols), w.MaxUsers)
	rp := &replayer{in: in, o: o, pols: pols, views: views, canonical: map[int64][]float64{}, credit: make([]float64, len(pols))}
	rp.play(events, progress)
	return o, nil
}

// replayer holds what a replay's validations share: the policies, the
// rows' views, and each workunit's canonical credit for late results.
type replayer struct {
	in             *Input
	o              *Outcome
	pols           []policy.Policy
	views          []policy.Result
	canonical      map[int64][]float64 // workunit -> credit per policy
	valid, invalid []*policy.Result
	credit         []float64
}

// validated hands a workunit's validation to every policy (a late one
// gets the canonical credit, as BOINC's validator gives it) and records
// each valid row's credit and its host's and user's RAC.
func (rp *replayer) validated(e event) {
	in, o := rp.in, rp.o
	rp.valid, rp.invalid = rp.valid[:0], rp.invalid[:0]
	row0 := &in.Rows[e.rows[0]]
	for _, i := range e.rows {
		if in.Rows[i].ValidateState == policy.Valid {
			rp.valid = append(rp.valid, &rp.views[i])
		} else {
			rp.invalid = append(rp.invalid, &rp.views[i])
		}
	}
	v := policy.Validation{Time: e.t, WorkunitID: row0.WorkunitID, AppID: int(rp.views[e.rows[0]].AppID),
		RscFpopsEst: row0.RscFpopsEst, RscFpopsBound: bound(row0), Valid: rp.valid, Invalid: rp.invalid}
	canon, late := rp.canonical[row0.WorkunitID]
	late = late || row0.Late
	for p, pol := range rp.pols {
		if late {
			v.Late = true
			v.CanonicalCredit = 0
			if canon != nil {
				v.CanonicalCredit = canon[p]
			}
			pol.Validated(&v)
			rp.credit[p] = v.CanonicalCredit
			continue
		}
		rp.credit[p] = policy.Finite(pol.Validated(&v))
	}
	if !late {
		rp.canonical[row0.WorkunitID] = append([]float64(nil), rp.credit...)
	}
	for _, i := range e.rows {
		if in.Rows[i].ValidateState != policy.Valid {
			continue
		}
		for p, c := range rp.credit {
			o.Credit[i][p] = c
			if c > 0 {
				o.rac[p][o.host[i]].UpdateAverage(e.t, in.Rows[i].SentTime, c, policy.CreditHalfLife)
				o.userRAC[p][o.user[i]].UpdateAverage(e.t, in.Rows[i].SentTime, c, policy.CreditHalfLife)
			}
		}
	}
}

// checkTimes stores every reported row's times as BOINC's scheduler
// does (boinc.CheckTimes), so that a project's file of client reports is
// credited from the times its server would have stored. Rows read from a
// project's database, or from a trace, were stored so already: the checks
// leave them unchanged. An input without sent and received times has no
// turnaround to clamp to, one without p_ncpus no CPU cap.
func checkTimes(in *Input, w *policy.World, idx *index) {
	times, ncpus := in.Has["sent_time"] && in.Has["received_time"], in.Has["p_ncpus"]
	for i := range in.Rows {
		r := &in.Rows[i]
		if r.Outcome == policy.NoReply {
			continue
		}
		rep := boinc.Report{Sequential: w.Versions[idx.version[i]].Sequential(), Sent: 0, Received: math.Inf(1), NCPUs: math.Inf(1)}
		if times {
			rep.Sent, rep.Received = r.SentTime, r.ReceivedTime
		}
		if ncpus {
			rep.NCPUs = float64(r.NCPUs)
		}
		r.ElapsedTime, r.CPUTime = boinc.CheckTimes(r.ElapsedTime, r.CPUTime, rep)
	}
}

func tick(pols []policy.Policy, t policy.Tick) {
	for _, p := range pols {
		p.Tick(t)
	}
}

// bound is a workunit's rsc_fpops_bound; an input without it gets
// BOINC's default of 10 x the estimate, or no bound (+Inf) when it has
// no estimate either.
func bound(r *Row) float64 {
	switch {
	case r.RscFpopsBound > 0:
		return r.RscFpopsBound
	case r.RscFpopsEst > 0:
		return 10 * r.RscFpopsEst
	}
	return math.Inf(1)
}

// schedule orders the replay's events: by time; at equal times day
// ticks, feeder ticks, the results' events (by the input's sequence
// numbers, else reports before sends, then by result ID), and validator
// pass ends after the last validation of their time, as the engine's
// queue orders them.
func schedule(in *Input) ([]event, float64) {
	if in.Form == CreditTest {
		return scheduleCreditTest(in)
	}
	var ev []event
	end := 0.0
	for i := range in.Rows {
		r := &in.Rows[i]
		if r.SentTime > 0 || in.Has["sent_time"] {
			ev = append(ev, event{t: r.SentTime, rank: 2, seq: r.SentSeq, id: r.ResultID, kind: evSent, rows: []int{i}})
		}
		if r.ReceivedTime > 0 {
			ev = append(ev, event{t: r.ReceivedTime, rank: 2, seq: r.ReportedSeq, id: r.ResultID, kind: evReported, rows: []int{i}})
		}
		end = max(end, max(r.SentTime, r.ReceivedTime))
	}
	for _, v := range validations(in) {
		ev = append(ev, v)
		end = max(end, v.t)
	}
	feeder := defaultFeeder
	if h := in.Header; h != nil {
		feeder = h.FeederPeriod
		end = h.End
	} else {
		end += 1
	}
	sort.SliceStable(ev, func(a, b int) bool { return less(&ev[a], &ev[b]) })
	return withTicks(ev, end, feeder), end
}

// scheduleCreditTest orders credit_test_data, which has no times:
// workunits in the order of their first result ID, each one's results
// sent, then reported, then validated together, a step apart.
func scheduleCreditTest(in *Input) ([]event, float64) {
	var ev []event
	byWU := map[int64][]int{}
	var order []int64
	for i := range in.Rows {
		wu := in.Rows[i].WorkunitID
		if _, ok := byWU[wu]; !ok {
			order = append(order, wu)
		}
		byWU[wu] = append(byWU[wu], i)
	}
	sort.SliceStable(order, func(a, b int) bool { return in.Rows[byWU[order[a]][0]].ResultID < in.Rows[byWU[order[b]][0]].ResultID })
	end := 0.0
	for k, wu := range order {
		t := float64(k+1) * creditTestStep
		rows := byWU[wu]
		for _, kind := range []int{evSent, evReported} {
			for _, i := range rows {
				r := &in.Rows[i]
				r.SentTime, r.ReceivedTime, r.ValidatedTime = t, t, t
				ev = append(ev, event{t: t, rank: 2, id: r.ResultID, kind: kind, rows: []int{i}})
			}
		}
		ev = append(ev, event{t: t, rank: 2, id: in.Rows[rows[0]].ResultID, kind: evValidated, rows: rows})
		end = t
	}
	end += creditTestStep
	return withTicks(ev, end, defaultFeeder), end
}

// validations are the input's validation events: a workunit's results
// validated at the same time (and sequence number) form one; without
// validation times, a workunit's first validation is when its last
// validated result arrived. Each one's rows are in the order the
// validator showed them where the input knows it, else by result ID:
// the order statistics were updated in.
func validations(in *Input) []event {
	groups, keys := validationGroups(in)
	if !in.Has["validated_time"] {
		groups, keys = mergeByWorkunit(groups, keys)
	}
	var ev []event
	for _, k := range keys {
		rows := groups[k]
		sort.Slice(rows, func(a, b int) bool {
			x, y := &in.Rows[rows[a]], &in.Rows[rows[b]]
			if x.ValidatedRank != y.ValidatedRank {
				return x.ValidatedRank < y.ValidatedRank
			}
			return x.ResultID < y.ResultID
		})
		ev = append(ev, event{t: k.t, rank: 2, seq: k.seq, id: in.Rows[rows[0]].ResultID, kind: evValidated, rows: rows})
	}
	return ev
}

// validationKey is one validation: a workunit, a time and a sequence.
type validationKey struct {
	wu  int64
	t   float64
	seq int64
}

// validationGroups groups the validated successes' rows by validation,
// the keys in the order they were first seen.
func validationGroups(in *Input) (map[validationKey][]int, []validationKey) {
	groups := map[validationKey][]int{}
	var keys []validationKey
	for i := range in.Rows {
		r := &in.Rows[i]
		if r.ValidateState == policy.Unvalidated || r.Outcome != policy.Success {
			continue
		}
		t := r.ValidatedTime
		if t == 0 {
			t = r.ReceivedTime
		}
		k := validationKey{r.WorkunitID, t, r.ValidatedSeq}
		if _, ok := groups[k]; !ok {
			keys = append(keys, k)
		}
		groups[k] = append(groups[k], i)
	}
	return groups, keys
}

// mergeByWorkunit makes each workunit's groups one, at the time its last
// validated result arrived: without validation times, that is when its
// first validation happened.
func mergeByWorkunit(groups map[validationKey][]int, keys []validationKey) (map[validationKey][]int, []validationKey) {
	first := map[int64]float64{}
	for _, k := range keys {
		first[k.wu] = max(first[k.wu], k.t)
	}
	merged := map[validationKey][]int{}
	var mk []validationKey
	for _, k := range keys {
		nk := validationKey{k.wu, first[k.wu], 0}
		if _, ok := merged[nk]; !ok {
			mk = append(mk, nk)
		}
		merged[nk] = append(merged[nk], groups[k]...)
	}
	return merged, mk
}

// play shows the policies the events in order: day, feeder and validator
// ticks, results sent and reported, validations.
func (rp *replayer) play(events []event, progress func(done float64)) {
	for k, e := range events {
		if progress != nil && k&(1<<16-1) == 0 {
			progress(float64(k) / float64(len(events)))
		}
		switch {
		case e.rank == 0:
			tick(rp.pols, policy.Tick{Kind: policy.DayTick, Time: e.t})
		case e.rank == 1:
			tick(rp.pols, policy.Tick{Kind: policy.FeederTick, Time: e.t})
		case e.rank == 3:
			tick(rp.pols, policy.Tick{Kind: policy.ValidatorPassEnd, Time: e.t})
		case e.kind == evSent:
			r := &rp.views[e.rows[0]]
			sent := *r
			sent.ReceivedTime, sent.Outcome, sent.ValidateState = 0, 0, policy.Unvalidated
			sent.ElapsedTime, sent.CPUTime, sent.CountedFlops, sent.OutputFlops = 0, 0, 0, 0
			for _, p := range rp.pols {
				p.Sent(&sent)
			}
		case e.kind == evReported:
			r := &rp.views[e.rows[0]]
			rep := *r
			rep.ValidateState = policy.Unvalidated
			for _, p := range rp.pols {
				p.Reported(&rep)
			}
		case e.kind == evValidated:
			rp.validated(e)
		}
	}
}

// newPolicies makes the policies of specs, initialised on w.
func newPolicies(names []string, specs []policy.Spec, w *policy.World) ([]policy.Policy, error) {
	pols := make([]policy.Policy, len(specs))
	for i, sp := range specs {
		p, err := policy.New(sp)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", names[i], err)
		}
		p.Init(w)
		pols[i] = p
	}
	return pols, nil
}

// racRows is a RAC per account (n of them) for each of the policies.
func racRows(policies, n int) [][]policy.RAC {
	out := make([][]policy.RAC, policies)
	for p := range out {
		out[p] = make([]policy.RAC, n)
	}
	return out
}

func less(a, b *event) bool {
	if a.t != b.t {
		return a.t < b.t
	}
	if a.rank != b.rank {
		return a.rank < b.rank
	}
	if a.seq != b.seq {
		return a.seq < b.seq
	}
	if a.kind != b.kind {
		return a.kind < b.kind
	}
	return a.id < b.id
}

// withTicks merges feeder and day ticks (strictly before end) into the
// sorted events, and a validator pass end after the validations of each
// time.
func withTicks(ev []event, end, feeder float64) []event {
	// Ticks fall on multiples of their periods from time 0, as the
	// engine's do, but only from the first event on: a project's times
	// count from 1970.
	first := end
	if len(ev) > 0 {
		first = ev[0].t
	}
	from := func(period float64) float64 { return max(period, math.Floor(first/period)*period) }
	var ticks []event
	for t := from(boinc.SecondsPerDay); t < end; t += boinc.SecondsPerDay {
		ticks = append(ticks, event{t: t, rank: 0})
	}
	for t := from(feeder); t < end; t += feeder {
		ticks = append(ticks, event{t: t, rank: 1})
	}
	out := make([]event, 0, len(ev)+len(ticks)+len(ev)/4)
	i, j := 0, 0
	sort.SliceStable(ticks, func(a, b int) bool { return less(&ticks[a], &ticks[b]) })
	for i < len(ev) || j < len(ticks) {
		if j < len(ticks) && (i == len(ev) || less(&ticks[j], &ev[i])) {
			out = append(out, ticks[j])
			j++
			continue
		}
		e := ev[i]
		out = append(out, e)
		i++
		if e.kind == evValidated && e.rank == 2 && (i == len(ev) || ev[i].t != e.t || ev[i].kind != evValidated) {
			out = append(out, event{t: e.t, rank: 3})
		}
	}
	return out
}
