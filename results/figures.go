package results

import (
	"math"
	"sort"

	"github.com/creditsim/creditsim/model/hosts"
	"gonum.org/v1/gonum/stat"
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
			t += (to - from) / 86400
		}
	}
	return t
}
