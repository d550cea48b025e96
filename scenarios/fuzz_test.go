package scenarios

import (
	"math"
	"os"
	"path/filepath"
	"testing"
)

// FuzzLoad loads arbitrary scenario text with an arbitrary --set: it must
// never panic, and what it accepts must be a valid scenario whose
// resolved form loads back to the same bytes, with a finite or infinite
// (never NaN) size estimate. Seeds: the built-ins and the bad corpus of
// the CLI tests.
func FuzzLoad(f *testing.F) {
	for _, n := range Names() {
		b, _ := Builtin(n)
		f.Add(b, "")
	}
	bad, _ := filepath.Glob("../cmd/creditsim/internal/cli/testdata/bad/*.yaml")
	for _, file := range bad {
		if b, err := os.ReadFile(file); err == nil {
			f.Add(b, "")
		}
	}
	base, _ := Builtin("baseline")
	for _, set := range []string{"hosts.arrivals_per_day=.inf", "hosts.initial=1e9", "duration=3650000d",
		"server.validator_period=0.000001s", "hosts.cpu.cores=1e9", "projects[0].apps[0].rsc_fpops_est=1e-300",
		"hosts.cpu.whetstone_gflops=1e300", "seed=-.inf", "seed=18446744073709551616", "reference_scale=.inf",
		"hosts.platforms=[{name: linux, share: 0.7}, {name: windows, share: 0.5}]", "name=../../x",
		"policies=[{name: ../../../x}]", "hosts.lifetime={dist: choice, values: [1d, 2d], weights: [1]}",
		"hosts.cpu.cores={dist: normal, mean: 4, sd: 1, max: .nan}", "projects[9].name=x", "hosts.agents[0]=x",
		"hosts.error_rate=0", "projects[0].apps[0].size_error.cv=0", "hosts.cpu.cores.weights=null"} {
		f.Add(base, set)
	}
	f.Fuzz(func(t *testing.T, data []byte, set string) {
		var sets []string
		if set != "" {
			sets = []string{set}
		}
		s, err := Load("fuzz.yaml", data, sets)
		if err != nil {
			if err.Error() == "" {
				t.Fatal("an error without a message")
			}
			return
		}
		if errs := s.Validate(); len(errs) > 0 {
			t.Fatalf("accepted, but Validate says %v", errs)
		}
		if e := s.EstimateResults(); math.IsNaN(e) {
			t.Fatal("the size estimate is NaN")
		}
		b, _, err := Resolved(s)
		if err != nil {
			t.Fatal(err)
		}
		s2, err := Load("resolved.yaml", b, nil)
		if err != nil {
			t.Fatalf("the resolved scenario does not load: %v\n%s", err, b)
		}
		if b2, _, _ := Resolved(s2); string(b2) != string(b) {
			t.Fatalf("resolving twice changes the scenario:\n%s\n---\n%s", b, b2)
		}
	})
}
