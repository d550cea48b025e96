package sciunited

import (
	"cmp"
	"math"
	"slices"
	"strconv"

	"github.com/creditsim/creditsim/policy"
)

func init() {
	policy.Register(&policy.Kind{
		UseWhen:  "only for accounting across projects (Science United), not a project's credit",
		Name:     "sciunited",
		Needs:    []string{policy.NeedsAccountManager},
		Standard: true,
		Doc: "Science United's accounting as deployed (its account-manager RPC handler, rpc.php): " +
			"runtime x peak FLOPS reported at account-manager calls, each resource's increase limited to its plausible FLOPS x the time since the host's last call",
		Options: policy.Docs((&config{}).decls()),
		New:     New,
	})
}

// Limits are the sanity check's bounds and defaults.
type Limits struct {
	MaxCPUFlops, MaxCPUs, MaxGPUFlops, MaxGPUs                 float64
	DefaultCPUFlops, DefaultCPUs, DefaultGPUFlops, DefaultGPUs float64
}

// record is the accounting's state for one (host, project).
type record struct {
	est   [2]float64 // estimated FLOPs reported at the last call: CPU, GPU
	share [2]float64 // granted over claimed at the last call, per resource
	// Reconciliation: credit granted so far, the project's validated
	// credit for the host, and an adjustment due at the next call.
	total, validated, pending float64
}

// hostCalls is when a host called: the time of its latest call and of
// the call before (every project of a host is reported at one call).
type hostCalls struct {
	cur, prev     float64
	seen, hasPrev bool
}

// dayCredit is one row of the daily history: a user's credit in a
// project on a day (the day is not stored: Policy.days says where each
// day's rows begin).
type dayCredit struct {
	user, project int32
	credit        float64
}

// historyChunk is the number of rows in a chunk of the history: a year of
// a 100,000-host world has about 12 million rows, and fixed chunks grow
// without the copy (and the old array beside the new) of append.
const historyChunk = 1 << 14

// historyDay is where a day's rows begin in the history.
type historyDay struct {
	day   int32
	start int
}

// Policy is a configured Science United accounting.
type Policy struct {
	policy.Base
	scale     float64
	lim       Limits
	reconcile float64 // seconds between reconciliations; 0 = never
	nextRec   float64
	// Reconciliation totals: credit granted by calls, and the sum of the
	// adjustments' sizes and of the adjustments.
	granted, movedAbs, movedNet float64
	records                     []record // by host x project
	calls                       []hostCalls
	// history holds the daily rows in chunks of historyChunk, in the
	// order they began (calls come in time order, so a day's rows are
	// contiguous); days marks where each day's rows begin, and rows is
	// their count. today[user x projects + project] is 1 + the index of
	// the pair's latest row, today's if it is in the last day's rows.
	history [][]dayCredit
	days    []historyDay
	rows    int
	today   []int32
	world   *policy.World
}

// config is the instance's options, each declared once in decls.
type config struct {
	scale, reconcile float64
	lim              Limits
}

func (c *config) decls() []policy.Decl {
	return []policy.Decl{
		policy.Float(&c.scale, "scale", policy.ScaleServer, policy.Positive, "Cobblestones per GFLOPS-day (the accounting page: 1/200 day at 1 GFLOPS earns one credit)"),
		policy.Float(&c.lim.MaxCPUFlops, "max_cpu_flops", 100e9, policy.Positive, "a reported speed per CPU above it is implausible"),
		policy.Float(&c.lim.MaxCPUs, "max_cpus", 256, policy.Positive, "a reported CPU count above it is implausible"),
		policy.Float(&c.lim.MaxGPUFlops, "max_gpu_flops", 100e12, policy.Positive, "a reported peak per GPU above it is implausible"),
		policy.Float(&c.lim.MaxGPUs, "max_gpus", 8, policy.Positive, "a reported GPU count above it is implausible"),
		policy.Float(&c.lim.DefaultCPUFlops, "default_cpu_flops", 1e9, policy.Positive, "what an implausible CPU speed is reset to"),
		policy.Float(&c.lim.DefaultCPUs, "default_cpus", 4, policy.Positive, "what an implausible CPU count is reset to"),
		policy.Float(&c.lim.DefaultGPUFlops, "default_gpu_flops", 100e9, policy.Positive, "what an implausible GPU peak is reset to"),
		policy.Float(&c.lim.DefaultGPUs, "default_gpus", 1, policy.Positive, "what an implausible GPU count is reset to"),
		policy.Float(&c.reconcile, "reconcile", 0, policy.NonNegative, "days between reconciliations with the project's validated credit (a possible addition the accounting page names): each (host, project) total is set to the peak-FLOP credit of its validated jobs, and users see decreases; 0 = never"),
	}
}

// New returns an instance configured by opts.
func New(opts policy.Options) (policy.Policy, error) {
	var c config
	if err := policy.ParseOptions(opts, c.decls()); err != nil {
		return nil, err
	}
	return &Policy{scale: c.scale, lim: c.lim, reconcile: c.reconcile * policy.SecondsPerDay}, nil
}

