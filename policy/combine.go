package policy

import "math"

// MinClaim is the pre-2010 validator's floor for a claim (0.001 credit).
const MinClaim = 0.001

// Min returns the smallest of v; it panics on an empty slice.
func Min(v []float64) float64 {
	m := v[0]
	for _, x := range v[1:] {
		if x < m {
			m = x
		}
	}
	return m
}

// Mean returns the arithmetic mean of v; it panics on an empty slice.
func Mean(v []float64) float64 {
	s := 0.0
	for _, x := range v {
		s += x
	}
	return s / float64(len(v))
}

// Pre2010 is the first credit system's replica rule: claims below MinClaim
// are ignored (MinClaim if none is left); one or two claims grant the
// minimum; three or more drop one highest and one lowest and average the
// rest by N-2. It does not modify v.
func Pre2010(v []float64) float64 {
	n := 0
	sum, lo, hi := 0.0, math.Inf(1), math.Inf(-1)
	for _, x := range v {
		if !(x >= MinClaim) { // also drops NaN
			continue
		}
		n++
		sum += x
		lo = min(lo, x)
		hi = max(hi, x)
	}
	switch {
	case n == 0:
		return MinClaim
	case n <= 2:
		return lo
	default:
		return (sum - lo - hi) / float64(n-2)
	}
}

// LowAverage is sched/credit.cpp's low_average: Σ v_i (S - v_i) / ((n-1) S)
// with S = Σ v, and v[0] for one value. It weights claims towards the low
// side; any zero in a pair gives 0, and [0, 0] gives NaN as in BOINC.
func LowAverage(v []float64) float64 {
	n := len(v)
	if n == 1 {
		return v[0]
	}
	sum := 0.0
	for _, x := range v {
		sum += x
	}
	total := 0.0
	for _, x := range v {
		total += x * (sum - x)
	}
	return total / (float64(n-1) * sum)
}

// PeggedAverage is sched/credit.cpp's pegged_average: a mean weighted by
// 1/(0.1*anchor + |anchor - v_i|), so claims near the anchor (the
// workunit's estimated PFC) dominate; one value is returned as is. With
// anchor 0 and a zero claim the result is NaN, as in BOINC; callers that
// must stay finite check for that.
func PeggedAverage(v []float64, anchor float64) float64 {
	if len(v) == 1 {
		return v[0]
	}
	var sum, wsum float64
	for _, x := range v {
		w := 1 / (0.1*anchor + math.Abs(anchor-x))
		sum += x * w
		wsum += w
	}
	return sum / wsum
}

// MaxClaim bounds any single claim so that sums over replicas stay finite
// whatever a cheater reports (an absurd claim is modelled, never Inf).
const MaxClaim = 1e300

// Finite clamps a claim into [0, MaxClaim]; NaN becomes 0.
func Finite(x float64) float64 {
	switch {
	case !(x > 0):
		return 0
	case x > MaxClaim:
		return MaxClaim
	}
	return x
}

// CapGranted is the validator's max_granted_credit (validator.cpp, since
// 2006): credit above max becomes max; max 0 is no cap.
func CapGranted(credit, max float64) float64 {
	if max > 0 && credit > max {
		return max
	}
	return credit
}

// Count32 narrows a count (CPUs, GPUs, a host_app_version counter) to a
// Result's 32-bit field, saturating: an absurd count a host reports is
// kept as the largest one, never wrapped to a negative one.
func Count32(n int) int32 {
	return int32(max(math.MinInt32, min(n, math.MaxInt32)))
}

// ReportedPeak is the peak FLOPS of the devices a result's version uses,
// at the speeds its host reports: CPUs used (for a multi-threaded
// version, the CPUs the host reports) x reported Whetstone, and for a
// GPU version GPUs used x the reported GPU peak (0 otherwise).
func ReportedPeak(r *Result, v *AppVersion) (cpu, gpu float64) {
	return ReportedPeakOf(r.HostNCPUs, r.HostPFpops, r.HostGPUPeak, v)
}

// ReportedPeakOf is ReportedPeak from a host's reported CPU count,
// Whetstone per CPU and GPU peak.
func ReportedPeakOf(ncpus int32, pfpops, gpuPeak float64, v *AppVersion) (cpu, gpu float64) {
	cpu = v.CPUUsage * pfpops
	if v.MultiThread {
		cpu = float64(ncpus) * pfpops
	}
	if v.Resource.IsGPU() {
		gpu = v.GPUUsage * gpuPeak
	}
	return cpu, gpu
}
