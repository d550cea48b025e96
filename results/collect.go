package results

import (
	"math"
	"strconv"
	"unsafe"

	"github.com/creditsim/creditsim/boinc"
	"github.com/creditsim/creditsim/internal/chunked"
	"github.com/creditsim/creditsim/internal/hugepage"
	"github.com/creditsim/creditsim/internal/prefetch"
	"github.com/creditsim/creditsim/model/hosts"
	"github.com/creditsim/creditsim/policy"
	"github.com/creditsim/creditsim/sim"
)

// Window is the part of a run whose results count: sent at or after From
// and no later than To (the end less the longest delay bound, so every
// counted result can resolve before the end).
type Window struct {
	From, To float64
	End      float64
}

// sums is ΣG and ΣD (D in credits at the reference scale).
type sums struct{ G, D float64 }

func (s *sums) add(g, d float64) { s.G += g; s.D += d }

func (s sums) ratio() float64 {
	if s.D > 0 {
		return s.G / s.D
	}
	return math.NaN()
}

type hostAcc struct {
	n       int
	invalid int       // counted successes the validator found invalid
	g       []float64 // per policy
	d       float64
	dGPU    float64 // deserved credit of its GPU results
	flops   float64
	effSum  float64
	devSecs float64
}

type userAcc struct {
	n int
	g []float64
	d [2]float64 // by device class: CPU, GPU
}

// hostProj is a host's credit and CPU time in one project.
type hostProj struct {
	g   []float64 // per policy
	cpu float64   // reported CPU seconds
}

type projAcc struct {
	g          []float64
	d          float64
	cpuSeconds float64
	gpuSeconds float64
}

// SampleJob is one valid job of a sample host.
type SampleJob struct {
	T    float64 // when its credit was granted
	Host int
	D    float64 // deserved credit
}

// Collector observes one replication.
type Collector struct {
	win      Window
	refScale float64
	npol     int
	hosts    []hostAcc
	hostInfo []*hosts.Host
	users    []userAcc // by user ID; n = 0 until the user's first result
	// The per-policy credit of hosts, users and host-projects, each in
	// one dense array (entity x npol + p) that their g fields view: a
	// result's accumulation then finds every row from indexes alone, so
	// its cache misses overlap instead of waiting on each other's
	// pointers, and the arrays can have huge pages.
	hostG, userG, hostProjG []float64
	// Per policy, per behaviour group (a kind, or two combined), per
	// device class (0 CPU, 1 GPU).
	kinds [][hosts.NumGroups][2]sums
	// Per policy, per app, per device class; per policy, per version.
	apps     [][][2]sums
	versions [][]sums
	// Per host, per project (host x projects + project), for the
	// cross-project statistic.
	hostProj []hostProj
	// Credit spread of identical jobs: first valid replicas waiting for a
	// second, and per policy the sum of spreads and their count.
	// A first replica's time and credits are row k of firsts (1 + npol
	// values); rows are reused through freeFirsts, so that a result
	// costs no allocation. slots[s] names the row of the first replica
	// of the workunit in sim's workunit slot s. Both grow in chunks:
	// they reach tens of megabytes in the first simulated weeks of a
	// large world, when its heap is at its largest; grown by copying,
	// they raised the heap taken from the system by 340 MB at 100,000
	// hosts.
	slots      chunked.Slice[firstRef]
	firsts     chunked.Rows[float64]
	freeFirsts []int32
	spreadSum  []float64
	spreadN    int
	// Per host: FLOPs weighted by 2^-(end - t)/half-life, for RAC figures.
	recentFlops []float64
	projects    []projAcc
	counted     int64
	// Σ|R - T| and ΣT of runtime estimates against true runtimes.
	estAbsErr, estRuntime float64
	// Counted results by outcome, and the deserved credit of all counted
	// results and of those that timed out.
	outcomes       [policy.NumOutcomes]int64
	dAll, dNoReply float64
	total          []float64
	days           []DayRow
	// Every valid job of the sample hosts, for the dynamics plots and
	// sample-jobs.csv: sampleOf[host] is its place in SampleHosts (-1:
	// not sampled); jobG holds npol credits per job.
	sampleOf []int16
	keepJobs bool
	jobs     []SampleJob
	jobG     []float64
	sim      *sim.Sim
	final    bool
	// hostDays: per behaviour group, host-days in the window (figures).
	hostDays *[hosts.NumGroups]float64
	// Per behaviour group: counted results, and those found valid (the
	// regime figures).
	groupSent, groupValid [hosts.NumGroups]int64
	// twin is the replication's honest twin, when it ran (SetTwin).
	twin *Twin
}

