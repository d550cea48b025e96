package sim_test

import (
	"math"
	"testing"

	"github.com/creditsim/creditsim/policy"
	"github.com/creditsim/creditsim/scenarios"
	"github.com/creditsim/creditsim/sim"
	"github.com/creditsim/creditsim/world"
)

// estimateWorld: one app with a CPU, an NVIDIA and an anonymous-platform
// CPU version, sent once, and hosts that report a thousandth of their
// runtimes (their elapsed-time statistics put the scheduler's host
// estimate above 250 x peak).
const estimateWorld = `
name: estimates
replications: 1
duration: 8d
warmup: 1d
server: {max_jobs_in_progress: 4}
hosts:
  initial: 100
  arrivals_per_day: 15
  lifetime: 1000d
  platforms: [{name: linux, share: 1}]
  availability: {model: always}
  gpu: {share: 0.4, vendors: [{vendor: nvidia, share: 1}]}
  agents: [{kind: runtime_inflation, share: 0.05, k: 0.001}]
projects:
  - name: p
    apps:
      - name: a
        rsc_fpops_est: 1e13
        delay_bound: 3d
        min_quorum: 1
        target_nresults: 1
        versions:
          - {name: cpu, platform: linux}
          - {name: gpu, platform: linux, resource: nvidia, gpu_usage: 1, cpu_usage: 0.1, efficiency: {dist: lognormal, mean: 0.1, cv: 0.2, max: 1}}
          - {name: anon, platform: linux, anonymous: true, anonymous_share: 0.2}
`

// estimateChecker rebuilds, from what the server sees, the statistics
// the scheduler's runtime estimate reads (each host's elapsed time per
// rsc_fpops_est, each version's PFC per rsc_fpops_est, both updated by
// the validator for valid results that are not runtime outliers), and
// predicts every job's estimate by CREDIT-SPEC 19's three tiers.
type estimateChecker struct {
	policy.Base
	world *policy.World
	et    map[[2]int]*policy.AverageVar
	av    []policy.Average
	want  map[int64]float64
	tier  [5]int // sends per tier: host, host capped, anonymous, version, conservative
	t     *testing.T
	n     int
}

func (c *estimateChecker) Init(w *policy.World) {
	c.world, c.et, c.av, c.want = w, map[[2]int]*policy.AverageVar{}, make([]policy.Average, len(w.Versions)), map[int64]float64{}
}
func (c *estimateChecker) Validated(*policy.Validation) float64 { return 0 }
func (c *estimateChecker) Scale() float64                       { return 200 }

func (c *estimateChecker) Sent(r *policy.Result) {
	v := &c.world.Versions[r.VersionID]
	peak := r.FlopsEstimate
	var flops float64
	et := c.et[[2]int{int(r.HostID), int(r.VersionID)}]
	switch {
	case et != nil && et.N > 10 && et.Avg > 0:
		flops = 1 / et.Avg
		c.tier[0]++
		if flops > 250*peak {
			flops = 250 * peak
			c.tier[1]++
		}
	case v.Anonymous:
		flops = peak
		c.tier[2]++
	case c.av[r.VersionID].N > 100 && c.av[r.VersionID].Avg > 0:
		flops = peak / c.av[r.VersionID].Avg
		c.tier[3]++
	default:
		flops = r.HostPFpops * (v.CPUUsage + 10*v.GPUUsage)
		c.tier[4]++
	}
	c.want[r.ID] = r.RscFpopsEst / flops
}

