package hosts

import (
	"math"
	"strings"
	"testing"

	"github.com/creditsim/creditsim/model/param"
)

func TestBehaviourHooks(t *testing.T) {
	for _, c := range []struct {
		b                 Behaviour
		pf, gpu, e, abort float64
		works             bool
	}{
		{Behaviour{}, 4e9, 1e12, 100, math.Inf(1), true},
		{Behaviour{Kind: BenchmarkInflation, K: 3}, 12e9, 3e12, 100, math.Inf(1), true},
		{Behaviour{Kind: RuntimeInflation, K: 3}, 4e9, 1e12, 250, math.Inf(1), true}, // capped at 250 s since sent
		{Behaviour{Kind: FailedBenchmark}, 1e9, 1e12, 100, math.Inf(1), true},
		{Behaviour{Kind: FakeResults, WorkFraction: 0.01}, 4e9, 1e12, 100, math.Inf(1), false},
		{Behaviour{Kind: CherryPicker, Threshold: 3600}, 4e9, 1e12, 100, 3600, true},
		{Behaviour{Kind: OneTimeClaim, Channel: "gpu_peak", Claim: 1e304}, 4e9, 1e12, 100, math.Inf(1), true},
		{Behaviour{Kind: IdleVM, K: 4}, 4e9, 1e12, 100, math.Inf(1), true}, // reports the true times
	} {
		pf, _ := c.b.ReportedCPU(4e9, 8e9)
		e, _ := c.b.ReportTimes(100, 100, 250)
		if c.b.Colludes() != (c.b.Kind == ColludingFakes) || c.b.ReportedCount(10) != map[bool]float64{true: 50, false: 10}[c.b.Kind == CountInflation] {
			t.Errorf("%s: colludes %v, count 10 reported as %g", c.b.Kind, c.b.Colludes(), c.b.ReportedCount(10))
		}
		if pf != c.pf || c.b.ReportedGPUPeak(1e12) != c.gpu || e != c.e || c.b.AbortAfter() != c.abort || c.b.DoesWork() != c.works {
			t.Errorf("%s: cpu %g gpu %g elapsed %g abort %g works %v", c.b.Kind, pf, c.b.ReportedGPUPeak(1e12), e, c.b.AbortAfter(), c.b.DoesWork())
		}
	}
}

// TestIdleVM: an idle VM runs each job K times its honest runtime and
// reports the truth: the elapsed time, and the CPU time it used (1/K of
// the CPUs' time over it). k below 1 is refused; none defaults to 10.
func TestIdleVM(t *testing.T) {
	b := Behaviour{Kind: IdleVM, K: 4}
	if f := b.RunFraction(); f != 4 {
		t.Errorf("run fraction %g, want 4", f)
	}
	if e, cpu := b.ReportTimes(400, 800, 1e6); e != 400 || cpu != 200 {
		t.Errorf("reports elapsed %g cpu %g, want 400 and 200", e, cpu)
	}
	for _, c := range []struct {
		k     float64
		ok    bool
		wantK float64
	}{{0, true, 10}, {1, true, 1}, {0.5, false, 0}, {-2, false, 0}} {
		a := AgentConfig{Kind: "idle_vm", Share: 0.1, K: c.k}
		k := param.NewCheck()
		a.validate(k)
		if ok := len(k.Errors()) == 0; ok != c.ok {
			t.Errorf("k %g: accepted %v, want %v (%v)", c.k, ok, c.ok, k.Errors())
		}
		if c.ok && a.K != c.wantK {
			t.Errorf("k %g: became %g, want %g", c.k, a.K, c.wantK)
		}
	}
}

// TestNCPUsInflation: the reported CPU count is k x the host's, never
// fewer than it has; k outside 1 to 1000 is refused.
func TestNCPUsInflation(t *testing.T) {
	b := Behaviour{Kind: NCPUsInflation, K: 2.5}
	for _, c := range []struct{ n, want int }{{1, 3}, {4, 10}, {8, 20}} {
		if got := b.ReportedNCPUs(c.n); got != c.want {
			t.Errorf("%d CPUs reported as %d, want %d", c.n, got, c.want)
		}
	}
	if got := (Behaviour{}).ReportedNCPUs(6); got != 6 {
		t.Errorf("an honest host reports %d of 6 CPUs", got)
	}
	for _, c := range []struct {
		k  float64
		ok bool
	}{{0, true}, {1, true}, {1000, true}, {0.5, false}, {1001, false}} {
		a := AgentConfig{Kind: "ncpus_inflation", Share: 0.1, K: c.k}
		k := param.NewCheck()
		a.validate(k)
		if ok := len(k.Errors()) == 0; ok != c.ok {
			t.Errorf("k %g: accepted %v, want %v", c.k, ok, c.ok)
		}
	}
}

