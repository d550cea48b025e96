package runner

import (
	"testing"

	_ "github.com/creditsim/creditsim/policy/all" // every credit system
)

// TestV2Calibration: on a steady scenario the auto factor, measured over
// the first week of validations, makes the second system's credit per
// job equal the first system's within 1% over the counted results.
func TestV2Calibration(t *testing.T) {
	t.Parallel()
	skipLong(t)
	oc := runScenario(t, counting, "policies=[v1peak, v2actual]")
	v1 := float64(oc.Summary.Policies["v1peak"].TotalCredit)
	v2 := float64(oc.Summary.Policies["v2actual"].TotalCredit)
	t.Logf("total credit: v1peak %.6g, v2actual %.6g (ratio %.4f)", v1, v2, v2/v1)
	if r := v2 / v1; r < 0.99 || r > 1.01 {
		t.Errorf("v2actual / v1peak credit = %.4f, want within 1%%", r)
	}
	// Counting removes the first system's spread between hosts.
	if cv1, cv2 := float64(oc.Summary.Policies["v1peak"].HostNeutralityCV), float64(oc.Summary.Policies["v2actual"].HostNeutralityCV); !(cv2 < cv1/3) {
		t.Errorf("host CV: v1peak %.4f, v2actual %.4f", cv1, cv2)
	}
}

// TestCountInflation: under single replication a host that reports 5 x
// its FLOP count gets about 5 x an honest host's credit from v2actual (the
// hole the seeds name), while v1peak, which ignores counts, credits it
// like an honest host.
func TestCountInflation(t *testing.T) {
	skipLong(t)
	t.Parallel()
	// Two replications even under -short: v1peak's figure for 10 hosts
	// of one replication strays past 1.25 with their benchmarks.
	oc := runScenario(t, counting, "policies=[v1peak, v2actual]", "replications=2",
		"projects[0].apps[0].min_quorum=1", "projects[0].apps[0].target_nresults=1",
		"hosts.agents=[{kind: count_inflation, share: 0.05, k: 5}]")
	v1 := float64(oc.Summary.Policies["v1peak"].CheatRatio["count_inflation"])
	v2 := float64(oc.Summary.Policies["v2actual"].CheatRatio["count_inflation"])
	t.Logf("cheat ratio of 5x count inflators: v1peak %.3f, v2actual %.3f", v1, v2)
	if !(v2 > 4.5 && v2 < 5.5) || !(v1 > 0.8 && v1 < 1.25) {
		t.Errorf("cheat ratio v1peak %.3f (want near 1), v2actual %.3f (want near 5)", v1, v2)
	}
}

// counting: one app whose versions count their FLOPs exactly.
const counting = `
name: counting
replications: 2
duration: 20d
warmup: 8d
hosts:
  initial: 200
  arrivals_per_day: 0
  lifetime: 1000d
  platforms: [{name: linux, share: 0.5}, {name: windows, share: 0.5}]
  error_rate: 0
  invalid_rate: 0
projects:
  - name: p
    apps:
      - name: a
        rsc_fpops_est: 2e13
        delay_bound: 3d
        versions:
          - {platform: linux, counts_flops: true}
          - {platform: windows, counts_flops: true}
`

// TestColludingFakes: under two-fold replication a fake's garbage never
// matches an honest result, so lone fakes earn nothing; colluders return
// the same garbage, and when two of them get the same workunit they form
// the quorum and are paid.
func TestColludingFakes(t *testing.T) {
	t.Parallel()
	skipLong(t)
	oc := runScenario(t, counting, "policies=[v1peak]",
		"hosts.agents=[{kind: fake_results, share: 0.2, work_fraction: 0.05}, {kind: colluding_fakes, share: 0.2, work_fraction: 0.05}]")
	lone := float64(oc.Summary.Policies["v1peak"].CheatCreditPerDay["fake_results"])
	gang := float64(oc.Summary.Policies["v1peak"].CheatCreditPerDay["colluding_fakes"])
	t.Logf("credit per host-day against an honest one: lone fakes %.4f, colluders %.4f", lone, gang)
	if lone != 0 || !(gang > 0.01) {
		t.Errorf("lone fakes %.4f (want 0), colluders %.4f (want > 0)", lone, gang)
	}
}
