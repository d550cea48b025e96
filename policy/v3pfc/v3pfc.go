package v3pfc

import (
	"math"
	"slices"
	"unsafe"

	"github.com/creditsim/creditsim/internal/hugepage"
	"github.com/creditsim/creditsim/internal/prefetch"
	"github.com/creditsim/creditsim/policy"
)

func init() {
	policy.Register(&policy.Kind{
		UseWhen: "the server's default when apps cannot count FLOPs; replicate jobs against fakes",
		Name:    "v3pfc",
		Needs:   []string{"elapsed_time", "flops_estimate", "rsc_fpops_est"},
		Doc:     "third credit system, CreditNew: peak FLOP count with version and host normalisation (the CreditNew design page, versions 2 and 29; BOINC's server code)",
		Options: optionDocs(),
		NeedsWith: func(opts policy.Options) []string {
			if opts["peak"] == string(PeakReported) {
				return []string{"p_fpops", "p_gpu_fpops"} // usage x the host's reported peaks
			}
			return nil
		},
		Requires: func(opts policy.Options) string {
			if t, err := opts.Float("host_trust", 0, false); err == nil && t > 0 {
				return "replicated jobs (its trust gate counts results other hosts' replicas confirmed)"
			}
			return ""
		},
		New:        New,
		Mechanisms: mechanisms,
	})
	for _, p := range Presets {
		policy.RegisterPreset(p)
	}
}

// Policy is a configured CreditNew instance.
type Policy struct {
	policy.Base
	c     *Config
	world *policy.World
	apps  []App
	vers  []Version
	delay []float64 // per app: the delay bound
	// havs is every host's row of versions, side by side (host x
	// versions + version): one flat array, so that the engine's prefetch
	// of a row is a computed address, not a load of a row pointer first.
	// A row a host never used is all zero, which every reader treats as
	// no row (no samples, nothing to reset).
	havs []HostVersion
	// means is, with median_hosts, what each host-version adds to its
	// version's median: hostMean's average where the host has
	// host_samples samples and it is positive, else 0; version-major
	// (vid x MaxHosts + host), so that the feeder's median reads 8
	// bytes a host in order rather than every host's whole record.
	means  []float64
	recent []policy.RAC // per version: recent credit, weights the central factor
	// central is the cross-project scale per plan class (gpu_only: central).
	central map[string]float64
	claims  []Claim
	scratch Scratch
	medBuf  []float64
	// medWidth is, per version, the relative half-width of the window
	// around the last median that medians reads first (0: not yet
	// chosen).
	medWidth []float64
	// confirmed is each host's run of valid results another host's
	// replica confirmed (host_trust).
	confirmed []int32
	// srvTrusted holds, per host, the server's trust as the last result
	// shown said (trust_from: server, quantile_trusted), and nSrvTrusted
	// how many are.
	srvTrusted  []bool
	nSrvTrusted int
	// admit is the feeder's per-host answer to whether a host's means
	// count towards the quantile (quantile_trusted, quantile_tenure), and
	// maskedMeans a version's means with the others zeroed.
	admit       []bool
	maskedMeans []float64
	// seen holds, per host, the span of its results validated so far
	// (quantile_tenure).
	seen []hostSeen
}

// hostSeen is a host's span: the earliest send and the latest report
// among its validated results, in seconds plus 1 (0: none yet); float32
// keeps it 8 bytes a host, to a second over the first 194 days and 2 s
// over a year, far finer than the days it is compared with.
type hostSeen struct{ first, last float32 }

// New returns an instance configured by opts.
func New(opts policy.Options) (policy.Policy, error) {
	c, err := parse(opts)
	if err != nil {
		return nil, err
	}
	return &Policy{c: c}, nil
}

// Config returns the instance's parsed options.
func (p *Policy) Config() *Config { return p.c }

// Scale returns the instance's Cobblestones per GFLOPS-day.
func (p *Policy) Scale() float64 { return p.c.Scale }

