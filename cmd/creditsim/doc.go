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
//
// Imports (layer 12): cmd/creditsim/internal/cli, internal/usage.
package main
