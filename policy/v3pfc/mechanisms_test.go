package v3pfc

import (
	"math"
	"testing"
	"unsafe"

	"github.com/creditsim/creditsim/policy"
)

// newPolicy returns an initialised instance of preset (or kind) base with
// option overrides, in a world of one app with a CPU version (0), an
// NVIDIA version (1) and an anonymous CPU version (2).
func newPolicy(t *testing.T, base string, opts policy.Options) *Policy {
	t.Helper()
	p, err := policy.New(policy.Spec{Name: "test", Base: base, Options: opts})
	if err != nil {
		t.Fatal(err)
	}
	w := &policy.World{
		Apps: []policy.App{{ID: 0, Name: "a", MinQuorum: 1, TargetNResults: 1, DelayBound: 86400}},
		Versions: []policy.AppVersion{
			{ID: 0, AppID: 0, Name: "cpu", Resource: policy.CPU, CPUUsage: 1},
			{ID: 1, AppID: 0, Name: "gpu", Resource: policy.NVIDIA, CPUUsage: 0.1, GPUUsage: 1},
			{ID: 2, AppID: 0, Name: "anon", Resource: policy.CPU, CPUUsage: 1, Anonymous: true},
		},
		MaxHosts: 10,
	}
	p.Init(w)
	return p.(*Policy)
}

const est = 1e13

// result is a valid result of host h with version vid that took elapsed
// seconds at flops (both as flops_estimate and as the reported CPU peak).
func result(h, vid int, elapsed, flops, sent float64) *policy.Result {
	return &policy.Result{HostID: int32(h), VersionID: int32(vid), ElapsedTime: elapsed, CPUTime: elapsed, FlopsEstimate: flops,
		HostPFpops: flops, HostNCPUs: 1, RscFpopsEst: est, RscFpopsBound: 10 * est, SentTime: sent, ReceivedTime: sent + elapsed,
		ValidateState: policy.Valid, HAV: policy.HAVState{ConsecutiveValid: 20}}
}

func validate(p *Policy, now float64, rs ...*policy.Result) float64 {
	return p.Validated(&policy.Validation{Time: now, RscFpopsEst: est, RscFpopsBound: 10 * est, Valid: rs})
}

func near(a, b, rel float64) bool { return math.Abs(a-b) <= rel*math.Abs(b) }

// TestReplicaRules: the three rules on the same two claims, one honest at
// the workunit estimate and one 3 x.
func TestReplicaRules(t *testing.T) {
	honest := policy.FlopsToCredit(est, 200) // 2500 s at 4e9 = 1e13 FLOPs
	for _, c := range []struct {
		rule string
		want float64
	}{
		{"min", honest},
		{"mean_trusted", 2 * honest},
		// pegged: weights 1/(0.1E) and 1/(0.1E+2E): (1 + 3/21) / (1 + 1/21).
		{"pegged", honest * (1 + 3.0/21) / (1 + 1.0/21)},
	} {
		p := newPolicy(t, "v3pfc", policy.Options{"replicas": c.rule, "host_norm": "false", "version_norm": "off", "max_granted_credit": "0"})
		got := validate(p, 1e5, result(1, 0, 2500, 4e9, 0), result(2, 0, 7500, 4e9, 0))
		if !near(got, c.want, 1e-12) {
			t.Errorf("%s: credit %.6g, want %.6g", c.rule, got, c.want)
		}
	}
}

// TestSanityVariants: a claim of 50 x the estimate, with the bound at 10 x.
func TestSanityVariants(t *testing.T) {
	wuEst := policy.FlopsToCredit(est, 200) // min_avg_pfc is 1 until normalisation
	for _, c := range []struct {
		sanity string
		want   float64
	}{
		{"clamp_bound", 10 * wuEst},
		{"wu_estimate", wuEst},
		{"default_pfc", wuEst},
		{"none", 50 * wuEst},
	} {
		p := newPolicy(t, "v3pfc", policy.Options{"sanity": c.sanity, "host_norm": "false", "max_granted_credit": "0"})
		got := validate(p, 1e6, result(1, 0, 125000, 4e9, 0))
		if !near(got, c.want, 1e-12) {
			t.Errorf("%s: credit %.6g, want %.6g", c.sanity, got, c.want)
		}
	}
}

