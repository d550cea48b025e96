package sim_test

import (
	"math"
	"testing"

	"github.com/creditsim/creditsim/boinc"
	"github.com/creditsim/creditsim/policy"
	"github.com/creditsim/creditsim/scenarios"
	"github.com/creditsim/creditsim/sim"
	"github.com/creditsim/creditsim/world"
)

// timesTracer checks the times of every reported result against the
// scheduler's checks (boinc.CheckTimes; the baseline's versions are
// sequential).
type timesTracer struct {
	t                                            *testing.T
	reported, atLimit, atTurnaround, raised, bad int
}

// errorf reports the first few of many failures.
func (tr *timesTracer) errorf(format string, args ...any) {
	if tr.bad++; tr.bad <= 5 {
		tr.t.Errorf(format, args...)
	}
}

func (tr *timesTracer) Sent(*policy.Result)                     {}
func (tr *timesTracer) Validated(*policy.Validation, []float64) {}
func (tr *timesTracer) Tick(policy.Tick)                        {}
func (tr *timesTracer) Reported(r *policy.Result) {
	if r.Outcome == policy.NoReply {
		return
	}
	tr.reported++
	switch turnaround := math.Floor(r.ReceivedTime) - math.Floor(r.SentTime); {
	case r.ElapsedTime > turnaround:
		tr.errorf("result %d: elapsed %g s over its turnaround %g s", r.ID, r.ElapsedTime, turnaround)
	case r.ElapsedTime == turnaround:
		tr.atTurnaround++
	}
	rep := boinc.Report{Sequential: true, Sent: r.SentTime, Received: r.ReceivedTime, NCPUs: float64(r.HostNCPUs)}
	if e, c := boinc.CheckTimes(r.ElapsedTime, r.CPUTime, rep); e != r.ElapsedTime || c != r.CPUTime {
		tr.errorf("result %d: times %g, %g are not as the scheduler stores them (%g, %g)", r.ID, r.ElapsedTime, r.CPUTime, e, c)
	}
	switch limit := r.ElapsedTime * float64(r.HostNCPUs); {
	case r.CPUTime > limit:
		tr.errorf("result %d: CPU time %g s over elapsed x %d CPUs", r.ID, r.CPUTime, r.HostNCPUs)
	case r.CPUTime == limit && limit > 0:
		tr.atLimit++
	case r.CPUTime == r.ElapsedTime && r.CPUTime > 0:
		tr.raised++
	}
}

// TestReportedTimesClamped: the scheduler checks the times a host
// reports as BOINC's does, for the times the engine computes and for a
// cheater's, which it keeps aside. Here half the accounts inflate their
// runtimes (elapsed, or CPU time with an elapsed time of 0) and the
// version asks for more CPUs than any host has, so on a sequential
// version elapsed time is raised to the CPU time and then often clamped
// to the turnaround, where the CPU cap may bind; each case occurs (in
// 1% of the results or more).
func TestReportedTimesClamped(t *testing.T) {
	for _, agent := range []string{"{kind: runtime_inflation, share: 0.5, k: 3}", "{kind: runtime_inflation, share: 0.5, k: 3, report: cpu_time}"} {
		s, err := scenarios.Open("baseline", []string{"hosts.initial=25", "duration=8d", "warmup=0d", "replications=1", "policies=[v1peak]",
			"hosts.agents=[" + agent + "]",
			"projects[0].apps[0].versions[0].cpu_usage=1000", "projects[0].apps[0].versions[1].cpu_usage=1000"})
		if err != nil {
			t.Fatal(err)
		}
		cfg, err := world.Config(s, 0, nil)
		if err != nil {
			t.Fatal(err)
		}
		tr := &timesTracer{t: t}
		cfg.Tracer = tr
		sim.New(cfg).Run(nil)
		if tr.bad > 5 {
			t.Errorf("%s: and %d more", agent, tr.bad-5)
		}
		t.Logf("%s: %d results reported, %d with CPU time at the cap, %d with elapsed time at the turnaround, %d raised to the CPU time",
			agent, tr.reported, tr.atLimit, tr.atTurnaround, tr.raised)
		if tr.reported < 100 || tr.atLimit < tr.reported/100 || tr.atTurnaround < tr.reported/5 || tr.raised < tr.reported/100 {
			t.Errorf("%s: a check is not exercised", agent)
		}
	}
}