// NewCollector returns a collector for a replication with npol policies.
func NewCollector(win Window, refScale float64, npol int) *Collector {
	return &Collector{win: win, refScale: refScale, npol: npol,
		total: make([]float64, npol)}
}

// KeepSampleJobs makes the collector keep every valid job of the sample
// hosts (sample-jobs.csv, the dynamics plots); runs do it for their
// first replication only.
func (c *Collector) KeepSampleJobs() { c.keepJobs = true }

// Attach gives the collector the engine, for host data and ledgers.
func (c *Collector) Attach(s *sim.Sim) {
	c.sim = s
	w := s.World()
	c.hostInfo = s.Hosts()
	np := len(w.Projects)
	c.hosts = make([]hostAcc, len(c.hostInfo))
	hugepage.Advise(c.hosts)
	c.hostG = rows(c.hosts, func(h *hostAcc, g []float64) { h.g = g }, c.npol)
	c.kinds = make([][hosts.NumGroups][2]sums, c.npol)
	c.apps = make([][][2]sums, c.npol)
	for p := range c.apps {
		c.apps[p] = make([][2]sums, len(w.Apps))
	}
	c.versions = make([][]sums, c.npol)
	for p := range c.versions {
		c.versions[p] = make([]sums, len(w.Versions))
	}
	c.hostProj = make([]hostProj, len(c.hostInfo)*np)
	hugepage.Advise(c.hostProj)
	c.hostProjG = rows(c.hostProj, func(h *hostProj, g []float64) { h.g = g }, c.npol)
	c.users = make([]userAcc, s.World().MaxUsers)
	hugepage.Advise(c.users)
	c.userG = rows(c.users, func(u *userAcc, g []float64) { u.g = g }, c.npol)
	c.spreadSum = make([]float64, c.npol)
	c.firsts = newFirstRows(c.npol)
	c.recentFlops = make([]float64, len(c.hostInfo))
	c.sampleOf = make([]int16, len(c.hostInfo))
	for i := range c.sampleOf {
		c.sampleOf[i] = -1
	}
	for j, h := range s.SampleHosts() {
		c.sampleOf[h] = int16(j)
	}
	c.projects = make([]projAcc, np)
	for i := range c.projects {
		c.projects[i].g = make([]float64, c.npol)
	}
}

// rows gives each entity of es a row of npol values in one dense array,
// advised for huge pages, set through setG, and returns the array.
func rows[E any](es []E, setG func(*E, []float64), npol int) []float64 {
	all := make([]float64, len(es)*npol)
	hugepage.Advise(all)
	for i := range es {
		setG(&es[i], all[i*npol:(i+1)*npol:(i+1)*npol])
	}
	return all
}

