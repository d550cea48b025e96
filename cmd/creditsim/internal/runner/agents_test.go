package runner

import (
	"math"
	"testing"

	"github.com/creditsim/creditsim/scenarios"
)

// ratioBound is a policy's expected range of a cheat ratio.
type ratioBound struct {
	policy   string
	min, max float64
}

// checkCheatRatio runs baseline, small and with jobs sent once, under the
// given overrides and checks the agent kind's cheat ratio per policy.
func checkCheatRatio(t *testing.T, kind string, sets []string, want []ratioBound) {
	t.Helper()
	if testing.Short() {
		t.Skip("a small simulation of 12 days")
	}
	sets = append([]string{"hosts.initial=150", "duration=12d", "warmup=3d", "projects[0].apps[0].delay_bound=3d",
		"replications=1", "projects[0].apps[0].min_quorum=1", "projects[0].apps[0].target_nresults=1"}, sets...)
	s, err := scenarios.Open("baseline", sets)
	if err != nil {
		t.Fatal(err)
	}
	oc, err := Run(s, Options{NoPlots: true, NoTwin: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range want {
		v := float64(oc.Summary.Policies[c.policy].Flat()["cheat_ratio."+kind])
		if !(v >= c.min && v <= c.max) {
			t.Errorf("%s: %s cheat ratio %.3g, want %g to %g", c.policy, kind, v, c.min, c.max)
		}
	}
}

// TestIdleVMAtTheServer: an idle VM takes k times its honest runtime and
// reports it truly, so its CPU time is a k-th of elapsed x CPUs; runtime
// accounting pays it k x per FLOP and CPU time x benchmark does not.
func TestIdleVMAtTheServer(t *testing.T) {
	t.Parallel()
	checkCheatRatio(t, "idle_vm", []string{"policies=[v1peak, sciunited]", "hosts.agents=[{kind: idle_vm, share: 0.1, k: 4}]"},
		[]ratioBound{{"sciunited", 3.4, 4.6}, {"v1peak", 0.85, 1.15}})
}

// TestNCPUsInflationAtTheServer: a host that reports k x its CPUs gets
// jobs of a multi-threaded version with k x its avg_ncpus, so k x the
// flops_estimate, while it runs them on the CPUs it has; runtime
// accounting pays it about k x per FLOP, CreditNew's host normalisation
// takes it back, and CPU time x benchmark never saw it.
func TestNCPUsInflationAtTheServer(t *testing.T) {
	t.Parallel()
	checkCheatRatio(t, "ncpus_inflation", []string{"policies=[v1peak, sciunited, v3pfc-boinc]",
		"projects[0].apps[0].versions[0].multi_thread=true", "projects[0].apps[0].versions[1].multi_thread=true",
		"hosts.agents=[{kind: ncpus_inflation, share: 0.1, k: 4}]"},
		[]ratioBound{{"sciunited", 3.4, 4.6}, {"v1peak", 0.85, 1.25}, {"v3pfc-boinc", 0.9, 1.15}})
}

// TestCombinedAtTheServer: an account that combines two behaviours gets
// both: an idle VM (k 4) that also reports twice its CPUs to a
// multi-threaded app is paid about 4 x 2 per FLOP by runtime accounting,
// the product of what each earns alone in the same run, and is counted
// under both names joined by "+", apart from the accounts that do one.
func TestCombinedAtTheServer(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("a small simulation of 12 days")
	}
	s, err := scenarios.Open("baseline", []string{"hosts.initial=200", "duration=12d", "warmup=3d", "projects[0].apps[0].delay_bound=3d",
		"replications=1", "projects[0].apps[0].min_quorum=1", "projects[0].apps[0].target_nresults=1", "policies=[v1peak, sciunited]",
		"projects[0].apps[0].versions[0].multi_thread=true", "projects[0].apps[0].versions[1].multi_thread=true",
		"hosts.agents=[{kind: idle_vm, share: 0.1, k: 4, and: {kind: ncpus_inflation, k: 2}}, {kind: idle_vm, share: 0.1, k: 4}, {kind: ncpus_inflation, share: 0.1, k: 2}]"})
	if err != nil {
		t.Fatal(err)
	}
	oc, err := Run(s, Options{NoPlots: true, NoTwin: true})
	if err != nil {
		t.Fatal(err)
	}
	f := oc.Summary.Policies["sciunited"].Flat()
	both, idle, ncpus := float64(f["cheat_ratio.idle_vm+ncpus_inflation"]), float64(f["cheat_ratio.idle_vm"]), float64(f["cheat_ratio.ncpus_inflation"])
	if !(math.Abs(both/(idle*ncpus)-1) < 0.1) || !(both > 6.5 && both < 9.5) {
		t.Errorf("sciunited: combined %.3g, want about 8 and idle_vm x ncpus_inflation = %.3g x %.3g", both, idle, ncpus)
	}
	// CPU time x benchmark sees neither.
	if v := float64(oc.Summary.Policies["v1peak"].Flat()["cheat_ratio.idle_vm+ncpus_inflation"]); !(v > 0.8 && v < 1.2) {
		t.Errorf("v1peak pays the combination %.3g x, want about 1", v)
	}
}
