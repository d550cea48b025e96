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

// PolicyFigures computes the figures of policy p (section 10 of the design).
func (c *Collector) PolicyFigures(p int) Figures {
	f := Figures{}
	k := c.kinds[p]
	honest := [2]sums{k[hosts.Honest][0], k[hosts.Honest][1]}
	all := sums{honest[0].G + honest[1].G, honest[0].D + honest[1].D}
	f["honest_ratio"] = all.ratio()
	f["total_credit"] = c.total[p]

	// Device neutrality: pooled over apps that have both kinds of results.
	var cpu, gpu sums
	for _, a := range c.apps[p] {
		if a[0].D > 0 && a[1].D > 0 {
			cpu.add(a[0].G, a[0].D)
			gpu.add(a[1].G, a[1].D)
		}
	}
	f["device_neutrality"] = math.NaN()
	if cpu.D > 0 && gpu.D > 0 && cpu.G > 0 {
		f["device_neutrality"] = gpu.ratio() / cpu.ratio()
	}

	// Host neutrality over honest hosts with enough results.
	var gd, eff []float64
	for i := range c.hosts {
		h := &c.hosts[i]
		if h.n < MinHostResults || h.d <= 0 || c.hostInfo[i].Behaviour.Kind != hosts.Honest {
			continue
		}
		gd = append(gd, h.g[p]/h.d)
		eff = append(eff, h.effSum/float64(h.n))
	}
	f["host_neutrality_cv"], f["host_neutrality_range"], f["host_gd_efficiency_slope"] = math.NaN(), math.NaN(), math.NaN()
	if len(gd) >= 2 {
		mean, sd := stat.MeanStdDev(gd, nil)
		if mean > 0 {
			f["host_neutrality_cv"] = sd / mean
		}
		s := append([]float64(nil), gd...)
		sort.Float64s(s)
		p5 := stat.Quantile(0.05, stat.Empirical, s, nil)
		p95 := stat.Quantile(0.95, stat.Empirical, s, nil)
		if p5 > 0 {
			f["host_neutrality_range"] = p95 / p5
		}
		if stat.Variance(eff, nil) > 0 {
			_, beta := stat.LinearRegression(eff, gd, nil, false)
			f["host_gd_efficiency_slope"] = beta
		}
	}

	// Project neutrality: max/min of per-project ΣG/ΣD.
	f["project_neutrality"] = math.NaN()
	if len(c.projects) > 1 {
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, pr := range c.projects {
			if pr.d > 0 {
				r := pr.g[p] / pr.d
				lo, hi = math.Min(lo, r), math.Max(hi, r)
			}
		}
		if lo > 0 && !math.IsInf(hi, 0) {
			f["project_neutrality"] = hi / lo
		}
	}

	// Cheat ratio per agent kind: its ΣG over what honest accounts get for
	// the same deserved credit on the same device classes.
	for kind := hosts.Kind(1); int(kind) < hosts.NumKinds; kind++ {
		if kind == hosts.FailedBenchmark {
			// Neither honest nor a cheat: reported apart.
			f["failed_benchmark_ratio"] = sums{k[kind][0].G + k[kind][1].G, k[kind][0].D + k[kind][1].D}.ratio()
			continue
		}
		g := k[kind][0].G + k[kind][1].G
		ref := k[kind][0].D*honest[0].ratio() + k[kind][1].D*honest[1].ratio()
		if k[kind][0].D == 0 {
			ref = k[kind][1].D * honest[1].ratio()
		} else if k[kind][1].D == 0 {
			ref = k[kind][0].D * honest[0].ratio()
		}
		key := "cheat_ratio." + kind.String()
		switch {
		case k[kind][0].D+k[kind][1].D > 0 && ref > 0:
			f[key] = g / ref
		case g > 0 || c.kindHostDays(kind) > 0:
			// No deserved credit at all (fake results): undeserved credit
			// per host-day relative to an honest host-day.
			hd, honestDays := c.kindHostDays(kind), c.kindHostDays(hosts.Honest)
			if hd > 0 && honestDays > 0 && all.G > 0 {
				f["cheat_credit_per_day."+kind.String()] = (g / hd) / (all.G / honestDays)
			}
		}
	}

	c.moreFigures(p, f)

	// Worst account relative to honest.
	worst := math.NaN()
	for _, u := range c.users {
		if u.n < MinHostResults {
			continue
		}
		ref := u.d[0]*honest[0].ratio() + u.d[1]*honest[1].ratio()
		if u.d[0] == 0 {
			ref = u.d[1] * honest[1].ratio()
		} else if u.d[1] == 0 {
			ref = u.d[0] * honest[0].ratio()
		}
		if ref > 0 {
			r := u.g[p] / ref
			if math.IsNaN(worst) || r > worst {
				worst = r
			}
		}
	}
	f["worst_account_ratio"] = worst
	return f
}

// kindHostDays sums the days hosts of a kind were attached in the window.
func (c *Collector) kindHostDays(kind hosts.Kind) float64 {
	t := 0.0
	for _, h := range c.hostInfo {
		if h.Behaviour.Kind != kind {
			continue
		}
		from, to := math.Max(h.Arrival, c.win.From), math.Min(h.Departure, c.win.To)
		if to > from {
			t += (to - from) / boinc.SecondsPerDay
		}
	}
	return t
}

// moreFigures adds device neutrality per plan class, the cross-project
// statistic, the credit spread of identical jobs, settle times and the
// RAC readings.
func (c *Collector) moreFigures(p int, f Figures) {
	w := c.sim.World()
	// Device neutrality per plan class: the GPU versions of a class over
	// the CPU versions of the same apps, over apps with both.
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

	// The community's cross-project statistic: per pair of projects, the
	// mean over hosts with CPU time in both of the ratio of their credit
	// per CPU second.
	for a := range w.Projects {
		for b := a + 1; b < len(w.Projects); b++ {
			sum, n := 0.0, 0
			for _, row := range c.hostProj {
				if row == nil || row[a].cpu <= 0 || row[b].cpu <= 0 || row[a].g == nil || row[b].g == nil {
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

	f["credit_spread"] = math.NaN()
	if c.spreadN > 0 {
		f["credit_spread"] = c.spreadSum[p] / float64(c.spreadN)
	}

	// Settle times of the policy's internal series.
	series := map[string][]float64{}
	var days []float64
	for _, d := range c.days {
		days = append(days, float64(d.day))
		for _, g := range d.gauges[p] {
			series[g.Name] = append(series[g.Name], g.Value)
		}
	}
	for name, v := range series {
		if len(v) != len(days) || strings.HasPrefix(name, "host_") {
			continue // a series that starts late, or a single host's
		}
		f["settle_days."+name] = SettleDays(days, v, 0.05)
	}

	// RAC readings: RAC / 100 and RAC / 200 against true GFLOPS under the
	// same 7-day weighting, over honest hosts present at the end.
	l := c.sim.Ledger(p)
	for _, reading := range []float64{100, 200} {
		sum, n := 0.0, 0
		for i, h := range c.hostInfo {
			if h.Behaviour.Kind != hosts.Honest || h.Departure < c.win.End || c.hosts[i].n < MinHostResults {
				continue
			}
			// RAC of a steady rate W credits per day converges to W; the
			// FLOPs a host did, weighted the same way, are a rate of
			// recentFlops x ln2 / half-life per second.
			trueGFLOPS := c.recentFlops[i] * math.Ln2 / policy.CreditHalfLife / 1e9
			rac := l.Hosts[i].RAC.Decayed(c.win.End, policy.CreditHalfLife)
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
