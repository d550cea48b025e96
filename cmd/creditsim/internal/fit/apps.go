package fit

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/creditsim/creditsim/cmd/creditsim/internal/tables"
)

// The workunit columns' domains: an estimate of at most 1e21 FLOPs (a
// thousand days of a 10 TFLOPS device), a bound at least the estimate
// (BOINC aborts a job past it) and at most a million times it, a delay
// bound of at most a year, and replication counts of 1 to 100.
const (
	maxEst, maxBoundFactor = 1e21, 1e6
	maxDelay               = 365 * 86400.0
	maxReplication         = 100
)

// jobs fits the app's workunits: estimates, bound, delay bound and
// replication, each over its values within its domain (domain.go); a
// field not identified is left to the scenario's default, and said.
func (a *appFit) jobs(ws []*tables.Workunit) {
	a.Workunits = len(ws)
	w := a.scan(ws)
	cols := w.cols
	a.judge(cols)
	if cols["rsc_fpops_est"].identified() {
		a.Est, a.Classes = sizeClasses(w.est)
	}
	if cols["rsc_fpops_bound"] != nil && cols["rsc_fpops_bound"].identified() {
		a.BoundFactor = median(w.bound)
	}
	if cols["delay_bound"].identified() {
		a.DelayBound = median(w.delay)
	}
	modeOf := func(name string) int {
		if !cols[name].identified() {
			return 0
		}
		return int(mode(w.counts[name]))
	}
	a.MinQuorum, a.TargetNResults = modeOf("min_quorum"), modeOf("target_nresults")
	a.MaxErrorResults, a.MaxTotalResults = modeOf("max_error_results"), modeOf("max_total_results")
	// max_success_results is kept only where it binds, below
	// max_total_results; BOINC raises it to target_nresults.
	if ms := modeOf("max_success_results"); ms > 0 && ms < a.MaxTotalResults {
		a.MaxSuccessResults = max(ms, a.TargetNResults)
	}
}

// jobsNote says what the app's workunits gave: only the fields they
// identified (the others are said not identified).
func (a *appFit) jobsNote() string {
	var parts []string
	if a.Est > 0 {
		classes := ""
		if len(a.Classes) > 0 {
			classes = fmt.Sprintf(" with %d size classes of equal share (quantiles)", len(a.Classes))
		}
		parts = append(parts, "rsc_fpops_est their median"+classes)
	}
	if a.BoundFactor > 0 {
		parts = append(parts, "bound_factor the median of rsc_fpops_bound / rsc_fpops_est")
	}
	if a.DelayBound > 0 {
		parts = append(parts, "delay bound their median")
	}
	if a.MinQuorum > 0 || a.TargetNResults > 0 || a.MaxErrorResults > 0 || a.MaxTotalResults > 0 {
		parts = append(parts, "quorum, target and limits the most common")
	}
	return fmt.Sprintf("app %s: %d workunits created in the window; %s (each over the values within its domain)",
		a.Name, a.Workunits, strings.Join(parts, ", "))
}

// wuValues are an app's workunit values within their domains, and the
// columns that counted them.
type wuValues struct {
	est, bound, delay []float64
	counts            map[string]map[float64]float64 // replication column -> value -> workunits
	cols              map[string]*column
}

// scan reads the app's workunits' values, each checked against its
// column's domain.
func (a *appFit) scan(ws []*tables.Workunit) wuValues {
	v := wuValues{counts: map[string]map[float64]float64{}, cols: map[string]*column{}}
	col := func(name string) *column {
		if v.cols[name] == nil {
			v.cols[name] = &column{name: name, file: "workunit", rows: "workunits of app " + a.Name + " in the window", out: map[string]int{}}
		}
		return v.cols[name]
	}
	for _, w := range ws {
		if col("rsc_fpops_est").check(w.RscFpopsEst, 1, maxEst, "", "no job is so large") {
			v.est = append(v.est, w.RscFpopsEst)
			if r := w.RscFpopsBound / w.RscFpopsEst; col("rsc_fpops_bound").check(r, 1, maxBoundFactor, "a bound below the estimate", "a million times the estimate") {
				v.bound = append(v.bound, r)
			}
		}
		if col("delay_bound").check(float64(w.DelayBound), 1, maxDelay, "", "more than a year") {
			v.delay = append(v.delay, float64(w.DelayBound))
		}
		for _, r := range []struct {
			name string
			x    int64
		}{{"min_quorum", w.MinQuorum}, {"target_nresults", w.TargetNResults}, {"max_error_results", w.MaxErrorResults},
			{"max_total_results", w.MaxTotalResults}, {"max_success_results", w.MaxSuccessResults}} {
			if col(r.name).check(float64(r.x), 1, maxReplication, "", "more than any project replicates") {
				if v.counts[r.name] == nil {
					v.counts[r.name] = map[float64]float64{}
				}
				v.counts[r.name][float64(r.x)]++
			}
		}
	}
	return v
}

// judge keeps what the workunit columns' domains left out (notes) and
// which columns the app's workunits did not identify.
func (a *appFit) judge(cols map[string]*column) {
	for _, name := range []string{"rsc_fpops_est", "rsc_fpops_bound", "delay_bound", "min_quorum", "target_nresults",
		"max_error_results", "max_total_results", "max_success_results"} {
		c := cols[name]
		if c == nil {
			continue
		}
		field := map[string]string{"rsc_fpops_bound": "bound_factor"}[name]
		if field == "" {
			field = name
		}
		note, un := c.judge("app "+a.Name+": "+field, "default")
		if note != "" {
			a.domainNotes = append(a.domainNotes, note)
		}
		if un != "" {
			a.unidentified = append(a.unidentified, un)
		}
	}
}

// maxClasses is how many size classes an app's estimates are cut into.
const maxClasses = 4

