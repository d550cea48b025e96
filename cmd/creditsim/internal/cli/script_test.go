package cli

import (
	"os"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"creditsim": func() { HandleSignals(); os.Exit(Main(os.Args[1:], os.Stdout, os.Stderr)) },
	})
}

// TestScripts runs the CLI scripts in testdata/script: run, validate,
// scenarios, policies, bad input and exit codes.
func TestScripts(t *testing.T) {
	t.Parallel() // beside the bad-input tables, which are parallel too
	testscript.Run(t, testscript.Params{Dir: "testdata/script"})
}
