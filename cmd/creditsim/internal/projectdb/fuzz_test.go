package projectdb_test

import (
	"strings"
	"testing"

	"github.com/creditsim/creditsim/cmd/creditsim/internal/projectdb"
	"github.com/creditsim/creditsim/cmd/creditsim/internal/replay"
)

// FuzzSecrets: a DSN's password never survives redaction, whatever
// surrounds it, and IsDSN never panics.
func FuzzSecrets(f *testing.F) {
	for _, s := range []string{"boinc:PASSWORD@/boinc", "boinc:PASSWORD@tcp6([::1]:1)/boinc", "x boinc:PASSWORD@tcp(h:1)/b y", "a@b/c"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		projectdb.IsDSN(s)
		if strings.Contains(s, "PASSWORD") || strings.ContainsAny(s, " \t\n\r\v\f") {
			return // the password is the one word before s's rest
		}
		arg := "boinc:PASSWORD@" + s
		if got := replay.RedactSecrets("open " + arg + ": no such file"); strings.Contains(got, "PASSWORD") {
			t.Fatalf("the password survived: %q", got)
		}
	})
}
