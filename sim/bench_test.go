package sim_test

import (
	"runtime"
	"testing"

	_ "github.com/creditsim/creditsim/policy/all" // every credit system

	"github.com/creditsim/creditsim/internal/runner"
	"github.com/creditsim/creditsim/internal/usage"
	"github.com/creditsim/creditsim/results"
	"github.com/creditsim/creditsim/scenarios"
	"github.com/creditsim/creditsim/sim"
)

// BenchmarkBaselineV1Peak runs one replication of the baseline scenario
// (2,000 hosts, 30 days) with the first credit system and the results
// collector, on one goroutine. It reports results per second and heap
// allocations per result.
func BenchmarkBaselineV1Peak(b *testing.B) { benchBaseline(b, "[v1peak]") }

// BenchmarkBaselineAllPolicies is the same run with the first system and
// every CreditNew preset granting credit side by side.
func BenchmarkBaselineAllPolicies(b *testing.B) {
	benchBaseline(b, "[v1peak, v3pfc-boinc, v3pfc-boinc-classic, v3pfc-design-v29, v3pfc-design-v2]")
}

// BenchmarkBaselineSeven runs the first round's seven standard
// instances side by side, the set performance targets name.
func BenchmarkBaselineSeven(b *testing.B) {
	benchBaseline(b, "[v1peak, v2actual, sciunited, v3pfc-boinc, v3pfc-boinc-classic, v3pfc-design-v29, v3pfc-design-v2]")
}

// BenchmarkBaselineStandard runs every standard instance (the set a
// scenario runs when it names none), the second round's three credit
// options included.
func BenchmarkBaselineStandard(b *testing.B) { benchBaseline(b, "") }

func benchBaseline(b *testing.B, policies string) {
	sets := []string{"replications=1"}
	if policies != "" {
		sets = append(sets, "policies="+policies)
	}
	s, err := scenarios.Open("baseline", sets)
	if err != nil {
		b.Fatal(err)
	}
	win := runner.Window(s)
	var sent int64
	var ms0, ms1 runtime.MemStats
	runtime.ReadMemStats(&ms0)
	var peak usage.Peak
	hosts := 0
	cpu0 := usage.CPUSeconds()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		col := results.NewCollector(win, s.ReferenceScale, len(s.Policies))
		cfg, err := runner.Config(s, 0, col)
		if err != nil {
			b.Fatal(err)
		}
		x := sim.New(cfg)
		col.Attach(x)
		x.Run(func(float64) { peak.Sample() })
		sent += x.Results()
		hosts = len(x.Hosts())
	}
	b.StopTimer()
	cpu := usage.CPUSeconds() - cpu0
	runtime.ReadMemStats(&ms1)
	b.ReportMetric(float64(sent)/b.Elapsed().Seconds(), "results/s")
	b.ReportMetric(float64(sent)/cpu, "results/CPU-s")
	b.ReportMetric(float64(ms1.Mallocs-ms0.Mallocs)/float64(sent), "allocs/result")
	// The live heap at its largest (sampled once a simulated day, as of
	// the last collection), per host: what a world of many hosts needs.
	b.ReportMetric(float64(peak.Bytes())/float64(hosts), "live-B/host")
}
