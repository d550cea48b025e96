package runner

import (
	"bytes"
	"encoding/json"
	"github.com/creditsim/creditsim/world"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	_ "github.com/creditsim/creditsim/policy/all" // every credit system

	"github.com/creditsim/creditsim/scenarios"
)

// ideal is a world where the first system is exact: honest hosts that are
// always on, no noise or errors, Dhrystone equal to Whetstone, CPU time
// equal to elapsed time, and D at the first system's scale of 100.
const ideal = `
name: ideal
replications: 2
duration: 12d
warmup: 2d
reference_scale: 100
policies: [v1peak]
hosts:
  initial: 50
  arrivals_per_day: 0
  lifetime: 1000d
  cpu: {dhrystone_ratio: 1}
  platforms: [{name: linux, share: 1}]
  availability: {model: always}
  error_rate: 0
  invalid_rate: 0
  runtime_noise: 0
projects:
  - name: p
    apps:
      - name: a
        rsc_fpops_est: 2e13
        size_error: 1
        delay_bound: 3d
        versions:
          - {platform: linux, efficiency: EFF, cpu_time_fraction: 1}
`

// skipLong skips a test that simulates for seconds under -short: the
// short suite checks in seconds, the full one runs every simulation.
func skipLong(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("a long simulation: runs without -short")
	}
}

// shortWorld keeps one replication of a test world under -short; the
// checks hold on one with the margins they state.
func shortWorld() []string {
	if testing.Short() {
		return []string{"replications=1"}
	}
	return nil
}

func runScenario(t *testing.T, text string, sets ...string) *Outcome {
	t.Helper()
	s, err := scenarios.Load("test.yaml", []byte(text), append(shortWorld(), sets...))
	if err != nil {
		t.Fatal(err)
	}
	// No honest twins: the tests that use this read G/D figures, and a
	// twin would double their cost.
	oc, err := Run(s, Options{NoTwin: true})
	if err != nil {
		t.Fatal(err)
	}
	return oc
}

// Physical sanity: with efficiency 1 the first system grants exactly the
// deserved credit; at efficiency 0.5 jobs take twice as long, and the
// first system (which pays CPU time x peak speed) grants twice as much.
func TestPhysicalSanity(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		eff  string
		want float64
	}{{"1", 1}, {"0.5", 2}} {
		oc := runScenario(t, string(bytes.ReplaceAll([]byte(ideal), []byte("EFF"), []byte(c.eff))))
		p := oc.Summary.Policies["v1peak"]
		if got := float64(p.HonestRatio); math.Abs(got-c.want) > 1e-9 {
			t.Errorf("efficiency %s: honest G/D = %.12g, want %g", c.eff, got, c.want)
		}
		if oc.Summary.CountedResults < 1000 {
			t.Errorf("efficiency %s: only %d results counted", c.eff, oc.Summary.CountedResults)
		}
		// Without noise, once a host has 10 samples R(J, H) = E(J) x
		// ETmean(H, V) is exact; every counted job comes after that. But
		// the scheduler clamps elapsed time to the turnaround in whole
		// seconds (boinc.CheckTimes), so a job that ran from the moment
		// it was sent to the moment it was reported may lose part of a
		// second from its ET sample: an error of the order of 1e-8.
		if e := float64(oc.Summary.RuntimeEstimateError); !(e < 1e-6) {
			t.Errorf("efficiency %s: runtime estimate error %g, want 0 but for whole-second turnarounds (< 1e-6)", c.eff, e)
		}
		// Identical hosts apart from speed: no spread at all.
		if cv := float64(p.HostNeutralityCV); cv > 1e-9 {
			t.Errorf("efficiency %s: host CV %g, want 0", c.eff, cv)
		}
	}
}

func readOutputs(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if e.Name() == "run-info.json" {
			continue // timings: the one output that differs between runs
		}
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		out[e.Name()] = b
	}
	return out
}