// Init resets all statistics for a new replication.
func (p *Policy) Init(w *policy.World) {
	p.world = w
	p.apps = make([]App, len(w.Apps))
	p.delay = make([]float64, len(w.Apps))
	for i := range p.apps {
		p.apps[i].MinAvgPFC = defaultMinAvg
		p.delay[i] = w.Apps[i].DelayBound
	}
	p.vers = make([]Version, len(w.Versions))
	for i, v := range w.Versions {
		p.vers[i] = Version{ID: i, Gpu: v.Resource.IsGPU(), App: v.AppID, Anon: v.Anonymous}
		p.apps[v.AppID].Versions = append(p.apps[v.AppID].Versions, i)
	}
	p.havs = make([]HostVersion, w.MaxHosts*len(p.vers))
	hugepage.Advise(p.havs)
	p.means = nil
	if p.c.MedianHosts {
		p.means = make([]float64, w.MaxHosts*len(p.vers))
	}
	p.recent = make([]policy.RAC, len(w.Versions))
	p.central = map[string]float64{}
	p.confirmed, p.srvTrusted = nil, nil
	if p.c.HostTrust > 0 {
		p.confirmed = make([]int32, w.MaxHosts)
	}
	p.nSrvTrusted = 0
	p.seen = nil
	if p.c.MedianHosts && p.c.QuantileTenure > 0 {
		p.seen = make([]hostSeen, w.MaxHosts)
	}
	if p.c.HostTrust > 0 && p.c.TrustFrom == TrustServer || p.c.MedianHosts && p.c.QuantileTrusted {
		p.srvTrusted = make([]bool, w.MaxHosts)
	}
}

// distinctHosts reports whether valid results came from at least two hosts.
func distinctHosts(rs []*policy.Result) bool {
	for _, r := range rs[min(1, len(rs)):] {
		if r.HostID != rs[0].HostID {
			return true
		}
	}
	return false
}

// trusted reports whether a host has the run of confirmed results
// host_trust asks (always, without the gate).
func (p *Policy) trusted(host int) bool {
	if p.c.HostTrust > 0 && p.c.TrustFrom == TrustServer {
		return p.srvTrusted[host]
	}
	return p.c.HostTrust == 0 || float64(p.confirmed[host]) >= p.c.HostTrust
}

// confirm counts the valid results of v that a replica from another host
// agreed with (or, for a late result, the canonical one), and starts the
// count again for hosts whose results v found invalid.
func (p *Policy) confirm(v *policy.Validation) {
	if p.c.HostTrust == 0 {
		return
	}
	if v.Late || distinctHosts(v.Valid) {
		for _, r := range v.Valid {
			if c := &p.confirmed[r.HostID]; *c < math.MaxInt32 {
				*c++
			}
		}
	}
	for _, r := range v.Invalid {
		p.confirmed[r.HostID] = 0
	}
}

// hav returns the host's record for a version.
func (p *Policy) hav(host, vid int) *HostVersion {
	return &p.havs[host*len(p.vers)+vid]
}

// row returns the host's records, one per version.
func (p *Policy) row(host int) []HostVersion {
	n := len(p.vers)
	return p.havs[host*n : host*n+n : host*n+n]
}

// Prefetch asks for the host's record of the result's version and, with
// host_trust, its run of confirmed results, which Validated will read
// (see policy.Prefetcher).
func (p *Policy) Prefetch(r *policy.Result) {
	if i := int(r.HostID)*len(p.vers) + int(r.VersionID); uint(i) < uint(len(p.havs)) {
		prefetch.Range(unsafe.Pointer(&p.havs[i]), unsafe.Sizeof(HostVersion{}))
	}
	if uint(r.HostID) < uint(len(p.confirmed)) { // host_trust
		prefetch.Line(unsafe.Pointer(&p.confirmed[r.HostID]))
	}
}

// job is the calculation's view of a result.
func (p *Policy) job(r *policy.Result) Job {
	trusted := p.hostTrusted(r)
	fe := r.FlopsEstimate
	if p.c.PeakSource == PeakReported {
		// The designs: usage x the device's peak, as the host reports it.
		cpu, gpu := policy.ReportedPeak(r, &p.world.Versions[r.VersionID])
		fe = cpu + gpu
	}
	return Job{
		Elapsed: r.ElapsedTime, CPUTime: r.CPUTime, FlopsEstimate: fe,
		Est: r.RscFpopsEst, Bound: r.RscFpopsBound, Sent: r.SentTime, Received: r.ReceivedTime,
		RuntimeOutlier: r.RuntimeOutlier, Anonymous: p.world.Versions[r.VersionID].Anonymous,
		ConsecutiveValid: int(r.HAV.ConsecutiveValid), Trusted: trusted,
	}
}

