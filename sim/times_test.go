package sim_test

import (
	"testing"

	"github.com/creditsim/creditsim/internal/runner"
	"github.com/creditsim/creditsim/policy"
	"github.com/creditsim/creditsim/scenarios"
	"github.com/creditsim/creditsim/sim"
)

// timesTracer checks the times of every reported result against the
// scheduler's clamps.
type timesTracer struct {
	t                      *testing.T
	reported, atLimit, bad int
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
	if turnaround := r.ReceivedTime - r.SentTime; r.ElapsedTime > turnaround {
		tr.errorf("result %d: elapsed %g s over its turnaround %g s", r.ID, r.ElapsedTime, turnaround)
	}
	switch limit := r.ElapsedTime * float64(r.HostNCPUs); {
	case r.CPUTime > limit:
		tr.errorf("result %d: CPU time %g s over elapsed x %d CPUs", r.ID, r.CPUTime, r.HostNCPUs)
	case r.CPUTime == limit && limit > 0:
		tr.atLimit++
	}
}

// TestReportedTimesClamped: the scheduler clamps the times a host
// reports, elapsed to the turnaround and CPU time to elapsed x the
// host's CPUs, for the times the engine computes and for a cheater's,
// which it keeps aside. Here every host inflates its runtimes and the
// version asks for more CPUs than any host has, so the CPU clamp binds
// on every success.
func TestReportedTimesClamped(t *testing.T) {
	s, err := scenarios.Open("baseline", []string{"hosts.initial=60", "duration=8d", "warmup=0d", "replications=1",
		"hosts.agents=[{kind: runtime_inflation, share: 0.5, k: 3}]",
		"projects[0].apps[0].versions[0].cpu_usage=1000", "projects[0].apps[0].versions[1].cpu_usage=1000"})
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := runner.Config(s, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	tr := &timesTracer{t: t}
	cfg.Tracer = tr
	sim.New(cfg).Run(nil)
	if tr.bad > 5 {
		t.Errorf("and %d more", tr.bad-5)
	}
	if tr.reported < 100 || tr.atLimit < tr.reported/2 {
		t.Errorf("%d results reported, %d with CPU time at the clamp: the case is not exercised", tr.reported, tr.atLimit)
	}
}