// Determinism: the same scenario and seed give byte-identical outputs
// whatever GOMAXPROCS and the number of parallel replications, their
// honest twins (the scenario has agents) included.
func TestDeterminism(t *testing.T) {
	size := []string{"hosts.initial=80", "duration=14d", "warmup=2d", "replications=3"}
	if testing.Short() {
		size = []string{"hosts.initial=30", "duration=10d", "warmup=2d", "replications=2"}
	}
	s, err := scenarios.Open("baseline", append(size,
		"policies=[v1peak, v2actual, sciunited, v3pfc-boinc, v3pfc-boinc-classic, v3pfc-design-v29, v3pfc-design-v2, {name: median, base: v3pfc-boinc, options: {median_hosts: true}}]",
		"hosts.agents=[{kind: colluding_fakes, share: 0.05}, {kind: benchmark_inflation, share: 0.05, k: 3}]"))
	if err != nil {
		t.Fatal(err)
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	var runs []map[string][]byte
	configs := []struct{ procs, workers int }{{1, 1}, {2, 0}, {2, 3}}
	if testing.Short() {
		configs = configs[:2]
	}
	for i, c := range configs {
		runtime.GOMAXPROCS(c.procs)
		dir := filepath.Join(t.TempDir(), "out")
		// The plots are most of the short run's cost; the full test
		// compares them too.
		if _, err := Run(s, Options{Out: dir, Workers: c.workers, NoPlots: testing.Short()}); err != nil {
			t.Fatal(err)
		}
		runs = append(runs, readOutputs(t, dir))
		if i == 0 && len(runs[0]) < 4 {
			t.Fatalf("only %d outputs", len(runs[0]))
		}
	}
	for i := 1; i < len(runs); i++ {
		for name, b := range runs[0] {
			if !bytes.Equal(b, runs[i][name]) {
				t.Errorf("run %d: %s differs", i, name)
			}
		}
	}
	// A different seed gives different results.
	s.Seed = 2
	dir := filepath.Join(t.TempDir(), "out")
	if _, err := Run(s, Options{Out: dir, NoPlots: true}); err != nil {
		t.Fatal(err)
	}
	if bytes.Equal(readOutputs(t, dir)["summary.json"], runs[0]["summary.json"]) {
		t.Error("seed 2 gives the same summary as seed 1")
	}
	checkRunInfo(t, dir)
}

// checkRunInfo: run-info.json records the cost of the run, consistently.
func checkRunInfo(t *testing.T, dir string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "run-info.json"))
	if err != nil {
		t.Fatal(err)
	}
	var info struct {
		Results     float64 `json:"results"`
		CPU         float64 `json:"simulation_cpu_seconds"`
		PerCPU      float64 `json:"results_per_cpu_second"`
		PeakLive    float64 `json:"peak_live_heap_bytes"`
		PeakRSS     float64 `json:"peak_rss_bytes"`
		PeakEngine  float64 `json:"peak_engine_bytes"`
		PerWallSecs float64 `json:"results_per_second"`
	}
	if err := json.Unmarshal(b, &info); err != nil {
		t.Fatal(err)
	}
	if info.Results <= 0 || info.CPU <= 0 || info.PeakLive <= 0 || info.PeakEngine <= 0 || info.PerWallSecs <= 0 {
		t.Fatalf("run-info.json lacks a cost: %s", b)
	}
	if got := info.Results / info.CPU; math.Abs(got-info.PerCPU) > 1e-9*got {
		t.Errorf("results_per_cpu_second %g, but results / simulation_cpu_seconds = %g", info.PerCPU, got)
	}
	if runtime.GOOS == "linux" && info.PeakRSS < info.PeakLive {
		t.Errorf("peak RSS %g below the peak live heap %g", info.PeakRSS, info.PeakLive)
	}
}

// Adding a host does not change the draws of the others.
func TestStreamIndependence(t *testing.T) {
	t.Parallel()
	a, _ := scenarios.Open("baseline", []string{"hosts.initial=30", "hosts.arrivals_per_day=0"})
	b, _ := scenarios.Open("baseline", []string{"hosts.initial=31", "hosts.arrivals_per_day=0"})
	ca, _ := world.Config(a, 0, nil)
	cb, _ := world.Config(b, 0, nil)
	ha, hb := simHosts(ca), simHosts(cb)
	if len(hb) != len(ha)+1 {
		t.Fatalf("%d and %d hosts", len(ha), len(hb))
	}
	for i := range ha {
		if *ha[i] != *hb[i] {
			t.Fatalf("host %d changed when a host was added:\n%+v\n%+v", i, *ha[i], *hb[i])
		}
	}
}

// TestRACReadsTrueSpeed: where the first system is exact (efficiency 1,
// scale 100), a host's RAC / 100 reads its true GFLOPS under the same
// 7-day weighting once the first-grant spike has decayed (60 days).
func TestRACReadsTrueSpeed(t *testing.T) {
	t.Parallel()
	skipLong(t)
	oc := runScenario(t, string(bytes.ReplaceAll([]byte(ideal), []byte("EFF"), []byte("1"))), "duration=60d", "warmup=50d")
	r := oc.Summary.Policies["v1peak"].RACGFLOPS
	t.Logf("RAC/100 over true GFLOPS %.4f, RAC/200 %.4f", float64(r["100"]), float64(r["200"]))
	if x := float64(r["100"]); math.Abs(x-1) > 0.05 {
		t.Errorf("RAC/100 over true GFLOPS = %.4f, want 1 within 5%%", x)
	}
	if x, y := float64(r["200"]), float64(r["100"]); math.Abs(x-y/2) > 1e-9*y {
		t.Errorf("RAC/200 reading %.6g is not half the RAC/100 one %.6g", x, y)
	}
	// Job-based credit gives every valid replica the same credit.
	if s := float64(oc.Summary.Policies["v1peak"].CreditSpread); s != 0 {
		t.Errorf("credit spread %g under v1peak, want 0", s)
	}
}
