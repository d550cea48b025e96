package replay_test

import (
	"strings"
	"testing"

	"github.com/creditsim/creditsim/cmd/creditsim/internal/replay"
)

// TestRedactSecrets: a user:password@ part is hidden wherever it stands
// in a message.
func TestRedactSecrets(t *testing.T) {
	for in, want := range map[string]string{
		"stat boinc:PASSWORD@/boinc: no such file or directory": "stat boinc:xxx@/boinc: no such file or directory",
		"database boinc:s3cr:et@tcp(db:3306)/boinc: refused":    "database boinc:xxx@tcp(db:3306)/boinc: refused",
		"'boinc:pw@tcp6([::1]:1)/boinc'":                        "'boinc:xxx@tcp6([::1]:1)/boinc'",
		"no secret here: a@b":                                   "no secret here: a@b",
	} {
		if got := replay.RedactSecrets(in); got != want || strings.Contains(got, "PASSWORD") {
			t.Errorf("RedactSecrets(%q) = %q, want %q", in, got, want)
		}
	}
}