// TestMaxGrantedCredit: a claim above max_granted_credit is dropped; with
// nothing left the WU estimate is granted, capped at the maximum.
func TestMaxGrantedCredit(t *testing.T) {
	p := newPolicy(t, "v3pfc", policy.Options{"max_granted_credit": "10", "host_norm": "false"})
	if got := validate(p, 1e6, result(1, 0, 20000, 4e9, 0)); got != 10 {
		t.Errorf("credit %g, want the cap 10", got)
	}
}

// TestFailedBenchmarkSubstitution: a reported 1e9 becomes 4.3e9 in HEAD
// and stays 1e9 in the classic server and the designs.
func TestFailedBenchmarkSubstitution(t *testing.T) {
	for _, c := range []struct {
		variant FailedBench
		flops   float64
	}{{FailedHead, 4.3e9}, {FailedClassic, 1e9}, {FailedNone, 1e9}} {
		cfg := &Config{FailedBench: c.variant}
		raw, _, outlier := cfg.Raw(&Job{Elapsed: 100, FlopsEstimate: 1e9})
		if raw != 100*c.flops || outlier != (c.variant == FailedHead) {
			t.Errorf("%s: raw %g outlier %v", c.variant, raw, outlier)
		}
	}
	cfg := &Config{FailedBench: "classic"}
	if raw, _, _ := cfg.Raw(&Job{Elapsed: 100, FlopsEstimate: 0}); raw != 100*1e10 {
		t.Errorf("classic: a missing benchmark gives raw %g, want 1e12", raw)
	}
}

// TestHostScaleCapAndNoFloor: an efficient host (half the version's PFC/E)
// is scaled up by 2; one that needs 20 x less is capped at 10, or not with
// host_cap 0; an inefficient host is scaled down without a floor.
func TestHostScaleCapAndNoFloor(t *testing.T) {
	for _, c := range []struct {
		hostAvg, cap, want float64
	}{{1, 10, 2}, {0.1, 10, 10}, {0.1, 0, 20}, {200, 10, 0.01}} {
		cfg := &Config{HostNorm: true, HostSamples: 10, VersionSamples: 100, HostCap: c.cap, Averaging: "boinc"}
		hv := &HostVersion{PFC: policy.Average{N: 10, Avg: c.hostAvg}}
		v := &Version{PFC: policy.Average{N: 100, Avg: 2}}
		if got := cfg.hostScale(&Job{}, hv, v, 0); !near(got, c.want, 1e-12) {
			t.Errorf("host avg %g cap %g: scale %g, want %g", c.hostAvg, c.cap, got, c.want)
		}
	}
}

// TestThresholds: no host scaling below 10 host or 100 version samples.
func TestThresholds(t *testing.T) {
	cfg := &Config{HostNorm: true, HostSamples: 10, VersionSamples: 100, HostCap: 10, Averaging: "boinc"}
	for _, c := range []struct{ hn, vn float64 }{{9, 100}, {10, 99}} {
		hv := &HostVersion{PFC: policy.Average{N: c.hn, Avg: 1}}
		v := &Version{PFC: policy.Average{N: c.vn, Avg: 2}}
		if got := cfg.hostScale(&Job{}, hv, v, 0); got != 0 {
			t.Errorf("host n %g, version n %g: scale %g, want none", c.hn, c.vn, got)
		}
	}
}

// TestAveragingVariants: design averaging is a straight mean of the first
// 10 host samples where the server's is of the first 19; est_weighted is
// ΣPFC/ΣE with no cap.
func TestAveragingVariants(t *testing.T) {
	feed := func(averaging Averaging) (n, avg float64) {
		cfg := &Config{Averaging: averaging}
		hp, _ := cfg.params()
		hv := &HostVersion{}
		for k := 0; k < 12; k++ {
			x := 1.0
			if k == 10 {
				x = 3 // the 11th sample
			}
			hv.PFC.Update(x, hp)
			hv.W.update(x*est, est, hp)
		}
		return cfg.hostMean(hv)
	}
	_, b := feed("boinc")
	_, d := feed("design")
	_, w := feed("est_weighted")
	if !near(b, (11+3)/12.0, 1e-12) {
		t.Errorf("v3pfc-boinc: mean of 12 = %.6g, want %.6g", b, 14/12.0)
	}
	// design: 10 straight samples (avg 1), then exponential: 1 + 0.01*2, then 0.99 of that + 0.01.
	wantD := (1 + 0.01*2)
	wantD += 0.01 * (1 - wantD)
	if !near(d, wantD, 1e-12) {
		t.Errorf("design: %.12g, want %.12g", d, wantD)
	}
	// est_weighted: sums decay by 0.99 from the 11th sample.
	num, den := 10.0, 10.0
	num, den = 0.99*num+3, 0.99*den+1
	num, den = 0.99*num+1, 0.99*den+1
	if !near(w, num/den, 1e-12) {
		t.Errorf("est_weighted: %.12g, want %.12g", w, num/den)
	}
}

