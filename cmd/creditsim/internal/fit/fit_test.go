package fit

import (
	"math"
	"path/filepath"
	"reflect"
	"strings"
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
	users, err := statsdump.ReadUsers(filepath.Join(dir, "user.gz"))
	if err != nil {
		t.Fatal(err)
	}
	team := map[int]int{}
	for _, u := range users {
		team[u.ID] = u.TeamID
	}
	f.FitTeams(team, "user.gz")
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
		// The export lacks hosts that left before earning credit, which
		// would bias it high; censored a week before the export's date,
		// it comes within a few percent.
		{"lifetime (days)", f.LifetimeDays, 60, 0.15},
		{"share of users in a team", f.TeamShare, s.Hosts.TeamShare, 0.15},
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

// TestGPUPeak: a model is found by its name whatever its maker's prefix,
// case or spacing, the longest name first ("RTX 3060 Ti" is not an
// "RTX 3060"); an unknown model is not guessed.
func TestGPUPeak(t *testing.T) {
	for _, c := range []struct {
		model string
		want  float64 // TFLOPS; 0: unknown
	}{
		{"NVIDIA GeForce RTX 3060 Ti", 16.20},
		{"GeForce RTX 3060", 12.74},
		{"NVIDIA  GeForce  rtx 3060 laptop gpu", 12.74},
		{"AMD Radeon RX 6800 XT", 20.74},
		{"Radeon RX 6800", 16.17},
		{"Intel(R) UHD Graphics 630", 0.4608},
		{"GeForce GTX 1080 Ti", 11.34},
		{"simulated", 0},
		{"GeForce RTX 30600", 0},
	} {
		got, ok := gpuPeak(c.model)
		if ok != (c.want > 0) || math.Abs(got-c.want*1e12) > 1 {
			t.Errorf("%q: %g (%v), want %g TFLOPS", c.model, got, ok, c.want)
		}
	}
}

// TestPeakRatioFromModels: GPU hosts of known models give peak_ratio, the
// model's peak over the host's Whetstone x CPUs; too few leave it to the
// baseline, and the header says which.
func TestPeakRatioFromModels(t *testing.T) {
	var hs []statsdump.Host
	for i := range 30 {
		h := statsdump.Host{ID: i + 1, TotalCredit: 1, OSName: "Linux", CreateTime: 1.7e9, RPCTime: 1.7e9 + 50*86400,
			NCPUs: 8, PFpops: 4e9, PIops: 1e10}
		if i < 20 {
			h.GPUs = []statsdump.GPU{{Vendor: "nvidia", Model: "NVIDIA GeForce RTX 3060", Count: 1}}
		}
		hs = append(hs, h)
	}
	f, err := FitHosts(hs, Window{From: 1.7e9 + 86400, To: 1.7e9 + 50*86400})
	if err != nil {
		t.Fatal(err)
	}
	if want := 12.74e12 / 32e9; math.Abs(f.PeakRatio.Mean/want-1) > 1e-3 || f.PeakHosts != 20 {
		t.Errorf("peak_ratio %v from %d hosts, want %.4g from 20", f.PeakRatio, f.PeakHosts, want)
	}
	text, err := f.Scenario("x", "test")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(text), "peak_ratio: lognormal over the 20 of 20 GPU hosts") {
		t.Error("the header does not say how peak_ratio was fitted")
	}
	for i := range hs[:15] {
		hs[i].GPUs[0].Model = "Some Future GPU"
	}
	if f, _ = FitHosts(hs, Window{From: 1.7e9 + 86400, To: 1.7e9 + 50*86400}); f.PeakRatio.Mean != 0 {
		t.Errorf("peak_ratio fitted from %d hosts of known models", f.PeakHosts)
	}
}

// TestPublicExport: a host record as a project's public statistics
// export has it (testdata/public, cited there) is read and fitted: its
// CPUs, benchmarks, platform and GPU, whose model's peak gives the
// peak ratio; the fitted scenario runs.
func TestPublicExport(t *testing.T) {
	hosts, err := statsdump.Read(filepath.Join("testdata", "public", "host.xml"))
	if err != nil {
		t.Fatal(err)
	}
	if len(hosts) != 1 || len(hosts[0].GPUs) != 1 || hosts[0].GPUs[0] != (statsdump.GPU{Vendor: "nvidia", Model: "GeForce GTX 1650 with Max-Q Design", Count: 1}) {
		t.Fatalf("read %+v", hosts)
	}
	f, err := FitHosts(hosts, Window{})
	if err != nil {
		t.Fatal(err)
	}
	if f.Initial != 1 || f.Cores.Values[0] != 12 || math.Abs(f.WhetstoneGFLOPS.Mean-3.305) > 1e-3 ||
		f.Platforms["windows_x86_64"] != 1 || f.GPUShare != 1 || f.Vendors["nvidia"] != 1 {
		t.Errorf("fitted %+v", f)
	}
	if peak, ok := gpuPeak(hosts[0].GPUs[0].Model); !ok || peak != 2.984e12 {
		t.Errorf("GTX 1650 Max-Q: peak %g (%v)", peak, ok)
	}
	text, err := f.Scenario("public", "testdata/public/host.xml")
	if err != nil {
		t.Fatal(err)
	}
	s, err := scenarios.Load("public.yaml", text, []string{"hosts.initial=30", "duration=10d", "warmup=2d", "replications=1", "policies=[v1peak]"})
	if err != nil {
		t.Fatalf("the fitted scenario does not load: %v", err)
	}
	if _, err := runner.Run(s, runner.Options{NoPlots: true}); err != nil {
		t.Fatalf("the fitted scenario does not run: %v", err)
	}
}

// TestEmpirical: the empirical form keeps a sample's mean and spread in
// 20 classes of equal share, sorted; a sample smaller than 20 keeps each
// value.
func TestEmpirical(t *testing.T) {
	var xs []float64
	for i := range 1000 {
		xs = append(xs, math.Exp(float64(i%97)/50))
	}
	c := empirical(xs)
	mean, w, want := 0.0, 0.0, 0.0
	for i := range c.Values {
		mean, w = mean+c.Values[i]*c.Weights[i], w+c.Weights[i]
		if i > 0 && c.Values[i] < c.Values[i-1] {
			t.Errorf("classes out of order: %v", c.Values)
		}
	}
	for _, x := range xs {
		want += x / float64(len(xs))
	}
	if len(c.Values) != 20 || math.Abs(w-1) > 1e-3 || math.Abs(mean/w/want-1) > 1e-3 {
		t.Errorf("%d classes, weights %g, mean %g; want 20, 1, %g", len(c.Values), w, mean/w, want)
	}
	if c := empirical([]float64{3, 1, 2}); !reflect.DeepEqual(c.Values, []float64{1, 2, 3}) {
		t.Errorf("3 values: %v", c.Values)
	}
}
