package sim_test

import (
	"math"
	"testing"

	"github.com/creditsim/creditsim/model/hosts"
	"github.com/creditsim/creditsim/sim"
)

// TestIdentityByCount: a new_identity host that registers anew every n
// results asks for no more than n as one identity, finishes and reports
// them, and only then registers as its next identity (made ahead, after
// every other host), which carries on; nothing is abandoned at the
// switch, and identities never woken stay out of the run.
func TestIdentityByCount(t *testing.T) {
	slowInShort(t)
	t.Parallel()
	const n = 5
	sm, cfg := runBaseline(t, "hosts.initial=50", "duration=20d", "warmup=2d", "replications=1", "policies=[v1peak]",
		"hosts.agents=[{kind: ncpus_inflation, share: 0.3, k: 4, and: {kind: new_identity, results: 5}}]")
	switched, woke := 0, 0
	for i, h := range sm.Hosts() {
		reported, successor, gone, queued, running, done, _ := sm.IdentityState(i)
		if h.Behaviour.ReregistersAfter() == 0 {
			continue
		}
		if h.ID != h.Origin && h.Arrival < cfg.Duration {
			woke++
		}
		if gone && successor >= 0 && sm.Hosts()[successor].Arrival < cfg.Duration {
			// An identity that gave way to the next: exactly its count,
			// and nothing left behind.
			switched++
			if reported != n || queued+running+done != 0 {
				t.Errorf("host %d (machine %d) switched after %d results, holding %d", h.ID, h.Origin, reported, queued+running+done)
			}
		}
		if reported > n && successor >= 0 {
			t.Errorf("host %d reported %d results as one identity, more than %d", h.ID, reported, n)
		}
	}
	if switched < 100 || woke < 100 {
		t.Errorf("%d identities switched, %d woke: the count is not exercised", switched, woke)
	}
	t.Logf("%d identities gave way after %d results; %d woke", switched, n, woke)
}

// TestIdentityKeepsMachineAvailability: a machine that registers anew
// every 2 days (new_identity) is on exactly when the machine would have
// been without the new identities: each identity continues the
// machine's availability periods, in the period it arrives in, rather
// than starting them again (which replayed the machine's first days,
// from an on period, and made its identities work more than its twin).
func TestIdentityKeepsMachineAvailability(t *testing.T) {
	t.Parallel()
	sm, cfg := runBaseline(t, "hosts.initial=60", "hosts.arrivals_per_day=0", "duration=12d", "warmup=1d",
		"replications=1", "policies=[v1peak]", "hosts.agents=[{kind: new_identity, share: 0.5, every: 2d}]")
	end := sm.Now()
	type machine struct{ from, to, on float64 }
	machines := map[int]*machine{}
	identities := 0
	for i, h := range sm.Hosts() {
		if h.Arrival >= end || h.Behaviour.Reregisters() == 0 {
			continue
		}
		to := min(end, h.Departure)
		m := machines[h.Origin]
		if m == nil {
			m = &machine{from: h.Arrival, to: to}
			machines[h.Origin] = m
		}
		m.from, m.to = min(m.from, h.Arrival), max(m.to, to)
		m.on += sm.OnFraction(i) * (to - h.Arrival)
		identities++
	}
	if len(machines) < 20 || identities < 4*len(machines) {
		t.Fatalf("%d machines with %d identities: new_identity is not exercised", len(machines), identities)
	}
	for origin, m := range machines {
		// The machine's own periods from its arrival, as its twin has them.
		p := hosts.NewPeriods(&cfg.Hosts.Availability, cfg.Seed, origin)
		want := 0.0
		for at := m.from; at < m.to; {
			d, on := p.Next()
			if on {
				want += min(at+d, m.to) - at
			}
			at += d
		}
		if math.Abs(m.on-want) > 1e-6*max(want, 1) {
			t.Errorf("machine %d: on %.1f s over its identities, %.1f s as one host", origin, m.on, want)
		}
	}
}

// runBaseline runs replication 1 of the baseline world with sets.
func runBaseline(t *testing.T, sets ...string) (*sim.Sim, *sim.Config) {
	t.Helper()
	cfg := baselineConfig(t, sets, nil)
	sm := sim.New(cfg)
	sm.Run(nil)
	return sm, cfg
}