// hostTrusted reports whether r's host is trusted (with trust_per_version,
// on r's version), first noting the server's trust the result carries
// (trust_from: server).
func (p *Policy) hostTrusted(r *policy.Result) bool {
	p.noteServerTrust(r)
	if !p.trusted(int(r.HostID)) {
		return false
	}
	if p.c.HostTrust > 0 && p.c.TrustPerVersion {
		// Until the host has a scale on this version, nothing bounds
		// its claims there but the untrusted caps.
		n, _ := p.c.hostMean(p.hav(int(r.HostID), int(r.VersionID)))
		return n >= p.c.HostSamples
	}
	return true
}

// noteServerTrust records the server's trust in r's host as r shows it.
func (p *Policy) noteServerTrust(r *policy.Result) {
	if uint(r.HostID) >= uint(len(p.srvTrusted)) || p.srvTrusted[r.HostID] == r.ServerTrusted {
		return
	}
	p.srvTrusted[r.HostID] = r.ServerTrusted
	if r.ServerTrusted {
		p.nSrvTrusted++
	} else {
		p.nSrvTrusted--
	}
}

// anchored reports whether untrusted claims in valid are capped by a
// trusted replica's (untrusted_limit: replica): a trusted host's result
// is among them and so is an untrusted one.
func (p *Policy) anchored(valid []*policy.Result) bool {
	if p.c.HostTrust == 0 || p.c.UntrustedLimit != LimitReplica || len(valid) < 2 {
		return false
	}
	var some, all = false, true
	for _, r := range valid {
		t := p.hostTrusted(r)
		some, all = some || t, all && t
	}
	return some && !all
}

// capByReplica caps every untrusted claim at untrusted_cap x the
// largest trusted claim: a trusted replica's claim follows the job's
// true size, which the estimate may not.
func (p *Policy) capByReplica() {
	top := 0.0
	for _, c := range p.claims {
		if c.HostTrusted {
			top = max(top, c.PFC)
		}
	}
	lim := p.c.UntrustedCap * top
	for i := range p.claims {
		if !p.claims[i].HostTrusted {
			p.claims[i].PFC = min(p.claims[i].PFC, lim)
		}
	}
}

// usesProbation reports whether scale_probation state is kept.
func (p *Policy) usesProbation() bool {
	return p.c.Cherry == CherryProbation || p.c.OneTime == OneTimeProbation
}

// Sent arms host_scale_time for a host on probation (v29).
func (p *Policy) Sent(r *policy.Result) {
	if p.c.Cherry != CherryProbation {
		return
	}
	hv := p.hav(int(r.HostID), int(r.VersionID))
	if !hv.Probation && !hv.Armed && hv.ScaleTime == 0 {
		hv.Probation = true // scale_probation starts true
	}
	if hv.Probation && (p.c.ProbationRearm == RearmEverySend || !hv.Armed) {
		hv.ScaleTime = r.SentTime + p.delay[r.AppID]
		hv.Armed = true
	}
}

// Reported applies the cherry-picking rules to errors and timeouts.
func (p *Policy) Reported(r *policy.Result) {
	if r.Outcome == policy.Success {
		return
	}
	if p.c.HostTrust > 0 {
		p.confirmed[r.HostID] = 0
	}
	p.failed(r, r.ReceivedTime)
}

// failed is a result that errored, was aborted, timed out or (v2) was
// invalid.
func (p *Policy) failed(r *policy.Result, now float64) {
	switch p.c.Cherry {
	case CherryReset:
		// v2: the host's averages go back to the apps' for every version.
		for vid := range p.vers {
			p.resetToVersion(int(r.HostID), vid, false)
		}
	case CherryProbation:
		hv := p.hav(int(r.HostID), int(r.VersionID))
		hv.Probation, hv.Armed = true, true
		hv.ScaleTime = now + p.delay[r.AppID]
		if p.c.ProbationCapsOne {
			p.resetToVersion(int(r.HostID), int(r.VersionID), true)
		}
	}
}

// resetToVersion sets the host's average for version vid to the
// version's, or with onlyUp only raises it (so that Scale(H) is at most
// 1).
func (p *Policy) resetToVersion(host, vid int, onlyUp bool) {
	hv := p.hav(host, vid)
	_, vavg := p.c.versionMean(&p.vers[vid])
	if !(vavg > 0) {
		return
	}
	if hv.PFC.N > 0 && (!onlyUp || hv.PFC.Avg < vavg) {
		hv.PFC.Avg = vavg
	}
	if hv.W.Den > 0 && (!onlyUp || hv.W.avg() < vavg) {
		hv.W.Num = vavg * hv.W.Den
	}
	p.noteMean(host, vid)
}

