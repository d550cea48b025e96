package results

import (
	"math"
	"sort"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/stat"

	"github.com/creditsim/creditsim/boinc"
	"github.com/creditsim/creditsim/model/hosts"
	"github.com/creditsim/creditsim/policy"
)

// MinHostResults is how many counted results a host (or account) needs to
// enter the host figures and the worst account ratio.
const MinHostResults = 10

// Figures are one replication's figures for one policy, by dotted name;
// NaN means undefined.
type Figures map[string]float64

// figureInputs is what the figures of one policy in one replication share.
type figureInputs struct {
	c      *Collector
	p      int
	honest [2]sums // honest accounts by device class
	all    sums    // honest accounts
	// Per honest host with at least MinHostResults: its G/D and mean
	// efficiency (filled on first use).
	gd, eff []float64
	hostsOK bool
}

// honestHosts returns the per-host G/D and efficiency of honest hosts
// with enough results.
func (in *figureInputs) honestHosts() (gd, eff []float64) {
	if !in.hostsOK {
		c := in.c
		for i := range c.hosts {
			h := &c.hosts[i]
			if h.n < MinHostResults || h.d <= 0 || c.hostInfo[i].Group != hosts.Group(hosts.Honest) {
				continue
			}
			in.gd = append(in.gd, h.g[in.p]/h.d)
			in.eff = append(in.eff, h.effSum/float64(h.n))
		}
		in.hostsOK = true
	}
	return in.gd, in.eff
}

// PolicyFigures computes the figures of policy p, as Registry declares
// them (section 10 of the design).
func (c *Collector) PolicyFigures(p int) Figures {
	k := c.kinds[p]
	in := &figureInputs{c: c, p: p, honest: [2]sums{k[hosts.Honest][0], k[hosts.Honest][1]}}
	in.all = sums{in.honest[0].G + in.honest[1].G, in.honest[0].D + in.honest[1].D}
	f := Figures{}
	for _, fig := range Registry {
		switch {
		case fig.compute != nil:
			f[fig.Name] = fig.compute(in)
		case fig.computeFamily != nil:
			fig.computeFamily(in, f)
		}
	}
	return f
}

// deviceNeutrality pools apps that have both kinds of results.
func deviceNeutrality(in *figureInputs) float64 {
	cpu, gpu := in.c.DeviceGD(in.p)
	if cpu > 0 && gpu >= 0 {
		return gpu / cpu
	}
	return math.NaN()
}

// DeviceGD is policy p's G/D over the CPU and over the GPU results of
// the apps that have results of both kinds (ΣG/ΣD of each, pooled over
// those apps): device neutrality is gpu / cpu. NaN where there are none.
func (c *Collector) DeviceGD(p int) (cpu, gpu float64) {
	var cs, gs sums
	for _, a := range c.apps[p] {
		if a[0].D > 0 && a[1].D > 0 {
			cs.add(a[0].G, a[0].D)
			gs.add(a[1].G, a[1].D)
		}
	}
	return cs.ratio(), gs.ratio()
}

func hostCV(in *figureInputs) float64 {
	gd, _ := in.honestHosts()
	if len(gd) < 2 {
		return math.NaN()
	}
	mean, sd := stat.MeanStdDev(gd, nil)
	if mean > 0 {
		return sd / mean
	}
	return math.NaN()
}

func hostRange(in *figureInputs) float64 {
	gd, _ := in.honestHosts()
	if len(gd) < 2 {
		return math.NaN()
	}
	s := append([]float64(nil), gd...)
	sort.Float64s(s)
	p5 := stat.Quantile(0.05, stat.Empirical, s, nil)
	p95 := stat.Quantile(0.95, stat.Empirical, s, nil)
	if p5 > 0 {
		return p95 / p5
	}
	return math.NaN()
}

func hostSlope(in *figureInputs) float64 {
	gd, eff := in.honestHosts()
	if len(gd) < 2 || stat.Variance(eff, nil) <= 0 {
		return math.NaN()
	}
	_, beta := stat.LinearRegression(eff, gd, nil, false)
	return beta
}

