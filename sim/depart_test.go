package sim_test

import (
	"math"
	"testing"

	_ "github.com/creditsim/creditsim/policy/all" // every credit system

	"github.com/creditsim/creditsim/boinc/rng"
	"github.com/creditsim/creditsim/model/hosts"
	"github.com/creditsim/creditsim/policy"
	"github.com/creditsim/creditsim/scenarios"
	"github.com/creditsim/creditsim/sim"
	"github.com/creditsim/creditsim/world"
)

// departRec keeps what the observer sees of each result: its truth and
// each policy's credit.
type departRec struct {
	view    policy.Result
	flops   float64
	runtime float64
	eff     float64
	peak    float64 // the host's true peak FLOPS for the job
	depart  float64
	granted []float64
}

type departObserver struct{ recs []departRec }

func (o *departObserver) ResultDone(r *sim.Record) {
	peak := r.Version.CPUUsage * r.Host.Whetstone
	o.recs = append(o.recs, departRec{view: *r.View, flops: r.Flops, runtime: r.Runtime, eff: r.Efficiency,
		peak: peak, depart: r.Host.Departure, granted: append([]float64(nil), r.Granted...)})
}
func (o *departObserver) Day(*sim.DayState) {}

// TestDepartedHostsResults: a host that leaves abandons what it holds.
// D of each result is the FLOPs it really did: none for a queued job,
// the part it ran for a running one, all of them for a job that finished
// but was never reported. The job-based systems grant those results
// nothing; Science United's G of each result is what its calls paid for
// the result's runtime, so over a departed host's results G adds up to
// exactly what the host's calls were granted (runtime since its last
// call is never paid).
func TestDepartedHostsResults(t *testing.T) {
	slowInShort(t)
	t.Parallel()
	const jobFlops = 2.5e13 // rsc_fpops_est with no size error
	s, err := scenarios.Open("baseline", []string{"policies=[v1peak, v3pfc-boinc, sciunited]",
		"hosts.initial=300", "hosts.arrivals_per_day=0", "hosts.lifetime={dist: exponential, mean: 6d}",
		"duration=12d", "warmup=1d", "projects[0].apps[0].delay_bound=2d",
		"hosts.report_delay=8h", "hosts.runtime_noise=0", "hosts.error_rate={dist: const, mean: 0}",
		"projects[0].apps[0].size_error={dist: const, mean: 1}",
		"projects[0].apps[0].versions[0].efficiency={dist: const, mean: 0.5}",
		"projects[0].apps[0].versions[1].efficiency={dist: const, mean: 0.5}"})
	if err != nil {
		t.Fatal(err)
	}
	o := &departObserver{}
	cfg, err := world.Config(s, 0, o)
	if err != nil {
		t.Fatal(err)
	}
	sent := &recorder{}
	cfg.Policies = append(cfg.Policies, sent)
	x := sim.New(cfg)
	x.Run(nil)
	sentTo := map[int]int{}
	for _, r := range sent.sent {
		sentTo[int(r.HostID)]++
	}
	end := float64(s.Duration)
	hostsG := map[int]float64{}
	recorded := map[int]int{}
	var queued, running, unreported int
	for _, r := range o.recs {
		// The truth: with no noise FLOPs done = runtime x peak x efficiency.
		if want := r.runtime * r.peak * r.eff; math.Abs(r.flops-want) > 1e-9*jobFlops {
			t.Fatalf("result %d: FLOPs done %g, want runtime x peak x efficiency = %g", r.view.ID, r.flops, want)
		}
		abandoned := r.depart < end && r.view.Outcome == policy.NoReply && r.view.SentTime < r.depart
		if abandoned {
			switch {
			case r.runtime == 0:
				queued++
			case math.Abs(r.flops-jobFlops) < 1e-9*jobFlops:
				unreported++
			default:
				running++
			}
			if r.granted[0] != 0 || r.granted[1] != 0 {
				t.Errorf("abandoned result %d granted %v by the job-based systems", r.view.ID, r.granted[:2])
			}
		}
		if g := r.granted[2]; g < 0 || g > policy.FlopsToCredit(r.runtime*r.view.HostPFpops, 200)*(1+1e-12) {
			t.Errorf("result %d: Science United paid %g for %g s at %g FLOPS", r.view.ID, g, r.runtime, r.view.HostPFpops)
		}
		hostsG[int(r.view.HostID)] += r.granted[2]
		if r.depart < end {
			recorded[int(r.view.HostID)]++
		}
	}
	t.Logf("abandoned results: %d queued, %d running, %d finished but not reported", queued, running, unreported)
	if queued == 0 || running == 0 || unreported == 0 {
		t.Fatalf("the scenario must make hosts leave with queued (%d), running (%d) and unreported (%d) results", queued, running, unreported)
	}
	l := x.Ledger(2)
	n := 0
	for h, g := range hostsG {
		if recorded[h] == 0 || recorded[h] != sentTo[h] {
			continue // still on, or some result never resolved
		}
		n++
		if total := l.Host(h).Total; math.Abs(g-total) > 1e-9*math.Max(total, 1) {
			t.Errorf("departed host %d: Science United's G over its results %.10g, its calls granted %.10g", h, g, total)
		}
	}
	t.Logf("%d departed hosts checked", n)
	if n < 50 {
		t.Errorf("only %d hosts left early enough to check", n)
	}
}