// noteMean copies into means what the host's record for version vid
// now adds to the version's median. Every change to a host's averages
// must be followed by it.
func (p *Policy) noteMean(host, vid int) {
	if p.means == nil {
		return
	}
	x := 0.0
	if n, avg := p.c.hostMean(p.hav(host, vid)); n >= p.c.HostSamples && avg > 0 {
		x = avg
	}
	p.means[vid*p.world.MaxHosts+host] = x
}

// Validated computes every valid result's claim and combines them.
func (p *Policy) Validated(val *policy.Validation) float64 {
	now := val.Time
	p.claims = p.claims[:0]
	anchored := p.anchored(val.Valid)
	var j0 Job
	for k, r := range val.Valid {
		if p.c.QuantileTrusted {
			p.noteServerTrust(r)
		}
		if p.seen != nil {
			p.noteSeen(r)
		}
		j := p.job(r)
		j.Anchored = anchored && !j.Trusted
		if k == 0 {
			j0 = j
		}
		p.claims = append(p.claims, p.claim(r, &j, now))
	}
	if anchored {
		p.capByReplica()
	}
	if p.c.Cherry == CherryReset {
		for _, r := range val.Invalid {
			p.failed(r, now)
		}
	}
	p.confirm(val)
	if len(val.Valid) == 0 {
		return 0
	}
	a := &p.apps[val.AppID]
	credit := policy.Finite(p.c.CapGranted(p.c.AssignCredit(p.claims, &j0, a, &p.scratch)))
	if !val.Late {
		for _, r := range val.Valid {
			p.recent[r.VersionID].UpdateAverage(now, r.SentTime, credit, policy.CreditHalfLife)
		}
	}
	if p.c.Timing == TimingContinuous {
		p.c.UpdateScales(a, p.vers, p.centralFactor)
	}
	return credit
}

// claim computes valid result r's claim (job j) at validation time now,
// with the one-time-cheat rules.
func (p *Policy) claim(r *policy.Result, j *Job, now float64) Claim {
	hv := p.hav(int(r.HostID), int(r.VersionID))
	var v *Version
	if !j.Anonymous {
		v = &p.vers[r.VersionID]
	}
	a := &p.apps[r.AppID]
	if p.c.OneTime == OneTimeProbation && v != nil {
		// v29: PFC(J)/E(J) above 20 x PFCmean(V) puts the host on probation.
		raw, _, _ := p.c.Raw(j)
		if n, avg := p.c.versionMean(v); n > 0 && raw/j.Est > p.c.OneTimeFactor*avg {
			hv.Probation, hv.Armed = true, true
			hv.ScaleTime = now + p.delay[r.AppID]
		}
	}
	pfc, mode := p.c.PFC(j, a, hv, v, now)
	p.noteMean(int(r.HostID), int(r.VersionID))
	if p.c.OneTime == OneTimeCap {
		pfc = min(pfc, p.oneTimeCap(j, a, v))
	}
	c := Claim{PFC: pfc, Mode: mode, Trusted: !j.Anonymous && !(p.usesProbation() && hv.Probation), HostTrusted: j.Trusted}
	if p.usesProbation() && hv.Probation && now > hv.ScaleTime {
		hv.Probation, hv.Armed = false, false
	}
	return c
}

// oneTimeCap is v2's limit on one job: one_time_factor x NPFC*(A) x E(J),
// with the version's own mean before the app's is known.
func (p *Policy) oneTimeCap(j *Job, a *App, v *Version) float64 {
	if a.Defined {
		return p.c.OneTimeFactor * a.MinAvgPFC * j.Est
	}
	if v != nil {
		if n, avg := p.c.versionMean(v); n > 0 {
			return p.c.OneTimeFactor * avg * j.Est
		}
	}
	return math.Inf(1)
}