// projectNeutrality is max/min of per-project ΣG/ΣD.
func projectNeutrality(in *figureInputs) float64 {
	if len(in.c.projects) <= 1 {
		return math.NaN()
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, pr := range in.c.projects {
		if pr.d > 0 {
			r := pr.g[in.p] / pr.d
			lo, hi = min(lo, r), max(hi, r)
		}
	}
	if lo > 0 && !math.IsInf(hi, 0) {
		return hi / lo
	}
	return math.NaN()
}

func failedBenchmarkRatio(in *figureInputs) float64 {
	k := in.c.kinds[in.p][hosts.FailedBenchmark]
	return sums{k[0].G + k[1].G, k[0].D + k[1].D}.ratio()
}

// honestRef is what honest accounts get for deserved credit d by device
// class.
func (in *figureInputs) honestRef(d [2]float64) float64 {
	switch {
	case d[0] == 0:
		return d[1] * in.honest[1].ratio()
	case d[1] == 0:
		return d[0] * in.honest[0].ratio()
	}
	return d[0]*in.honest[0].ratio() + d[1]*in.honest[1].ratio()
}

// cheatFigures adds, per agent kind (or two combined), its ΣG over what
// honest accounts get for the same deserved credit on the same device
// classes; for a group with no deserved credit at all (fake results), its
// undeserved credit per host-day relative to an honest host-day's in the
// honest twin (in the same run without one).
func cheatFigures(in *figureInputs, f Figures) {
	c := in.c
	k := &c.kinds[in.p]
	days := c.groupHostDays()
	for grp := hosts.Group(1); int(grp) < hosts.NumGroups; grp++ {
		if grp == hosts.Group(hosts.FailedBenchmark) {
			continue // neither honest nor a cheat: reported apart
		}
		g := k[grp][0].G + k[grp][1].G
		ref := in.honestRef([2]float64{k[grp][0].D, k[grp][1].D})
		switch {
		case k[grp][0].D+k[grp][1].D > 0 && ref > 0:
			f["cheat_ratio."+grp.String()] = g / ref
		case g > 0 || days[grp] > 0:
			// An honest host-day's credit: in the honest twin, where there
			// is one, so that what the fakes do to honest hosts is not
			// counted as their gain; else in the same run.
			hd, honestDays, honestG := days[grp], days[hosts.Honest], in.all.G
			if in.c.twin != nil {
				_, twin := in.gainSums()
				honestG = twin[hosts.Honest]
			}
			if hd > 0 && honestDays > 0 && honestG > 0 {
				f["cheat_credit_per_day."+grp.String()] = (g / hd) / (honestG / honestDays)
			}
		}
	}
}

// worstAccount is the largest account ratio to honest.
func worstAccount(in *figureInputs) float64 {
	worst := math.NaN()
	for i := range in.c.users {
		u := &in.c.users[i]
		if u.n < MinHostResults {
			continue
		}
		if ref := in.honestRef(u.d); ref > 0 {
			r := u.g[in.p] / ref
			if math.IsNaN(worst) || r > worst {
				worst = r
			}
		}
	}
	return worst
}

// groupHostDays returns, per behaviour group, the days its hosts were
// attached in the window (computed once).
func (c *Collector) groupHostDays() *[hosts.NumGroups]float64 {
	if c.hostDays == nil {
		c.hostDays = new([hosts.NumGroups]float64)
		for _, h := range c.hostInfo {
			from, to := max(h.Arrival, c.win.From), min(h.Departure, c.win.To)
			if to > from {
				c.hostDays[h.Group] += (to - from) / boinc.SecondsPerDay
			}
		}
	}
	return c.hostDays
}

// deviceByPlanClass adds device neutrality per plan class: the GPU
// versions of a class over the CPU versions of the same apps, over apps
// with both.
func deviceByPlanClass(in *figureInputs, f Figures) {
	c, p := in.c, in.p
	w := c.sim.World()
	type pair struct{ cpu, gpu sums }
	byClass := map[string]*pair{}
	for ai := range w.Apps {
		var cpu sums
		gpuByClass := map[string]sums{}
		for _, v := range w.Versions {
			if v.AppID != ai {
				continue
			}
			x := c.versions[p][v.ID]
			if !v.Resource.IsGPU() {
				cpu.add(x.G, x.D)
				continue
			}
			k := v.PlanClass
			if k == "" {
				k = v.Resource.String()
			}
			g := gpuByClass[k]
			g.add(x.G, x.D)
			gpuByClass[k] = g
		}
		for k, g := range gpuByClass {
			if cpu.D > 0 && g.D > 0 {
				b := byClass[k]
				if b == nil {
					b = &pair{}
					byClass[k] = b
				}
				b.cpu.add(cpu.G, cpu.D)
				b.gpu.add(g.G, g.D)
			}
		}
	}
	for k, b := range byClass {
		if b.cpu.G > 0 {
			f["device_neutrality."+k] = b.gpu.ratio() / b.cpu.ratio()
		}
	}
}

// crossProject adds the community's cross-project statistic: per pair of
// projects, the mean over hosts with CPU time in both of the ratio of
// their credit per CPU second.
func crossProject(in *figureInputs, f Figures) {
	c, p := in.c, in.p
	w := c.sim.World()
	for a := range w.Projects {
		for b := a + 1; b < len(w.Projects); b++ {
			sum, n := 0.0, 0
			np := len(w.Projects)
			for h := 0; h+np <= len(c.hostProj); h += np {
				row := c.hostProj[h : h+np]
				if row[a].cpu <= 0 || row[b].cpu <= 0 {
					continue
				}
				ca, cb := row[a].g[p]/row[a].cpu, row[b].g[p]/row[b].cpu
				if cb > 0 {
					sum += ca / cb
					n++
				}
			}
			if n > 0 {
				f["cross_project."+w.Projects[a].Name+"/"+w.Projects[b].Name] = sum / float64(n)
			}
		}
	}
}

// creditSpread is the mean spread of identical jobs' credit.
func creditSpread(in *figureInputs) float64 {
	if in.c.spreadN > 0 {
		return in.c.spreadSum[in.p] / float64(in.c.spreadN)
	}
	return math.NaN()
}

// settleDays adds the settle times of the policy's internal series.
func settleDays(in *figureInputs, f Figures) {
	series := map[string][]float64{}
	var days []float64
	for _, d := range in.c.days {
		days = append(days, float64(d.Day))
		for _, g := range d.Gauges[in.p] {
			series[g.Name] = append(series[g.Name], g.Value)
		}
	}
	for name, v := range series {
		if len(v) != len(days) || strings.HasPrefix(name, "host_") {
			continue // a series that starts late, or a single host's
		}
		f["settle_days."+name] = SettleDays(days, v, 0.05)
	}
}

// racReadings adds RAC / 100 and RAC / 200 against true GFLOPS under the
// same 7-day weighting, over honest hosts present at the end.
func racReadings(in *figureInputs, f Figures) {
	c := in.c
	l := c.sim.Ledger(in.p)
	for _, reading := range []float64{100, 200} {
		sum, n := 0.0, 0
		for i, h := range c.hostInfo {
			if h.Group != hosts.Group(hosts.Honest) || h.Departure < c.win.End || c.hosts[i].n < MinHostResults {
				continue
			}
			// RAC of a steady rate W credits per day converges to W; the
			// FLOPs a host did, weighted the same way, are a rate of
			// recentFlops x ln2 / half-life per second.
			trueGFLOPS := c.recentFlops[i] * math.Ln2 / policy.CreditHalfLife / 1e9
			rac := l.Host(i).RAC.Decayed(c.win.End, policy.CreditHalfLife)
			if trueGFLOPS > 0 {
				sum += (rac / reading) / trueGFLOPS
				n++
			}
		}
		if n > 0 {
			f["rac_gflops."+strconv.Itoa(int(reading))] = sum / float64(n)
		}
	}
}

// SettleDays is the last day a series leaves the band of ±tol around its
// final value (DESIGN section 10), the first day if it never does; NaN
// for an empty series or a final value of 0.
func SettleDays(days, v []float64, tol float64) float64 {
	if len(v) == 0 || v[len(v)-1] == 0 {
		return math.NaN()
	}
	final := v[len(v)-1]
	settle := days[0]
	for i, x := range v {
		if math.Abs(x-final) > tol*math.Abs(final) {
			if i+1 < len(days) {
				settle = days[i+1]
			}
		}
	}
	return settle
}