// TestCombinedBehaviour: with And set, each hook applies the first
// behaviour, then the second on its result.
func TestCombinedBehaviour(t *testing.T) {
	bench := Behaviour{Kind: BenchmarkInflation, K: 3, And: &Behaviour{Kind: RuntimeInflation, K: 2}}
	if pf, _ := bench.ReportedCPU(4e9, 8e9); pf != 12e9 {
		t.Errorf("benchmark reported as %g, want 12e9", pf)
	}
	if e, cpu := bench.ReportTimes(100, 50, 1e6); e != 200 || cpu != 100 {
		t.Errorf("times reported as %g and %g, want 200 and 100", e, cpu)
	}
	// An idle VM (true elapsed, 1/k of the CPU time) that also inflates
	// its runtime: the inflation applies to what the VM would report.
	vm := Behaviour{Kind: IdleVM, K: 4, And: &Behaviour{Kind: RuntimeInflation, K: 2}}
	if e, cpu := vm.ReportTimes(400, 800, 1e6); e != 800 || cpu != 400 {
		t.Errorf("idle VM + runtime inflation reports %g and %g, want 800 and 400", e, cpu)
	}
	if vm.RunFraction() != 4 || !vm.DoesWork() || vm.Colludes() || vm.AbortAfter() != math.Inf(1) {
		t.Errorf("idle VM + runtime inflation: run fraction %g, works %v, colludes %v, aborts after %g",
			vm.RunFraction(), vm.DoesWork(), vm.Colludes(), vm.AbortAfter())
	}
	fake := Behaviour{Kind: CherryPicker, Threshold: 600, And: &Behaviour{Kind: ColludingFakes, WorkFraction: 0.1}}
	if fake.DoesWork() || !fake.Colludes() || fake.AbortAfter() != 600 || fake.RunFraction() != 0.1 {
		t.Errorf("cherry picker + colluding fakes: works %v, colludes %v, aborts after %g, run fraction %g",
			fake.DoesWork(), fake.Colludes(), fake.AbortAfter(), fake.RunFraction())
	}
	count := Behaviour{Kind: CountInflation, K: 5, And: &Behaviour{Kind: NCPUsInflation, K: 2}}
	if count.ReportedCount(10) != 50 || count.ReportedNCPUs(4) != 8 || count.ReportedGPUPeak(1e12) != 1e12 {
		t.Errorf("count + ncpus inflation: count %g, CPUs %d, GPU peak %g", count.ReportedCount(10), count.ReportedNCPUs(4), count.ReportedGPUPeak(1e12))
	}
	claim := Behaviour{Kind: RuntimeInflation, K: 2, And: &Behaviour{Kind: OneTimeClaim, Channel: "flop_count", Claim: 1e300}}
	if b := claim.Find(OneTimeClaim); b == nil || b.Claim != 1e300 {
		t.Errorf("Find(one_time_claim) = %+v", b)
	}
	if claim.Find(RuntimeInflation) != &claim || claim.Find(IdleVM) != nil {
		t.Error("Find returns the wrong part")
	}
}

// TestGroups: every kind alone and every ordered pair of two kinds has
// its own group, whose name parses back to it.
func TestGroups(t *testing.T) {
	seen := map[Group]bool{}
	for a := Kind(0); int(a) < NumKinds; a++ {
		for b := Kind(0); int(b) < NumKinds; b++ {
			x := Behaviour{Kind: a}
			if b != Honest {
				if a == Honest || a == b {
					continue
				}
				x.And = &Behaviour{Kind: b}
			}
			g := x.Group()
			if int(g) >= NumGroups || seen[g] {
				t.Fatalf("%s: group %d out of range or taken", x.Name(), g)
			}
			seen[g] = true
			if back, ok := ParseGroup(x.Name()); !ok || back != g {
				t.Errorf("%q parses to %d (%v), want %d", x.Name(), back, ok, g)
			}
		}
	}
	if g := (&Behaviour{Kind: IdleVM, And: &Behaviour{Kind: NCPUsInflation}}).Name(); g != "idle_vm+ncpus_inflation" {
		t.Errorf("name %q", g)
	}
	for _, bad := range []string{"idle_vm+idle_vm", "honest+idle_vm", "idle_vm+honest", "idle_vm+", "nope", "idle_vm+nope"} {
		if _, ok := ParseGroup(bad); ok {
			t.Errorf("%q parsed as a group", bad)
		}
	}
}

