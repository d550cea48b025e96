package sciunited

import (
	"math"
	"sort"
	"strconv"

	"github.com/creditsim/creditsim/policy"
)

func init() {
	policy.Register(&policy.Kind{
		Name:     "sciunited",
		Standard: true,
		Doc:      "Science United's accounting: runtime x peak FLOPS reported at account-manager calls (seed 003)",
		Options: []policy.OptionDoc{
			{Name: "scale", Default: "200", Doc: "Cobblestones per GFLOPS-day (seed 003: 1/200 day at 1 GFLOPS)"},
			{Name: "max_cpu_flops", Default: "100e9", Doc: "a reported CPU speed above it is implausible"},
			{Name: "max_cpus", Default: "256", Doc: "a reported CPU count above it is implausible"},
			{Name: "max_gpu_flops", Default: "100e12", Doc: "a reported GPU peak above it is implausible"},
			{Name: "max_gpus", Default: "8", Doc: "a reported GPU count above it is implausible"},
			{Name: "default_cpu_flops", Default: "4.3e9", Doc: "what an implausible CPU speed is reset to (the server's AVG_CPU_FPOPS)"},
			{Name: "default_cpus", Default: "4", Doc: "what an implausible CPU count is reset to"},
			{Name: "default_gpu_flops", Default: "5e12", Doc: "what an implausible GPU peak is reset to"},
			{Name: "default_gpus", Default: "1", Doc: "what an implausible GPU count is reset to"},
			{Name: "reconcile", Default: "0", Doc: "days between reconciliations with the project's validated credit (seed 003's possible addition): each (host, project) total is set to the peak-FLOP credit of its validated jobs, and users see decreases; 0 = never"},
		},
		New: New,
	})
}

// Limits are the sanity check's bounds and defaults.
type Limits struct {
	MaxCPUFlops, MaxCPUs, MaxGPUFlops, MaxGPUs                 float64
	DefaultCPUFlops, DefaultCPUs, DefaultGPUFlops, DefaultGPUs float64
}

// record is the accounting's state for one (host, project).
type record struct {
	seen  bool
	time  float64 // of the last call
	est   float64 // estimated FLOPs reported then
	share float64 // credit granted over credit claimed at the last call (the clamp)
	user  int
	// Reconciliation: credit granted so far, the project's validated
	// credit for the host, and an adjustment due at the next call.
	total, validated, pending float64
}

// dayKey indexes the daily history.
type dayKey struct{ day, user, project int }

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
	records                     map[[2]int]*record
	history                     map[dayKey]float64
	world                       *policy.World
}

// New returns an instance configured by opts.
func New(opts policy.Options) (policy.Policy, error) {
	p := &Policy{}
	var err error
	if p.scale, err = opts.Float("scale", policy.ScaleServer, true); err != nil {
		return nil, err
	}
	for _, f := range []struct {
		name string
		def  float64
		dst  *float64
	}{
		{"max_cpu_flops", 100e9, &p.lim.MaxCPUFlops}, {"max_cpus", 256, &p.lim.MaxCPUs},
		{"max_gpu_flops", 100e12, &p.lim.MaxGPUFlops}, {"max_gpus", 8, &p.lim.MaxGPUs},
		{"default_cpu_flops", 4.3e9, &p.lim.DefaultCPUFlops}, {"default_cpus", 4, &p.lim.DefaultCPUs},
		{"default_gpu_flops", 5e12, &p.lim.DefaultGPUFlops}, {"default_gpus", 1, &p.lim.DefaultGPUs},
	} {
		if *f.dst, err = opts.Float(f.name, f.def, true); err != nil {
			return nil, err
		}
	}
	days, err := opts.Float("reconcile", 0, false)
	if err != nil {
		return nil, err
	}
	if days < 0 {
		return nil, &policy.OptionError{Option: "reconcile", Value: opts["reconcile"], Reason: "must not be negative"}
	}
	p.reconcile = days * policy.SecondsPerDay
	return p, nil
}

