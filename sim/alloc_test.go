package sim_test

import (
	"runtime"
	"testing"
)

// TestAllocationsPerResult guards DESIGN section 11's "allocation per
// result near zero" (the benchmarks measure it; this fails when a change
// puts an allocation on every result). Host setup allocates, so a short
// run sits above the benchmark's 0.04; a per-result allocation would add
// at least 1.
func TestAllocationsPerResult(t *testing.T) {
	if testing.Short() {
		t.Skip("runs 300 hosts for 20 days")
	}
	for _, c := range []struct {
		name string
		set  []string
	}{
		{"two replicas", nil},
		{"sent once", []string{"projects[0].apps[0].min_quorum=1", "projects[0].apps[0].target_nresults=1"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			set := append([]string{"replications=1", "hosts.initial=300", "duration=20d", "warmup=5d",
				"policies=[v1peak, v3pfc-boinc, v3pfc-design-v29]"}, c.set...)
			x := newBaseline(t, set)
			var ms0, ms1 runtime.MemStats
			runtime.ReadMemStats(&ms0)
			x.Run(nil)
			runtime.ReadMemStats(&ms1)
			n := x.Results()
			per := float64(ms1.Mallocs-ms0.Mallocs) / float64(n)
			t.Logf("%d results, %.3f allocations per result", n, per)
			if n < 100000 {
				t.Fatalf("only %d results: the run is too short to measure", n)
			}
			if per > 0.2 {
				t.Errorf("%.3f heap allocations per result; want near 0 (the benchmark shows 0.04)", per)
			}
		})
	}
}