// callRecorder records every account-manager call a policy is given.
type callRecorder struct {
	recorder
	calls map[int][]float64 // per host, the times of its calls (project 0)
}

func (c *callRecorder) Init(w *policy.World) { c.recorder.Init(w); c.calls = map[int][]float64{} }
func (c *callRecorder) ClientReport(r *policy.ClientReport) float64 {
	if r.ProjectID == 0 {
		c.calls[r.HostID] = append(c.calls[r.HostID], r.Time)
	}
	return 0
}

// TestAccountManagerCallsWhileOff: a call that falls due while the host
// is off is made when it comes back on, and the next is due an interval
// after it, as the client does (it calls once its next RPC time has
// passed). The expected calls are rebuilt from each host's own
// availability stream.
func TestAccountManagerCallsWhileOff(t *testing.T) {
	t.Parallel()
	slowInShort(t)
	s, err := scenarios.Open("baseline", []string{"policies=[v1peak]", "hosts.initial=200", "hosts.arrivals_per_day=5",
		"duration=8d", "warmup=1d", "projects[0].apps[0].delay_bound=2d",
		"hosts.availability={model: on_fraction, on_fraction: 0.4, period: 1d}"})
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := world.Config(s, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	rec := &callRecorder{}
	cfg.Policies = []policy.Policy{rec}
	x := sim.New(cfg)
	x.Run(nil)
	am, end := float64(s.Hosts.AccountManagerInterval), cfg.Duration
	late := 0
	for i, h := range x.Hosts() {
		if h.Arrival >= end {
			continue
		}
		stop := math.Min(end, h.Departure)
		// The host's on/off timeline from its arrival.
		p := hosts.NewPeriods(&cfg.Hosts.Availability, cfg.Seed, i)
		var switches []float64 // times of each period's start
		var ons []bool
		for t := h.Arrival; t < stop; {
			d, on := p.Next()
			switches, ons = append(switches, t), append(ons, on)
			t += d
		}
		onAt := func(t float64) (bool, float64) { // on at t, else the next time it comes on
			k := 0
			for k+1 < len(switches) && switches[k+1] <= t {
				k++
			}
			if ons[k] {
				return true, t
			}
			if k+1 < len(switches) {
				return false, switches[k+1]
			}
			return false, math.Inf(1)
		}
		var want []float64
		due := h.Arrival + am*rng.New(rng.Hash(cfg.Seed, rng.String("account-manager"), uint64(i))).Float64()
		for due < stop {
			on, at := onAt(due)
			if !on {
				late++
			}
			if at >= stop {
				break
			}
			want = append(want, at)
			due = at + am
		}
		got := rec.calls[i]
		if len(got) != len(want) {
			t.Fatalf("host %d: %d calls %v, want %d %v", i, len(got), got, len(want), want)
		}
		for k := range got {
			if got[k] != want[k] {
				t.Fatalf("host %d: call %d at %.6f d, want %.6f d", i, k, got[k]/86400, want[k]/86400)
			}
		}
	}
	if late == 0 {
		t.Error("no call fell due while a host was off: the test shows nothing")
	}
	t.Logf("%d calls fell due while their host was off", late)
}

// TestFreeSlotsPaidNothing: over a run with runtime accounting and hosts
// leaving, every free result slot's row of paid is zero, so a result
// that takes the slot starts with nothing paid and nothing settled.
func TestFreeSlotsPaidNothing(t *testing.T) {
	s := newBaseline(t, []string{"hosts.initial=300", "duration=12d", "warmup=2d", "policies=[v1peak, sciunited]",
		"hosts.lifetime={dist: exponential, mean: 5d}"})
	var withRow, dirty int
	s.Run(func(float64) { // each simulated day
		w, d := s.DirtyFreeSlots()
		withRow, dirty = withRow+w, dirty+d
	})
	if withRow == 0 || dirty != 0 {
		t.Errorf("free slots with a row of paid, summed over the days: %d, %d of them not zero; want some, none", withRow, dirty)
	}
}