// TestCombinedAgentConfig: the second behaviour has a kind of its own,
// its parameters (defaults filled) and no share; at most two combine,
// and not two kinds of garbage.
func TestCombinedAgentConfig(t *testing.T) {
	for _, c := range []struct {
		and  AgentConfig
		want string // "" = valid
	}{
		{AgentConfig{Kind: "runtime_inflation"}, ""},
		{AgentConfig{Kind: "one_time_claim", Channel: "flop_count"}, ""},
		{AgentConfig{Kind: "runtime_inflation", Share: 0.1}, "and.share"},
		{AgentConfig{Kind: "idle_vm"}, "and.kind"},
		{AgentConfig{Kind: "nope"}, "and.kind"},
		{AgentConfig{Kind: "runtime_inflation", K: -1}, "and.k"},
		{AgentConfig{Kind: "runtime_inflation", And: &AgentConfig{Kind: "count_inflation"}}, "and.and"},
	} {
		a := AgentConfig{Kind: "idle_vm", Share: 0.1, And: &c.and}
		k := param.NewCheck()
		a.validate(k)
		errs := k.Errors()
		switch {
		case c.want == "" && len(errs) > 0:
			t.Errorf("and %+v: %v", c.and, errs)
		case c.want != "" && (len(errs) == 0 || !strings.Contains(errs[0].Error(), c.want)):
			t.Errorf("and %+v: errors %v, want one on %s", c.and, errs, c.want)
		}
	}
	a := AgentConfig{Kind: "fake_results", Share: 0.1, And: &AgentConfig{Kind: "colluding_fakes"}}
	k := param.NewCheck()
	a.validate(k)
	if errs := k.Errors(); len(errs) == 0 || !strings.Contains(errs[0].Error(), "both return garbage") {
		t.Errorf("fake_results and colluding_fakes combined: %v", errs)
	}
	a = AgentConfig{Kind: "benchmark_inflation", Share: 0.1, And: &AgentConfig{Kind: "runtime_inflation"}}
	a.validate(param.NewCheck())
	if b := a.Behaviour(); b.K != 2 || b.And == nil || b.And.Kind != RuntimeInflation || b.And.K != 2 {
		t.Errorf("behaviour %+v (and %+v), want both with the default k 2", b, b.And)
	}
}

// TestNewIdentity: a new_identity host registers as a new host every
// `every` seconds while it stays: each identity has an ID after every
// other host (so no other host's ID or draws change), the same machine,
// account, behaviour and origin, and no history; the identity before it
// departs as the next arrives, and the last leaves with the machine. An
// honest twin has no such identities.
func TestNewIdentity(t *testing.T) {
	for _, twin := range []bool{false, true} {
		c := Default()
		c.Initial, c.ArrivalsPerDay = 40, 0
		c.Lifetime = param.Const(10 * 86400)
		c.Agents = []AgentConfig{{Kind: "new_identity", Share: 0.3, Every: param.Duration(2 * 86400)}}
		k := param.NewCheck()
		c.Validate(k)
		if errs := k.Errors(); len(errs) > 0 {
			t.Fatal(errs)
		}
		c.Twin = twin
		p := NewPopulation(&c, 7, 30*86400)
		var all []*Host
		for h := p.Next(); h != nil; h = p.Next() {
			all = append(all, h)
		}
		byOrigin := map[int][]*Host{}
		for i, h := range all {
			if h.ID != i {
				t.Fatalf("host %d has ID %d", i, h.ID)
			}
			byOrigin[h.Origin] = append(byOrigin[h.Origin], h)
		}
		renewed, firstRenewal := 0, map[float64]bool{}
		for origin, ids := range byOrigin {
			first := ids[0]
			if first.ID != origin || (first.Behaviour.Reregisters() > 0) != (len(ids) > 1) {
				t.Errorf("origin %d: %d identities, behaviour %v", origin, len(ids), first.Behaviour)
			}
			for k := 1; k < len(ids); k++ {
				prev, h := ids[k-1], ids[k]
				if h.ID < c.Initial || h.UserID != first.UserID || h.Whetstone != first.Whetstone || h.Group != first.Group {
					t.Errorf("identity %d of %d: ID %d, user %d, whetstone %g", k, origin, h.ID, h.UserID, h.Whetstone)
				}
				// An initial host's first new identity comes at its own
				// point of the period; the rest a period apart.
				gap := h.Arrival - prev.Arrival
				if prev.Departure != h.Arrival || k == 1 && !(gap > 0 && gap <= 2*86400) || k > 1 && math.Abs(gap-2*86400) > 1e-6 {
					t.Errorf("identity %d of %d arrives at %g; the one before left at %g, arrived at %g", k, origin, h.Arrival, prev.Departure, prev.Arrival)
				}
			}
			if last := ids[len(ids)-1]; last.Departure != first.Arrival+10*86400 && len(ids) > 1 {
				t.Errorf("origin %d's last identity leaves at %g, the machine at %g", origin, last.Departure, first.Arrival+10*86400)
			}
			if len(ids) > 1 {
				renewed++
				firstRenewal[ids[1].Arrival] = true
				// 10 days, a new identity every 2 from the first.
				if want := 1 + int(math.Ceil((10*86400-ids[1].Arrival)/(2*86400))); len(ids) != want {
					t.Errorf("origin %d: %d identities, want %d", origin, len(ids), want)
				}
			}
		}
		if renewed > 1 && len(firstRenewal) < renewed/2 {
			t.Errorf("%d hosts took new identities at only %d distinct times", renewed, len(firstRenewal))
		}
		if twin && renewed > 0 || !twin && renewed == 0 {
			t.Errorf("twin %v: %d hosts took new identities", twin, renewed)
		}
	}
}