// TestAnonymousPlatform: v29 grants the app's average (min_avg_pfc x E),
// the server host-normalises once 10 samples exist, uncapped.
func TestAnonymousPlatform(t *testing.T) {
	a := &App{MinAvgPFC: 2, Defined: true}
	j := &Job{Elapsed: 1000, FlopsEstimate: 4e9, Est: est, Bound: 10 * est, Anonymous: true}
	hv := func() *HostVersion { return &HostVersion{PFC: policy.Average{N: 10, Avg: 0.01}} }
	server := &Config{Anonymous: "host_scaled", Averaging: "boinc"}
	if pfc, mode := server.PFC(j, a, hv(), nil, 0); !near(pfc, 4e12*2/0.01, 1e-12) || mode != Approx {
		t.Errorf("server: pfc %g mode %d, want %g (x200, no cap) approx", pfc, mode, 4e12*2/0.01)
	}
	design := &Config{Anonymous: "app_average", Averaging: "design"}
	if pfc, _ := design.PFC(j, a, hv(), nil, 0); pfc != 2*est {
		t.Errorf("v29: pfc %g, want min_avg_pfc x E = %g", pfc, 2*est)
	}
}

// TestOneTimeCheats: v2 caps a claim at 10 x the app's mean; v29 puts the
// host on probation, which takes it out of the trusted mean.
func TestOneTimeCheats(t *testing.T) {
	p := newPolicy(t, "v3pfc-design-v2", policy.Options{"averaging": "design"})
	p.apps[0].MinAvgPFC, p.apps[0].Defined = 0.5, true
	if got, want := validate(p, 1e8, result(1, 0, 1e8, 4e9, 0)), policy.FlopsToCreditAssign(10*0.5*est, 200); !near(got, want, 1e-12) {
		t.Errorf("v2: credit %g, want the cap %g", got, want)
	}
	q := newPolicy(t, "v3pfc-design-v29", nil)
	q.vers[0].PFC = policy.Average{N: 50, Avg: 1}
	honest, cheat := result(1, 0, 2500, 4e9, 0), result(2, 0, 2500*25, 4e9, 0) // 25 x the mean
	got := validate(q, 1e5, honest, cheat)
	if !q.hav(2, 0).Probation || q.hav(1, 0).Probation {
		t.Fatalf("probation: cheat %v, honest %v", q.hav(2, 0).Probation, q.hav(1, 0).Probation)
	}
	if want := policy.FlopsToCreditAssign(est, 100); !near(got, want, 1e-12) {
		t.Errorf("v29: credit %g, want the honest claim alone %g", got, want)
	}
}

// TestCherryReset: v2 resets a host's averages to the version's on an
// error; v29's probation caps Scale(H) at 1 and suspends host scaling
// for a delay bound.
func TestCherryReset(t *testing.T) {
	p := newPolicy(t, "v3pfc-design-v2", nil)
	p.vers[0].W = ratioAverage{N: 200, Num: 400, Den: 200}
	hv := p.hav(3, 0)
	hv.W = ratioAverage{N: 20, Num: 2, Den: 20} // looks 20 x more efficient
	p.Reported(&policy.Result{HostID: 3, VersionID: 0, Outcome: policy.ClientError, ReceivedTime: 10})
	if got := hv.W.avg(); got != 2 {
		t.Errorf("v2 reset: host average %g, want the version's 2", got)
	}

	q := newPolicy(t, "v3pfc-design-v29", policy.Options{"cherry": "probation"})
	q.vers[0].PFC = policy.Average{N: 200, Avg: 2}
	hq := q.hav(3, 0)
	hq.PFC = policy.Average{N: 20, Avg: 0.5}
	q.Reported(&policy.Result{HostID: 3, VersionID: 0, AppID: 0, Outcome: policy.NoReply, ReceivedTime: 1000})
	if !hq.Probation || hq.ScaleTime != 1000+86400 || hq.PFC.Avg != 2 {
		t.Errorf("v29 after a timeout: probation %v until %g, host average %g", hq.Probation, hq.ScaleTime, hq.PFC.Avg)
	}
	j := &Job{ConsecutiveValid: 20}
	if s := q.c.hostScale(j, hq, &q.vers[0], 2000); s != 0 {
		t.Errorf("host scale %g during probation, want none", s)
	}
	if s := q.c.hostScale(j, hq, &q.vers[0], 1000+86400+1); s != 1 {
		t.Errorf("host scale %g after probation, want at most 1", s)
	}
}

