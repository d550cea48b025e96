package sim_test

import (
	"math"
	"slices"
	"testing"

	"github.com/creditsim/creditsim/model/hosts"
	"github.com/creditsim/creditsim/policy"
	"github.com/creditsim/creditsim/scenarios"
	"github.com/creditsim/creditsim/sim"
	"github.com/creditsim/creditsim/world"
)

// recorder is a policy that grants nothing and remembers what the server
// showed it: the dispatch rules are observable only through the events.
type recorder struct {
	policy.Base
	world *policy.World
	sent  []policy.Result // a copy of each result as sent
	// perWU counts the results sent per workunit.
	perWU map[int64]int
}

func (r *recorder) Init(w *policy.World)                 { r.world, r.perWU = w, map[int64]int{} }
func (r *recorder) Validated(*policy.Validation) float64 { return 0 }
func (r *recorder) Scale() float64                       { return 200 }
func (r *recorder) Sent(x *policy.Result) {
	r.sent = append(r.sent, *x)
	r.perWU[x.WorkunitID]++
}

// runRecorded runs replication 0 of the built-in baseline with overrides
// and a recorder as the only policy.
func runRecorded(t *testing.T, overrides ...string) (*sim.Sim, *recorder) {
	t.Helper()
	s, err := scenarios.Open("baseline", append([]string{"policies=[v1peak]"}, overrides...))
	if err != nil {
		t.Fatal(err)
	}
	return runScenario(t, s)
}

func runScenario(t *testing.T, s *scenarios.Scenario) (*sim.Sim, *recorder) {
	t.Helper()
	rec := &recorder{}
	return runWith(t, s, rec), rec
}

