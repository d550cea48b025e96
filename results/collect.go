package results

import (
	"math"
	"strconv"
	"unsafe"

	"github.com/creditsim/creditsim/boinc"
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
	// A first replica's credits live in slot k of firstG (npol values)
	// and its time in firstT[k]; slots are reused through freeSlots, so
	// that a result costs no allocation. firstAt[s] is 1 + the slot of
	// the first replica of the workunit in sim's workunit slot s (0:
	// none), which was that slot's workunit while firstGen[s] matches.
	firstAt   []int32
	firstGen  []uint32
	firstG    []float64
	firstT    []float64
	freeSlots []int32
	spreadSum []float64
	spreadN   int
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
	kind := r.Host.Behaviour.Group()
	h := &c.hosts[v.HostID]
	h.n++
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

// PrefetchSlot asks for what spread will read for the workunit in sim's
// slot: at stage 0 its entries in firstAt and firstGen, at stage 1 (when
// those are in cache) its first replica's credits (sim.SlotPrefetcher).
func (c *Collector) PrefetchSlot(slot int32, stage int) {
	if uint(slot) >= uint(len(c.firstAt)) {
		return
	}
	if stage == 0 {
		prefetch.Line(unsafe.Pointer(&c.firstAt[slot]))
		prefetch.Line(unsafe.Pointer(&c.firstGen[slot]))
		return
	}
	if k := int(c.firstAt[slot]) - 1; k >= 0 && (k+1)*c.npol <= len(c.firstG) && c.npol > 0 {
		prefetch.Range(unsafe.Pointer(&c.firstG[k*c.npol]), uintptr(c.npol)*8)
	}
}

// spread pairs the first two valid replicas of a workunit and adds their
// relative credit difference, |a - b| / mean, per policy.
func (c *Collector) spread(slot int32, gen uint32, g []float64) {
	for int(slot) >= len(c.firstAt) {
		c.firstAt = hugepage.Append(c.firstAt, 1024, 0)
		c.firstGen = hugepage.Append(c.firstGen, 1024, 0)
	}
	k := c.firstAt[slot] - 1
	if k >= 0 && c.firstGen[slot] != gen {
		// The slot's earlier workunit never got its second valid replica,
		// and no weekly sweep has dropped it yet: its first is forgotten
		// now, as a workunit ID never seen again would leave it.
		c.freeSlots = append(c.freeSlots, k)
		k = -1
	}
	if k < 0 {
		if n := len(c.freeSlots); n > 0 {
			k = c.freeSlots[n-1]
			c.freeSlots = c.freeSlots[:n-1]
		} else {
			k = int32(len(c.firstT))
			c.firstT = hugepage.Append(c.firstT, 1024, 0)
			c.firstG = hugepage.Append(c.firstG, 1024*c.npol, make([]float64, c.npol)...)
		}
		copy(c.firstG[int(k)*c.npol:], g)
		c.firstT[k] = c.sim.Now()
		c.firstAt[slot], c.firstGen[slot] = k+1, gen
		return
	}
	c.firstAt[slot] = 0
	c.freeSlots = append(c.freeSlots, k)
	first := c.firstG[int(k)*c.npol:][:c.npol]
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
	for s, k1 := range c.firstAt {
		if k := k1 - 1; k >= 0 && now-c.firstT[k] > 30*boinc.SecondsPerDay {
			c.firstAt[s] = 0
			c.freeSlots = append(c.freeSlots, k)
		}
	}
}
