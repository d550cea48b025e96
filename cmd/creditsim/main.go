package main

import (
	"os"

	"github.com/creditsim/creditsim/cmd/creditsim/internal/cli"
	"github.com/creditsim/creditsim/internal/usage"
)

func main() {
	usage.SetRunGC() // collect at 10% heap growth unless GOGC is set
	cli.HandleSignals()
	os.Exit(cli.Main(os.Args[1:], os.Stdout, os.Stderr))
}