func (c *estimateChecker) ResultDone(rec *sim.Record) {
	r := rec.View
	if want := c.want[r.ID]; rec.EstRuntime != want {
		c.t.Fatalf("result %d (version %d, host %d): estimated runtime %.17g, want %.17g", r.ID, r.VersionID, r.HostID, rec.EstRuntime, want)
	}
	c.n++
	outlier := r.RuntimeOutlier || r.FlopsEstimate <= 0 || r.FlopsEstimate == 1e9
	if r.ValidateState != policy.Valid || outlier {
		return
	}
	k := [2]int{int(r.HostID), int(r.VersionID)}
	if c.et[k] == nil {
		c.et[k] = &policy.AverageVar{}
	}
	c.et[k].Update(r.ElapsedTime/r.RscFpopsEst, policy.HAVParams)
	if x := r.ElapsedTime * r.FlopsEstimate / r.RscFpopsEst; !c.world.Versions[r.VersionID].Anonymous && x >= 1e-4 && x <= 1e4 {
		c.av[r.VersionID].Update(x, policy.AVParams)
	}
}
func (c *estimateChecker) Day(*sim.DayState) {}

// TestRuntimeEstimateTiers: every job's runtime estimate is rsc_fpops_est
// over the scheduler's projected speed (estimate_flops): the host's own
// elapsed-time statistics after more than 10 samples, at most 250 x peak;
// for an anonymous-platform version, otherwise its stated peak; for a
// version with more than 100 PFC samples, peak over its mean PFC ratio;
// otherwise p_fpops x (CPUs + 10 x GPUs used). Each tier is exercised.
func TestRuntimeEstimateTiers(t *testing.T) {
	slowInShort(t)
	t.Parallel()
	s, err := scenarios.Load("estimates.yaml", []byte(estimateWorld), nil)
	if err != nil {
		t.Fatal(err)
	}
	c := &estimateChecker{t: t}
	cfg, err := world.Config(s, 0, c)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Policies = []policy.Policy{c}
	sim.New(cfg).Run(nil)
	t.Logf("%d results checked; sends by tier: host %d (capped %d), anonymous %d, version %d, conservative %d",
		c.n, c.tier[0], c.tier[1], c.tier[2], c.tier[3], c.tier[4])
	for k, n := range c.tier {
		if n < 10 {
			t.Errorf("tier %d exercised only %d times", k, n)
		}
	}
}

// outcomeCount counts results by app and outcome, and sums the
// estimated runtime of the jobs of each reply (host, send time).
type outcomeCount struct {
	n     map[[2]int]int
	reply map[replyKey]replySum
}

type replyKey struct {
	host int
	sent float64
}

type replySum struct {
	jobs int
	est  float64
}

func (o *outcomeCount) ResultDone(r *sim.Record) {
	o.n[[2]int{int(r.View.AppID), int(r.View.Outcome)}]++
	k := replyKey{int(r.View.HostID), r.View.SentTime}
	x := o.reply[k]
	x.jobs++
	x.est += r.EstRuntime
	o.reply[k] = x
}
func (o *outcomeCount) Day(*sim.DayState) {}

func (o *outcomeCount) noReply(app int) float64 {
	all := 0
	for k, n := range o.n {
		if k[0] == app {
			all += n
		}
	}
	return float64(o.n[[2]int{app, int(policy.NoReply)}]) / float64(all)
}

// longestReply is the most estimated work of one reply of two jobs or more.
func (o *outcomeCount) longestReply() float64 {
	m := 0.0
	for _, r := range o.reply {
		if r.jobs >= 2 {
			m = math.Max(m, r.est)
		}
	}
	return m
}

func runCounting(t *testing.T, yaml string, sets ...string) (*sim.Sim, *outcomeCount) {
	t.Helper()
	s, err := scenarios.Load("dispatch.yaml", []byte(yaml), append([]string{"policies=[v1peak]"}, sets...))
	if err != nil {
		t.Fatal(err)
	}
	o := &outcomeCount{n: map[[2]int]int{}, reply: map[replyKey]replySum{}}
	return runObserved(t, s, o), o
}

