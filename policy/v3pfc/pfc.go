package v3pfc

import (
	"math"

	"github.com/creditsim/creditsim/policy"
)

// Mode is a claim's confidence, as the server's PFC_MODE_*.
type Mode uint8

// Modes.
const (
	Normal  Mode = iota // version-scaled and host-scaled
	Approx              // anything else that reflects the job's size
	WUEst               // the workunit's estimate
	Invalid             // dropped: above max_granted_credit
)

// Server constants (CREDIT-SPEC 1).
const (
	avgCPUFpops     = 4.3e9 // AVG_CPU_FPOPS, HEAD's substitute for a failed benchmark
	failedBenchmark = 1e9   // what a client with a failed benchmark reports
	classicMissing  = 1e10  // the classic server's substitute for <= 0
	ratioLow        = 1e-4  // PFC/E sanity band for statistics
	ratioHigh       = 1e4   //
	consValidNeeded = 10    // CONS_VALID_HOST_SCALE
	elapsedMin      = 1e-6  // below it elapsed time is taken from CPU time
	defaultMinAvg   = 1.0   // app.min_avg_pfc's DB default
	anonymousHostN  = 10    // anonymous claims are host-scaled from this many samples
)

// Job is what the credit calculation reads of one result.
type Job struct {
	Elapsed, CPUTime float64
	FlopsEstimate    float64
	Est, Bound       float64
	Sent, Received   float64
	RuntimeOutlier   bool
	Anonymous        bool
	ConsecutiveValid int
	// Trusted: the host has the run of confirmed results host_trust asks.
	Trusted bool
	// Anchored: the quorum holds a trusted host's claim, which caps this
	// one after combining (untrusted_limit: replica), so the cap against
	// the estimate is not applied.
	Anchored bool
}

// ratioAverage is design v2's recent average of PFC weighted by E(J):
// ΣPFC / ΣE, straight sums for the first samples, then both sums decay.
type ratioAverage struct {
	N, Num, Den float64
}

func (r *ratioAverage) update(pfc, est float64, p policy.AverageParams) {
	r.N++
	if r.N >= p.Threshold {
		r.Num *= 1 - p.Weight
		r.Den *= 1 - p.Weight
	}
	r.Num += pfc
	r.Den += est
}

func (r *ratioAverage) avg() float64 {
	if r.Den > 0 {
		return r.Num / r.Den
	}
	return 0
}

// HostVersion is the server's host_app_version row as credit uses it
// (56 bytes: a policy keeps one per host and version).
type HostVersion struct {
	PFC policy.Average
	W   ratioAverage // est_weighted averaging
	// v29 probation (cherry: probation) state.
	Probation bool
	Armed     bool
	ScaleTime float64
}

// HostTiming is the rest of the host_app_version row that BOINC's
// validator updates beside the PFC average: elapsed time per estimated
// FLOP and turnaround. The scheduler reads them to estimate runtimes;
// no credit depends on them, and the simulation's scheduler keeps its
// own, so a Policy does not keep these (PFCTimed updates them for
// whoever does, as the golden vectors check).
type HostTiming struct {
	ET         policy.AverageVar
	Turnaround policy.AverageVar
}

// Version is an app_version row: statistics and scale.
type Version struct {
	ID     int // dense version ID
	PFC    policy.Average
	W      ratioAverage
	Scale  float64 // pfc_scale; 0 = not scaled
	Median float64 // median of host averages (median_hosts)
	// ValScale is the pfc_scale of the validator's cached copy of the
	// row (av_cache: validator), read at first use (ValLoaded).
	ValScale  float64
	ValLoaded bool
	Pending   []float64 // samples waiting for the validator's flush (batched)
	PendW     [][2]float64
	// Credited: a credit sample waits for the flush (batched). BOINC's
	// get_pfc adds one for every non-anonymous job, runtime outliers and
	// ratios is_pfc_sane rejects included, and write_modified_app_versions
	// writes (and so may re-read) every version with either kind.
	Credited bool
	Gpu      bool
	App      int
	Anon     bool
}

