package sim_test

import (
	"testing"

	"github.com/creditsim/creditsim/results"
	"github.com/creditsim/creditsim/scenarios"
	"github.com/creditsim/creditsim/sim"
	"github.com/creditsim/creditsim/world"
)

// newBaseline returns replication 0 of the baseline scenario with set
// applied, the results collector attached as its observer.
func newBaseline(tb testing.TB, set []string) *sim.Sim {
	tb.Helper()
	s := openBaseline(tb, set)
	col := results.NewCollector(world.Window(s), s.ReferenceScale, len(s.Policies))
	x := sim.New(replicaConfig(tb, s, col))
	col.Attach(x)
	return x
}

// newObserved returns replication 0 of the baseline scenario with set
// applied and obs as its observer.
func newObserved(tb testing.TB, set []string, obs sim.Observer) *sim.Sim {
	tb.Helper()
	return sim.New(baselineConfig(tb, set, obs))
}

// baselineConfig is replication 0 of the baseline scenario with set
// applied and obs as its observer.
func baselineConfig(tb testing.TB, set []string, obs sim.Observer) *sim.Config {
	tb.Helper()
	return replicaConfig(tb, openBaseline(tb, set), obs)
}

// runObserved runs replication 0 of s with obs as its observer.
func runObserved(tb testing.TB, s *scenarios.Scenario, obs sim.Observer) *sim.Sim {
	tb.Helper()
	x := sim.New(replicaConfig(tb, s, obs))
	x.Run(nil)
	return x
}

// openBaseline is the baseline scenario with set applied.
func openBaseline(tb testing.TB, set []string) *scenarios.Scenario {
	tb.Helper()
	s, err := scenarios.Open("baseline", set)
	if err != nil {
		tb.Fatal(err)
	}
	return s
}

// replicaConfig is replication 0 of s with obs as its observer.
func replicaConfig(tb testing.TB, s *scenarios.Scenario, obs sim.Observer) *sim.Config {
	tb.Helper()
	cfg, err := world.Config(s, 0, obs)
	if err != nil {
		tb.Fatal(err)
	}
	return cfg
}
