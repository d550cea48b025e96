// Package cli is creditsim's command line: flags, wiring and exit codes,
// with no simulation logic. It is a package (not only package main) so
// that script tests can run the real command in-process.
//
// It is built on spf13/cobra, which gives every command its own help
// (creditsim help CMD, CMD -h), suggestions for mistyped commands, flag
// errors that name the flag, and shell completion.
//
// Imports (layer 11): cmd/creditsim/internal/ablate, cmd/creditsim/internal/attack, cmd/creditsim/internal/fit, cmd/creditsim/internal/projectdb, cmd/creditsim/internal/replay, cmd/creditsim/internal/runner, cmd/creditsim/internal/statsdump, cmd/creditsim/internal/stock, cmd/creditsim/internal/sweep, cmd/creditsim/internal/tables, internal/inputlimit, internal/suggest, policy, policy/all, results, results/plot, results/report, scenarios.
package cli