// TestCentralFactor: a GPU-only app is scaled by the RAC-weighted mean
// scale of GPU versions of the same plan class in apps with both kinds.
func TestCentralFactor(t *testing.T) {
	p, err := policy.New(policy.Spec{Name: "c", Base: "v3pfc-design-v29"})
	if err != nil {
		t.Fatal(err)
	}
	w := &policy.World{
		Apps: []policy.App{{ID: 0, Name: "mixed", DelayBound: 86400}, {ID: 1, Name: "gpuonly", DelayBound: 86400}},
		Versions: []policy.AppVersion{
			{ID: 0, AppID: 0, Name: "cpu", Resource: policy.CPU},
			{ID: 1, AppID: 0, Name: "cuda", Resource: policy.NVIDIA, PlanClass: "cuda"},
			{ID: 2, AppID: 1, Name: "cuda", Resource: policy.NVIDIA, PlanClass: "cuda"},
		},
		MaxHosts: 1,
	}
	x := p.(*Policy)
	x.Init(w)
	x.vers[1].Scale = 0.25
	x.recent[1] = policy.RAC{Avg: 100, AvgTime: 86400}
	x.Tick(policy.Tick{Kind: policy.DayTick, Time: 86400})
	x.vers[2].PFC = policy.Average{N: 150, Avg: 8}
	x.c.UpdateScales(&x.apps[1], x.vers, x.centralFactor)
	if x.vers[2].Scale != 0.25 || x.apps[1].MinAvgPFC != 2 {
		t.Errorf("GPU-only app: scale %g, min_avg_pfc %g; want 0.25 and 2", x.vers[2].Scale, x.apps[1].MinAvgPFC)
	}
	// The server uses 0.1 x the GPU mean instead.
	s := &Config{VersionNorm: "groups", VersionSamples: 100, GPUOnly: "factor", GPUOnlyFactor: 0.1, Averaging: "boinc"}
	a := App{Versions: []int{0}}
	vs := []Version{{Gpu: true, PFC: policy.Average{N: 150, Avg: 8}}}
	if b := s.UpdateScales(&a, vs, nil); b != BranchGPUFactor || !near(a.MinAvgPFC, 0.8, 1e-15) || !near(vs[0].Scale, 0.1, 1e-15) {
		t.Errorf("server GPU-only: %s, min_avg_pfc %g, scale %g", b, a.MinAvgPFC, vs[0].Scale)
	}
}

// TestAbsurdClaimStaysFinite: a claim of 1e304 FLOPS through the reported
// peak never makes credit infinite or NaN under any preset.
func TestAbsurdClaimStaysFinite(t *testing.T) {
	for _, base := range []string{"v3pfc-boinc", "v3pfc-boinc-classic", "v3pfc-design-v29", "v3pfc-design-v2"} {
		p := newPolicy(t, base, nil)
		got := validate(p, 1e6, result(1, 0, 1e5, 1e304, 0))
		if math.IsNaN(got) || math.IsInf(got, 0) || got < 0 {
			t.Errorf("%s: credit %g", base, got)
		}
	}
}

