package fit

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"sort"

	"github.com/creditsim/creditsim/cmd/creditsim/internal/tables"
)

// jobs fits the app's workunits: estimates, bound, delay bound and
// replication.
func (a *appFit) jobs(ws []*tables.Workunit) {
	a.Workunits = len(ws)
	est := make([]float64, 0, len(ws))
	var bound, delay []float64
	quorum, target, maxErr, maxTotal, maxSucc := map[float64]float64{}, map[float64]float64{}, map[float64]float64{}, map[float64]float64{}, map[float64]float64{}
	for _, w := range ws {
		if w.RscFpopsEst > 0 {
			est = append(est, w.RscFpopsEst)
			if w.RscFpopsBound > 0 {
				bound = append(bound, w.RscFpopsBound/w.RscFpopsEst)
			}
		}
		if w.DelayBound > 0 {
			delay = append(delay, float64(w.DelayBound))
		}
		quorum[float64(w.MinQuorum)]++
		target[float64(w.TargetNResults)]++
		maxErr[float64(w.MaxErrorResults)]++
		maxTotal[float64(w.MaxTotalResults)]++
		maxSucc[float64(w.MaxSuccessResults)]++
	}
	a.Est, a.Classes = sizeClasses(est)
	a.BoundFactor, a.DelayBound = median(bound), median(delay)
	a.MinQuorum, a.TargetNResults = int(mode(quorum)), int(mode(target))
	a.MaxErrorResults, a.MaxTotalResults = int(mode(maxErr)), int(mode(maxTotal))
	// max_success_results is kept only where it binds, below
	// max_total_results; BOINC raises it to target_nresults.
	if ms := int(mode(maxSucc)); ms > 0 && ms < a.MaxTotalResults {
		a.MaxSuccessResults = max(ms, a.TargetNResults)
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
