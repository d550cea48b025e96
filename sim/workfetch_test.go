package sim_test

import (
	"testing"

	"github.com/creditsim/creditsim/policy"

	"github.com/creditsim/creditsim/scenarios"
	"github.com/creditsim/creditsim/sim"
)

// busyObserver sums the device time of the results that ended within
// [from, to).
type busyObserver struct {
	from, to, deviceSeconds float64
}

func (o *busyObserver) ResultDone(r *sim.Record) {
	if r.Time >= o.from && r.Time < o.to {
		o.deviceSeconds += r.DeviceSeconds
	}
}
func (o *busyObserver) Day(*sim.DayState) {}

// mixedSizes: eight-core hosts, always on, whose jobs are of two sizes
// the estimate does not tell apart (a fifth run four times as long).
const mixedSizes = `
name: mixed-sizes
replications: 1
duration: 14d
warmup: 2d
hosts:
  initial: 40
  arrivals_per_day: 0
  lifetime: 1000d
  platforms: [{name: linux, share: 1}]
  availability: {model: always}
  cpu: {cores: 8, whetstone_gflops: {dist: const, mean: 4}}
  error_rate: 0
  invalid_rate: 0
projects:
  - name: p
    apps:
      - name: a
        rsc_fpops_est: 2.88e13
        size_classes: [{share: 0.8, factor: 1}, {share: 0.2, factor: 4}]
        delay_bound: 3d
        min_quorum: 1
        target_nresults: 1
        versions: [{name: cpu, platform: linux, efficiency: {dist: const, mean: 0.5}}]
`

// TestNoIdleCPUsWithWorkToFetch: the client asks for work as soon as one
// of its instances would go idle within work_buffer_min, counting what
// running jobs have left, not their whole estimates, and not on average
// over the host's CPUs (BOINC's work fetch: saturated time and
// shortfall). With work always there and hosts always on, CPUs are busy
// all the time work is sent. Counting a running job's whole estimate,
// or the host's work on average, let a CPU that finished its job idle
// while the others ran long ones: here 13% of the time.
func TestNoIdleCPUsWithWorkToFetch(t *testing.T) {
	t.Parallel()
	s, err := scenarios.Load("mixed-sizes.yaml", []byte(mixedSizes), []string{"policies=[v1peak]"})
	if err != nil {
		t.Fatal(err)
	}
	from, to := float64(s.Warmup), float64(s.Duration)-3*86400
	o := &busyObserver{from: from, to: to}
	runObserved(t, s, o)
	busy := o.deviceSeconds / (40 * 8 * (to - from))
	t.Logf("CPUs busy %.4f of the time work is sent", busy)
	if !(busy > 0.99) {
		t.Errorf("CPUs busy %.4f of the time; want above 0.99", busy)
	}
}

// driftObserver records the largest drift of the hosts' queued work
// seen at a day's end, the most jobs queued then, and the results that
// timed out.
type driftObserver struct {
	worst            float64
	queued, timedOut int
}

func (o *driftObserver) ResultDone(r *sim.Record) {
	if r.View.Outcome == policy.NoReply {
		o.timedOut++
	}
}
func (o *driftObserver) Day(d *sim.DayState) {
	o.worst = max(o.worst, d.Sim.QueuedWorkDrift())
	q, _, _ := d.Sim.HostJobs()
	o.queued = max(o.queued, q)
}

// TestQueuedWorkKept: the client's running sum of its queued work, which
// the work fetch reads instead of a pass over the queue, stays the sum
// over the queue as jobs are sent, started and timed out while queued (a
// one-day deadline behind days of work, on hosts off half the time).
func TestQueuedWorkKept(t *testing.T) {
	t.Parallel()
	s, err := scenarios.Load("long-jobs.yaml", []byte(longJobs), []string{"policies=[v1peak]", "server.ignore_delay_bound=true",
		"hosts.availability={model: on_fraction, on_fraction: 0.5, period: 2d}"})
	if err != nil {
		t.Fatal(err)
	}
	o := &driftObserver{}
	runObserved(t, s, o)
	t.Logf("largest drift at a day's end: %.3g; at most %d jobs queued; %d timed out", o.worst, o.queued, o.timedOut)
	if o.queued == 0 || o.timedOut == 0 {
		t.Error("no job queued at a day's end, or none timed out: the check saw nothing")
	}
	if !(o.worst < 1e-9) {
		t.Errorf("queued work drifted from the queue's sum by %.3g", o.worst)
	}
}

// TestHostCallsAgainAfterTimeouts: a client whose jobs all time out (a
// one-day deadline behind three days of work, the server's deadline
// check off) drops them, and with its queue empty asks for more; before,
// its calls came only at a job's end, so it never called again.
func TestHostCallsAgainAfterTimeouts(t *testing.T) {
	t.Parallel()
	s, err := scenarios.Load("long-jobs.yaml", []byte(longJobs), []string{"policies=[v1peak]", "server.ignore_delay_bound=true"})
	if err != nil {
		t.Fatal(err)
	}
	_, rec := runScenario(t, s)
	late := 0
	for _, r := range rec.sent {
		if r.SentTime > 1.5*86400 {
			late++
		}
	}
	// 100 one-core hosts run 3 jobs a day each: 10 days bring thousands.
	t.Logf("%d results sent, %d after day 1.5", len(rec.sent), late)
	if late < 1000 {
		t.Errorf("%d results sent after day 1.5, want the hosts to keep asking", late)
	}
}
