package sim_test

import (
	"testing"

	"github.com/creditsim/creditsim/scenarios"
	"github.com/creditsim/creditsim/sim"
	"github.com/creditsim/creditsim/world"
)

// TestIdentityByCount: a new_identity host that registers anew every n
// results asks for no more than n as one identity, finishes and reports
// them, and only then registers as its next identity (made ahead, after
// every other host), which carries on; nothing is abandoned at the
// switch, and identities never woken stay out of the run.
func TestIdentityByCount(t *testing.T) {
	t.Parallel()
	const n = 5
	s, err := scenarios.Open("baseline", []string{"hosts.initial=50", "duration=20d", "warmup=2d", "replications=1", "policies=[v1peak]",
		"hosts.agents=[{kind: ncpus_inflation, share: 0.3, k: 4, and: {kind: new_identity, results: 5}}]"})
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := world.Config(s, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	sm := sim.New(cfg)
	sm.Run(nil)
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
