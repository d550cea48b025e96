package fit

import (
	"math"
	"path/filepath"
	"testing"

	"github.com/creditsim/creditsim/cmd/creditsim/internal/runner"
	"github.com/creditsim/creditsim/cmd/creditsim/internal/statsdump"
	_ "github.com/creditsim/creditsim/policy/all" // every credit system
	"github.com/creditsim/creditsim/scenarios"
)

// TestStatsRoundTrip: a run's hosts written as a statistics export and
// fitted give back what the export carries: the hosts present at the
// start, the arrivals per day, the CPUs and benchmarks; the fitted
// scenario validates and runs.
func TestStatsRoundTrip(t *testing.T) {
	if testing.Short() {
		t.Skip("a 40-day run of 400 hosts: runs without -short (fit.txtar runs the CLI's round trip)")
	}
	s, err := scenarios.Open("baseline", []string{"hosts.initial=400", "duration=40d", "replications=1",
		"policies=[v3pfc-boinc]", "hosts.lifetime={dist: exponential, mean: 60d}"})
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "stats")
	if _, err := runner.Run(s, runner.Options{NoTwin: true, NoPlots: true, ExportStats: dir}); err != nil {
		t.Fatal(err)
	}
	hosts, err := statsdump.Read(filepath.Join(dir, "host.gz"))
	if err != nil {
		t.Fatal(err)
	}
	f, err := FitHosts(hosts, Window{})
	if err != nil {
		t.Fatal(err)
	}
	meanCores := func(values, weights []float64) float64 {
		m, w := 0.0, 0.0
		for i := range values {
			m, w = m+values[i]*weights[i], w+weights[i]
		}
		return m / w
	}
	for _, x := range []struct {
		name      string
		got, want float64
		tol       float64
	}{
		{"hosts present at the start", float64(f.Initial), 400, 0.05},
		{"arrivals per day", f.ArrivalsPerDay, s.Hosts.ArrivalsPerDay, 0.1},
		{"mean cores", meanCores(f.Cores.Values, f.Cores.Weights), s.Hosts.CPU.Cores.MeanValue(), 0.05},
		{"mean Whetstone GFLOPS", f.WhetstoneGFLOPS.Mean, s.Hosts.CPU.WhetstoneGFLOPS.MeanValue(), 0.05},
		{"Dhrystone ratio", f.DhrystoneRatio.Mean, s.Hosts.CPU.DhrystoneRatio.MeanValue(), 0.05},
		// Biased high: the export lacks hosts that left before earning
		// credit, and a host gone in the last week looks present.
		{"lifetime (days)", f.LifetimeDays, 60, 0.35},
	} {
		t.Logf("%s: fitted %.4g, scenario %.4g", x.name, x.got, x.want)
		if math.Abs(x.got/x.want-1) > x.tol {
			t.Errorf("%s: fitted %.4g, scenario %.4g (more than %g%% apart)", x.name, x.got, x.want, 100*x.tol)
		}
	}
	text, err := f.Scenario("refit", "test")
	if err != nil {
		t.Fatal(err)
	}
	re, err := scenarios.Load("refit.yaml", text, []string{"hosts.initial=50", "hosts.arrivals_per_day=2", "replications=1", "policies=[v1peak]"})
	if err != nil {
		t.Fatalf("the fitted scenario does not load: %v", err)
	}
	if _, err := runner.Run(re, runner.Options{NoPlots: true}); err != nil {
		t.Fatalf("the fitted scenario does not run: %v", err)
	}
}
