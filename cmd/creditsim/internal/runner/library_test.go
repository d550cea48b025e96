package runner

import (
	"bytes"
	"flag"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	embeddedtext "github.com/creditsim/creditsim/internal/embedded"
	"github.com/creditsim/creditsim/internal/longtest"
	"github.com/creditsim/creditsim/policy"
	"github.com/creditsim/creditsim/results"
	"github.com/creditsim/creditsim/results/plot"
	"github.com/creditsim/creditsim/scenarios"
)

var update = flag.Bool("update", false, "rewrite the generated parts of docs/scenario-library.md, docs/verdict.md and docs/verdict.png from this run")

// The generated parts of the docs: the claims table, README's verdict
// and its picture, each between its markers.
const (
	readmePath    = "../../../../docs/scenario-library.md"
	claimsBegin   = "<!-- scenario-claims:begin (creditsim scenarios --figures; go test ./cmd/creditsim/internal/runner -run TestLibrary -update) -->\n"
	claimsFinish  = "<!-- scenario-claims:end -->\n"
	frontPage     = "../../../../docs/verdict.md"
	verdictBegin  = "<!-- verdict:begin (creditsim verdict --systems; CREDITSIM_LONGTEST=1 go test ./cmd/creditsim/internal/runner -run TestVerdict -update) -->\n"
	verdictFinish = "<!-- verdict:end -->\n"
	verdictPNG    = "../../../../docs/verdict.png"
)

// TestLibrary runs every built-in scenario at the claim size and checks
// each claim its file makes (numbers with bounds, not only directions),
// then that docs/scenario-library.md shows exactly the table `creditsim scenarios
// --figures` prints; -update rewrites that table.
func TestLibrary(t *testing.T) {
	t.Parallel()
	longtest.Skip(t, "every built-in world at the claim size")
	for _, n := range scenarios.Names() {
		s, err := scenarios.Open(n, nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(s.Claims) == 0 {
			t.Errorf("built-in scenario %s states no claims", n)
		}
		if len(s.Policies) < 7 {
			t.Errorf("%s runs %d policy instances, want every standard one", n, len(s.Policies))
		}
	}
	rs, err := CheckLibrary(runtime.GOMAXPROCS(0), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rs {
		t.Logf("%s: %s %s = %s", r.Scenario, r.Claim.Policy, r.Claim.Figure, FormatClaimValue(r.Value))
		if !r.Holds {
			t.Errorf("%s: %q does not hold: %s %s = %s, want %s", r.Scenario, r.Claim.Text, r.Claim.Policy, r.Claim.Figure,
				FormatClaimValue(r.Value), bound(r.Claim))
		}
	}
	embedded(t, readmePath, claimsBegin, claimsFinish, ClaimsTable(rs))
}

// TestVerdict folds the library's runs (the claims' own) into the
// verdict over every system and checks that docs/verdict.md shows what
// `creditsim verdict --systems` prints and docs/verdict.png is its
// picture; -update rewrites both.
func TestVerdict(t *testing.T) {
	t.Parallel()
	longtest.Skip(t, "every built-in world at the claim size")
	v, err := LibraryVerdict(runtime.GOMAXPROCS(0), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(v.Card.Rows) != len(policy.Standard()) {
		t.Errorf("%d rows, want one per standard policy (%d)", len(v.Card.Rows), len(policy.Standard()))
	}
	for i, r := range v.Card.Rows {
		if v.UseWhen[i] == "" {
			t.Errorf("%s has no advice (policy UseWhen)", r.Policy)
		}
		if math.IsNaN(r.Values[results.ColGain]) {
			t.Errorf("%s: no gain in any world with cheaters", r.Policy)
		}
	}
	embedded(t, frontPage, verdictBegin, verdictFinish, VerdictText(v))
	png, err := plot.VerdictPNG(v)
	if err != nil {
		t.Fatal(err)
	}
	old, err := os.ReadFile(verdictPNG)
	if err == nil && bytes.Equal(old, png) {
		return
	}
	if *update {
		if err := os.WriteFile(verdictPNG, png, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Log("docs/verdict.png rewritten")
		return
	}
	t.Errorf("docs/verdict.png is not the picture of what the runs give (%v); rerun with -update", err)
}

// embedded checks that the file at path holds want between the lines
// begin and end; with -update it writes want there.
func embedded(t *testing.T, path, begin, end, want string) {
	t.Helper()
	embeddedtext.Check(t, path, begin, end, want, "what the runs give", *update)
}

// TestLibraryIntervals: every interval in any built-in's summary lies in
// its figure's range (ratios and spreads at least 0, settle days within
// the days simulated), every figure keeps its value per replication, and
// every built-in's plots render (each PNG decodes and report.html shows
// it).
func TestLibraryIntervals(t *testing.T) {
	t.Parallel()
	longtest.Skip(t, "every built-in world, 3 replications")
	for _, n := range scenarios.Names() {
		t.Run(n, func(t *testing.T) {
			t.Parallel()
			// Small worlds: the test checks ranges and rendering, not
			// figures. Arrivals are cut too: at the built-ins' 20 a day
			// "40 hosts" grew to 600 over a month. Cherry-picker's
			// one-second jobs make tens of thousands of results per
			// host-day, so it runs shorter.
			set := []string{"hosts.initial=40", "hosts.arrivals_per_day=2", "replications=3"}
			if n == "cherry-picker" {
				set = append(set, "duration=12d", "warmup=3d")
			}
			s, err := scenarios.Open(n, set)
			if err != nil {
				t.Fatal(err)
			}
			dir := filepath.Join(t.TempDir(), "out")
			// Without twins: the test's cost is in its three
			// replications, and the twin's figures are ratios, whose
			// geometric intervals cannot leave their range.
			oc, err := Run(s, Options{Workers: 1, Out: dir, NoTwin: true})
			if err != nil {
				t.Fatal(err)
			}
			report, err := os.ReadFile(filepath.Join(dir, "report.html"))
			if err != nil {
				t.Fatal(err)
			}
			pngs, _ := filepath.Glob(filepath.Join(dir, "*.png"))
			if len(pngs) < 4 {
				t.Errorf("only %d plots", len(pngs))
			}
			for _, f := range pngs {
				r, err := os.Open(f)
				if err != nil {
					t.Fatal(err)
				}
				if _, err := png.Decode(r); err != nil {
					t.Errorf("%s: %v", filepath.Base(f), err)
				}
				r.Close()
				if !bytes.Contains(report, []byte(`src="`+filepath.Base(f)+`"`)) {
					t.Errorf("report.html does not show %s", filepath.Base(f))
				}
			}
			days := float64(oc.Summary.SimulatedDays)
			intervals := 0
			for p, ps := range oc.Summary.Policies {
				for k, ci := range ps.CI95 {
					f, _, _ := results.Lookup(k)
					lo, hi := f.Range(days)
					if float64(ci[0]) < lo || float64(ci[1]) > hi || !(ci[0] <= ci[1]) {
						t.Errorf("%s %s: interval [%v, %v] outside [%v, %v]", p, k, ci[0], ci[1], lo, hi)
					}
					intervals++
				}
				if got := ps.PerReplication["honest_ratio"]; len(got) != 3 {
					t.Errorf("%s: per_replication honest_ratio %v, want 3 values", p, got)
				}
			}
			if intervals < 50 {
				t.Errorf("only %d intervals", intervals)
			}
		})
	}
}
