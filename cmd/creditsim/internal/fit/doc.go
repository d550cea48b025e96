// Package fit makes a scenario from a project's own data. From its
// tables (a folder of table exports or its database, read by package
// tables; FitTables): the hosts present and arriving, how long they
// stay, their CPUs, benchmarks, platforms, GPUs and availability, error
// and invalid rates, the apps with their job sizes, bounds and
// replication, the versions with their efficiency and CPU use, the
// anonymous-platform share and the teams; the server's options from a
// config.xml (ReadConfig). From its public statistics export (host.gz
// and user.gz, read by package statsdump; FitHosts): the hosts and
// teams only. What the source cannot tell is taken from the built-in
// baseline, and the scenario's header says so, field by field; where
// the data cannot identify what the fit needs (job sizes that differ
// from their estimates by more than a size error), Project.Warnings
// says so.
//
// Imports (layer 10): boinc, cmd/creditsim/internal/replay, cmd/creditsim/internal/statsdump, cmd/creditsim/internal/tables, internal/inputlimit, model/hosts, model/param, policy, results, scenarios.
package fit
