package runner

import (
	"encoding/csv"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"testing"

	"github.com/creditsim/creditsim/scenarios"
)

// TestIdentityChurnOutputs: a world whose agents register anew every few
// results writes every output with finite values only (identities made
// ahead and never woken are not hosts of the run, nor rows of hosts.csv),
// and gives the churn a
// gain over its honest twin, each identity mapped back to its machine.
func TestIdentityChurnOutputs(t *testing.T) {
	t.Parallel()
	s, err := scenarios.Open("baseline", []string{"hosts.initial=60", "duration=12d", "warmup=2d", "replications=1",
		"policies=[v1peak, v3pfc-boinc]",
		"hosts.agents=[{kind: benchmark_inflation, share: 0.2, k: 3, and: {kind: new_identity, results: 5}}]"})
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "out")
	oc, err := Run(s, Options{Out: dir, NoPlots: testing.Short()})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"v1peak", "v3pfc-boinc"} {
		g := float64(oc.Summary.Policies[p].Gain["benchmark_inflation+new_identity"])
		if !(g > 0) {
			t.Errorf("%s: gain %v", p, g)
		}
	}
	// Every row of hosts.csv is a host that came: never a woken-never
	// identity, whose arrival would be an empty cell.
	f, err := os.Open(filepath.Join(dir, "hosts.csv"))
	if err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(f).ReadAll()
	f.Close()
	if err != nil || len(rows) < 2 {
		t.Fatalf("hosts.csv: %d rows, %v", len(rows), err)
	}
	col := slices.Index(rows[0], "arrival_day")
	for _, r := range rows[1:] {
		if r[col] == "" {
			t.Fatalf("hosts.csv has a host that never arrived: %v", r[:6])
		}
	}
	bad := regexp.MustCompile(`(?i)\b(nan|[+-]?inf)\b`)
	files, _ := filepath.Glob(filepath.Join(dir, "*"))
	for _, f := range files {
		if filepath.Ext(f) != ".csv" && filepath.Ext(f) != ".json" {
			continue
		}
		b, _ := os.ReadFile(f)
		if m := bad.Find(b); m != nil {
			t.Errorf("%s holds %q", filepath.Base(f), m)
		}
	}
}
