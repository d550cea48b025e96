// Package runner wires a scenario to the engine: it builds each
// replication's configuration and fresh policy instances, runs the
// replications (in parallel, with results independent of the order), and
// hands the outputs to package results. The CLI and the tests share it.
//
// Imports (layer 9): boinc, cmd/creditsim/internal/replay, cmd/creditsim/internal/statsdump, cmd/creditsim/internal/tables, internal/usage, model/jobs, policy, results, results/plot, results/report, scenarios, sim, world.
package runner
