package v1peak

import (
	"math"
	"testing"

	"github.com/creditsim/creditsim/policy"
)

func newPolicy(t *testing.T, opts policy.Options) *Policy {
	t.Helper()
	p, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	p.Init(&policy.World{Versions: []policy.AppVersion{{Resource: policy.CPU}, {ID: 1, Resource: policy.NVIDIA, CountsFlops: true}, {ID: 2, Resource: policy.NVIDIA}}})
	return p.(*Policy)
}

// A reported Einstein@Home result: Whetstone 1394.01 MIPS, Dhrystone
// 2630.73 MIPS and 37,698.16 s of CPU time claimed 87.80 credits.
func TestEinsteinAtHomeClaim(t *testing.T) {
	p := newPolicy(t, nil)
	r := &policy.Result{HostPFpops: 1394.01e6, HostPIops: 2630.73e6, CPUTime: 37698.16}
	if got := p.Claim(r); math.Abs(got-87.80) > 0.005 {
		t.Errorf("claim = %.4f, want 87.80", got)
	}
	// Seeds 001/004: C1 = whetstone x cpu_time.
	w := newPolicy(t, policy.Options{"benchmark": "whetstone"})
	want := 37698.16 * 1394.01e6 * 100 / 86400e9
	if got := w.Claim(r); math.Abs(got-want) > 1e-9 {
		t.Errorf("whetstone claim = %v, want %v", got, want)
	}
}

// Seed 000: 1000 MIPS of each benchmark for a day of CPU time is 100 credits.
func TestReferenceComputer(t *testing.T) {
	p := newPolicy(t, nil)
	r := &policy.Result{HostPFpops: 1e9, HostPIops: 1e9, CPUTime: 86400}
	if got := p.Claim(r); got != 100 {
		t.Errorf("got %v, want 100", got)
	}
	s := newPolicy(t, policy.Options{"scale": "200"})
	if got := s.Claim(r); got != 200 {
		t.Errorf("scale 200: got %v", got)
	}
}

func TestReplicaRules(t *testing.T) {
	// Claims of 10, 20 and 60 credits (CPU time scales the claim).
	mk := func(creds ...float64) *policy.Validation {
		v := &policy.Validation{}
		for _, c := range creds {
			v.Valid = append(v.Valid, &policy.Result{HostPFpops: 1e9, HostPIops: 1e9, CPUTime: c * 864})
		}
		return v
	}
	for _, c := range []struct {
		rule  string
		creds []float64
		want  float64
	}{
		{"boinc-pre2010", []float64{10}, 10},
		{"boinc-pre2010", []float64{10, 20}, 10},
		{"boinc-pre2010", []float64{10, 20, 60}, 20},
		{"boinc-pre2010", []float64{10, 20, 30, 60}, 25},
		{"min", []float64{10, 20, 60}, 10},
		{"mean", []float64{10, 20, 60}, 30},
	} {
		p := newPolicy(t, policy.Options{"replicas": c.rule})
		if got := p.Validated(mk(c.creds...)); math.Abs(got-c.want) > 1e-9 {
			t.Errorf("%s %v: %v, want %v", c.rule, c.creds, got, c.want)
		}
	}
}

// TestGPUClaims: by default a GPU app claims for itself, its counted
// FLOPs when it counts them, otherwise its workunit's estimate; with gpu
// cpu_time a GPU job with little CPU time claims little.
func TestGPUClaims(t *testing.T) {
	r := &policy.Result{VersionID: 1, HostPFpops: 4e9, HostPIops: 4e9, CPUTime: 100, CountedFlops: 8.64e14, RscFpopsEst: 4.32e14}
	v := &policy.Validation{Valid: []*policy.Result{r}}
	if got := newPolicy(t, nil).Validated(v); math.Abs(got-1000) > 1e-9 {
		t.Errorf("app_claim, counted: %v, want 1000", got)
	}
	if got, want := newPolicy(t, policy.Options{"gpu": "cpu_time"}).Validated(v), 100*4e9*100/86400e9; math.Abs(got-want) > 1e-12 {
		t.Errorf("cpu_time: %v, want %v", got, want)
	}
	nc := *r
	nc.VersionID = 2 // a GPU version that does not count
	if got := newPolicy(t, nil).Validated(&policy.Validation{Valid: []*policy.Result{&nc}}); math.Abs(got-500) > 1e-9 {
		t.Errorf("app_claim, estimate: %v, want 500", got)
	}
	// CPU jobs are unaffected.
	cpu := *r
	cpu.VersionID = 0
	if got, want := newPolicy(t, nil).Validated(&policy.Validation{Valid: []*policy.Result{&cpu}}), 100*4e9*100/86400e9; math.Abs(got-want) > 1e-12 {
		t.Errorf("CPU job: %v, want %v", got, want)
	}
}

func TestAbsurdClaimStaysFinite(t *testing.T) {
	p := newPolicy(t, policy.Options{"replicas": "mean"})
	v := &policy.Validation{Valid: []*policy.Result{
		{HostPFpops: 1e304, HostPIops: 1e304, CPUTime: 1e6},
		{HostPFpops: 1e304, HostPIops: 1e304, CPUTime: 1e6},
	}}
	if got := p.Validated(v); math.IsInf(got, 0) || math.IsNaN(got) || got <= 0 {
		t.Errorf("got %v", got)
	}
}

func TestBadOptions(t *testing.T) {
	for _, o := range []policy.Options{{"scale": "-1"}, {"benchmark": "linpack"}, {"replicas": "max"}, {"gpu": "x"}} {
		if _, err := New(o); err == nil {
			t.Errorf("%v accepted", o)
		}
	}
}

// max_granted_credit caps a workunit's credit (the validator's option of
// 2006); 0, the default, is no cap, so a one-time claim of 1e304 is paid.
func TestMaxGrantedCredit(t *testing.T) {
	v := &policy.Validation{Valid: []*policy.Result{{HostPFpops: 1e304, HostPIops: 1e304, CPUTime: 1000}}}
	for _, c := range []struct {
		max  string
		want float64
	}{{"0", policy.MaxClaim}, {"7.3e7", 7.3e7}, {"1e9", 1e9}} {
		if got := newPolicy(t, policy.Options{"max_granted_credit": c.max}).Validated(v); got != c.want {
			t.Errorf("max_granted_credit %s: %v, want %v", c.max, got, c.want)
		}
	}
	small := &policy.Validation{Valid: []*policy.Result{{HostPFpops: 1e9, HostPIops: 1e9, CPUTime: 864}}}
	if got := newPolicy(t, policy.Options{"max_granted_credit": "7.3e7"}).Validated(small); got != 1 {
		t.Errorf("a claim under the cap: %v, want 1", got)
	}
	if _, err := New(policy.Options{"max_granted_credit": "-1"}); err == nil {
		t.Error("a negative max_granted_credit was accepted")
	}
}