// Init clears the accounting for a new replication.
func (p *Policy) Init(w *policy.World) {
	p.world = w
	p.records = make([]record, w.MaxHosts*len(w.Projects))
	p.calls = make([]hostCalls, w.MaxHosts)
	p.history, p.days, p.rows = nil, nil, 0
	p.today = make([]int32, w.MaxUsers*len(w.Projects))
	p.nextRec = p.reconcile
	p.granted, p.movedAbs, p.movedNet = 0, 0, 0
}

// Scale returns the instance's Cobblestones per GFLOPS-day.
func (p *Policy) Scale() float64 { return p.scale }

// Validated grants nothing: this accounting does not credit jobs. With
// reconciliation on it notes the project's validated credit per host:
// the peak FLOP count (elapsed x flops_estimate) of each valid result at
// the scale, as the project would report it before normalisation.
func (p *Policy) Validated(v *policy.Validation) float64 {
	if p.reconcile == 0 {
		return 0
	}
	for _, r := range v.Valid {
		rec := p.rec(int(r.HostID), int(r.ProjectID))
		rec.validated += policy.Finite(policy.FlopsToCredit(r.ElapsedTime*r.FlopsEstimate, p.scale))
	}
	return 0
}

// Tick reconciles every (host, project) total with the project's
// validated credit when one is due: the difference is paid (or taken
// back) at the host's next call.
func (p *Policy) Tick(t policy.Tick) {
	if p.reconcile == 0 || t.Kind != policy.DayTick || t.Time < p.nextRec {
		return
	}
	p.nextRec = t.Time + p.reconcile
	for h, hc := range p.calls {
		if !hc.seen {
			continue
		}
		for k := range p.world.Projects {
			rec := p.rec(h, k)
			rec.pending = rec.validated - rec.total
		}
	}
}

func (p *Policy) rec(host, project int) *record {
	return &p.records[host*len(p.world.Projects)+project]
}

// Sane returns the device speeds and counts the accounting believes:
// each implausible report is reset to its default.
func (l *Limits) Sane(c *policy.ClientReport) (cpuFlops, cpus, gpuFlops, gpus float64) {
	cpuFlops = plausible(c.CPUPeak, l.MaxCPUFlops, l.DefaultCPUFlops)
	cpus = plausible(float64(c.NCPUs), l.MaxCPUs, l.DefaultCPUs)
	gpuFlops = plausible(c.GPUPeak, l.MaxGPUFlops, l.DefaultGPUFlops)
	gpus = plausible(float64(c.NGPUs), l.MaxGPUs, l.DefaultGPUs)
	if c.NGPUs == 0 {
		gpuFlops, gpus = 0, 0
	}
	return
}

// plausible is v, or def when v is negative, NaN or above max.
func plausible(v, max, def float64) float64 {
	if !(v >= 0) || v > max {
		return def
	}
	return v
}

// Bounds are the most estimated FLOPs a call may credit for a project,
// CPU and GPU apart: the plausible FLOPS of each resource's devices x
// dt, the time since the host's previous call.
func (l *Limits) Bounds(c *policy.ClientReport, dt float64) (cpu, gpu float64) {
	cpuFlops, cpus, gpuFlops, gpus := l.Sane(c)
	return cpuFlops * cpus * dt, gpuFlops * gpus * dt
}

// limit is one resource's credited increase: the reported increase d,
// at most bound, never negative; and the share of d it is (what the
// call pays per estimated FLOP of that resource).
func limit(d, bound float64) (credited, share float64) {
	if !(d > 0) {
		if bound > 0 {
			return 0, 1 // nothing claimed, nothing cut
		}
		return 0, 0
	}
	credited = min(d, bound)
	return credited, credited / d
}

// ClientReport credits the increase of the project's estimated credit
// since the host's previous call, each resource limited to its plausible
// FLOPS x the time since that call; an excess is lost, not carried. The
// host's first call has no previous one and credits nothing; a project
// first reported by a known host is limited like any other. A pending
// reconciliation adjustment, possibly negative, is added.
func (p *Policy) ClientReport(c *policy.ClientReport) float64 {
	hc := &p.calls[c.HostID]
	if !hc.seen || c.Time != hc.cur {
		hc.prev, hc.hasPrev = hc.cur, hc.seen
		hc.cur, hc.seen = c.Time, true
	}
	dt := 0.0
	if hc.hasPrev {
		dt = c.Time - hc.prev
	}
	rec := p.rec(c.HostID, c.ProjectID)
	cpuBound, gpuBound := p.lim.Bounds(c, dt)
	cpu, cpuShare := limit(c.EstimatedCPUFlops-rec.est[0], cpuBound)
	gpu, gpuShare := limit(c.EstimatedGPUFlops-rec.est[1], gpuBound)
	credit := policy.Finite(policy.FlopsToCredit(cpu+gpu, p.scale))
	rec.share = [2]float64{cpuShare, gpuShare}
	p.granted += credit
	if rec.pending != 0 {
		p.movedAbs += math.Abs(rec.pending)
		p.movedNet += rec.pending
		credit += rec.pending
		rec.pending = 0
	}
	rec.total += credit
	if credit != 0 {
		p.addHistory(int32(c.Time/policy.SecondsPerDay), c.UserID, c.ProjectID, credit)
	}
	rec.est = [2]float64{c.EstimatedCPUFlops, c.EstimatedGPUFlops}
	return credit
}

