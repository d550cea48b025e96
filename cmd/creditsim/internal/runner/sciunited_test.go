package runner

import (
	"github.com/creditsim/creditsim/world"
	"testing"

	"github.com/creditsim/creditsim/policy"
	"github.com/creditsim/creditsim/policy/sciunited"
	"github.com/creditsim/creditsim/scenarios"
	"github.com/creditsim/creditsim/sim"
)

// erroredCredit sums, per policy, the credit results that ended in a
// client error were given.
type erroredCredit struct{ g []float64 }

func (e *erroredCredit) ResultDone(r *sim.Record) {
	if r.View.Outcome == policy.ClientError && r.Runtime > 0 {
		for p, g := range r.Granted {
			e.g[p] += g
		}
	}
}
func (e *erroredCredit) Day(*sim.DayState) {}

// TestErroredJobsEarnOnlyByRuntime: under Science United a job that runs
// and then crashes still earns for its runtime; the job-based systems
// grant it nothing.
func TestErroredJobsEarnOnlyByRuntime(t *testing.T) {
	skipLong(t)
	t.Parallel()
	s, err := scenarios.Load("c.yaml", []byte(counting), append(shortWorld(), "policies=[v1peak, v2actual, v3pfc-boinc, sciunited]",
		"hosts.error_rate={dist: const, mean: 0.2}"))
	if err != nil {
		t.Fatal(err)
	}
	e := &erroredCredit{g: make([]float64, len(s.Policies))}
	cfg, err := world.Config(s, 0, e)
	if err != nil {
		t.Fatal(err)
	}
	sim.New(cfg).Run(nil)
	t.Logf("credit of errored jobs: %v (v1peak, v2actual, v3pfc-boinc, sciunited)", e.g)
	if e.g[0] != 0 || e.g[1] != 0 || e.g[2] != 0 || !(e.g[3] > 0) {
		t.Errorf("credit of errored jobs %v: want 0 for the job-based systems, > 0 for sciunited", e.g)
	}
}

// TestScienceUnitedLiars: a host that reports 3 x its CPU speed gets the
// whole lie from Science United (no percentile cap, no normalisation);
// the server's CreditNew caps and normalises it. A host that returns
// garbage after running each job in full computes nothing but earns a
// full host-day's credit from Science United, and nothing from CreditNew
// under replication.
func TestScienceUnitedLiars(t *testing.T) {
	skipLong(t)
	t.Parallel()
	oc := runScenario(t, counting, "policies=[v3pfc-boinc, sciunited]",
		"hosts.agents=[{kind: benchmark_inflation, share: 0.05, k: 3}, {kind: fake_results, share: 0.05, work_fraction: 1}]")
	suLie := float64(oc.Summary.Policies["sciunited"].CheatRatio["benchmark_inflation"])
	bLie := float64(oc.Summary.Policies["v3pfc-boinc"].CheatRatio["benchmark_inflation"])
	suFake := float64(oc.Summary.Policies["sciunited"].CheatCreditPerDay["fake_results"])
	bFake := float64(oc.Summary.Policies["v3pfc-boinc"].CheatCreditPerDay["fake_results"])
	t.Logf("3x speed liars: sciunited %.3f, v3pfc-boinc %.3f; fakes' credit per host-day against an honest one: sciunited %.3f, v3pfc-boinc %.3f",
		suLie, bLie, suFake, bFake)
	if !(suLie > 2.6) || !(bLie < 1.3) || !(suFake > 0.7) || !(bFake < 0.05) {
		t.Errorf("liars %.3f (sciunited) %.3f (v3pfc-boinc); fakes %.3f (sciunited) %.3f (v3pfc-boinc)", suLie, bLie, suFake, bFake)
	}
}

// TestReconciliationTakesBackFakesCredit: with daily reconciliation
// against validated credit, the credit Science United paid hosts that
// return garbage is taken back: the totals move down by about the fakes'
// share, and honest hosts barely move.
func TestReconciliationTakesBackFakesCredit(t *testing.T) {
	t.Parallel()
	skipLong(t)
	s, err := scenarios.Load("c.yaml", []byte(counting), append(shortWorld(),
		"policies=[{name: su, base: sciunited, options: {reconcile: 1}}]",
		"hosts.agents=[{kind: fake_results, share: 0.1, work_fraction: 1}]"))
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := world.Config(s, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	x := sim.New(cfg)
	x.Run(nil)
	su := x.Policies()[0].(*sciunited.Policy)
	abs, net, granted := su.Reconciled()
	t.Logf("reconciliation moved %.3g credits (net %.3g) of %.3g granted", abs, net, granted)
	fakes, honest := 0.0, 0.0
	l := x.Ledger(0)
	for i, h := range x.Hosts() {
		if h.Behaviour.Kind.String() == "fake_results" {
			fakes += l.Host(i).Total
		} else {
			honest += l.Host(i).Total
		}
	}
	t.Logf("final totals: fakes %.3g, honest %.3g", fakes, honest)
	if !(net < -0.05*granted) || !(fakes < 0.02*honest) {
		t.Errorf("net movement %.3g of %.3g granted; fakes keep %.3g against honest %.3g", net, granted, fakes, honest)
	}
}
