package policy_test

import (
	"math"
	"testing"

	_ "github.com/creditsim/creditsim/policy/all" // every credit system

	"github.com/creditsim/creditsim/policy"
)

// FuzzPolicies feeds every registered policy a warm-up of ordinary
// results and then one result reporting whatever the fuzzer chooses
// (absurd benchmarks, times, counts, estimates), and checks that every
// credit it grants stays finite and non-negative and every gauge finite:
// absurd claims are modelled, never turned into NaN or Inf.
func FuzzPolicies(f *testing.F) {
	f.Add(4e9, 8e9, uint8(4), 1e12, uint8(1), 3600.0, 3600.0, 0.0, 1e13, 1e14, uint8(30), false)
	f.Add(1e304, 1e304, uint8(255), 1e304, uint8(255), 1e304, 1e304, 1e304, 1e13, 1e14, uint8(200), true)
	f.Add(1e9, 1e9, uint8(1), 0.0, uint8(0), 0.0, 0.0, 0.0, 1e-300, 1e-300, uint8(0), false)
	f.Add(math.Inf(1), math.Inf(1), uint8(0), math.Inf(1), uint8(3), 5.0, math.Inf(1), math.Inf(1), 0.0, 1.0, uint8(5), true)
	f.Add(5e-324, 5e-324, uint8(1), 5e-324, uint8(1), 5e-324, 5e-324, 5e-324, 5e-324, 5e-324, uint8(120), false)
	f.Fuzz(func(t *testing.T, pfpops, piops float64, ncpus uint8, gpuPeak float64, ngpus uint8,
		elapsed, cpuTime, counted, est, bound float64, warmup uint8, gpu bool) {
		// What a host reports can be anything the engine can carry: any
		// non-negative number, +Inf included (an agent's claim), never NaN.
		for _, x := range []float64{pfpops, piops, gpuPeak, elapsed, cpuTime, counted, est, bound} {
			if math.IsNaN(x) || x < 0 {
				t.Skip()
			}
		}
		for _, name := range policy.Names() {
			p, err := policy.New(policy.Spec{Name: name})
			if err != nil {
				t.Fatal(err)
			}
			exercise(t, name, p, pfpops, piops, int(ncpus), gpuPeak, int(ngpus), elapsed, cpuTime, counted, est, bound, int(warmup), gpu)
		}
	})
}

func exercise(t *testing.T, name string, p policy.Policy, pfpops, piops float64, ncpus int, gpuPeak float64, ngpus int,
	elapsed, cpuTime, counted, est, bound float64, warmup int, gpu bool) {
	w := &policy.World{
		Projects: []policy.Project{{ID: 0, Name: "p"}},
		Apps:     []policy.App{{ID: 0, ProjectID: 0, Name: "a", MinQuorum: 1, TargetNResults: 1, DelayBound: 7 * 86400}},
		Versions: []policy.AppVersion{
			{ID: 0, AppID: 0, Name: "cpu", Platform: "linux", Resource: policy.CPU, CPUUsage: 1, CountsFlops: true},
			{ID: 1, AppID: 0, Name: "gpu", Platform: "linux", PlanClass: "cuda", Resource: policy.NVIDIA, CPUUsage: 0.1, GPUUsage: 1, CountsFlops: true},
		},
		MaxHosts: 3, MaxUsers: 3, MaxTeams: 1, Start: 0, End: 1e7,
	}
	p.Init(w)
	check := func(what string, x float64) {
		// A client report may be negative: a reconciliation takes back.
		if math.IsNaN(x) || math.IsInf(x, 0) || x < 0 && what != "client report" {
			t.Fatalf("%s: %s = %v", name, what, x)
		}
	}
	now := 0.0
	id := int64(0)
	run := func(r *policy.Result) {
		id++
		r.ID, r.WorkunitID, r.SentTime = id, id, now
		p.Sent(r)
		now += 3600
		r.ReceivedTime, r.Outcome, r.ValidateState = now, policy.Success, policy.Valid
		p.Reported(r)
		check("credit", p.Validated(&policy.Validation{Time: now, WorkunitID: id, AppID: 0, RscFpopsEst: r.RscFpopsEst, RscFpopsBound: r.RscFpopsBound, Valid: []*policy.Result{r}}))
		p.Tick(policy.Tick{Kind: policy.ValidatorPassEnd, Time: now})
		if int(id)%10 == 0 {
			p.Tick(policy.Tick{Kind: policy.FeederTick, Time: now})
			p.Tick(policy.Tick{Kind: policy.DayTick, Time: now})
		}
	}
	// Warm-up: two ordinary hosts, so statistics have samples.
	for i := 0; i < warmup; i++ {
		h := i % 2
		run(&policy.Result{HostID: int32(h), UserID: int32(h), VersionID: int32(i % 2), HostNCPUs: 4, HostPFpops: 4e9, HostPIops: 8e9, HostNGPUs: 1, HostGPUPeak: 1e12,
			FlopsEstimate: 4e9 + float64(i%2)*1e12, ElapsedTime: 2500, CPUTime: 2500, CountedFlops: 1e13, RscFpopsEst: 1e13, RscFpopsBound: 1e14,
			HAV: policy.HAVState{ConsecutiveValid: int32(i)}})
	}
	v := 0
	if gpu {
		v = 1
	}
	run(&policy.Result{HostID: 2, UserID: 2, VersionID: int32(v), HostNCPUs: int32(ncpus), HostPFpops: pfpops, HostPIops: piops, HostNGPUs: int32(ngpus), HostGPUPeak: gpuPeak,
		FlopsEstimate: pfpops, ElapsedTime: elapsed, CPUTime: cpuTime, CountedFlops: counted, RscFpopsEst: est, RscFpopsBound: bound,
		HAV: policy.HAVState{ConsecutiveValid: int32(warmup)}})
	// A late result found invalid: no valid replica in the validation.
	check("late invalid", p.Validated(&policy.Validation{Time: now, WorkunitID: id, Late: true, CanonicalCredit: 1,
		RscFpopsEst: est, RscFpopsBound: bound, Invalid: []*policy.Result{{HostID: 2, VersionID: int32(v), ElapsedTime: elapsed, ValidateState: policy.Invalid}}}))
	check("client report", p.ClientReport(&policy.ClientReport{Time: now + 43200, HostID: 2, UserID: 2, ProjectID: 0,
		EstimatedCPUFlops: elapsed * pfpops, EstimatedGPUFlops: elapsed * gpuPeak, NCPUs: ncpus, CPUPeak: pfpops, NGPUs: ngpus, GPUPeak: gpuPeak}))
	if g, ok := p.(policy.Gauger); ok {
		for _, x := range g.Gauges(nil) {
			check("gauge "+x.Name, x.Value)
		}
	}
}
