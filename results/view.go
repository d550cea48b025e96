package results

import (
	"math"

	"github.com/creditsim/creditsim/model/hosts"
	"github.com/creditsim/creditsim/sim"
)

// What a collector saw, for drawing and tables outside this package.

// HostPoint is one honest host with at least MinHostResults counted
// results: its G/D under each policy, its mean efficiency, and whether a
// GPU did most of its deserved work.
type HostPoint struct {
	GD  []float64
	Eff float64
	GPU bool
}

// HonestHosts returns the honest hosts with enough counted results.
func (c *Collector) HonestHosts() []HostPoint {
	var out []HostPoint
	for i := range c.hosts {
		h := &c.hosts[i]
		if h.n < MinHostResults || h.d <= 0 || c.hostInfo[i].Group != hosts.Group(hosts.Honest) {
			continue
		}
		gd := make([]float64, c.npol)
		for p := range gd {
			gd[p] = h.g[p] / h.d
		}
		out = append(out, HostPoint{GD: gd, Eff: h.effSum / float64(h.n), GPU: h.dGPU > h.d/2})
	}
	return out
}

// ProjectSums is one project's counted credit: ΣG per policy and ΣD.
type ProjectSums struct {
	Name string
	G    []float64
	D    float64
}

// Projects returns each project's sums, in the world's order.
func (c *Collector) Projects() []ProjectSums {
	out := make([]ProjectSums, len(c.projects))
	for i, pr := range c.projects {
		out[i] = ProjectSums{Name: c.sim.World().Projects[i].Name, G: pr.g, D: pr.d}
	}
	return out
}

// Days returns the daily time series.
func (c *Collector) Days() []DayRow { return c.days }

// Window returns the counted window.
func (c *Collector) Window() Window { return c.win }

// Sim returns the engine the collector observed.
func (c *Collector) Sim() *sim.Sim { return c.sim }

// Host returns host h as generated (its kind, arrival, departure).
func (c *Collector) Host(h int) *hosts.Host { return c.hostInfo[h] }

// NumHosts is how many hosts the replication had.
func (c *Collector) NumHosts() int { return len(c.hostInfo) }

// TrueGFLOPS is host h's true mean speed over the part of the window it
// was attached (NaN if it was not attached in the window).
func (c *Collector) TrueGFLOPS(h int) float64 {
	info := c.hostInfo[h]
	if span := hostSpan(info.Arrival, info.Departure, c.win); span > 0 {
		return c.hosts[h].flops / span / 1e9
	}
	return math.NaN()
}

// SampleJobList returns every kept job of the sample hosts and its credit
// under policy p (KeepSampleJobs).
func (c *Collector) SampleJobList(p int) (jobs []SampleJob, granted []float64) {
	granted = make([]float64, len(c.jobs))
	for i := range c.jobs {
		granted[i] = c.jobG[i*c.npol+p]
	}
	return c.jobs, granted
}
