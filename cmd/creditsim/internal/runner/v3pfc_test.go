package runner

import (
	"math"
	"strings"
	"testing"

	"github.com/creditsim/creditsim/internal/longtest"
	_ "github.com/creditsim/creditsim/policy/all" // every credit system
)

// gpuWorld: one app with a CPU and an NVIDIA version; hosts with a GPU run
// the GPU version (the faster one), the others the CPU version. CPU
// efficiency 0.5, GPU 0.1, as the seeds put it.
const gpuWorld = `
name: gpu
replications: 2
duration: 14d
warmup: 5d
hosts:
  initial: 250
  arrivals_per_day: 0
  lifetime: 1000d
  platforms: [{name: linux, share: 1}]
  availability: {model: always}
  gpu: {share: 0.4, vendors: [{vendor: nvidia, share: 1}]}
  error_rate: 0
  invalid_rate: 0
projects:
  - name: p
    apps:
      - name: a
        rsc_fpops_est: 2e13
        delay_bound: 3d
        min_quorum: QUORUM
        target_nresults: QUORUM
        versions:
          - {name: cpu, platform: linux, efficiency: {dist: lognormal, mean: 0.5, cv: 0.2, max: 1}}
          - {name: gpu, platform: linux, resource: nvidia, gpu_usage: 1, cpu_usage: 0.1,
             efficiency: {dist: lognormal, mean: 0.1, cv: 0.2, max: 1}}
`

func gpuScenario(quorum string) string {
	return strings.ReplaceAll(gpuWorld, "QUORUM", quorum)
}

// TestHostNormalisationDefeatsGPUPeakInflation: under single replication
// a host that reports 10 x its GPU peak claims 10 x the PFC. Without host
// normalisation it keeps that (cheat ratio near 10); with it, its own
// average rises and its scale falls, so the ratio comes back near 1.
func TestHostNormalisationDefeatsGPUPeakInflation(t *testing.T) {
	t.Parallel()
	longtest.Skip(t, "a world at the size of its claim")
	oc := runScenario(t, gpuScenario("1"),
		"hosts.agents=[{kind: benchmark_inflation, share: 0.05, k: 10}]",
		"policies=[v3pfc-boinc, {name: no-host-norm, base: v3pfc-boinc, options: {host_norm: false}}]")
	with := float64(oc.Summary.Policies["v3pfc-boinc"].CheatRatio["benchmark_inflation"])
	without := float64(oc.Summary.Policies["no-host-norm"].CheatRatio["benchmark_inflation"])
	t.Logf("cheat ratio of 10x GPU-peak inflators: %.3f with host normalisation, %.3f without", with, without)
	if !(without > 4) || !(with < 1.6) {
		t.Errorf("cheat ratio %.3f with host normalisation (want near 1), %.3f without (want towards 10)", with, without)
	}
}

// TestVersionNormalisationGivesDeviceNeutrality: GPU jobs run at 10% of
// peak and CPU jobs at 50%, so raw PFC pays a GPU result 5 x as much per
// FLOP. Cross-version normalisation brings the ratio near 1.
func TestVersionNormalisationGivesDeviceNeutrality(t *testing.T) {
	t.Parallel()
	longtest.Skip(t, "a world at the size of its claim")
	oc := runScenario(t, gpuScenario("2"),
		"policies=[v3pfc-boinc, {name: no-version-norm, base: v3pfc-boinc, options: {version_norm: \"off\"}}]")
	with := float64(oc.Summary.Policies["v3pfc-boinc"].DeviceNeutrality)
	without := float64(oc.Summary.Policies["no-version-norm"].DeviceNeutrality)
	t.Logf("device neutrality (GPU G/D over CPU G/D): %.3f with version normalisation, %.3f without", with, without)
	if !(without > 3) || !(with > 0.7 && with < 1.4) {
		t.Errorf("device neutrality %.3f with version normalisation (want near 1), %.3f without (want near 5)", with, without)
	}
	// One GPU type and no plan class: the per-class figure is the same.
	if d := oc.Summary.Policies["v3pfc-boinc"].DeviceNeutralityByPlanClass["nvidia"]; math.Abs(float64(d)-with) > 1e-9 {
		t.Errorf("device neutrality of nvidia %v, overall %v", d, with)
	}
}

