// Package layers holds creditsim's import order and the test that keeps
// it. Every package sits in a layer and imports only packages of lower
// layers, so imports run one way, from the command down to BOINC's
// vocabulary:
//
//	0  boinc, boinc/rng, internal/hugepage, internal/inputlimit, internal/prefetch, internal/suggest,
//	   internal/usage, internal/layers, internal/docs, internal/longtest, internal/embedded (tests only)
//	1  model/param, internal/chunked
//	2  model/hosts, model/jobs, policy
//	3  the credit systems (policy/...), scenarios
//	4  sim, policy/all
//	5  results
//	6  results/plot, world
//	7  results/report
//	8  cmd/creditsim/internal/replay, cmd/creditsim/internal/statsdump
//	9  cmd/creditsim/internal/runner, cmd/creditsim/internal/projectdb
//	10 cmd/creditsim/internal/ablate, cmd/creditsim/internal/attack, cmd/creditsim/internal/fit,
//	   cmd/creditsim/internal/stock, cmd/creditsim/internal/sweep
//	11 cmd/creditsim/internal/cli
//	12 cmd/creditsim
//
// The commands' machinery (layers 8 to 11) lives under
// cmd/creditsim/internal/, as the go command keeps cmd/go/internal/:
// nothing else can import it. internal/ holds the helpers every layer
// shares, at the bottom. world builds an engine configuration from a
// scenario, for the runner and for the engine's own tests.
//
// Each package's doc.go ends with a line "Imports (layer N): ..." naming
// the creditsim packages it imports; the test checks that line against
// the package's imports and the order above. Tests may import upward (the
// engine's tests build worlds with package world); the order is for
// the code that ships.
//
// Imports (layer 0): none.
package layers
