package v3pfc

import (
	"testing"

	"github.com/creditsim/creditsim/policy"
)

// TestAblations: each mechanism a preset has on gives an instance with
// that option off and the preset's others kept; mechanisms already off
// give none; every ablated instance builds.
func TestAblations(t *testing.T) {
	abl, err := policy.Ablations(policy.Spec{Name: "v3pfc-boinc"})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]policy.Spec{}
	for _, a := range abl {
		got[a.Mechanism.Name] = a.Spec
		if _, err := policy.New(a.Spec); err != nil {
			t.Errorf("%s: %v", a.Spec.Name, err)
		}
		if a.Spec.Name != "v3pfc-boinc-no-"+a.Mechanism.Name || a.Spec.Base != "v3pfc-boinc" {
			t.Errorf("ablation named %q on %q", a.Spec.Name, a.Spec.Base)
		}
	}
	for _, m := range []string{"version_norm", "host_norm", "host_cap", "sent_peak", "sanity", "max_granted", "failed_benchmark"} {
		if _, ok := got[m]; !ok {
			t.Errorf("v3pfc-boinc has %s on, but no ablation switches it off", m)
		}
	}
	for _, m := range []string{"median_hosts", "one_time", "cherry"} {
		if _, ok := got[m]; ok {
			t.Errorf("v3pfc-boinc has %s off, yet an ablation switches it off", m)
		}
	}
	if s := got["host_norm"]; s.Options["host_norm"] != "false" || len(s.Options) != 1 {
		t.Errorf("host_norm ablation options %v", s.Options)
	}
	// An instance's own options are kept; its guard is ablated too.
	abl, err = policy.Ablations(policy.Spec{Name: "g", Base: "v3pfc-design-v29", Options: policy.Options{"cherry": "probation"}})
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, a := range abl {
		if a.Mechanism.Name == "cherry" {
			found = a.Spec.Options["cherry"] == "none"
		} else if a.Spec.Options["cherry"] != "probation" {
			t.Errorf("%s lost the instance's cherry option: %v", a.Spec.Name, a.Spec.Options)
		}
	}
	if !found {
		t.Error("no ablation of the instance's cherry guard")
	}
}

// TestV4TrustAblations: the fourth system's own mechanisms (the trust
// gate, the robust version mean, the cap) are each switched off, with its
// other options kept.
func TestV4TrustAblations(t *testing.T) {
	abl, err := policy.Ablations(policy.Spec{Name: "v4trust"})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]policy.Spec{}
	for _, a := range abl {
		got[a.Mechanism.Name] = a.Spec
	}
	for m, off := range map[string][2]string{"host_trust": {"host_trust", "0"}, "median_hosts": {"median_hosts", "false"}, "host_cap": {"host_cap", "0"}} {
		s, ok := got[m]
		if !ok {
			t.Errorf("v4trust has %s on, but no ablation switches it off", m)
			continue
		}
		if s.Options[off[0]] != off[1] {
			t.Errorf("%s ablation: options %v", m, s.Options)
		}
		p, err := policy.New(s)
		if err != nil {
			t.Fatal(err)
		}
		if c := p.(*Policy).Config(); c.HostQuantile != 0.25 || (m != "host_trust" && c.HostTrust != 20) {
			t.Errorf("%s ablation lost v4trust's other options: %+v", m, c)
		}
	}
}