// TestProbationRearmOnBusyHosts shows what the two readings of v29's
// host_scale_time do to busy honest hosts. Re-armed at every send while
// on probation, a host that always has work never leaves probation, so
// it never gets host scaling and host neutrality is as without it; armed
// once, hosts leave probation one delay bound after their first job.
func TestProbationRearmOnBusyHosts(t *testing.T) {
	t.Parallel()
	longtest.Skip(t, "a world at the size of its claim")
	oc := runScenario(t, gpuScenario("2"),
		"policies=[{name: once, base: v3pfc-design-v29, options: {cherry: probation}},"+
			" {name: every-send, base: v3pfc-design-v29, options: {cherry: probation, probation_rearm: every_send}},"+
			" {name: no-host-norm, base: v3pfc-design-v29, options: {host_norm: false}}]")
	once := float64(oc.Summary.Policies["once"].HostNeutralityCV)
	every := float64(oc.Summary.Policies["every-send"].HostNeutralityCV)
	none := float64(oc.Summary.Policies["no-host-norm"].HostNeutralityCV)
	t.Logf("host CV: once %.4f, every_send %.4f, no host normalisation %.4f", once, every, none)
	if !(once < 0.6*every) || !(every > 0.8*none) {
		t.Errorf("host CV once %.4f, every_send %.4f, without host normalisation %.4f", once, every, none)
	}
}

