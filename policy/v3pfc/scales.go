package v3pfc

import (
	"math"
	"math/bits"
	"slices"
)

// rscInfo is the server's RSC_INFO: the sample-count-weighted mean of the
// version averages of one processor kind above the sample threshold.
type rscInfo struct {
	sum, n float64
	thresh int
}

func (r *rscInfo) add(n, avg, threshold float64) {
	if n > threshold { // strictly above, unlike the >= of scaling
		r.thresh++
		r.sum += avg * n
		r.n += n
	}
}

func (r *rscInfo) avg() float64 { return r.sum / r.n }

// Branch names which rule set X in UpdateScales (as golden av_scales.csv).
type Branch string

// Branches.
const (
	BranchMinCPUGPU Branch = "min_cpu_gpu"
	BranchCPUAvg    Branch = "cpu_avg"
	BranchGPUFactor Branch = "gpu_avg_x0.1"
	BranchGPUAvg    Branch = "gpu_avg"
	BranchMin       Branch = "min"
	BranchCentral   Branch = "central"
	BranchNone      Branch = "none"
)

// UpdateScales is the feeder's update_av_scales for one app (CREDIT-SPEC
// 5) under the configuration: it sets each version's Scale and the app's
// MinAvgPFC, or leaves them unchanged. central returns the cross-project
// factor for a GPU version of an app without CPU versions (0 when none
// is known); it is used only with gpu_only: central.
func (c *Config) UpdateScales(a *App, vers []Version, central func(v *Version) float64) Branch {
	switch c.VersionNorm {
	case VersionNormOff:
		return BranchNone
	case VersionNormMin:
		return c.scaleToMin(a, vers, central)
	}
	var cpu, gpu rscInfo
	hasCPU := false
	for _, vid := range a.Versions {
		v := &vers[vid]
		if v.Anon {
			continue
		}
		n, avg := c.versionMean(v)
		if v.Gpu {
			gpu.add(n, avg, c.VersionSamples)
		} else {
			hasCPU = true
			cpu.add(n, avg, c.VersionSamples)
		}
	}
	if c.GPUOnly == GPUOnlyCentral && !hasCPU {
		x, own := 0.0, false
		if gpu.thresh >= 2 {
			x, own = gpu.avg(), true
		}
		return c.scaleCentral(a, vers, central, x, own)
	}
	var x float64
	var b Branch
	switch {
	case cpu.thresh >= 1 && gpu.thresh >= 1:
		x, b = min(cpu.avg(), gpu.avg()), BranchMinCPUGPU
	case cpu.thresh >= 2:
		x, b = cpu.avg(), BranchCPUAvg
	case gpu.thresh >= 2 && c.GPUOnly == GPUOnlyCentral:
		x, b = gpu.avg(), BranchGPUAvg
	case gpu.thresh >= 1 && c.GPUOnly == GPUOnlyFactor:
		x, b = c.GPUOnlyFactor*gpu.avg(), BranchGPUFactor
	default:
		return BranchNone
	}
	for _, vid := range a.Versions {
		v := &vers[vid]
		if n, avg := c.versionMean(v); !v.Anon && n >= c.VersionSamples {
			v.Scale = x / avg
		}
	}
	a.MinAvgPFC, a.Defined = x, true
	return b
}

// scaleToMin is design v2's rule: X is the least version average, and
// every version is scaled down to it; there are no groups or threshold.
func (c *Config) scaleToMin(a *App, vers []Version, central func(v *Version) float64) Branch {
	x, hasCPU := math.Inf(1), false
	for _, vid := range a.Versions {
		v := &vers[vid]
		hasCPU = hasCPU || !v.Gpu && !v.Anon
		if n, avg := c.versionMean(v); !v.Anon && n > 0 && avg > 0 {
			x = min(x, avg)
		}
	}
	if math.IsInf(x, 1) {
		return BranchNone
	}
	if c.GPUOnly == GPUOnlyCentral && !hasCPU {
		return c.scaleCentral(a, vers, central, x, true)
	}
	for _, vid := range a.Versions {
		v := &vers[vid]
		if n, avg := c.versionMean(v); !v.Anon && n > 0 && avg > 0 {
			v.Scale = x / avg
		}
	}
	a.MinAvgPFC, a.Defined = x, true
	return BranchMin
}

// scaleCentral scales the versions of an app with only GPU versions by
// the central factor of their plan class, times the app's own
// normalisation to x when own is set. MinAvgPFC becomes the
// sample-weighted mean of the scaled averages.
func (c *Config) scaleCentral(a *App, vers []Version, central func(v *Version) float64, x float64, own bool) Branch {
	var sum, n float64
	for _, vid := range a.Versions {
		v := &vers[vid]
		vn, avg := c.versionMean(v)
		if v.Anon || !(avg > 0) || vn < c.VersionSamples && c.VersionNorm != VersionNormMin || vn == 0 {
			continue
		}
		s := central(v)
		if s == 0 {
			continue
		}
		if own {
			s *= x / avg
		}
		v.Scale = s
		sum += s * avg * vn
		n += vn
	}
	if n == 0 {
		return BranchNone
	}
	a.MinAvgPFC, a.Defined = sum/n, true
	return BranchCentral
}

// quantile is the q-quantile of v (0 <= q <= 1), interpolated linearly
// between order statistics, so that q = 0.5 is the median; it reorders
// v. It is 0 for an empty v. It selects the two order statistics it
// needs rather than sorting: the feeder asks for the median of every
// host's average at every tick.
func quantile(v []float64, q float64) float64 {
	if len(v) == 0 {
		return 0
	}
	h := float64(len(v)-1) * q
	lo := int(h)
	if lo >= len(v)-1 {
		return slices.Max(v)
	}
	selectNth(v, lo)
	// v[lo+1:] holds no value below v[lo]; its least is order statistic lo+1.
	return v[lo] + (h-float64(lo))*(slices.Min(v[lo+1:])-v[lo])
}

// selectNth reorders v so that v[k] is the value a sort would put there,
// with nothing greater before it and nothing less after it. The values
// must not be NaN. It partitions around a median of three and sorts a
// range that partitioning does not shrink fast enough.
func selectNth(v []float64, k int) {
	lo, hi := 0, len(v) // the range that holds position k
	for budget := 2 * bits.Len(uint(len(v))); hi-lo > 16; budget-- {
		if budget == 0 {
			slices.Sort(v[lo:hi])
			return
		}
		a, b, c := v[lo], v[lo+(hi-lo)/2], v[hi-1]
		p := max(min(a, b), min(max(a, b), c)) // the median of a, b, c
		// Three-way partition: < p, == p, > p.
		lt, i, gt := lo, lo, hi
		for i < gt {
			switch {
			case v[i] < p:
				v[lt], v[i] = v[i], v[lt]
				lt++
				i++
			case v[i] > p:
				gt--
				v[i], v[gt] = v[gt], v[i]
			default:
				i++
			}
		}
		switch {
		case k < lt:
			hi = lt
		case k >= gt:
			lo = gt
		default:
			return // v[k] == p, in place
		}
	}
	slices.Sort(v[lo:hi])
}