// Init clears the accounting for a new replication.
func (p *Policy) Init(w *policy.World) {
	p.world = w
	p.records = map[[2]int]*record{}
	p.history = map[dayKey]float64{}
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
		rec := p.rec(r.HostID, r.ProjectID)
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
	for _, rec := range p.records {
		if !rec.seen {
			continue
		}
		rec.pending = rec.validated - rec.total
	}
}

func (p *Policy) rec(host, project int) *record {
	k := [2]int{host, project}
	rec := p.records[k]
	if rec == nil {
		rec = &record{}
		p.records[k] = rec
	}
	return rec
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

// Delta is the estimated FLOPs an account-manager call credits: the
// increase since the last call, at most the plausible FLOPS x devices x
// the wall time between the calls, never negative.
func (l *Limits) Delta(c *policy.ClientReport, lastTime, lastEst float64) float64 {
	cpuFlops, cpus, gpuFlops, gpus := l.Sane(c)
	bound := (cpuFlops*cpus + gpuFlops*gpus) * (c.Time - lastTime)
	d := c.EstimatedFlops - lastEst
	if !(d > 0) {
		return 0
	}
	return math.Min(d, bound)
}

// ClientReport credits the delta since the host's last call for the
// project; the first call only records the total. A pending
// reconciliation adjustment, possibly negative, is added.
func (p *Policy) ClientReport(c *policy.ClientReport) float64 {
	rec := p.rec(c.HostID, c.ProjectID)
	credit := 0.0
	if rec.seen {
		d := p.lim.Delta(c, rec.time, rec.est)
		credit = policy.Finite(policy.FlopsToCredit(d, p.scale))
		if raw := policy.FlopsToCredit(c.EstimatedFlops-rec.est, p.scale); raw > 0 {
			rec.share = credit / raw
		}
		p.granted += credit
	} else {
		// Until a delta has been seen nothing was clamped.
		rec.share = 1
	}
	if rec.pending != 0 {
		p.movedAbs += math.Abs(rec.pending)
		p.movedNet += rec.pending
		credit += rec.pending
		rec.pending = 0
	}
	rec.total += credit
	if credit != 0 {
		p.history[dayKey{int(c.Time / policy.SecondsPerDay), c.UserID, c.ProjectID}] += credit
	}
	rec.seen, rec.time, rec.est = true, c.Time, c.EstimatedFlops
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

// Accrued attributes credit to a result: its runtime x the plausible
// peak FLOPS of the devices its version uses (an implausible reported
// speed counts as the default, as at the calls), at the scale, times the
// share of its claims the host's last call granted; nothing before the
// host's first call.
func (p *Policy) Accrued(r *policy.Result, runtime float64) float64 {
	rec := p.records[[2]int{r.HostID, r.ProjectID}]
	if rec == nil || !rec.seen {
		return 0
	}
	v := &p.world.Versions[r.VersionID]
	peak := v.CPUUsage * plausible(r.HostPFpops, p.lim.MaxCPUFlops, p.lim.DefaultCPUFlops)
	if v.Resource.IsGPU() {
		peak += v.GPUUsage * plausible(r.HostGPUPeak, p.lim.MaxGPUFlops, p.lim.DefaultGPUFlops)
	}
	return policy.Finite(policy.FlopsToCredit(runtime*peak, p.scale) * rec.share)
}

// History returns the daily history per user and project as CSV rows
// (day, user, project, credit), sorted.
func (p *Policy) History() [][]string {
	keys := make([]dayKey, 0, len(p.history))
	for k := range p.history {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		a, b := keys[i], keys[j]
		if a.day != b.day {
			return a.day < b.day
		}
		if a.user != b.user {
			return a.user < b.user
		}
		return a.project < b.project
	})
	rows := make([][]string, len(keys))
	for i, k := range keys {
		rows[i] = []string{strconv.Itoa(k.day), strconv.Itoa(k.user), p.world.Projects[k.project].Name,
			strconv.FormatFloat(p.history[k], 'g', 12, 64)}
	}
	return rows
}

// HistoryHeader names History's columns.
func (p *Policy) HistoryHeader() []string { return []string{"day", "user", "project", "credit"} }