// Tick runs the periodic server work.
func (p *Policy) Tick(t policy.Tick) {
	switch t.Kind {
	case policy.ValidatorPassEnd:
		if p.c.Timing == TimingBatched {
			for i := range p.vers {
				if p.vers[i].dirty() {
					p.c.refreshCache(&p.vers[i])
					p.c.flush(&p.vers[i])
				}
			}
		}
	case policy.FeederTick:
		if p.c.MedianHosts {
			p.medians(t.Time)
		}
		if p.c.Timing == TimingBatched {
			for i := range p.apps {
				p.c.UpdateScales(&p.apps[i], p.vers, p.centralFactor)
			}
		}
	case policy.DayTick:
		if p.c.GPUOnly == GPUOnlyCentral {
			p.updateCentral(t.Time)
		}
	}
}

// noteSeen widens the span of valid result r's host to cover r.
func (p *Policy) noteSeen(r *policy.Result) {
	if uint(r.HostID) >= uint(len(p.seen)) {
		return
	}
	s := &p.seen[r.HostID]
	if sent := float32(r.SentTime + 1); s.first == 0 || sent < s.first {
		s.first = sent
	}
	s.last = max(s.last, float32(r.ReceivedTime+1))
}

// medians sets each version's median of host averages over hosts with
// enough samples (and, with quantile_trusted and quantile_tenure, over
// the hosts they admit) at time now.
func (p *Policy) medians(now float64) {
	n := p.world.MaxHosts
	if len(p.medWidth) != len(p.vers) {
		p.medWidth = make([]float64, len(p.vers))
	}
	admit := p.admitted(now)
	for vid := range p.vers {
		v := &p.vers[vid]
		xs := p.means[vid*n : vid*n+n]
		if admit != nil {
			p.maskedMeans = append(p.maskedMeans[:0], xs...)
			for h, ok := range admit {
				if !ok {
					p.maskedMeans[h] = 0
				}
			}
			xs = p.maskedMeans
		}
		v.Median = p.quantileOf(xs, v.Median, &p.medWidth[vid])
	}
}

// admitted returns, per host, whether its means count towards the
// quantile at now, or nil when every host's do. quantile_trusted admits
// the hosts the server trusts (every host where it trusts none: no
// server trust); quantile_tenure those whose validated results span the
// tenure (from the first one's send to the last one's report) and whose
// last report is no older than quantile_present, so an identity
// shorter-lived than the tenure never counts. In a run's first days the
// tenure asked is half the time run, so that the initial hosts, which
// all arrive at the start, count from the first ticks.
func (p *Policy) admitted(now float64) []bool {
	byTrust := p.c.QuantileTrusted && p.nSrvTrusted > 0
	if !byTrust && p.seen == nil {
		return nil
	}
	p.admit = p.admit[:0]
	if byTrust {
		p.admit = append(p.admit, p.srvTrusted...)
	} else {
		for range p.world.MaxHosts {
			p.admit = append(p.admit, true)
		}
	}
	if p.seen != nil {
		tenure := float32(min(p.c.QuantileTenure*policy.SecondsPerDay, (now-p.world.Start)/2))
		since := float32(now + 1 - p.c.QuantilePresent*policy.SecondsPerDay)
		for h, s := range p.seen {
			if s.first == 0 || s.last-s.first < tenure || s.last < since {
				p.admit[h] = false
			}
		}
	}
	return p.admit
}

// Windows around the last median: the first is this wide; one that
// missed the order statistics is widened by 4 (up to the median's own
// size), one that held more means than windowMax is narrowed by 2.
const (
	windowStart = 1.0 / 64
	windowMax   = 4096
)