// ResultDone accumulates one finished result if it counts.
func (c *Collector) ResultDone(r *sim.Record) {
	v := r.View
	// RAC figures weigh every result, counted or not, as RAC does.
	c.recentFlops[v.HostID] += r.Flops * math.Exp2(-(c.win.End-r.Time)/policy.CreditHalfLife)
	if c.keepJobs && c.sampleOf[v.HostID] >= 0 && v.ValidateState == policy.Valid {
		c.jobs = append(c.jobs, SampleJob{T: r.Time, Host: int(v.HostID), D: policy.FlopsToCredit(r.Flops, c.refScale)})
		c.jobG = append(c.jobG, r.Granted...)
	}
	if v.SentTime < c.win.From || v.SentTime > c.win.To {
		return
	}
	c.counted++
	c.outcomes[v.Outcome]++
	if v.Outcome == policy.Success && r.Runtime > 0 {
		c.estAbsErr += math.Abs(r.EstRuntime - r.Runtime)
		c.estRuntime += r.Runtime
	}
	d := policy.FlopsToCredit(r.Flops, c.refScale)
	c.dAll += d
	if v.Outcome == policy.NoReply {
		c.dNoReply += d
	}
	class := 0
	if r.Version.Resource.IsGPU() {
		class = 1
	}
	kind := r.Host.Group
	h := &c.hosts[v.HostID]
	h.n++
	c.groupSent[kind]++
	switch v.ValidateState {
	case policy.Valid:
		c.groupValid[kind]++
	case policy.Invalid:
		if v.Outcome == policy.Success {
			h.invalid++
		}
	}
	h.d += d
	if class == 1 {
		h.dGPU += d
	}
	h.flops += r.Flops
	h.effSum += r.Efficiency
	h.devSecs += r.DeviceSeconds
	u := &c.users[v.UserID]
	u.n++
	u.d[class] += d
	pr := &c.projects[v.ProjectID]
	pr.d += d
	if class == 1 {
		pr.gpuSeconds += r.DeviceSeconds
	} else {
		pr.cpuSeconds += r.DeviceSeconds
	}
	hpi := int(v.HostID)*len(c.projects) + int(v.ProjectID)
	c.hostProj[hpi].cpu += v.CPUTime
	if v.ValidateState == policy.Valid && r.Replicas > 1 {
		// Only a replicated workunit can have a second valid replica;
		// keeping the others for 30 days would make memory grow with
		// the results of single-replication runs.
		c.spread(r.Slot, r.SlotGen, r.Granted)
	}
	// The rows by index, not through the records' g fields (see hostG).
	n := c.npol
	hg := c.hostG[int(v.HostID)*n:][:n]
	ug := c.userG[int(v.UserID)*n:][:n]
	hpg := c.hostProjG[hpi*n:][:n]
	for p := 0; p < n; p++ {
		g := r.Granted[p]
		hpg[p] += g
		c.versions[p][v.VersionID].add(g, d)
		hg[p] += g
		ug[p] += g
		pr.g[p] += g
		c.total[p] += g
		c.kinds[p][kind][class].add(g, d)
		c.apps[p][v.AppID][class].add(g, d)
	}
}

// DayRow is one day of the daily time series.
type DayRow struct {
	Day    int
	Credit []float64   // per policy, granted that day
	RAC    [][]float64 // per policy, per sample host
	Gauges [][]policy.Gauge
}

// Day records the daily time series.
func (c *Collector) Day(d *sim.DayState) {
	if d.Day%7 == 0 {
		c.dropStaleFirsts(d.Time)
	}
	row := DayRow{Day: d.Day}
	sample := d.Sim.SampleHosts()
	for p := 0; p < c.npol; p++ {
		l := d.Sim.Ledger(p)
		row.Credit = append(row.Credit, l.Day())
		var rac []float64
		for _, h := range sample {
			rac = append(rac, l.Host(h).RAC.Decayed(d.Time, policy.CreditHalfLife))
		}
		row.RAC = append(row.RAC, rac)
		var g []policy.Gauge
		if gg, ok := d.Sim.Policies()[p].(policy.Gauger); ok {
			g = gg.Gauges(nil)
		}
		if hg, ok := d.Sim.Policies()[p].(policy.HostGauger); ok {
			for _, h := range sample {
				n := len(g)
				g = hg.HostGauges(h, d.Time, g)
				for k := n; k < len(g); k++ {
					g[k].Name = "host_" + strconv.Itoa(h) + "." + g[k].Name
				}
			}
		}
		row.Gauges = append(row.Gauges, g)
	}
	c.days = append(c.days, row)
	c.final = d.Final
}

