package runner

import (
	"fmt"
	"math"
	"sort"
	"strings"
	"testing"

	"github.com/creditsim/creditsim/results"
	"github.com/creditsim/creditsim/scenarios"
)

// libraryClaims holds, for every built-in scenario, the claim its header
// comment makes, checked for direction (not exact values) on a short run:
// one replication of a smaller world. The values in the comments are from
// these runs (go test -run TestLibrary -v ./internal/runner prints them).
var libraryClaims = map[string]struct {
	sets  []string
	check func(t *testing.T, f figures)
}{
	"baseline": {check: func(t *testing.T, f figures) {
		// One CPU app, no agents: every job-based system pays honest hosts
		// within a factor of 2 of deserved, and counting FLOPs (the second
		// system) or normalising hosts (CreditNew) spreads hosts less than
		// benchmark x CPU time.
		for _, p := range []string{"v1peak", "v2actual", "v3pfc-boinc", "v3pfc-design-v29"} {
			f.between(t, p, "honest_ratio", 0.5, 2.5)
		}
		f.below(t, "v2actual", "host_neutrality_cv", f.get("v1peak", "host_neutrality_cv")/2)
		f.below(t, "v3pfc-boinc", "host_neutrality_cv", f.get("v1peak", "host_neutrality_cv")/2)
	}},
	"gpu-mix": {check: func(t *testing.T, f figures) {
		f.below(t, "v1peak", "device_neutrality", 0.1)
		f.below(t, "v2actual", "device_neutrality", 0.1)
		f.above(t, "sciunited", "device_neutrality", 3)
		for _, p := range v3pfcPresets {
			f.between(t, p, "device_neutrality", 0.7, 1.4)
		}
	}},
	"cheaters": {check: func(t *testing.T, f figures) {
		f.above(t, "v1peak", "cheat_ratio.benchmark_inflation", 1.8)
		f.above(t, "sciunited", "cheat_ratio.benchmark_inflation", 1.8)
		f.below(t, "v3pfc-boinc", "cheat_ratio.benchmark_inflation", 1.25)
		f.above(t, "v2actual", "cheat_ratio.count_inflation", 2)
		f.above(t, "v2actual", "cheat_ratio.one_time_claim", 1e100)
		f.above(t, "v1peak", "cheat_ratio.runtime_inflation", 1.3)
		for _, p := range v3pfcPresets {
			f.below(t, p, "cheat_ratio.count_inflation", 1.3)
			f.below(t, p, "cheat_ratio.one_time_claim", 1.3)
		}
		// Fakes win where jobs are sent once; under the job-based systems
		// that is half the jobs here, so they earn something, but less
		// than what colluders, who also beat replication, earn.
		f.above(t, "v3pfc-boinc", "cheat_credit_per_day.fake_results", 0)
		f.above(t, "v3pfc-boinc", "cheat_credit_per_day.colluding_fakes", f.get("v3pfc-boinc", "cheat_credit_per_day.fake_results"))
	}},
	"cherry-picker": {sets: []string{"hosts.initial=120"}, check: func(t *testing.T, f figures) {
		f.above(t, "v3pfc-design-v2-unguarded", "cheat_ratio.cherry_picker", 100)
		for _, p := range []string{"v3pfc-design-v29", "v3pfc-boinc"} {
			f.between(t, p, "cheat_ratio.cherry_picker", 1.5, 10)
		}
		f.below(t, "v3pfc-design-v2", "cheat_ratio.cherry_picker", 1.5)
		f.below(t, "v3pfc-design-v29-probation", "cheat_ratio.cherry_picker", 1)
		f.below(t, "v3pfc-boinc-scalecheck", "cheat_ratio.cherry_picker", f.get("v3pfc-boinc", "cheat_ratio.cherry_picker"))
		for _, p := range []string{"v1peak", "v2actual", "sciunited"} {
			f.below(t, p, "cheat_ratio.cherry_picker", 1.1)
		}
	}},
	"one-time-cheat": {check: func(t *testing.T, f figures) {
		for _, p := range v3pfcPresets {
			f.below(t, p, "cheat_ratio.one_time_claim", 1.2)
		}
		f.above(t, "v2actual", "cheat_ratio.one_time_claim", 1e100)
	}},
	"multi-project": {check: func(t *testing.T, f figures) {
		f.between(t, "v3pfc-boinc", "project_neutrality", 1.5, 3)
		f.below(t, "v3pfc-design-v29", "project_neutrality", 1.3)
		f.above(t, "sciunited", "project_neutrality", 3)
		f.above(t, "v1peak", "project_neutrality", 100)
	}},
	"anonymous-platform": {check: func(t *testing.T, f figures) {
		f.below(t, "v1peak", "host_gd_efficiency_slope", -0.5)
		f.below(t, "v3pfc-boinc", "host_gd_efficiency_slope", -0.5)
		f.between(t, "v3pfc-design-v29", "host_gd_efficiency_slope", f.get("v1peak", "host_gd_efficiency_slope")/2, 0.5)
		f.below(t, "v3pfc-design-v29", "host_neutrality_cv", f.get("v1peak", "host_neutrality_cv")/2)
	}},
	"job-size-variance": {check: func(t *testing.T, f figures) {
		// Sizes unknown to the server spread CreditNew's hosts more than
		// counted FLOPs spread the second system's.
		f.above(t, "v3pfc-boinc", "host_neutrality_cv", 2*f.get("v2actual", "host_neutrality_cv"))
		f.above(t, "v3pfc-design-v29", "host_neutrality_cv", 2*f.get("v2actual", "host_neutrality_cv"))
	}},
	"job-size-variance estimated": {
		sets: []string{"projects[0].apps[0].size_classes[0].estimated=true", "projects[0].apps[0].size_classes[1].estimated=true",
			"projects[0].apps[0].size_classes[2].estimated=true", "projects[0].apps[0].size_classes[3].estimated=true",
			"projects[0].apps[0].size_classes[4].estimated=true"},
		check: func(t *testing.T, f figures) {
			// Once E(J) follows the size, the spread falls to the second
			// system's.
			f.below(t, "v3pfc-boinc", "host_neutrality_cv", 1.5*f.get("v2actual", "host_neutrality_cv"))
			f.below(t, "v3pfc-design-v29", "host_neutrality_cv", 1.5*f.get("v2actual", "host_neutrality_cv"))
		}},
	"mt-idle": {check: func(t *testing.T, f figures) {
		for _, p := range v3pfcPresets {
			f.above(t, p, "project_neutrality", 3)
		}
		f.above(t, "sciunited", "project_neutrality", 5)
		f.below(t, "v1peak", "project_neutrality", 2)
	}},
	"failed-benchmarks": {check: func(t *testing.T, f figures) {
		f.below(t, "v1peak", "failed_benchmark_ratio", 0.5)
		f.below(t, "v3pfc-boinc-classic", "honest_ratio", 0.9*f.get("v3pfc-boinc", "honest_ratio"))
		f.above(t, "v3pfc-boinc", "failed_benchmark_ratio", 1.2)
	}},
	"version-rollout": {check: func(t *testing.T, f figures) {
		// The CUDA version arrives on day 12: its scale, and the CPU
		// versions' (the group minimum moves), settle only after that.
		for _, p := range []string{"v3pfc-boinc", "v3pfc-design-v29"} {
			f.above(t, p, "settle_days.scale.science/cuda", 12)
			f.above(t, p, "settle_days.scale.science/cpu", 12)
		}
	}},
}