// App is what the calculation reads of an app.
type App struct {
	MinAvgPFC float64
	Defined   bool // min_avg_pfc was set by normalisation
	Versions  []int
}

// params returns the host and version averaging parameters.
func (c *Config) params() (host, ver policy.AverageParams) {
	if c.Averaging == AveragingBOINC {
		return policy.HAVParams, policy.AVParams
	}
	// "For the first N samples (N = ~100 for app versions, ~10 for hosts)
	// we take the straight average": AVERAGE's mean phase covers samples
	// 1..T-1, so T = N+1.
	host, ver = policy.HAVParams, policy.AVParams
	host.Threshold, ver.Threshold = 11, 101
	if c.Averaging == AveragingEstWeighted {
		host.Limit, ver.Limit = math.Inf(1), math.Inf(1)
	}
	return host, ver
}

// hostMean is PFCmean(H, V) under the configured averaging.
func (c *Config) hostMean(hv *HostVersion) (n, avg float64) {
	if c.Averaging == AveragingEstWeighted {
		return hv.W.N, hv.W.avg()
	}
	return hv.PFC.N, hv.PFC.Avg
}

// versionMean is PFCmean(V): the average, or the median of host averages.
func (c *Config) versionMean(v *Version) (n, avg float64) {
	if c.Averaging == AveragingEstWeighted {
		n, avg = v.W.N, v.W.avg()
	} else {
		n, avg = v.PFC.N, v.PFC.Avg
	}
	if c.MedianHosts && v.Median > 0 {
		avg = v.Median
	}
	return n, avg
}

// hostScale is Scale(H) for a non-anonymous job, 0 when not applied.
func (c *Config) hostScale(j *Job, hv *HostVersion, v *Version, now float64) float64 {
	if !c.HostNorm {
		return 0
	}
	if c.Cherry == CherryConsValid && j.ConsecutiveValid < consValidNeeded {
		return 0
	}
	if c.Cherry == CherryProbation && now < hv.ScaleTime {
		return 0
	}
	hn, havg := c.hostMean(hv)
	vn, vavg := c.versionMean(v)
	if !(hn >= c.HostSamples && havg != 0 && vn >= c.VersionSamples && havg > 0) {
		return 0
	}
	s := vavg / havg
	if c.HostCap > 0 {
		s = min(s, c.HostCap)
	}
	return c.trustCap(j, s)
}

// trustCap bounds an untrusted host's scale factor s (host_trust).
func (c *Config) trustCap(j *Job, s float64) float64 {
	if c.HostTrust > 0 && !j.Trusted && s > c.UntrustedCap {
		return c.UntrustedCap
	}
	return s
}

// wuEstimate is the workunit's estimated PFC, E(J) x min_avg_pfc.
func wuEstimate(j *Job, a *App) float64 {
	if a.MinAvgPFC != 0 {
		return j.Est * a.MinAvgPFC
	}
	return j.Est
}

// Raw is a job's unscaled peak FLOP count, elapsed x flops_estimate,
// after the substitutions for an old client (no elapsed time) and a
// failed or missing benchmark; it also returns the elapsed time used and
// whether the job is a runtime outlier (kept out of statistics).
func (c *Config) Raw(j *Job) (raw, elapsed float64, outlier bool) {
	elapsed = j.Elapsed
	if elapsed < elapsedMin {
		elapsed = j.CPUTime
	}
	fe := j.FlopsEstimate
	outlier = j.RuntimeOutlier
	switch c.FailedBench {
	case FailedHead:
		if fe <= 0 || fe == failedBenchmark {
			fe, outlier = avgCPUFpops, true
		}
	case FailedClassic:
		if fe <= 0 {
			fe = classicMissing
		}
	}
	return elapsed * fe, elapsed, outlier
}

// PFC is get_pfc (CREDIT-SPEC 4) under the configuration: the job's
// peak FLOP count after version and host scaling, its mode, and the
// side effects on the host's statistics (at once) and the version's
// (queued or at once, by Timing). hv nil means no host record (WU_EST).
// v is nil for an anonymous-platform job. now is the validation time.
// The host's runtime statistics are left alone (see PFCTimed).
func (c *Config) PFC(j *Job, a *App, hv *HostVersion, v *Version, now float64) (float64, Mode) {
	return c.PFCTimed(j, a, hv, nil, v, now)
}

