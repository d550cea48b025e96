package replay_test

import (
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/creditsim/creditsim/cmd/creditsim/internal/replay"
	"github.com/creditsim/creditsim/cmd/creditsim/internal/runner"
	"github.com/creditsim/creditsim/internal/longtest"
	"github.com/creditsim/creditsim/policy"
	_ "github.com/creditsim/creditsim/policy/all"
	"github.com/creditsim/creditsim/scenarios"
)

// roundTrip runs a scenario with --trace, replays the trace through every
// policy it supports, and checks each result's credit is exactly the
// run's.
func roundTrip(t *testing.T, name string, sets ...string) {
	t.Helper()
	roundTripAs(t, "trace.csv", name, sets...)
}

// roundTripAs is roundTrip with the trace written to a file of that
// name (a .gz one compressed).
func roundTripAs(t *testing.T, file, name string, sets ...string) {
	t.Helper()
	s, err := scenarios.Open(name, append([]string{"replications=1"}, sets...))
	if err != nil {
		t.Fatal(err)
	}
	trace := filepath.Join(t.TempDir(), file)
	if _, err := runner.Run(s, runner.Options{Trace: trace}); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(trace)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	magic := make([]byte, 2)
	if _, err := io.ReadFull(f, magic); err != nil {
		t.Fatal(err)
	}
	if gz := magic[0] == 0x1f && magic[1] == 0x8b; gz != strings.HasSuffix(file, ".gz") {
		t.Fatalf("%s: gzip-compressed %v", file, gz)
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		t.Fatal(err)
	}
	in, err := replay.Read(trace, f)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	var specs []policy.Spec
	for _, p := range s.Policies {
		k, opts, err := policy.Resolve(p.Spec())
		if err != nil {
			t.Fatal(err)
		}
		if ok, _ := replay.Supported(k, opts, in); ok {
			names = append(names, p.Name)
			specs = append(specs, p.Spec())
		}
	}
	if len(names) < len(s.Policies)-1 {
		t.Fatalf("only %v of %d policies run on a trace", names, len(s.Policies))
	}
	o, err := replay.Run(in, names, specs)
	if err != nil {
		t.Fatal(err)
	}
	granted, differ := 0, 0
	for i, r := range in.Rows {
		for p, n := range names {
			want, ok := r.Credit[n]
			if !ok || math.IsNaN(want) {
				continue
			}
			if want > 0 {
				granted++
			}
			if got := o.Credit[i][p]; got != want {
				if differ < 5 {
					t.Errorf("%s: result %d: replay %v, run %v", n, r.ResultID, got, want)
				}
				differ++
			}
		}
	}
	if differ > 0 {
		t.Errorf("%d of the credits differ", differ)
	}
	if granted < 500 {
		t.Errorf("only %d credits compared", granted)
	}
	t.Logf("%d results, %d credits compared exactly over %v", len(in.Rows), granted, names)
}

func TestTraceRoundTrip(t *testing.T) {
	// run --trace FILE.gz compresses it, and replay reads it back.
	roundTripAs(t, "trace.csv.gz", "baseline", "hosts.initial=40", "duration=10d", "warmup=2d")
	if testing.Short() {
		roundTrip(t, "baseline", "hosts.initial=40", "duration=10d", "warmup=2d")
		return
	}
	roundTrip(t, "baseline", "hosts.initial=150", "duration=14d", "warmup=3d")
}

// Every kind of event: agents, errors, aborts, timeouts, late and
// invalid results, GPUs, the cherry-picking guards and their options.
func TestTraceRoundTripEveryEvent(t *testing.T) {
	if testing.Short() {
		t.Skip("seconds of simulation: runs without -short")
	}
	if !longtest.Enabled() {
		// Every kind of event happens in these smaller worlds too; the
		// long checks replay the larger ones.
		roundTrip(t, "cheaters", "hosts.initial=50", "hosts.arrivals_per_day=2", "duration=10d", "warmup=2d")
		roundTrip(t, "cherry-picker", "hosts.initial=20", "duration=6d", "warmup=1d")
		roundTrip(t, "gpu-mix", "hosts.initial=40", "hosts.gpu.count={dist: const, mean: 2}", "duration=10d", "warmup=2d")
		roundTrip(t, "anonymous-platform", "hosts.initial=50", "hosts.arrivals_per_day=2", "duration=10d", "warmup=2d")
		return
	}
	roundTrip(t, "cheaters", "hosts.initial=120", "hosts.arrivals_per_day=4", "duration=14d", "warmup=3d")
	roundTrip(t, "cherry-picker", "hosts.initial=50", "duration=10d", "warmup=2d")
	roundTrip(t, "gpu-mix", "hosts.initial=120", "hosts.arrivals_per_day=4", "duration=14d", "warmup=3d")
	// Hosts with two GPUs: p_gpu_fpops is written as their sum and read
	// back as one GPU's peak.
	roundTrip(t, "gpu-mix", "hosts.initial=60", "duration=10d", "warmup=2d", "hosts.gpu.count={dist: const, mean: 2}")
	roundTrip(t, "anonymous-platform", "hosts.initial=120", "hosts.arrivals_per_day=4", "duration=14d", "warmup=3d")
}
