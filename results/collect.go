package results

import (
	"math"
	"strconv"

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
	n    int
	kind hosts.Kind
	g    []float64
	d    [2]float64 // by device class: CPU, GPU
}

type projAcc struct {
	g          []float64
	d          float64
	cpuSeconds float64
	gpuSeconds float64
}

// Collector observes one replication.
type Collector struct {
	win      Window
	refScale float64
	npol     int
	hosts    []hostAcc
	hostInfo []*hosts.Host
	users    map[int]*userAcc
	// Per policy, per kind, per device class (0 CPU, 1 GPU).
	kinds [][hosts.NumKinds][2]sums
	// Per policy, per app, per device class.
	apps     [][][2]sums
	projects []projAcc
	counted  int64
	// Σ|R - T| and ΣT of runtime estimates against true runtimes.
	estAbsErr, estRuntime float64
	total                 []float64
	days                  []dayRow
	series                [][]float64 // per policy: daily values, flattened later
	sim                   *sim.Sim
	final                 bool
}

// NewCollector returns a collector for a replication with npol policies.
func NewCollector(win Window, refScale float64, npol int) *Collector {
	return &Collector{win: win, refScale: refScale, npol: npol, users: map[int]*userAcc{},
		total: make([]float64, npol)}
}

// Attach gives the collector the engine, for host data and ledgers.
func (c *Collector) Attach(s *sim.Sim) {
	c.sim = s
	w := s.World()
	c.hostInfo = s.Hosts()
	c.hosts = make([]hostAcc, len(c.hostInfo))
	for i := range c.hosts {
		c.hosts[i].g = make([]float64, c.npol)
	}
	c.kinds = make([][hosts.NumKinds][2]sums, c.npol)
	c.apps = make([][][2]sums, c.npol)
	for p := range c.apps {
		c.apps[p] = make([][2]sums, len(w.Apps))
	}
	c.projects = make([]projAcc, len(w.Projects))
	for i := range c.projects {
		c.projects[i].g = make([]float64, c.npol)
	}
}

// ResultDone accumulates one finished result if it counts.
func (c *Collector) ResultDone(r *sim.Record) {
	v := r.View
	if v.SentTime < c.win.From || v.SentTime > c.win.To {
		return
	}
	c.counted++
	if v.Outcome == policy.Success && r.Runtime > 0 {
		c.estAbsErr += math.Abs(r.EstRuntime - r.Runtime)
		c.estRuntime += r.Runtime
	}
	d := policy.FlopsToCredit(r.Flops, c.refScale)
	class := 0
	if r.Version.Resource.IsGPU() {
		class = 1
	}
	kind := r.Host.Behaviour.Kind
	h := &c.hosts[v.HostID]
	h.n++
	h.d += d
	if class == 1 {
		h.dGPU += d
	}
	h.flops += r.Flops
	h.effSum += r.Efficiency
	h.devSecs += r.DeviceSeconds
	u := c.users[v.UserID]
	if u == nil {
		u = &userAcc{kind: kind, g: make([]float64, c.npol)}
		c.users[v.UserID] = u
	}
	u.n++
	u.d[class] += d
	pr := &c.projects[v.ProjectID]
	pr.d += d
	if class == 1 {
		pr.gpuSeconds += r.DeviceSeconds
	} else {
		pr.cpuSeconds += r.DeviceSeconds
	}
	for p := 0; p < c.npol; p++ {
		g := r.Granted[p]
		h.g[p] += g
		u.g[p] += g
		pr.g[p] += g
		c.total[p] += g
		c.kinds[p][kind][class].add(g, d)
		c.apps[p][v.AppID][class].add(g, d)
	}
}

type dayRow struct {
	day    int
	credit []float64   // per policy, granted that day
	rac    [][]float64 // per policy, per sample host
	gauges [][]policy.Gauge
}

// Day records the daily time series.
func (c *Collector) Day(d *sim.DayState) {
	row := dayRow{day: d.Day}
	sample := d.Sim.SampleHosts()
	for p := 0; p < c.npol; p++ {
		l := d.Sim.Ledger(p)
		row.credit = append(row.credit, l.Day)
		l.Day = 0
		var rac []float64
		for _, h := range sample {
			rac = append(rac, l.Hosts[h].RAC.Decayed(d.Time, policy.CreditHalfLife))
		}
		row.rac = append(row.rac, rac)
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
		row.gauges = append(row.gauges, g)
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
