package runner

import (
	"math"
	"reflect"
	"testing"

	"github.com/creditsim/creditsim/results"
	"github.com/creditsim/creditsim/scenarios"
)

// TestTwinAligned: the honest twin is the same world with every
// behaviour switched off, so agents whose behaviour changes nothing (a
// factor of 1) gain exactly 1 under every policy, and honest accounts
// are exactly unharmed; without agents there is no twin, and --no-twin
// skips it, each said in the summary.
func TestTwinAligned(t *testing.T) {
	t.Parallel()
	agents := "hosts.agents=[{kind: benchmark_inflation, share: 0.1, k: 1}, {kind: runtime_inflation, share: 0.1, k: 1}, " +
		"{kind: count_inflation, share: 0.1, k: 1}]"
	hosts := "hosts.initial=150"
	if testing.Short() {
		hosts = "hosts.initial=40"
	}
	s, err := scenarios.Open("baseline", []string{hosts, "duration=14d", "warmup=3d", "replications=2", agents})
	if err != nil {
		t.Fatal(err)
	}
	oc, err := Run(s, Options{NoPlots: true})
	if err != nil {
		t.Fatal(err)
	}
	if oc.Summary.Twin != "ran" {
		t.Errorf("twin %q, want ran", oc.Summary.Twin)
	}
	for name, ps := range oc.Summary.Policies {
		for _, k := range []string{"benchmark_inflation", "runtime_inflation", "count_inflation"} {
			if g := ps.Gain[k]; g != 1 {
				t.Errorf("%s: gain.%s = %v, want exactly 1", name, k, g)
			}
		}
		if ps.Harm != 1 || ps.WorstGain != 1 || ps.WorstAccountGain != 1 || ps.AccountGainNoise != 1 {
			t.Errorf("%s: harm %v, worst gain %v, worst account gain %v, its noise %v; want exactly 1", name, ps.Harm, ps.WorstGain, ps.WorstAccountGain, ps.AccountGainNoise)
		}
	}
	oc, err = Run(s, Options{NoPlots: true, NoTwin: true})
	if err != nil {
		t.Fatal(err)
	}
	if oc.Summary.Twin != "skipped (--no-twin)" {
		t.Errorf("twin %q with NoTwin", oc.Summary.Twin)
	}
	for name, ps := range oc.Summary.Policies {
		if len(ps.Gain) != 0 || !math.IsNaN(float64(ps.WorstGain)) || !math.IsNaN(float64(ps.Harm)) {
			t.Errorf("%s without a twin: gain %v, worst %v, harm %v", name, ps.Gain, ps.WorstGain, ps.Harm)
		}
	}
	s, err = scenarios.Open("baseline", []string{"hosts.initial=30", "duration=9d", "warmup=1d", "replications=1"})
	if err != nil {
		t.Fatal(err)
	}
	if oc, err = Run(s, Options{NoPlots: true}); err != nil || oc.Summary.Twin != "none (no agents)" {
		t.Errorf("no agents: twin %q (%v)", oc.Summary.Twin, err)
	}
}

// TestTwinIndependentOfAgents: which accounts are agents, and of what
// kind, changes nothing in the honest twin (every account draws its
// behaviour from its own stream whatever the agents), so one twin per
// seed serves every attack candidate; and a run given those twins writes
// the same summary as one that makes its own.
func TestTwinIndependentOfAgents(t *testing.T) {
	skipLong(t)
	t.Parallel()
	open := func(agents string) *scenarios.Scenario {
		reps := "replications=2"
		if testing.Short() {
			reps = "replications=1"
		}
		s, err := scenarios.Open("baseline", []string{"hosts.initial=80", "duration=12d", "warmup=3d", reps, "hosts.agents=" + agents})
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	a := open("[{kind: colluding_fakes, share: 0.2, work_fraction: 0.01}]")
	b := open("[{kind: benchmark_inflation, share: 0.05, k: 7}, {kind: cherry_picker, share: 0.1}]")
	ta, err := Twins(a, 2, nil)
	if err != nil {
		t.Fatal(err)
	}
	tb, err := Twins(b, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(ta, tb) {
		t.Error("the honest twins of two scenarios differing only in their agents differ")
	}
	own, err := Run(b, Options{NoPlots: true, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	shared, err := Run(b, Options{NoPlots: true, Workers: 1, Twins: ta})
	if err != nil {
		t.Fatal(err)
	}
	x, _ := results.JSON(own.Summary)
	y, _ := results.JSON(shared.Summary)
	if string(x) != string(y) {
		t.Error("a run given the shared twins writes another summary than one making its own")
	}
}

// TestForgedOutput: a host whose output claims 10 x the work it did is
// paid for the claim by post-assigned credit where jobs are sent once
// (gain about 10), and where the validator ignores the work measure;
// against honest replicas whose validator compares it, a forged output is
// invalid and gains nothing. Systems that read no output pay it as
// honest work. With forgers present, post-assigned credit is no oracle.
func TestForgedOutput(t *testing.T) {
	t.Parallel()
	skipLong(t)
	base := []string{"hosts.initial=200", "duration=14d", "warmup=3d", "replications=1",
		"hosts.agents=[{kind: forged_output, share: 0.05, k: 10}]", "policies=[post-assigned-credit, v1peak, v3pfc-boinc]"}
	run := func(sets ...string) *results.Summary { return baselineSummary(t, append(base, sets...)...) }
	once := run("projects[0].apps[0].min_quorum=1", "projects[0].apps[0].target_nresults=1")
	replicated := run()
	ignored := run("server.validator_compares_work=false")
	// A forger that does all its work and claims exactly it is an honest
	// host: replicated, the validator compares its work measure and finds
	// it the honest one's, so it is paid as its twin is.
	neutral := run("hosts.agents=[{kind: forged_output, share: 0.05, k: 1, work_fraction: 1}]")
	gain := func(s *results.Summary, p string) float64 { return float64(s.Policies[p].Gain["forged_output"]) }
	t.Logf("post-assigned gain: sent once %.3g, replicated %.3g, work measure not compared %.3g", gain(once, "post-assigned-credit"),
		gain(replicated, "post-assigned-credit"), gain(ignored, "post-assigned-credit"))
	if g := gain(once, "post-assigned-credit"); !(g > 8 && g < 12) {
		t.Errorf("sent once: post-assigned credit's gain %v, want about 10", g)
	}
	if g := gain(ignored, "post-assigned-credit"); !(g > 5) {
		t.Errorf("work measure not compared: gain %v, want several", g)
	}
	if g := gain(replicated, "post-assigned-credit"); !(g < 1.1) {
		t.Errorf("replicated, work measure compared: gain %v, want at most 1.1", g)
	}
	if g := gain(neutral, "post-assigned-credit"); !(g > 0.95 && g < 1.05) {
		t.Errorf("replicated, a forger claiming exactly its work: gain %v, want 1 (an honest host)", g)
	}
	if g := gain(once, "v1peak"); !(g > 0.9 && g < 1.1) {
		t.Errorf("v1peak, which reads no output, gains %v from forged outputs", g)
	}
	if o := once.Policies["post-assigned-credit"].Oracle; o != "" {
		t.Errorf("post-assigned credit labelled an oracle in a world with forgers: %q", o)
	}
}