// PFCTimed is PFC that also updates the host's runtime statistics t,
// where get_pfc updates the host's PFC average; t may be nil.
func (c *Config) PFCTimed(j *Job, a *App, hv *HostVersion, t *HostTiming, v *Version, now float64) (float64, Mode) {
	wuEst := wuEstimate(j, a)
	if hv == nil {
		return wuEst, WUEst
	}
	raw, elapsed, outlier := c.Raw(j)
	if c.Sanity == SanityDefaultPFC && (math.IsInf(raw, 0) || raw > j.Bound) {
		// v29: a default PFC, "and other processing is skipped".
		if a.Defined {
			return a.MinAvgPFC * j.Est, WUEst
		}
		return j.Est, WUEst
	}
	mode := Approx
	var pfc float64
	if j.Anonymous {
		hn, havg := c.hostMean(hv)
		gate := !(c.Cherry == CherryConsValid && j.ConsecutiveValid < consValidNeeded)
		if c.Anonymous == AnonymousHostScaled && hn >= anonymousHostN && havg > 0 && gate {
			pfc = raw * c.trustCap(j, a.MinAvgPFC/havg)
		} else {
			pfc = wuEst
		}
	} else {
		hs := c.hostScale(j, hv, v, now)
		pfc = raw
		if scale := c.validatorScale(v); scale != 0 {
			pfc *= scale
			if hs != 0 {
				pfc *= hs
				mode = Normal
			}
		} else if hs != 0 {
			pfc *= hs
		}
		if hs == 0 && c.HostTrust > 0 && !j.Trusted && !j.Anchored {
			// Not yet host-scaled and not trusted: at most untrusted_cap x
			// what the version's mean host would claim for the job.
			if n, vavg := c.versionMean(v); n >= c.VersionSamples && vavg > 0 {
				lim := c.UntrustedCap * vavg * j.Est
				if scale := c.validatorScale(v); scale != 0 {
					lim *= scale
				}
				pfc = min(pfc, lim)
			}
		}
		if x := raw / j.Est; !outlier && x >= ratioLow && x <= ratioHigh {
			c.versionSample(v, x, raw, j.Est)
		}
		v.Credited = c.Timing == TimingBatched
	}
	if !outlier {
		hp, _ := c.params()
		if x := raw / j.Est; x >= ratioLow && x <= ratioHigh {
			hv.PFC.Update(x, hp)
			hv.W.update(raw, j.Est, hp)
		}
		if t != nil {
			t.ET.Update(elapsed/j.Est, policy.HAVParams)
			t.Turnaround.Update(j.Received-j.Sent, policy.HAVParams)
		}
	}
	return pfc, mode
}

// validatorScale is the pfc_scale credit uses: with av_cache validator
// (and batched timing) the validator's cached copy, read when it first
// meets the version; otherwise the row's current one.
func (c *Config) validatorScale(v *Version) float64 {
	if !c.cachesVersions() {
		return v.Scale
	}
	if !v.ValLoaded {
		v.ValScale, v.ValLoaded = v.Scale, true
	}
	return v.ValScale
}

// cachesVersions reports whether the validator works from cached copies
// of the app versions (av_cache validator; only with batched timing).
func (c *Config) cachesVersions() bool {
	return c.AVCache == AVCacheValidator && c.Timing == TimingBatched
}

// refreshCache is write_modified_app_versions for a version with samples
// to write: the conditional update fails when the feeder has changed
// pfc_scale by more than 1e-6 since the validator read the row, and the
// validator then re-reads it, which brings the new scale.
func (c *Config) refreshCache(v *Version) {
	if c.cachesVersions() && v.ValLoaded && math.Abs(v.Scale-v.ValScale) > 1e-6 {
		v.ValScale = v.Scale
	}
}