var v3pfcPresets = []string{"v3pfc-boinc", "v3pfc-boinc-classic", "v3pfc-design-v29", "v3pfc-design-v2"}

// TestLibrary runs every built-in scenario, smaller, and checks the
// direction of the claim its comments make.
func TestLibrary(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every built-in scenario")
	}
	names := scenarios.Names()
	for _, name := range names {
		if _, ok := libraryClaims[name]; !ok {
			t.Errorf("built-in scenario %s has no claim checked in libraryClaims", name)
		}
	}
	var keys []string
	for k := range libraryClaims {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, key := range keys {
		c := libraryClaims[key]
		name, _, _ := strings.Cut(key, " ")
		t.Run(key, func(t *testing.T) {
			t.Parallel()
			sets := append([]string{"hosts.initial=300", "replications=1"}, c.sets...)
			s, err := scenarios.Open(name, sets)
			if err != nil {
				t.Fatal(err)
			}
			if len(s.Policies) < 7 {
				t.Errorf("%s runs %d policy instances, want every standard one", name, len(s.Policies))
			}
			oc, err := Run(s, Options{})
			if err != nil {
				t.Fatal(err)
			}
			c.check(t, figures{oc.Summary})
		})
	}
}

// figures reads a summary's figures by the names summary.json gives them
// ("cheat_ratio.cherry_picker"); a missing or null figure fails the test.
type figures struct{ s *results.Summary }

func (f figures) lookup(p, name string) (float64, error) {
	ps := f.s.Policies[p]
	if ps == nil {
		return 0, fmt.Errorf("no policy %s in the summary", p)
	}
	key, sub, _ := strings.Cut(name, ".")
	var v results.Num
	var ok bool
	switch key {
	case "honest_ratio":
		v, ok = ps.HonestRatio, true
	case "device_neutrality":
		v, ok = ps.DeviceNeutrality, true
	case "project_neutrality":
		v, ok = ps.ProjectNeutrality, true
	case "host_neutrality_cv":
		v, ok = ps.HostNeutralityCV, true
	case "host_gd_efficiency_slope":
		v, ok = ps.HostGDEfficiencySlope, true
	case "failed_benchmark_ratio":
		v, ok = ps.FailedBenchmarkRatio, true
	case "cheat_ratio":
		v, ok = ps.CheatRatio[sub]
	case "cheat_credit_per_day":
		v, ok = ps.CheatCreditPerDay[sub]
	case "settle_days":
		v, ok = ps.SettleDays[sub]
	default:
		return 0, fmt.Errorf("figure %s not known to this test", name)
	}
	x := float64(v)
	if !ok || math.IsNaN(x) || math.IsInf(x, 0) {
		return 0, fmt.Errorf("%s: %s is missing or undefined", p, name)
	}
	return x, nil
}

func (f figures) get(p, name string) float64 {
	x, err := f.lookup(p, name)
	if err != nil {
		return math.NaN() // fails any comparison
	}
	return x
}

func (f figures) between(t *testing.T, p, name string, lo, hi float64) {
	t.Helper()
	x, err := f.lookup(p, name)
	if err != nil {
		t.Error(err)
		return
	}
	t.Logf("%s %s = %.4g", p, name, x)
	if !(x >= lo && x <= hi) {
		t.Errorf("%s: %s = %.4g, want within [%.4g, %.4g]", p, name, x, lo, hi)
	}
}

func (f figures) above(t *testing.T, p, name string, lo float64) {
	t.Helper()
	f.between(t, p, name, math.Nextafter(lo, math.Inf(1)), math.MaxFloat64)
}

func (f figures) below(t *testing.T, p, name string, hi float64) {
	t.Helper()
	f.between(t, p, name, -math.MaxFloat64, math.Nextafter(hi, math.Inf(-1)))
}
