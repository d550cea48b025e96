package longtest

import (
	"os"
	"testing"
)

// Env is the environment variable that switches the long checks on.
const Env = "CREDITSIM_LONGTEST"

// Enabled reports whether the long checks run: Env is set to 1 and the
// tests do not run with -short.
func Enabled() bool {
	return os.Getenv(Env) == "1" && !testing.Short()
}

// Skip skips t unless the long checks run, saying what t runs (what) and
// how to run it.
func Skip(t testing.TB, what string) {
	t.Helper()
	if !Enabled() {
		t.Skipf("a long claim check (%s): runs with %s=1 go test ./..., as .ci/run does", what, Env)
	}
}