// quantileOf returns the host quantile of the positive values of xs
// (zeros are hosts that add nothing), given last, the value it had at
// the last tick, and width, the window's relative half-width, which it
// adapts. Between ticks a median moves little, so it first collects
// only the values within width of last, counting those below: when the
// order statistics the quantile interpolates between are among them,
// selecting within them gives the same two values, and so the same
// bits, as quantile over all, in one pass over xs instead of a copy
// and several passes. Otherwise it takes quantile over all.
func (p *Policy) quantileOf(xs []float64, last float64, width *float64) float64 {
	// The greatest value (host_quantile 1) has nothing above it for a
	// window to find, so then it reads all at once.
	if p.c.HostQuantile < 1 && last > 0 && *width > 0 {
		lo, hi := last*(1-*width), last*(1+*width)
		buf := p.medBuf[:0]
		// Count without branching on the values: at 100,000 hosts
		// "x < lo" is a coin toss for the branch predictor. Zeros are
		// below lo when lo > 0 and are taken off after.
		lt, total := 0, 0
		for _, x := range xs {
			nz, l, le := 0, 0, 0
			if x != 0 {
				nz = 1
			}
			if x < lo {
				l = 1
			}
			if x <= hi {
				le = 1
			}
			total += nz
			lt += l
			if nz&^l&le != 0 { // in the window: rare, so predicted
				buf = append(buf, x)
			}
		}
		below := lt
		if lo > 0 {
			below -= len(xs) - total
		}
		p.medBuf = buf
		if total > 0 {
			h := float64(total-1) * p.c.HostQuantile
			// Order statistics int(h) and int(h)+1 are buf's k'th and
			// k+1'th, if buf holds them (and then int(h)+1 < total).
			k := int(h) - below
			if k >= 0 && k+1 < len(buf) {
				if len(buf) > windowMax {
					*width /= 2
				}
				selectNth(buf, k)
				return buf[k] + (h-float64(int(h)))*(slices.Min(buf[k+1:])-buf[k])
			}
		}
		*width = min(4**width, 1)
	} else if *width == 0 {
		*width = windowStart
	}
	buf := p.medBuf[:0]
	for _, x := range xs {
		if x != 0 {
			buf = append(buf, x)
		}
	}
	p.medBuf = buf
	return quantile(buf, p.c.HostQuantile)
}

// updateCentral recomputes the "central server" factors: per plan class
// (or GPU type when the plan class is unnamed), the mean Scale(V) of the
// GPU versions of apps that have both CPU and GPU versions, weighted by
// their recent credit.
func (p *Policy) updateCentral(now float64) {
	both := make([]bool, len(p.apps))
	for ai := range p.apps {
		cpu, gpu := false, false
		for _, vid := range p.apps[ai].Versions {
			cpu = cpu || !p.vers[vid].Gpu
			gpu = gpu || p.vers[vid].Gpu
		}
		both[ai] = cpu && gpu
	}
	sum, weight := map[string]float64{}, map[string]float64{}
	for vid := range p.vers {
		v := &p.vers[vid]
		if !v.Gpu || v.Anon || !both[v.App] || v.Scale == 0 {
			continue
		}
		w := p.recent[vid].Decayed(now, policy.CreditHalfLife)
		k := p.centralKey(vid)
		sum[k] += w * v.Scale
		weight[k] += w
	}
	clear(p.central)
	for k, w := range weight {
		if w > 0 {
			p.central[k] = sum[k] / w
		}
	}
}

func (p *Policy) centralKey(vid int) string {
	v := &p.world.Versions[vid]
	if v.PlanClass != "" {
		return v.PlanClass
	}
	return v.Resource.String()
}

// centralFactor is the central factor for version v, 0 when none.
func (p *Policy) centralFactor(v *Version) float64 {
	return p.central[p.centralKey(v.ID)]
}

// Gauges exposes each version's scale and mean and each app's
// min_avg_pfc for the time series.
func (p *Policy) Gauges(dst []policy.Gauge) []policy.Gauge {
	for vid := range p.vers {
		name := p.versionName(vid)
		_, avg := p.c.versionMean(&p.vers[vid])
		dst = append(dst, policy.Gauge{Name: "scale." + name, Value: p.vers[vid].Scale},
			policy.Gauge{Name: "pfc_mean." + name, Value: avg})
	}
	for ai := range p.apps {
		dst = append(dst, policy.Gauge{Name: "min_avg_pfc." + p.world.Apps[ai].Name, Value: p.apps[ai].MinAvgPFC})
	}
	return dst
}

// HostGauges exposes a host's Scale(H) per version it has run, 0 while
// host scaling does not apply.
func (p *Policy) HostGauges(host int, now float64, dst []policy.Gauge) []policy.Gauge {
	if host >= len(p.havs)/max(1, len(p.vers)) {
		return dst
	}
	row := p.row(host)
	for vid := range row {
		hv := &row[vid]
		if n, _ := p.c.hostMean(hv); n == 0 || p.vers[vid].Anon {
			continue
		}
		j := Job{ConsecutiveValid: consValidNeeded, Trusted: p.trusted(host)}
		dst = append(dst, policy.Gauge{Name: "host_scale." + p.versionName(vid), Value: p.c.hostScale(&j, hv, &p.vers[vid], now)})
	}
	return dst
}

func (p *Policy) versionName(vid int) string {
	v := &p.world.Versions[vid]
	return p.world.Apps[v.AppID].Name + "/" + v.Name
}