// TestTiming: under batched timing (server) a version's samples wait for
// the end of a validator pass and its scale for a feeder tick; under
// continuous timing (designs) both change at once.
func TestTiming(t *testing.T) {
	for _, timing := range []string{"batched", "continuous"} {
		p := newPolicy(t, "v3pfc", policy.Options{"timing": timing, "version_samples": "2", "host_norm": "false"})
		// Two CPU versions are needed for the CPU group to set X.
		p.vers[1].Gpu = false
		validate(p, 1e5, result(1, 0, 2500, 4e9, 0))
		validate(p, 1e5, result(2, 1, 5000, 4e9, 0))
		validate(p, 1e5, result(1, 0, 2500, 4e9, 0), result(2, 1, 5000, 4e9, 0), result(3, 0, 2500, 4e9, 0), result(4, 1, 5000, 4e9, 0))
		n0 := p.vers[0].PFC.N
		if timing == "batched" {
			if n0 != 0 || p.vers[0].Scale != 0 {
				t.Fatalf("batched: %g samples and scale %g before the validator pass ends", n0, p.vers[0].Scale)
			}
			p.Tick(policy.Tick{Kind: policy.ValidatorPassEnd, Time: 1e5})
			if p.vers[0].PFC.N != 3 || p.vers[0].Scale != 0 {
				t.Fatalf("batched: %g samples, scale %g after the pass, before the feeder", p.vers[0].PFC.N, p.vers[0].Scale)
			}
			p.Tick(policy.Tick{Kind: policy.FeederTick, Time: 1e5 + 600})
		} else if n0 != 3 {
			t.Fatalf("continuous: %g samples", n0)
		}
		// Version 0 averages PFC/E 1, version 1 averages 2: X = 1.5.
		if !near(p.vers[0].Scale, 1.5, 1e-12) || !near(p.vers[1].Scale, 0.75, 1e-12) || !near(p.apps[0].MinAvgPFC, 1.5, 1e-12) {
			t.Errorf("%s: scales %g %g, min_avg_pfc %g; want 1.5, 0.75, 1.5", timing, p.vers[0].Scale, p.vers[1].Scale, p.apps[0].MinAvgPFC)
		}
	}
}

// newGPUOnly returns base (with overrides) in a world of one app with
// only an NVIDIA version, which the server scales by 0.1 x its mean.
func newGPUOnly(t *testing.T, base string, opts policy.Options) *Policy {
	t.Helper()
	p, err := policy.New(policy.Spec{Name: "test", Base: base, Options: opts})
	if err != nil {
		t.Fatal(err)
	}
	p.Init(&policy.World{
		Apps:     []policy.App{{ID: 0, Name: "g", MinQuorum: 1, TargetNResults: 1, DelayBound: 86400}},
		Versions: []policy.AppVersion{{ID: 0, AppID: 0, Name: "gpu", Resource: policy.NVIDIA, CPUUsage: 0.1, GPUUsage: 1}},
		MaxHosts: 200,
	})
	return p.(*Policy)
}

// gpuOnlyWithStatistics returns a v3pfc-boinc GPU-only policy (see
// newGPUOnly) after 101 samples from different hosts, flushed at a
// validator pass end, so its version has statistics but no scale yet;
// now is the time of that pass.
func gpuOnlyWithStatistics(t *testing.T, opts policy.Options) (p *Policy, now float64) {
	t.Helper()
	p = newGPUOnly(t, "v3pfc-boinc", opts)
	for h := 0; h < 101; h++ {
		now += 10
		validate(p, now, result(h, 0, 1000, 1e11, now-1000))
	}
	p.Tick(policy.Tick{Kind: policy.ValidatorPassEnd, Time: now})
	return p, now
}