// versionSample queues or applies one PFC/E sample of version v.
func (c *Config) versionSample(v *Version, x, raw, est float64) {
	if c.Timing == TimingBatched {
		v.Pending = append(v.Pending, x)
		if c.Averaging == AveragingEstWeighted {
			v.PendW = append(v.PendW, [2]float64{raw, est})
		}
		return
	}
	_, vp := c.params()
	v.PFC.Update(x, vp)
	v.W.update(raw, est, vp)
}

// flush folds a version's queued samples into its statistics (the
// validator's write_modified_app_versions).
func (c *Config) flush(v *Version) {
	_, vp := c.params()
	for _, x := range v.Pending {
		v.PFC.Update(x, vp)
	}
	for _, w := range v.PendW {
		v.W.update(w[0], w[1], vp)
	}
	v.Pending, v.PendW, v.Credited = v.Pending[:0], v.PendW[:0], false
}

// dirty reports whether the validator writes v at its pass end: it has
// PFC or credit samples waiting.
func (v *Version) dirty() bool {
	return len(v.Pending) > 0 || len(v.PendW) > 0 || v.Credited
}

// Claim is one valid result's claim in a workunit.
type Claim struct {
	PFC     float64
	Mode    Mode
	Trusted bool // not anonymous and not on scale probation (v29)
	// HostTrusted: the host has the trust host_trust asks.
	HostTrusted bool
}

// Scratch holds Combine's working slices so that it does not allocate.
type Scratch struct{ a, b []float64 }

// AssignCredit is assign_credit_set's second half under the
// configuration: the bound and max_granted_credit checks on each claim
// (which it modifies), then the replica rule. It returns the credit for
// every valid replica before the validator's final cap (CapGranted).
func (c *Config) AssignCredit(claims []Claim, j *Job, a *App, s *Scratch) float64 {
	wuEst := wuEstimate(j, a)
	for i := range claims {
		cl := &claims[i]
		if cl.PFC > j.Bound {
			switch c.Sanity {
			case SanityClampBound:
				cl.PFC = j.Bound
			case SanityWUEstimate:
				cl.PFC = wuEst
			}
		}
		if c.MaxGranted != 0 && policy.FlopsToCredit(cl.PFC, c.Scale) > c.MaxGranted {
			cl.Mode = Invalid
		}
	}
	var x float64
	switch c.Replicas {
	case ReplicasPegged:
		normal, approx := s.a[:0], s.b[:0]
		for _, cl := range claims {
			if cl.Mode == Normal {
				normal = append(normal, cl.PFC)
			}
		}
		for _, cl := range claims {
			if cl.Mode == Approx || cl.Mode == WUEst {
				approx = append(approx, cl.PFC)
			}
		}
		switch {
		case len(normal) >= 2:
			x = policy.PeggedAverage(normal, wuEst)
		case len(normal) == 1:
			approx = append(approx, normal[0], normal[0])
			x = policy.PeggedAverage(approx, wuEst)
		case len(approx) > 0:
			x = policy.PeggedAverage(approx, wuEst)
		default:
			x = wuEst
		}
		s.a, s.b = normal, approx
	default:
		all, trusted := s.a[:0], s.b[:0]
		for _, cl := range claims {
			if cl.Mode != Invalid {
				all = append(all, cl.PFC)
			}
		}
		s.a = all
		if len(all) == 0 {
			x = wuEst
			break
		}
		if c.Replicas == ReplicasMin {
			x = policy.Min(all)
			break
		}
		for _, cl := range claims {
			if cl.Mode != Invalid && cl.Trusted {
				trusted = append(trusted, cl.PFC)
			}
		}
		if len(trusted) > 0 {
			x = policy.Mean(trusted)
		} else {
			x = policy.Mean(all)
		}
		s.b = trusted
	}
	return policy.FlopsToCreditAssign(x, c.Scale)
}

// CapGranted is the validator's last step: credit = min(credit,
// max_granted_credit) when that is set.
func (c *Config) CapGranted(credit float64) float64 {
	if c.MaxGranted != 0 && credit > c.MaxGranted {
		return c.MaxGranted
	}
	return credit
}