// sizeClasses are an app's estimates as a base and classes of equal
// share around it (quantiles; geometric means), or the one estimate.
func sizeClasses(est []float64) (float64, []sizeClass) {
	if len(est) == 0 {
		return 0, nil
	}
	sort.Float64s(est)
	base := median(est)
	if est[len(est)-1] <= est[0]*1.05 {
		return round(base), nil
	}
	var out []sizeClass
	n := min(maxClasses, len(est))
	for c := 0; c < n; c++ {
		part := est[c*len(est)/n : (c+1)*len(est)/n]
		if len(part) == 0 {
			continue
		}
		lg := 0.0
		for _, x := range part {
			lg += math.Log(x / base)
		}
		out = append(out, sizeClass{Factor: round(math.Exp(lg / float64(len(part)))), Share: round(float64(len(part)) / float64(len(est)))})
	}
	return round(base), out
}

// fitVersions fits each version's efficiency (lognormal across hosts,
// each host's mean over its results, less the spread those means owe to
// the jobs) and CPU use, and the app's job-size spread from what is left
// within hosts.
func (a *appFit) fitVersions() {
	var kept []*versionFit
	byName := map[string]*versionFit{}
	for _, v := range a.Versions {
		if !v.fit(a) {
			continue
		}
		v.Name = versionName(v)
		// Of versions of one platform and plan class (successive
		// version numbers), the one with most results stands for all.
		if o := byName[v.Name]; o != nil {
			if v.Results > o.Results {
				*o = *v
			}
			continue
		}
		byName[v.Name] = v
		kept = append(kept, v)
	}
	a.Versions = kept
	if a.withinDF > 1 {
		cv := math.Sqrt(math.Max(0, math.Expm1(a.withinSS/a.withinDF)-runtimeNoise*runtimeNoise))
		a.SizeErrorCV = round(math.Max(0.01, math.Min(cv, maxSizeCV)))
	}
}

// fit fits the version from its hosts; false if no host had minJobs
// valid results of it.
func (v *versionFit) fit(a *appFit) bool {
	var means moments
	ss, df, inv := 0.0, 0.0, 0.0
	for _, host := range slices.Sorted(maps.Keys(v.havs)) {
		m := v.havs[host]
		if m.n < minJobs {
			continue
		}
		means.add(m.mean())
		ss += m.variance() * (m.n - 1)
		df += m.n - 1
		inv += 1 / m.n
	}
	if means.n == 0 {
		return false
	}
	a.withinSS, a.withinDF = a.withinSS+ss, a.withinDF+df
	v.Hosts = int(means.n)
	// Log-efficiency: the hosts' means spread by the hosts' efficiencies
	// and by their jobs (the jobs' variance over n each).
	jobVar := ss / math.Max(1, df)
	s2 := math.Max(0, means.variance()-jobVar*inv/means.n)
	mu := means.mean()
	mean := math.Exp(mu + s2/2)
	v.Eff = lognormal{Mean: round(math.Min(mean, 1)), CV: round(math.Max(0.01, math.Sqrt(math.Expm1(s2))))}
	frac := v.cpu.mean()
	switch {
	case v.Resource != "cpu":
		// A GPU version's CPU time per elapsed second is its avg_ncpus
		// times the CPU time fraction (taken as the default's).
		v.CPUFrac = defaultCPUFrac
		v.CPUUsage = round(math.Max(0.01, frac/defaultCPUFrac))
	default:
		v.CPUUsage, v.CPUFrac = 1, round(math.Min(1, math.Max(0.01, frac)))
		if len(v.usage) > 0 {
			v.CPUUsage = math.Max(0.01, mode(v.usage))
		}
	}
	return true
}

// cpuNote says how the version's CPU use was fitted.
func (v *versionFit) cpuNote() string {
	switch {
	case v.Resource != "cpu":
		return fmt.Sprintf("CPU time per elapsed second %.3g, as cpu_usage at the default CPU time fraction %g", v.CPUUsage*v.CPUFrac, defaultCPUFrac)
	case v.MultiThread:
		return fmt.Sprintf("multi-threaded (its plan class names mt): CPU time per elapsed second and CPU %.3g", v.CPUFrac)
	}
	if len(v.usage) == 0 {
		return fmt.Sprintf("cpu_usage 1 (assumed: no p_fpops of the hosts that ran it to read it from); CPU time per elapsed second and CPU %.3g", v.CPUFrac)
	}
	return fmt.Sprintf("cpu_usage %g, flops_estimate over the host's p_fpops; CPU time per elapsed second and CPU %.3g", v.CPUUsage, v.CPUFrac)
}

// defaultCPUFrac is a version's default CPU time per elapsed second and CPU.
const defaultCPUFrac = 0.98

// shortPlatforms abbreviate BOINC's platform names in version names.
var shortPlatforms = map[string]string{"windows_x86_64": "win", "windows_intelx86": "win32", "x86_64-pc-linux-gnu": "linux",
	"x86_64-apple-darwin": "mac", "arm64-apple-darwin": "mac-arm", "aarch64-unknown-linux-gnu": "linux-arm"}

// versionName names a fitted version by platform and plan class.
func versionName(v *versionFit) string {
	p := shortPlatforms[v.Platform]
	if p == "" {
		p = v.Platform
	}
	if v.Anonymous {
		return p + "-anonymous-" + v.Resource
	}
	pc := v.PlanClass
	if pc == "" {
		pc = "cpu"
	}
	return p + "-" + pc
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	return s[len(s)/2]
}

// mode is the most common value (the smallest of equals).
func mode(counts map[float64]float64) float64 {
	best, n := 0.0, -1.0
	for v, c := range counts {
		if c > n || c == n && v < best {
			best, n = v, c
		}
	}
	return best
}