// TestAVCache: the validator credits from its cached copy of the
// version. When the feeder first scales a GPU-only version (by 0.1), the
// server's validator keeps paying the unscaled PFC until it writes the
// version's statistics after a pass and finds the row changed; with
// av_cache fresh the new scale is used from the feeder tick on. Under
// timing continuous the option changes nothing.
func TestAVCache(t *testing.T) {
	run := func(opts policy.Options) (before, afterTick, afterPass float64) {
		p, now := gpuOnlyWithStatistics(t, opts)
		before = validate(p, now+1, result(150, 0, 1000, 1e11, now))
		p.Tick(policy.Tick{Kind: policy.FeederTick, Time: now + 2}) // scale 0.1 is set
		afterTick = validate(p, now+3, result(151, 0, 1000, 1e11, now))
		p.Tick(policy.Tick{Kind: policy.ValidatorPassEnd, Time: now + 4}) // writes, finds the change, re-reads
		afterPass = validate(p, now+5, result(152, 0, 1000, 1e11, now))
		return
	}
	b, tick, pass := run(nil)
	t.Logf("validator cache: %.4g before the scale, %.4g after the feeder tick, %.4g after the next pass", b, tick, pass)
	if !near(tick, b, 1e-12) || !near(pass, 0.1*b, 1e-9) {
		t.Errorf("av_cache validator: %g, %g, %g; want the unscaled credit until the pass, then a tenth", b, tick, pass)
	}
	b, tick, pass = run(policy.Options{"av_cache": "fresh"})
	if !near(tick, 0.1*b, 1e-9) || !near(pass, 0.1*b, 1e-9) {
		t.Errorf("av_cache fresh: %g, %g, %g; want a tenth from the feeder tick on", b, tick, pass)
	}
	// A change of at most 1e-6 is not seen: the conditional update succeeds.
	p := newGPUOnly(t, "v3pfc-boinc", nil)
	v := &p.vers[0]
	v.Scale = 0.5
	p.c.validatorScale(v)
	v.Scale = 0.5 + 5e-7
	p.c.refreshCache(v)
	if v.ValScale != 0.5 {
		t.Errorf("a change of 5e-7 was seen: cached %v", v.ValScale)
	}
	v.Scale = 0.6
	p.c.refreshCache(v)
	if v.ValScale != 0.6 {
		t.Errorf("a change of 0.1 was not seen: cached %v", v.ValScale)
	}
	// Continuous timing has no cache.
	c := newGPUOnly(t, "v3pfc-boinc", policy.Options{"timing": "continuous"})
	c.vers[0].Scale = 0.3
	if got := c.c.validatorScale(&c.vers[0]); got != 0.3 {
		t.Errorf("continuous: scale %v, want the row's 0.3", got)
	}
}

// TestHostVersionSize: a policy keeps a HostVersion per host and version
// (five standard instances at 100,000 hosts: a million of them); the
// runtime statistics credit never reads live apart (HostTiming).
func TestHostVersionSize(t *testing.T) {
	if got := unsafe.Sizeof(HostVersion{}); got != 56 {
		t.Errorf("HostVersion is %d bytes, want 56", got)
	}
}

// TestAVCacheCreditSampleOnly: BOINC's validator writes, and so may
// re-read, every app version with credit samples, not only those with
// PFC samples (write_modified_app_versions). A pass whose only result of
// a version is a runtime outlier, or has a PFC/E ratio that is_pfc_sane
// rejects, gives a credit sample and no PFC sample; if the feeder moved
// the scale before that pass ended, the next result is paid at the new
// scale.
func TestAVCacheCreditSampleOnly(t *testing.T) {
	for _, c := range []struct {
		name string
		r    func(h int, now float64) *policy.Result
	}{
		{"runtime outlier", func(h int, now float64) *policy.Result {
			r := result(h, 0, 1000, 1e11, now)
			r.RuntimeOutlier = true
			return r
		}},
		// PFC/E = 2e7 x 1e11 / 1e13 = 2e5 > 1e4: not sane.
		{"insane ratio", func(h int, now float64) *policy.Result { return result(h, 0, 2e7, 1e11, now) }},
	} {
		p, now := gpuOnlyWithStatistics(t, nil)
		before := validate(p, now+1, result(150, 0, 1000, 1e11, now))
		p.Tick(policy.Tick{Kind: policy.ValidatorPassEnd, Time: now + 2})
		p.Tick(policy.Tick{Kind: policy.FeederTick, Time: now + 3}) // scale 0.1 is set
		n := len(p.vers[0].Pending)
		validate(p, now+4, c.r(151, now))
		if len(p.vers[0].Pending) != n {
			t.Fatalf("%s: the result gave a PFC sample", c.name)
		}
		p.Tick(policy.Tick{Kind: policy.ValidatorPassEnd, Time: now + 5}) // writes the credit sample, re-reads
		after := validate(p, now+6, result(152, 0, 1000, 1e11, now))
		if !near(after, 0.1*before, 1e-9) {
			t.Errorf("%s: credit %.6g after the pass, want the new scale's %.6g (stale: %.6g)", c.name, after, 0.1*before, before)
		}
	}
}