// RuntimeEstimateError is Σ|R - T| / ΣT over counted successful results:
// how far the server's runtime estimates R(J, H) were from the true
// runtimes T; NaN without results.
func (c *Collector) RuntimeEstimateError() float64 {
	if c.estRuntime > 0 {
		return c.estAbsErr / c.estRuntime
	}
	return math.NaN()
}

// Outcomes are the fractions of counted results that ended in each
// outcome (success, client_error, aborted, no_reply), and the share of
// the counted deserved credit that was in results that timed out
// (no_reply_share_of_deserved): work the credit systems never saw.
func (c *Collector) Outcomes() Figures {
	f := Figures{"no_reply_share_of_deserved": math.NaN()}
	for o, n := range c.outcomes {
		f[policy.Outcome(o).String()] = math.NaN()
		if c.counted > 0 {
			f[policy.Outcome(o).String()] = float64(n) / float64(c.counted)
		}
	}
	if c.dAll > 0 {
		f["no_reply_share_of_deserved"] = c.dNoReply / c.dAll
	}
	return f
}

// firstRef is what the collector keeps for one of sim's workunit slots:
// at is 1 + the row in firsts of the first valid replica of the slot's
// workunit (0: none), which was the slot's workunit while gen matches.
type firstRef struct {
	at  int32
	gen uint32
}

// newFirstRows returns an empty table of first replicas' rows: the time,
// then the credit per policy.
func newFirstRows(npol int) chunked.Rows[float64] { return chunked.NewRows[float64](1 + npol) }

// PrefetchSlot asks for what spread will read for the workunit in sim's
// slot: at stage 0 its firstRef, at stage 1 (when that is in cache) its
// first replica's row (sim.SlotPrefetcher).
func (c *Collector) PrefetchSlot(slot int32, stage int) {
	if slot < 0 || int(slot) >= c.slots.Len() {
		return
	}
	ref := c.slots.At(int(slot))
	if stage == 0 {
		prefetch.Line(unsafe.Pointer(ref))
		return
	}
	if k := int(ref.at) - 1; k >= 0 && k < c.firsts.Len() {
		prefetch.Range(unsafe.Pointer(unsafe.SliceData(c.firsts.Row(k))), uintptr(c.npol+1)*8)
	}
}

// spread pairs the first two valid replicas of a workunit and adds their
// relative credit difference, |a - b| / mean, per policy.
func (c *Collector) spread(slot int32, gen uint32, g []float64) {
	c.slots.Grow(int(slot) + 1)
	ref := c.slots.At(int(slot))
	k := ref.at - 1
	if k >= 0 && ref.gen != gen {
		// The slot's earlier workunit never got its second valid replica,
		// and no weekly sweep has dropped it yet: its first is forgotten
		// now, as a workunit ID never seen again would leave it.
		c.freeFirsts = append(c.freeFirsts, k)
		k = -1
	}
	if k < 0 {
		if n := len(c.freeFirsts); n > 0 {
			k = c.freeFirsts[n-1]
			c.freeFirsts = c.freeFirsts[:n-1]
		} else {
			k = int32(c.firsts.Add())
		}
		row := c.firsts.Row(int(k))
		row[0] = c.sim.Now()
		copy(row[1:], g)
		*ref = firstRef{at: k + 1, gen: gen}
		return
	}
	ref.at = 0
	c.freeFirsts = append(c.freeFirsts, k)
	first := c.firsts.Row(int(k))[1:]
	for p := range g {
		if m := (first[p] + g[p]) / 2; m > 0 {
			c.spreadSum[p] += math.Abs(first[p]-g[p]) / m
		}
	}
	c.spreadN++
}

// dropStaleFirsts forgets replicas whose workunit will not get a second
// valid one (single replication, or the partner failed): after 30 days
// nothing can still be waiting.
func (c *Collector) dropStaleFirsts(now float64) {
	for _, refs := range c.slots.Chunks() {
		for s := range refs {
			if k := refs[s].at - 1; k >= 0 && now-c.firsts.Row(int(k))[0] > 30*boinc.SecondsPerDay {
				refs[s].at = 0
				c.freeFirsts = append(c.freeFirsts, k)
			}
		}
	}
}