// TestMedianHostsResistsInflators: with 30% of hosts inflating their GPU
// peak 5 x, the mean PFCmean(V) of the GPU version is pulled up, which
// raises every honest GPU host's scale; the median of host averages is
// not, so honest hosts' credit stays nearer to the cheat-free value.
func TestMedianHostsResistsInflators(t *testing.T) {
	t.Parallel()
	longtest.Skip(t, "a world at the size of its claim")
	pols := "policies=[v3pfc-boinc, {name: median, base: v3pfc-boinc, options: {median_hosts: true}}]"
	clean := runScenario(t, gpuScenario("1"), pols)
	dirty := runScenario(t, gpuScenario("1"), pols, "hosts.agents=[{kind: benchmark_inflation, share: 0.3, k: 5}]")
	base := float64(clean.Summary.Policies["v3pfc-boinc"].HonestRatio)
	mean := float64(dirty.Summary.Policies["v3pfc-boinc"].HonestRatio)
	med := float64(dirty.Summary.Policies["median"].HonestRatio)
	t.Logf("honest G/D: %.4f without cheaters; with 30%% inflators %.4f (mean), %.4f (median)", base, mean, med)
	if !(abs(med-base) < abs(mean-base)) {
		t.Errorf("median %.4f is not nearer the cheat-free %.4f than the mean %.4f", med, base, mean)
	}
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

// twoProjects: "mixed" has a CPU and a GPU version of its app, "gpuonly"
// only a GPU version, with the same efficiencies (CPU 0.5, GPU 0.1).
const twoProjects = `
name: gpu-only
replications: 2
duration: 14d
warmup: 5d
hosts:
  initial: 250
  arrivals_per_day: 0
  lifetime: 1000d
  platforms: [{name: linux, share: 1}]
  availability: {model: always}
  gpu: {share: 0.5, vendors: [{vendor: nvidia, share: 1}]}
  error_rate: 0
  invalid_rate: 0
projects:
  - name: mixed
    apps:
      - name: a
        rsc_fpops_est: 2e13
        delay_bound: 3d
        versions:
          - {name: cpu, platform: linux, efficiency: {dist: lognormal, mean: 0.5, cv: 0.2, max: 1}}
          - {name: gpu, platform: linux, resource: nvidia, plan_class: cuda, gpu_usage: 1, cpu_usage: 0.1,
             efficiency: {dist: lognormal, mean: 0.1, cv: 0.2, max: 1}}
  - name: gpuonly
    apps:
      - name: b
        rsc_fpops_est: 2e13
        delay_bound: 3d
        versions:
          - {name: gpu, platform: linux, resource: nvidia, plan_class: cuda, gpu_usage: 1, cpu_usage: 0.1,
             efficiency: {dist: lognormal, mean: 0.1, cv: 0.2, max: 1}}
`

// TestGPUOnlyApps: the server scales a GPU-only app by 0.1 x its GPU
// mean, so with a GPU version 5 x less efficient than the CPU one it pays
// half what the mixed project pays per FLOP (project neutrality near 2).
// The designs' central factor takes the scale of CUDA versions in apps
// with a CPU version, and the two projects pay alike (near 1).
func TestGPUOnlyApps(t *testing.T) {
	t.Parallel()
	longtest.Skip(t, "a world at the size of its claim")
	oc := runScenario(t, twoProjects,
		"policies=[v3pfc-boinc, {name: central, base: v3pfc-boinc, options: {gpu_only: central}}]")
	factor := float64(oc.Summary.Policies["v3pfc-boinc"].ProjectNeutrality)
	central := float64(oc.Summary.Policies["central"].ProjectNeutrality)
	t.Logf("project neutrality (max/min per-project G/D): %.3f with the 0.1 factor, %.3f with the central factor", factor, central)
	if !(factor > 1.6 && factor < 2.5) || !(central < 1.25) {
		t.Errorf("project neutrality %.3f with the 0.1 factor (want near 2), %.3f central (want near 1)", factor, central)
	}
	// The community's statistic sees the same: credit per CPU second in
	// the GPU-only project against the mixed one, over shared hosts.
	b := oc.Summary.Policies["v3pfc-boinc"]
	if _, ok := b.CrossProject["mixed/gpuonly"]; !ok {
		t.Errorf("no cross-project statistic: %v", b.CrossProject)
	}
	// GPU hosts give their GPU to the project furthest below its share of
	// device time, which is the GPU-only one (the mixed one has the CPUs):
	// after the warm-up no app has both kinds of results.
	if !math.IsNaN(float64(b.DeviceNeutrality)) {
		t.Errorf("device neutrality %v, want undefined", b.DeviceNeutrality)
	}
}

// TestOneTimeClaims: a host reports a GPU peak of 1e304 with one job
// after the warm-up, then is honest. The server clamps the claim to
// rsc_fpops_bound (10 x the estimate), v29 replaces it by the default
// PFC, v2 caps it at 10 x the app's mean: the account gains a few jobs'
// worth at most. With no sanity check and no max_granted_credit the
// claim goes through (clamped to the finite 1e300 every policy is held
// to), and the cheat ratio is astronomical but finite.
func TestOneTimeClaims(t *testing.T) {
	t.Parallel()
	longtest.Skip(t, "a world at the size of its claim")
	oc := runScenario(t, gpuScenario("1"),
		"hosts.agents=[{kind: one_time_claim, share: 0.05, channel: gpu_peak, claim: 1e304, at: 6d}]",
		"policies=[v3pfc-boinc, v3pfc-design-v29, v3pfc-design-v2, {name: unchecked, base: v3pfc-boinc, options: {sanity: none, max_granted_credit: 0}}]")
	for _, name := range []string{"v3pfc-boinc", "v3pfc-design-v29", "v3pfc-design-v2"} {
		r := float64(oc.Summary.Policies[name].CheatRatio["one_time_claim"])
		t.Logf("%s: cheat ratio of one-time 1e304 claims %.4g", name, r)
		if !(r < 2) {
			t.Errorf("%s: cheat ratio %.4g, want under 2", name, r)
		}
	}
	r := float64(oc.Summary.Policies["unchecked"].CheatRatio["one_time_claim"])
	t.Logf("unchecked: cheat ratio %.4g", r)
	if !(r > 1e100) || math.IsInf(r, 0) {
		t.Errorf("unchecked: cheat ratio %.4g, want huge and finite", r)
	}
}

// cherryWorld: 80% of jobs are short and 20% take 8 x longer, with the
// same rsc_fpops_est (the project cannot tell them apart). Two CPU
// versions, so that version scales exist. Single replication.
const cherryWorld = `
name: cherry
replications: 2
duration: 20d
warmup: 8d
hosts:
  initial: 250
  arrivals_per_day: 0
  lifetime: 1000d
  platforms: [{name: linux, share: 0.5}, {name: windows, share: 0.5}]
  availability: {model: always}
  error_rate: 0
  invalid_rate: 0
  agents: [{kind: cherry_picker, share: 0.1, threshold: 8h}]
projects:
  - name: p
    apps:
      - name: a
        rsc_fpops_est: 2e13
        delay_bound: 5d
        min_quorum: 1
        target_nresults: 1
        max_error_results: 8
        size_classes: [{name: short, share: 0.8, factor: 1}, {name: long, share: 0.2, factor: 8}]
        versions:
          - {platform: linux}
          - {platform: windows}
`

// TestCherryPicking: a host that aborts the long jobs completes only
// short ones, so its PFC/E average is below the version's and host
// normalisation scales it up. The server's default (no guard) pays it for
// that; host_scale_check (10 consecutive valid) limits it; v2's reset and
// v29's probation take the scale away on every abort.
func TestCherryPicking(t *testing.T) {
	skipLong(t)
	t.Parallel()
	oc := runScenario(t, cherryWorld,
		"policies=[v3pfc-boinc, {name: cons-valid, base: v3pfc-boinc, options: {cherry: cons_valid}},"+
			" {name: reset, base: v3pfc-boinc, options: {cherry: reset}}, {name: probation, base: v3pfc-boinc, options: {cherry: probation}}]")
	ratio := func(name string) float64 {
		r := float64(oc.Summary.Policies[name].CheatRatio["cherry_picker"])
		t.Logf("%s: cherry picker cheat ratio %.4g", name, r)
		return r
	}
	none, cons, reset, prob := ratio("v3pfc-boinc"), ratio("cons-valid"), ratio("reset"), ratio("probation")
	if !(none > 1.3) || !(cons < none) || !(reset < 0.8*none) || !(prob < 0.8*none) {
		t.Errorf("cheat ratios: unguarded %.4g, consecutive valid %.4g, reset %.4g, probation %.4g", none, cons, reset, prob)
	}
}

// TestReplicaRules: with two replicas and no host normalisation, a host
// that reports 10 x its GPU peak is paired with an honest wingman. The
// mean pays it half its lie, the pegged average weights the claim near
// the estimate (the honest one) far more, and the minimum pays the honest
// claim.
func TestReplicaRules(t *testing.T) {
	t.Parallel()
	longtest.Skip(t, "a world at the size of its claim")
	oc := runScenario(t, gpuScenario("2"),
		"hosts.agents=[{kind: benchmark_inflation, share: 0.05, k: 10}]",
		"policies=[{name: pegged, base: v3pfc-boinc, options: {host_norm: false}},"+
			" {name: mean, base: v3pfc-boinc, options: {host_norm: false, replicas: mean_trusted}},"+
			" {name: min, base: v3pfc-boinc, options: {host_norm: false, replicas: min}}]")
	r := map[string]float64{}
	for _, n := range []string{"pegged", "mean", "min"} {
		r[n] = float64(oc.Summary.Policies[n].CheatRatio["benchmark_inflation"])
	}
	t.Logf("cheat ratio of 10x GPU-peak inflators under replication: pegged %.3f, mean %.3f, min %.3f", r["pegged"], r["mean"], r["min"])
	if !(r["mean"] > 1.5*r["pegged"]) || !(r["min"] <= r["pegged"]) {
		t.Errorf("cheat ratios %v: want mean > pegged >= min", r)
	}
}

// TestPeakSource: the server fixes flops_estimate at send with the CPU
// speed capped at 1.1 x the hosts' 95th percentile, so a 4 x CPU
// benchmark inflation by 3% of hosts mostly fails; the designs' reported
// peak takes it whole (4 x stays under the rsc_fpops_bound clamp). Host
// normalisation is off to see the claim itself.
func TestPeakSource(t *testing.T) {
	t.Parallel()
	skipLong(t)
	oc := runScenario(t, gpuScenario("1"),
		"hosts.gpu.share=0",
		"hosts.agents=[{kind: benchmark_inflation, share: 0.03, k: 4}]",
		"policies=[{name: sent, base: v3pfc-boinc, options: {host_norm: false}},"+
			" {name: reported, base: v3pfc-boinc, options: {host_norm: false, peak: reported}}]")
	sent := float64(oc.Summary.Policies["sent"].CheatRatio["benchmark_inflation"])
	rep := float64(oc.Summary.Policies["reported"].CheatRatio["benchmark_inflation"])
	t.Logf("cheat ratio of 4x CPU benchmark inflators: %.3f with the server's cap, %.3f with the reported peak", sent, rep)
	if !(sent < 2) || !(rep > 3) {
		t.Errorf("cheat ratio %.3f capped (want under 2), %.3f reported (want near 4)", sent, rep)
	}
}

// TestHostScaleCap: a host that reports a twentieth of its GPU peak looks
// 20 x more efficient than it is. Host normalisation scales it up, but
// the cap of 10 stops halfway: it gets about half its deserved credit;
// with no cap (v2) it is paid in full.
func TestHostScaleCap(t *testing.T) {
	t.Parallel()
	longtest.Skip(t, "a world at the size of its claim")
	oc := runScenario(t, gpuScenario("1"),
		"hosts.agents=[{kind: benchmark_inflation, share: 0.05, k: 0.05}]",
		"policies=[v3pfc-boinc, {name: no-cap, base: v3pfc-boinc, options: {host_cap: 0}}]")
	capped := float64(oc.Summary.Policies["v3pfc-boinc"].CheatRatio["benchmark_inflation"])
	free := float64(oc.Summary.Policies["no-cap"].CheatRatio["benchmark_inflation"])
	t.Logf("cheat ratio of hosts reporting 1/20 of their GPU peak: %.3f capped at 10, %.3f uncapped", capped, free)
	if !(capped < 0.75) || !(free > 0.85) {
		t.Errorf("cheat ratio %.3f with the cap (want about 0.5), %.3f without (want near 1)", capped, free)
	}
}

// TestFailedBenchmarkSubstitution: 30% of hosts report the 1e9 of a
// failed benchmark. Used as is (classic server, designs), their PFC/E
// samples pull the version average down and with it every honest host's
// scale; HEAD substitutes 4.3e9 and keeps them out of the statistics, so
// honest hosts are paid as without them.
func TestFailedBenchmarkSubstitution(t *testing.T) {
	t.Parallel()
	skipLong(t)
	pols := "policies=[v3pfc-boinc, {name: as-is, base: v3pfc-boinc, options: {failed_benchmark: none}}]"
	clean := runScenario(t, gpuScenario("1"), "hosts.gpu.share=0", pols)
	dirty := runScenario(t, gpuScenario("1"), "hosts.gpu.share=0", pols, "hosts.agents=[{kind: failed_benchmark, share: 0.3}]")
	base := float64(clean.Summary.Policies["v3pfc-boinc"].HonestRatio)
	head := float64(dirty.Summary.Policies["v3pfc-boinc"].HonestRatio)
	asIs := float64(dirty.Summary.Policies["as-is"].HonestRatio)
	t.Logf("honest G/D: %.4f without failed benchmarks; with 30%%: %.4f (HEAD), %.4f (1e9 used as is)", base, head, asIs)
	if !(abs(head-base) < 0.02*base) || !(asIs < 0.9*base) {
		t.Errorf("honest G/D %.4f clean, %.4f HEAD (want the same), %.4f as is (want lower)", base, head, asIs)
	}
}