// Reconciled reports how much reconciliation moved the totals: the sum
// of the adjustments' sizes and their net sum, against the credit the
// calls granted.
func (p *Policy) Reconciled() (abs, net, granted float64) { return p.movedAbs, p.movedNet, p.granted }

// Gauges exposes the reconciliation's cumulative movement, relative to
// the credit granted, when it is on.
func (p *Policy) Gauges(dst []policy.Gauge) []policy.Gauge {
	if p.reconcile == 0 || p.granted == 0 {
		return dst
	}
	return append(dst, policy.Gauge{Name: "reconciled_abs_fraction", Value: p.movedAbs / p.granted},
		policy.Gauge{Name: "reconciled_net_fraction", Value: p.movedNet / p.granted})
}

// Accrued is what the last call of r's host paid for runtime seconds of
// r: the estimated FLOPs the client counted for them (runtime x the
// reported speed of each device r's version uses) x the share of its
// claim that call granted for that resource. Before a host's second
// call it is 0.
func (p *Policy) Accrued(r *policy.Result, runtime float64) float64 {
	rec := p.rec(int(r.HostID), int(r.ProjectID))
	v := &p.world.Versions[r.VersionID]
	cpu, gpu := policy.ReportedPeak(r, v)
	credit := paid(rec.share[0], runtime, cpu, p.scale) + paid(rec.share[1], runtime, gpu, p.scale)
	return policy.Finite(credit)
}

// paid is share x the credit of runtime seconds at flops; 0 when any is
// 0, so that an absurd claim a call cut to nothing is not 0 x Inf. The
// rate is converted first, so a speed near the float range stays finite.
func paid(share, runtime, flops, scale float64) float64 {
	if share == 0 || runtime == 0 || flops == 0 {
		return 0
	}
	return share * (runtime * policy.FlopsToCredit(flops, scale))
}

// addHistory adds credit to a user's row of the day in a project. Days
// never go back, so a pair's latest row is the only one that can grow.
func (p *Policy) addHistory(day int32, user, project int, credit float64) {
	k := user*len(p.world.Projects) + project
	if k >= len(p.today) {
		p.today = append(p.today, make([]int32, k+1-len(p.today))...) // a world that did not bound its users
	}
	if n := len(p.days); n == 0 || p.days[n-1].day != day {
		p.days = append(p.days, historyDay{day: day, start: p.rows})
	} else if i := int(p.today[k]) - 1; i >= p.days[n-1].start {
		p.history[i/historyChunk][i%historyChunk].credit += credit
		return
	}
	if p.rows%historyChunk == 0 {
		p.history = append(p.history, make([]dayCredit, 0, historyChunk))
	}
	c := &p.history[len(p.history)-1]
	*c = append(*c, dayCredit{user: int32(user), project: int32(project), credit: credit})
	p.rows++
	p.today[k] = int32(p.rows)
}

// History calls yield with the daily history per user and project as
// CSV rows (day, user, project, credit), sorted, until yield returns
// false. A row is valid only during its call: rows are made one at a
// time, and sorted a day at a time, so that a large world's history
// (millions of rows) is written out without being copied or held as
// strings.
func (p *Policy) History(yield func(row []string) bool) {
	row := make([]string, 4)
	var keys []dayCredit
	for d, hd := range p.days {
		end := p.rows
		if d+1 < len(p.days) {
			end = p.days[d+1].start
		}
		keys = keys[:0]
		for i := hd.start; i < end; {
			c := p.history[i/historyChunk]
			j := min(end-i+i%historyChunk, len(c))
			keys = append(keys, c[i%historyChunk:j]...)
			i += j - i%historyChunk
		}
		slices.SortFunc(keys, func(a, b dayCredit) int {
			if a.user != b.user {
				return cmp.Compare(a.user, b.user)
			}
			return cmp.Compare(a.project, b.project)
		})
		row[0] = strconv.Itoa(int(hd.day))
		for _, k := range keys {
			row[1], row[2] = strconv.Itoa(int(k.user)), p.world.Projects[k.project].Name
			row[3] = strconv.FormatFloat(k.credit, 'g', 12, 64)
			if !yield(row) {
				return
			}
		}
	}
}

// HistoryHeader names History's columns.
func (p *Policy) HistoryHeader() []string { return []string{"day", "user", "project", "credit"} }