// longJobs: one-core hosts that are always on and want three days of
// work, of jobs of about 8 hours with a one-day deadline.
const longJobs = `
name: long-jobs
replications: 1
duration: 12d
warmup: 1d
hosts:
  initial: 100
  arrivals_per_day: 0
  lifetime: 1000d
  platforms: [{name: linux, share: 1}]
  availability: {model: always}
  cpu: {cores: 1, whetstone_gflops: {dist: const, mean: 4}}
  error_rate: 0
  invalid_rate: 0
  runtime_noise: 0
  work_buffer: 3d
  work_buffer_min: 2d
projects:
  - name: p
    apps:
      - name: a
        rsc_fpops_est: 5.76e13
        size_error: 1
        delay_bound: 1d
        min_quorum: 1
        target_nresults: 1
        versions:
          - {name: cpu, platform: linux, efficiency: {dist: const, mean: 0.5}}
`

// TestDeadlineCheck: clients that ask for more work than their deadlines
// allow. From the second job on, the scheduler adds a job to a reply only
// while the delay the client reports plus the jobs already added and the
// job itself stay within the delay bound, so no reply of two jobs or
// more carries more estimated work than the bound (on these always-on
// one-core hosts); with the check off (ignore_delay_bound) replies carry
// days, and more jobs time out.
func TestDeadlineCheck(t *testing.T) {
	t.Parallel()
	x, on := runCounting(t, longJobs)
	y, off := runCounting(t, longJobs, "server.ignore_delay_bound=true")
	t.Logf("with the check: %d jobs refused, largest reply %.3g d, timed out %.3f; without: largest reply %.3g d, timed out %.3f",
		x.DeadlineRefusals(), on.longestReply()/86400, on.noReply(0), off.longestReply()/86400, off.noReply(0))
	if x.DeadlineRefusals() == 0 || y.DeadlineRefusals() != 0 {
		t.Errorf("refusals: %d with the check, %d without", x.DeadlineRefusals(), y.DeadlineRefusals())
	}
	if on.longestReply() > 86400*(1+1e-9) || !(off.longestReply() > 2*86400) {
		t.Errorf("largest reply: %.4g s with the check (bound 86400), %.4g s without", on.longestReply(), off.longestReply())
	}
	if !(on.noReply(0) < 0.85*off.noReply(0)) {
		t.Errorf("timed-out share %.3f with the check against %.3f without", on.noReply(0), off.noReply(0))
	}
}

// twoDeadlines: a long-deadline app fills each one-core client with a
// day and a half of work; a second app's jobs have half a day.
const twoDeadlines = `
name: two-deadlines
replications: 1
duration: 12d
warmup: 1d
server: {ignore_delay_bound: true}
hosts:
  initial: 100
  arrivals_per_day: 0
  lifetime: 1000d
  platforms: [{name: linux, share: 1}]
  availability: {model: always}
  cpu: {cores: 1, whetstone_gflops: {dist: const, mean: 4}}
  error_rate: 0
  invalid_rate: 0
  runtime_noise: 0
  work_buffer: 1.5d
  work_buffer_min: 1d
projects:
  - name: p
    apps:
      - name: long
        weight: 4
        rsc_fpops_est: 2.88e13
        size_error: 1
        delay_bound: 10d
        min_quorum: 1
        target_nresults: 1
        versions: [{name: cpu, platform: linux, efficiency: {dist: const, mean: 0.5}}]
      - name: short
        weight: 1
        rsc_fpops_est: 7.2e12
        size_error: 1
        delay_bound: 12h
        min_quorum: 1
        target_nresults: 1
        versions: [{name: cpu, platform: linux, efficiency: {dist: const, mean: 0.5}}]
`

// TestDeadlineDangerRunsFirst: the client runs jobs its simulation
// predicts will miss their deadlines first, earliest deadline first. A
// short-deadline job arrives behind at least a day of long-deadline
// work, so in list order almost every one would time out; run first,
// almost none does.
func TestDeadlineDangerRunsFirst(t *testing.T) {
	t.Parallel()
	_, o := runCounting(t, twoDeadlines)
	t.Logf("timed out: %.3f of the long-deadline jobs, %.3f of the short", o.noReply(0), o.noReply(1))
	if !(o.noReply(1) < 0.1) || !(o.noReply(0) < 0.1) {
		t.Errorf("timed-out shares %.3f (long) and %.3f (short)", o.noReply(0), o.noReply(1))
	}
}
