package ablate

import (
	"strings"
	"testing"

	_ "github.com/creditsim/creditsim/policy/all" // every credit system

	"github.com/creditsim/creditsim/scenarios"
)

// TestPlan: the override names the instance and its variants, in order,
// with the instance's own options kept, and loads as a scenario.
func TestPlan(t *testing.T) {
	s, err := scenarios.Open("cherry-picker", nil)
	if err != nil {
		t.Fatal(err)
	}
	pl, err := New(s, "v3pfc-boinc-scalecheck")
	if err != nil {
		t.Fatal(err)
	}
	s2, err := scenarios.Open("cherry-picker", []string{pl.Override})
	if err != nil {
		t.Fatalf("%s: %v", pl.Override, err)
	}
	names := pl.Names()
	if len(s2.Policies) != len(names) || names[0] != "v3pfc-boinc-scalecheck" {
		t.Fatalf("policies %v, want %v", s2.Policies, names)
	}
	for i, p := range s2.Policies {
		if p.Name != names[i] {
			t.Errorf("policy %d is %s, want %s", i, p.Name, names[i])
		}
		if i > 0 && p.Base != "v3pfc-boinc" {
			t.Errorf("%s is based on %q, want the instance's base v3pfc-boinc", p.Name, p.Base)
		}
		if i > 0 && !strings.HasSuffix(p.Name, "-no-cherry") && p.Options["cherry"] != "cons_valid" {
			t.Errorf("%s lost the instance's cherry guard: %v", p.Name, p.Options)
		}
	}
	if _, err := New(s, "v1peak"); err == nil || !strings.Contains(err.Error(), "no mechanism") {
		t.Errorf("v1peak: %v; want no mechanism to switch off", err)
	}
	if _, err := New(s, "v3pfc-boinc-nope"); err == nil || !strings.Contains(err.Error(), "not a policy of cherry-picker") {
		t.Errorf("unknown instance: %v", err)
	}
}
