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

	"github.com/creditsim/creditsim/internal/cli"
	"github.com/creditsim/creditsim/internal/usage"
)

func main() {
	usage.SetRunGC() // collect at 10% heap growth unless GOGC is set
	cli.HandleSignals()
	os.Exit(cli.Main(os.Args[1:], os.Stdout, os.Stderr))
}
