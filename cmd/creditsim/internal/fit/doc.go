// Package fit makes a scenario from a project's own data: today from its
// public statistics export (host.gz, read by package statsdump), which
// gives the host population: how many hosts are present and arrive, how
// long they stay, their CPUs, benchmarks, operating systems and GPUs,
// and how many hosts a user has. What the export cannot tell (apps, job
// sizes, replication, availability, error rates, GPU peak speeds) is
// taken from the built-in baseline, and the scenario's header says so,
// field by field.
//
// Imports (layer 10): boinc, cmd/creditsim/internal/replay, cmd/creditsim/internal/statsdump, cmd/creditsim/internal/tables, model/hosts, model/param, policy, results, scenarios.
package fit
