// Package world turns a scenario into what the engine runs: each
// replication's engine configuration with fresh policies, its seed, and
// the window in which results are counted. The runner builds its runs
// with it, and the engine's tests build their worlds with it.
//
// Imports (layer 6): boinc/rng, policy, results, scenarios, sim.
package world
