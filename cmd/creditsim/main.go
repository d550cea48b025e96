// Command creditsim simulates BOINC credit systems side by side.
//
// Usage:
//
//	creditsim run [FILE|NAME] [-o DIR] [--seed N] [--replications N]
//	              [--policies a,b] [--set path=value]... [--force] [-j N]
//	creditsim replay FILE|DSN [-o DIR]
//	creditsim sweep SWEEP.yaml [-o DIR] [--shard i/n]
//	creditsim merge DIR...
//	creditsim attack [FILE|NAME] [--budget N] [-o DIR]
//	creditsim ablate [FILE|NAME] --policy NAME [-o DIR]
//	creditsim validate FILE|NAME [--set path=value]...
//	creditsim scenarios [NAME]
//	creditsim policies
//	creditsim version
//
// Exit status: 0 success, 1 a run failed, 2 bad input or usage.
package main

import (
	"os"
	"runtime/debug"

	"github.com/creditsim/creditsim/internal/cli"
)

func main() {
	// A run's heap is nearly all live (result, workunit and host records)
	// and it allocates little per result, so collecting at 50% growth
	// instead of Go's 100% costs little CPU and keeps the peak resident
	// memory near 1.5 x the live heap instead of 2 x. GOGC, if set, wins.
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(50)
	}
	cli.HandleSignals()
	os.Exit(cli.Main(os.Args[1:], os.Stdout, os.Stderr))
}
