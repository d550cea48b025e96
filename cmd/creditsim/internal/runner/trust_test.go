package runner

import (
	"testing"

	"github.com/creditsim/creditsim/results"
	"github.com/creditsim/creditsim/scenarios"
)

// TestServerTrust: colluding fakes with inflated benchmarks on 9% of
// accounts validate one another and gain many times an honest host-day
// under every credit system. With server trust (a host trusted after 10
// results confirmed by the project's check or a trusted host of another
// user) and untrusted hosts' results paired with trusted hosts', they
// never form a quorum: they gain nothing and honest accounts keep at
// least 95% of their credit, for the price of some extra results and
// project checks, which the summary states. Without pairing the project
// checks catch them too, but at many checks and results per workunit.
func TestServerTrust(t *testing.T) {
	t.Parallel()
	run := func(sets ...string) *results.Summary {
		t.Helper()
		s, err := scenarios.Open("baseline", append([]string{"hosts.initial=150", "hosts.arrivals_per_day=4", "duration=20d",
			"warmup=6d", "replications=1", "policies=[v1peak, v3pfc-boinc]",
			"hosts.agents=[{kind: colluding_fakes, share: 0.09, work_fraction: 0.01, and: {kind: benchmark_inflation, k: 30}}]"}, sets...))
		if err != nil {
			t.Fatal(err)
		}
		oc, err := Run(s, Options{NoPlots: true})
		if err != nil {
			t.Fatal(err)
		}
		return oc.Summary
	}
	const kind = "colluding_fakes+benchmark_inflation"
	paired := run("server.trust.confirmations=10", "server.trust.check_rate=1", "server.trust.pair_untrusted=true")
	if testing.Short() {
		// The defended run alone: the full suite shows the attack bites
		// without it, and what pairing saves.
		for _, p := range []string{"v1peak", "v3pfc-boinc"} {
			if g, h := float64(paired.Policies[p].Gain[kind]), float64(paired.Policies[p].Harm); !(g <= 1.1) || !(h >= 0.95) {
				t.Errorf("%s with trust and pairing: gain %.3g, harm %.3g", p, g, h)
			}
		}
		return
	}
	off := run()
	unpaired := run("server.trust.confirmations=10", "server.trust.check_rate=1")
	for _, p := range []string{"v1peak", "v3pfc-boinc"} {
		g0, g1 := float64(off.Policies[p].Gain[kind]), float64(paired.Policies[p].Gain[kind])
		h0, h1 := float64(off.Policies[p].Harm), float64(paired.Policies[p].Harm)
		t.Logf("%s: gain %.3g, harm %.3g without trust; gain %.3g, harm %.3g with it", p, g0, h0, g1, h1)
		if !(g0 > 5) || !(h0 < 0.9) {
			t.Errorf("%s without trust: gain %.3g, harm %.3g; the attack does not bite, so the test shows nothing", p, g0, h0)
		}
		if !(g1 <= 1.1) || !(h1 >= 0.95) {
			t.Errorf("%s with trust and pairing: gain %.3g (want at most 1.1), harm %.3g (want at least 0.95)", p, g1, h1)
		}
	}
	if _, ok := off.Price["project_checks_per_validated_workunit"]; ok || !(off.Price["results_per_validated_workunit"] > 1) {
		t.Errorf("price without trust: %v", off.Price)
	}
	pp, up := paired.Price, unpaired.Price
	t.Logf("price paired: %v", pp)
	t.Logf("price unpaired: %v", up)
	if !(pp["honest_trusted_share"] > 0.9) || !(pp["honest_days_to_trust"] > 0 && pp["honest_days_to_trust"] < 5) ||
		!(pp["project_checks_per_validated_workunit"] > 0) || !(pp["failed_check_share"] > 0) {
		t.Errorf("price with trust: %v", pp)
	}
	if !(up["results_per_validated_workunit"] > 2*pp["results_per_validated_workunit"]) ||
		!(up["project_checks_per_validated_workunit"] > 10*pp["project_checks_per_validated_workunit"]) {
		t.Errorf("pairing saves nothing: results per workunit %v paired, %v not; checks %v, %v", pp["results_per_validated_workunit"],
			up["results_per_validated_workunit"], pp["project_checks_per_validated_workunit"], up["project_checks_per_validated_workunit"])
	}
}
