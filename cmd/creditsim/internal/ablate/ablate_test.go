package ablate

import (
	"math"
	"strings"
	"testing"

	"github.com/creditsim/creditsim/cmd/creditsim/internal/runner"
	_ "github.com/creditsim/creditsim/policy/all" // every credit system
	"github.com/creditsim/creditsim/scenarios"
)

// TestPlan: the override names the instance and its variants, in order,
// with the instance's own options kept, and loads as a scenario.
func TestPlan(t *testing.T) {
	s, err := scenarios.Open("cherry-picker", nil)
	if err != nil {
		t.Fatal(err)
	}
	pl, err := New(s, "v3pfc-boinc-scalecheck")
	if err != nil {
		t.Fatal(err)
	}
	s2, err := scenarios.Open("cherry-picker", []string{pl.Override})
	if err != nil {
		t.Fatalf("%s: %v", pl.Override, err)
	}
	names := pl.Names()
	if len(s2.Policies) != len(names) || names[0] != "v3pfc-boinc-scalecheck" {
		t.Fatalf("policies %v, want %v", s2.Policies, names)
	}
	for i, p := range s2.Policies {
		if p.Name != names[i] {
			t.Errorf("policy %d is %s, want %s", i, p.Name, names[i])
		}
		if i > 0 && p.Base != "v3pfc-boinc" {
			t.Errorf("%s is based on %q, want the instance's base v3pfc-boinc", p.Name, p.Base)
		}
		if i > 0 && !strings.HasSuffix(p.Name, "-no-cherry") && p.Options["cherry"] != "cons_valid" {
			t.Errorf("%s lost the instance's cherry guard: %v", p.Name, p.Options)
		}
	}
	if _, err := New(s, "v1peak"); err == nil || !strings.Contains(err.Error(), "no mechanism") {
		t.Errorf("v1peak: %v; want no mechanism to switch off", err)
	}
	if _, err := New(s, "v3pfc-boinc-nope"); err == nil || !strings.Contains(err.Error(), "not a policy of cherry-picker") {
		t.Errorf("unknown instance: %v", err)
	}
}

// TestV4TrustMechanisms runs the ablation docs/attack.md's fourth-system section
// reports (cheaters, smaller) and checks what each mechanism buys there.
func TestV4TrustMechanisms(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the cheaters scenario with every ablation")
	}
	s, err := scenarios.Open("cheaters", nil)
	if err != nil {
		t.Fatal(err)
	}
	pl, err := New(s, "v4trust")
	if err != nil {
		t.Fatal(err)
	}
	// Colluders at 5% of accounts, not the world's 2%: only where they
	// often share workunits do they confirm one another into trust, the
	// case the trust gate and the cap on a trusted host's scale are for
	// (at 2% and with the client's work fetch as BOINC's, the cap buys 1.06 x).
	s, err = scenarios.Open("cheaters", []string{pl.Override, "hosts.initial=500", "replications=1", "hosts.agents[4].share=0.05"})
	if err != nil {
		t.Fatal(err)
	}
	oc, err := runner.Run(s, runner.Options{NoPlots: true})
	if err != nil {
		t.Fatal(err)
	}
	fig := func(policy, name string) float64 {
		t.Helper()
		ps, ok := oc.Summary.Policies[policy]
		if !ok {
			t.Fatalf("no policy %s", policy)
		}
		v, ok := ps.Flat()[name]
		if !ok || math.IsNaN(float64(v)) {
			t.Fatalf("%s has no %s", policy, name)
		}
		return float64(v)
	}
	const colluders, fakes = "cheat_credit_per_day.colluding_fakes", "cheat_credit_per_day.fake_results"
	for _, c := range []struct {
		instance, figure string
		min              float64 // the ablated figure over v4trust's is at least this
	}{
		{"v4trust-no-host_trust", colluders, 1.2},
		{"v4trust-no-host_cap", colluders, 1.2},
		{"v4trust-no-median_hosts", "host_neutrality_cv", 1.05},
		{"v4trust-no-host_norm", "cheat_ratio.benchmark_inflation", 1.1},
	} {
		base, off := fig("v4trust", c.figure), fig(c.instance, c.figure)
		t.Logf("%s %s %.3g, v4trust %.3g", c.instance, c.figure, off, base)
		if !(off >= c.min*base) {
			t.Errorf("%s: %s %.3g against v4trust's %.3g; want at least %g x", c.instance, c.figure, off, base, c.min)
		}
	}
	if v := fig("v4trust", fakes); !(v <= 1.1) {
		t.Errorf("v4trust pays fakes %.3g honest host-days per day; want at most 1.1", v)
	}
}

// TestUntrustedLimit pins v4trust's fifth change in a small world: where
// job sizes miss their estimate (job-size-variance, with defended's
// server), runtime inflation on CPU time together with cherry picking
// (aborting jobs past an hour, so keeping the short ones) gains over its
// twin when an untrusted claim is capped at what the version's mean host
// would claim for the job's estimate, a flat amount per job, and nothing
// when it is capped at a trusted replica's claim, which follows the job's
// true size.
func TestUntrustedLimit(t *testing.T) {
	if testing.Short() {
		t.Skip("runs job-size-variance at 300 hosts")
	}
	s, err := scenarios.Open("job-size-variance", []string{"hosts.initial=300", "replications=2",
		"server.trust.confirmations=10", "server.trust.check_rate=1", "server.trust.recheck_rate=0.05",
		"server.trust.pair_untrusted=true", "server.trust.escrow=true",
		"hosts.agents=[{kind: runtime_inflation, share: 0.02, k: 10, report: cpu_time, and: {kind: cherry_picker, threshold: 1h}}]",
		"policies=[v4trust, {name: v4trust-no-untrusted_limit, base: v4trust, options: {untrusted_limit: estimate}}]"})
	if err != nil {
		t.Fatal(err)
	}
	oc, err := runner.Run(s, runner.Options{NoPlots: true})
	if err != nil {
		t.Fatal(err)
	}
	const pair = "runtime_inflation+cherry_picker"
	replica := float64(oc.Summary.Policies["v4trust"].Gain[pair])
	estimate := float64(oc.Summary.Policies["v4trust-no-untrusted_limit"].Gain[pair])
	t.Logf("gain over the twin: %.3g capped by a trusted replica's claim, %.3g by the estimate's", replica, estimate)
	if !(replica <= 1) || !(estimate >= 1.1) || !(estimate >= 1.3*replica) {
		t.Errorf("gain %.3g with the replica's cap, %.3g with the estimate's; want at most 1, and at least 1.1 and 1.3 x that", replica, estimate)
	}
}