// runWith runs replication 0 of s with p as its only policy.
func runWith(t *testing.T, s *scenarios.Scenario, p policy.Policy) *sim.Sim {
	t.Helper()
	cfg, err := world.Config(s, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Policies = []policy.Policy{p}
	x := sim.New(cfg)
	x.Run(nil)
	return x
}

// TestDailyQuotaThrottlesFailingHosts: with every job ending in a client
// error, each error takes one off max_jobs_per_day until it is 1, and 1
// stays 1 (not x CPUs): after that a host gets at most one job per version
// per day (CREDIT-SPEC 10).
func TestDailyQuotaThrottlesFailingHosts(t *testing.T) {
	t.Parallel()
	_, rec := runRecorded(t, "hosts.initial=150", "hosts.arrivals_per_day=0", "duration=12d", "warmup=1d", "projects[0].apps[0].delay_bound=2d",
		"hosts.error_rate={dist: const, mean: 1}", "server.daily_result_quota=4", "hosts.availability.model=always")
	perHostDay := map[[2]int]int{}
	lastMJD := map[int]int{}
	for _, r := range rec.sent {
		day := int(r.SentTime / 86400)
		if day >= 6 {
			perHostDay[[2]int{int(r.HostID), day}]++
		}
		if day >= 6 {
			lastMJD[int(r.HostID)] = int(r.HAV.MaxJobsPerDay)
		}
	}
	if len(perHostDay) == 0 {
		t.Fatal("no jobs sent after day 6")
	}
	for k, n := range perHostDay {
		if n > 1 {
			t.Errorf("host %d got %d jobs on day %d with max_jobs_per_day 1", k[0], n, k[1])
		}
	}
	for h, m := range lastMJD {
		if m != 1 {
			t.Errorf("host %d: max_jobs_per_day %d at a send after day 6, want 1", h, m)
		}
	}
}

// TestDailyQuotaGrowsForGoodHosts: valid results add one to
// max_jobs_per_day with no cap, so healthy hosts end above the quota.
func TestDailyQuotaGrowsForGoodHosts(t *testing.T) {
	t.Parallel()
	// The delay bound stays at 7 days, so that no result times out (a
	// timeout is an error); duration covers warm-up plus the bound.
	_, rec := runRecorded(t, "hosts.initial=100", "duration=9d", "warmup=1d",
		"hosts.error_rate={dist: const, mean: 0}", "hosts.invalid_rate={dist: const, mean: 0}", "server.daily_result_quota=4")
	last := map[int]policy.Result{}
	for _, r := range rec.sent {
		last[int(r.HostID)] = r
	}
	above := 0
	for _, r := range last {
		if r.HAV.MaxJobsPerDay < 4 && r.HAV.MaxJobsPerDay != 0 {
			t.Errorf("host %d: max_jobs_per_day %d below the quota without errors", r.HostID, r.HAV.MaxJobsPerDay)
		}
		if r.HAV.MaxJobsPerDay > 4 {
			above++
		}
	}
	if above < len(last)/2 {
		t.Errorf("only %d of %d hosts above the quota after 8 days of valid results", above, len(last))
	}
}

// TestNoSendsInTheLastDelayBound: work stops being sent one delay bound
// (the longest of the apps) before the end, so every result sent can
// resolve (DESIGN section 10).
func TestNoSendsInTheLastDelayBound(t *testing.T) {
	t.Parallel()
	_, rec := runRecorded(t, "hosts.initial=50", "duration=6d", "warmup=1d", "projects[0].apps[0].delay_bound=2d")
	last := 0.0
	for _, r := range rec.sent {
		last = math.Max(last, r.SentTime)
	}
	if last >= 4*86400 || last < 3.9*86400 {
		t.Errorf("last send at %.4g d, want just before day 4", last/86400)
	}
}

// TestAdaptiveReplication: a workunit goes out once only to a host with
// at least 10 consecutive valid (replicated) results, and once hosts are
// trusted most workunits go out once.
func TestAdaptiveReplication(t *testing.T) {
	slowInShort(t)
	t.Parallel()
	_, rec := runRecorded(t, "hosts.initial=200", "duration=20d", "warmup=1d",
		"hosts.error_rate={dist: const, mean: 0}", "hosts.invalid_rate={dist: const, mean: 0}",
		"projects[0].apps[0].adaptive_replication=true")
	single, late := 0, 0
	for _, r := range rec.sent {
		if rec.perWU[r.WorkunitID] != 1 {
			continue
		}
		if r.HAV.ConsecutiveValid < 10 {
			t.Fatalf("workunit %d sent once to host %d with %d consecutive valid", r.WorkunitID, r.HostID, r.HAV.ConsecutiveValid)
		}
		single++
		if r.SentTime > 15*86400 {
			late++
		}
	}
	n15 := 0
	for _, r := range rec.sent {
		if r.SentTime > 15*86400 {
			n15++
		}
	}
	if single == 0 || float64(late) < 0.3*float64(n15) {
		t.Errorf("%d unreplicated results in all, %d of the %d sent after day 15", single, late, n15)
	}
}

// TestPerfInfoCap: a reported Whetstone far above the population is
// capped at 1.1 x the 95th percentile when flops_estimate is fixed; honest
// hosts below the cap keep their own speed.
func TestPerfInfoCap(t *testing.T) {
	t.Parallel()
	x, rec := runRecorded(t, "hosts.initial=300", "duration=3d", "warmup=1d", "projects[0].apps[0].delay_bound=1d",
		"hosts.agents=[{kind: benchmark_inflation, share: 0.05, k: 20}]")
	var honest []float64
	for _, h := range x.Hosts() {
		if h.Behaviour.Kind.String() == "honest" {
			honest = append(honest, h.Whetstone)
		}
	}
	maxHonest := 0.0
	for _, v := range honest {
		maxHonest = math.Max(maxHonest, v)
	}
	own, capped := 0, 0
	for _, r := range rec.sent {
		perCPU := r.FlopsEstimate // CPU versions use one CPU
		if r.HostPFpops > 5*maxHonest {
			if perCPU > 1.1*maxHonest {
				t.Fatalf("inflated host %d: flops_estimate %.3g above 1.1 x the fastest honest host %.3g", r.HostID, perCPU, maxHonest)
			}
			capped++
		} else if perCPU == r.HostPFpops {
			own++
		}
	}
	if capped == 0 || own < len(rec.sent)/2 {
		t.Errorf("%d capped results, %d of %d at the host's own speed", capped, own, len(rec.sent))
	}
}

// TestAnonymousPlatform: the share of hosts set by anonymous_share run the
// anonymous version and only it; the others never get it.
func TestAnonymousPlatform(t *testing.T) {
	slowInShort(t)
	t.Parallel()
	const y = `
name: anon
duration: 4d
warmup: 1d
hosts:
  initial: 400
  platforms: [{name: linux, share: 1}]
projects:
  - name: p
    apps:
      - name: a
        rsc_fpops_est: 1e13
        delay_bound: 2d
        versions:
          - {name: stock, platform: linux}
          - {name: app_info, platform: linux, anonymous: true, anonymous_share: 0.25}
`
	s, err := scenarios.Load("anon.yaml", []byte(y), []string{"policies=[v1peak]"})
	if err != nil {
		t.Fatal(err)
	}
	x, rec := runScenario(t, s)
	anon := map[int]bool{}
	seen := map[int]bool{}
	for _, r := range rec.sent {
		a := x.World().Versions[r.VersionID].Anonymous
		if seen[int(r.HostID)] && anon[int(r.HostID)] != a {
			t.Fatalf("host %d got both anonymous and stock versions", r.HostID)
		}
		seen[int(r.HostID)], anon[int(r.HostID)] = true, a
	}
	n := 0
	for h := range seen {
		if anon[h] {
			n++
		}
	}
	if f := float64(n) / float64(len(seen)); f < 0.17 || f > 0.33 {
		t.Errorf("%d of %d hosts anonymous (%.2f), want about 0.25", n, len(seen), f)
	}
}

// TestResourceShare: hosts attached to two projects with shares 3:1 give
// them device time in about that ratio.
func TestResourceShare(t *testing.T) {
	slowInShort(t)
	t.Parallel()
	const y = `
name: share
duration: 10d
warmup: 1d
hosts: {initial: 200, platforms: [{name: linux, share: 1}]}
projects:
  - name: big
    resource_share: 300
    apps: [{name: a, rsc_fpops_est: 1e13, delay_bound: 2d, versions: [{platform: linux}]}]
  - name: small
    resource_share: 100
    apps: [{name: b, rsc_fpops_est: 1e13, delay_bound: 1d, versions: [{platform: linux}]}]
`
	s, err := scenarios.Load("share.yaml", []byte(y), []string{"policies=[v1peak]"})
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := world.Config(s, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	c := &deviceTime{}
	cfg.Observer = c
	sim.New(cfg).Run(nil)
	ratio := c.byProject[0] / c.byProject[1]
	if ratio < 2.6 || ratio > 3.4 {
		t.Errorf("device time big/small = %.3f, want about 3", ratio)
	}
}

type deviceTime struct{ byProject [2]float64 }

func (d *deviceTime) ResultDone(r *sim.Record) { d.byProject[r.View.ProjectID] += r.DeviceSeconds }
func (d *deviceTime) Day(*sim.DayState)        {}

// reportRecorder also keeps each reported result.
type reportRecorder struct {
	recorder
	reported []policy.Result
}

func (r *reportRecorder) Reported(x *policy.Result) { r.reported = append(r.reported, *x) }

// TestAgentsAtTheServer: a cherry picker's long jobs come back aborted
// after its threshold and its completed ones are short; a one_time_claim
// host's absurd GPU peak appears in exactly one flops_estimate.
func TestAgentsAtTheServer(t *testing.T) {
	t.Parallel()
	s, err := scenarios.Open("baseline", []string{"policies=[v1peak]", "hosts.initial=120", "duration=8d", "warmup=1d",
		"projects[0].apps[0].delay_bound=2d", "hosts.error_rate={dist: const, mean: 0}",
		"projects[0].apps[0].size_classes=[{share: 0.8, factor: 1}, {share: 0.2, factor: 8}]",
		"hosts.agents=[{kind: cherry_picker, share: 0.3, threshold: 8h}]"})
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := world.Config(s, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	rec := &reportRecorder{}
	cfg.Policies = []policy.Policy{rec}
	x := sim.New(cfg)
	x.Run(nil)
	hs := x.Hosts()
	aborted, okLong := 0, 0
	for _, r := range rec.reported {
		picker := hs[r.HostID].Behaviour.Kind.String() == "cherry_picker"
		switch {
		case r.Outcome == policy.Aborted:
			if !picker || math.Abs(r.ElapsedTime-8*3600) > 1 {
				t.Fatalf("host %d (picker %v) aborted after %.0f s", r.HostID, picker, r.ElapsedTime)
			}
			aborted++
		case picker && r.Outcome == policy.Success && r.ElapsedTime > 8*3600:
			okLong++
		}
	}
	if aborted == 0 || okLong > 0 {
		t.Errorf("%d aborted, %d completed past the threshold", aborted, okLong)
	}
}

func TestOneTimeClaimAtTheServer(t *testing.T) {
	t.Parallel()
	_, rec := runRecorded(t, "hosts.initial=150", "duration=5d", "warmup=1d", "projects[0].apps[0].delay_bound=1d",
		"hosts.agents=[{kind: one_time_claim, share: 0.1, channel: cpu_benchmark, claim: 1e304, at: 2d}]")
	perHost := map[int]int{}
	for _, r := range rec.sent {
		if r.HostPFpops == 1e304 {
			perHost[int(r.HostID)]++
			if r.SentTime < 2*86400 || r.FlopsEstimate > 1e11 {
				t.Fatalf("claim at %.0f s with flops_estimate %g (the server caps the CPU speed)", r.SentTime, r.FlopsEstimate)
			}
		}
	}
	if len(perHost) < 5 {
		t.Fatalf("only %d hosts made a one-time claim", len(perHost))
	}
	for h, n := range perHost {
		if n != 1 {
			t.Errorf("host %d made %d claims", h, n)
		}
	}
}

// idCheck fails on a result finished twice or with a non-finite truth.
type idCheck struct {
	t    *testing.T
	seen map[int64]bool
	n    int
}

func (c *idCheck) ResultDone(r *sim.Record) {
	c.n++
	if c.seen[r.View.ID] {
		c.t.Fatalf("result %d finished twice", r.View.ID)
	}
	c.seen[r.View.ID] = true
	for _, x := range []float64{r.Flops, r.Runtime, r.DeviceSeconds, r.EstRuntime} {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			c.t.Fatalf("result %d: non-finite truth %+v", r.View.ID, *r)
		}
	}
}
func (c *idCheck) Day(*sim.DayState) {}

// TestResultSlotsAreNotReusedWhileInUse: results cancelled in the feeder
// (their workunit was validated or failed before they were sent) are freed
// only when the feeder reaches them. Freeing them twice handed a slot to
// two results at once, which showed as NaN runtimes; this run, with
// errors, spare replicas and long off periods, used to trigger it.
func TestResultSlotsAreNotReusedWhileInUse(t *testing.T) {
	t.Parallel()
	slowInShort(t)
	s, err := scenarios.Open("baseline", []string{"policies=[v1peak]", "hosts.initial=300", "duration=25d", "warmup=2d",
		"hosts.error_rate={dist: const, mean: 0.1}", "projects[0].apps[0].target_nresults=3",
		"hosts.availability.off_period={dist: lognormal, mean: 1d, cv: 3}"})
	if err != nil {
		t.Fatal(err)
	}
	c := &idCheck{t: t, seen: map[int64]bool{}}
	cfg, err := world.Config(s, 0, c)
	if err != nil {
		t.Fatal(err)
	}
	sim.New(cfg).Run(nil)
	if c.n < 10000 {
		t.Errorf("only %d results finished", c.n)
	}
}

// inProgress counts each host's jobs sent and not yet reported, at every
// send; with report_delay 0 and no errors, timeouts or departures that is
// exactly the jobs queued or running.
type inProgress struct {
	recorder
	held, peak map[int]int
}

func (p *inProgress) Init(w *policy.World) {
	p.recorder.Init(w)
	p.held, p.peak = map[int]int{}, map[int]int{}
}
func (p *inProgress) Sent(x *policy.Result) {
	p.held[int(x.HostID)]++
	p.peak[int(x.HostID)] = max(p.peak[int(x.HostID)], p.held[int(x.HostID)])
}
func (p *inProgress) Reported(x *policy.Result) { p.held[int(x.HostID)]-- }

// TestMaxJobsInProgress: max_wus_in_progress N holds a host to N jobs
// queued or running per CPU core, and the limit binds (hosts reach it);
// without it the same hosts hold more.
func TestMaxJobsInProgress(t *testing.T) {
	t.Parallel()
	peaks := func(limit string) (map[int]int, []*hosts.Host) {
		s, err := scenarios.Open("baseline", []string{"policies=[v1peak]", "hosts.initial=60", "hosts.arrivals_per_day=0",
			"duration=6d", "warmup=1d", "projects[0].apps[0].delay_bound=2d", "hosts.availability.model=always", "hosts.error_rate={dist: const, mean: 0}",
			"hosts.report_delay=0s", "server.max_jobs_in_progress=" + limit})
		if err != nil {
			t.Fatal(err)
		}
		cfg, err := world.Config(s, 0, nil)
		if err != nil {
			t.Fatal(err)
		}
		rec := &inProgress{}
		cfg.Policies = []policy.Policy{rec}
		x := sim.New(cfg)
		x.Run(nil)
		return rec.peak, x.Hosts()
	}
	limited, hs := peaks("1")
	atLimit := 0
	for id, n := range limited {
		switch c := hs[id].NCPUs; {
		case n > c:
			t.Errorf("host %d with %d cores held %d jobs under a limit of 1 per core", id, c, n)
		case n == c:
			atLimit++
		}
	}
	free, _ := peaks("0")
	above := 0
	for id, n := range free {
		if n > hs[id].NCPUs {
			above++
		}
	}
	t.Logf("limit 1 per core: %d of %d hosts reach it; no limit: %d hold more", atLimit, len(limited), above)
	if len(limited) == 0 || atLimit < len(limited)/2 || above < len(free)/2 {
		t.Errorf("%d hosts at the limit, %d above it without one: the limit does not bind", atLimit, above)
	}
}

// TestOneResultPerWorkunit: with one_result_per_user_per_wu no two
// results of a workunit go to hosts of the same user, even when every
// user owns many hosts and so could otherwise get both replicas and
// validate their own work; with one_result_per_host_per_wu alone, no two
// go to one host, but two hosts of a user may have them; with both off
// (make_project's config.xml), one host may get two.
func TestOneResultPerWorkunit(t *testing.T) {
	slowInShort(t)
	t.Parallel()
	for _, c := range []struct {
		sets               []string
		sameUser, sameHost bool // may happen
	}{
		{[]string{"server.one_result_per_user_per_wu=true"}, false, false},
		{[]string{"server.one_result_per_user_per_wu=false", "server.one_result_per_host_per_wu=true"}, true, false},
		{[]string{"server.one_result_per_user_per_wu=false"}, true, true},
	} {
		_, rec := runRecorded(t, append([]string{"hosts.initial=200", "duration=10d", "warmup=1d",
			"hosts.hosts_per_user={dist: const, mean: 20}"}, c.sets...)...)
		users := map[int64]map[int32]int{}
		hosts := map[int64]map[int32]int{}
		replicated, sameUser, sameHost := 0, 0, 0
		for _, r := range rec.sent {
			if users[r.WorkunitID] == nil {
				users[r.WorkunitID], hosts[r.WorkunitID] = map[int32]int{}, map[int32]int{}
			}
			u, h := users[r.WorkunitID], hosts[r.WorkunitID]
			if u[r.UserID]++; u[r.UserID] == 2 {
				sameUser++
			}
			if h[r.HostID]++; h[r.HostID] == 2 {
				sameHost++
			}
			if len(u) == 2 {
				replicated++
			}
		}
		t.Logf("%v: %d results sent, %d workunits with two users, %d with two results on one user, %d on one host",
			c.sets, len(rec.sent), replicated, sameUser, sameHost)
		if !c.sameUser && sameUser > 0 || !c.sameHost && sameHost > 0 {
			t.Errorf("%v: %d workunits with two results on one user, %d on one host", c.sets, sameUser, sameHost)
		}
		if c.sameUser && sameUser == 0 || c.sameHost && sameHost == 0 {
			t.Errorf("%v: the case is not exercised: %d on one user, %d on one host", c.sets, sameUser, sameHost)
		}
		// Vacuous unless replicas really went out among few users.
		if replicated < 500 || len(rec.sent) < 2000 {
			t.Errorf("%v: %d results sent, %d workunits with two users", c.sets, len(rec.sent), replicated)
		}
	}
}

// perReply counts the jobs of each reply: results sent to one host at
// one time.
func perReply(rec *recorder) map[[2]float64]int {
	n := map[[2]float64]int{}
	for _, r := range rec.sent {
		n[[2]float64{float64(r.HostID), r.SentTime}]++
	}
	return n
}

// TestReplyLimit: a reply holds at most max_wus_to_send x the CPUs the
// host reports (at most max_ncpus of them), as get_job_limits sets
// max_jobs_per_rpc; an ncpus inflator reporting twice its 4 CPUs gets
// twice as many; max_wus_to_send 0 is no limit.
func TestReplyLimit(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		sets             []string
		honest, inflator int // the most jobs in one reply
		unlimited        bool
	}{
		{[]string{"server.max_wus_to_send=1"}, 4, 8, false},
		{[]string{"server.max_wus_to_send=2", "server.max_ncpus=3"}, 6, 6, false},
		{[]string{"server.max_wus_to_send=0"}, 0, 0, true},
	} {
		_, rec := runRecorded(t, append([]string{"hosts.initial=60", "hosts.arrivals_per_day=0", "duration=9d", "warmup=1d",
			"hosts.cpu.cores={dist: const, mean: 4}", "hosts.availability.model=always",
			"hosts.agents=[{kind: ncpus_inflation, share: 0.5, k: 2}]"}, c.sets...)...)
		most := map[bool]int{}
		reported := map[int32]int32{}
		for _, r := range rec.sent {
			reported[r.HostID] = r.HostNCPUs
		}
		for k, n := range perReply(rec) {
			inflator := reported[int32(k[0])] == 8
			most[inflator] = max(most[inflator], n)
		}
		t.Logf("%v: the most jobs in one reply: %d (honest), %d (inflators)", c.sets, most[false], most[true])
		switch {
		case c.unlimited && most[false] <= 8:
			t.Errorf("%v: no reply above 8 jobs without a limit (the most: %d): the case is not exercised", c.sets, most[false])
		case !c.unlimited && (most[false] != c.honest || most[true] != c.inflator):
			t.Errorf("%v: the most jobs in one reply %d (honest), %d (inflators); want %d, %d", c.sets, most[false], most[true], c.honest, c.inflator)
		}
	}
}

// TestDailyQuotaScalesWithReportedCPUs: a (host, version)'s daily limit
// is max_jobs_per_day x the CPUs the host reports
// (scaled_max_jobs_per_day): the first reply, before any result has
// raised max_jobs_per_day, holds 2 x 4 jobs for an honest 4-CPU host and
// 2 x 8 for one that reports 8, though both ask for more.
func TestDailyQuotaScalesWithReportedCPUs(t *testing.T) {
	t.Parallel()
	_, rec := runRecorded(t, "hosts.initial=60", "hosts.arrivals_per_day=0", "duration=9d", "warmup=1d",
		"hosts.cpu.cores={dist: const, mean: 4}", "hosts.availability.model=always", "server.daily_result_quota=2",
		"server.max_wus_to_send=0", "hosts.work_buffer=2d", "hosts.agents=[{kind: ncpus_inflation, share: 0.5, k: 2}]")
	first := map[[2]int]int{}
	reported := map[int]int32{}
	for _, r := range rec.sent {
		if r.SentTime == 0 {
			first[[2]int{int(r.HostID), int(r.VersionID)}]++
		}
		reported[int(r.HostID)] = r.HostNCPUs
	}
	most := map[int32]int{}
	for k, n := range first {
		most[reported[k[0]]] = max(most[reported[k[0]]], n)
	}
	if most[4] != 8 || most[8] != 16 {
		t.Errorf("the most jobs of one version in the first reply: %d for 4 CPUs reported, %d for 8; want 8 and 16", most[4], most[8])
	}
}

// TestWorkArrayShares: each project's shmem_work_items slots are shared
// among its apps by weight, floor(0.5 + size x w / sum), at least one.
func TestWorkArrayShares(t *testing.T) {
	for _, c := range []struct {
		size     int
		weights  []float64
		projects []int
		want     []int
	}{
		{100, []float64{1}, []int{0}, []int{100}},
		{100, []float64{1, 3}, []int{0, 0}, []int{25, 75}},
		{100, []float64{1, 1, 1}, []int{0, 0, 0}, []int{33, 33, 33}},
		{10, []float64{1, 1000}, []int{0, 0}, []int{1, 10}},
		{100, []float64{1, 1}, []int{0, 1}, []int{100, 100}},
	} {
		got := sim.WorkArraySlots(c.size, c.weights, c.projects)
		if !slices.Equal(got, c.want) {
			t.Errorf("%d slots, weights %v, projects %v: %v, want %v", c.size, c.weights, c.projects, got, c.want)
		}
	}
}

// TestWorkArrayBoundsAReply: the scheduler scans each app's slots once
// per request, so a reply holds at most the app's slots, however many
// jobs the host asks for.
func TestWorkArrayBoundsAReply(t *testing.T) {
	t.Parallel()
	_, rec := runRecorded(t, "hosts.initial=40", "hosts.arrivals_per_day=0", "duration=9d", "warmup=1d",
		"hosts.availability.model=always", "server.max_wus_to_send=0", "server.shmem_work_items=3")
	most := 0
	for _, n := range perReply(rec) {
		most = max(most, n)
	}
	if most != 3 {
		t.Errorf("the most jobs in one reply: %d, want the 3 slots of the work array", most)
	}
}

// slowInShort skips a test of whole small worlds (a second or more on
// the 2-core machine) under -short, the quick tier that runs in about
// 20 s; go test without -short runs it.
func slowInShort(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("a whole small world, a second or more: go test without -short runs it")
	}
}
