package embedded

import (
	"os"
	"strings"
	"testing"
)

// Check reports an error unless the file at path holds want between the
// lines begin and end; with update it writes want there instead, and
// says so. what names what the runs printed, for the error ("what
// creditsim verdict prints").
func Check(t testing.TB, path, begin, end, want, what string, update bool) {
	t.Helper()
	doc, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s, e := strings.Index(string(doc), begin), strings.Index(string(doc), end)
	if s < 0 || e < s {
		t.Fatalf("%s has nothing between %q and %q", path, strings.TrimSpace(begin), strings.TrimSpace(end))
	}
	if string(doc[s+len(begin):e]) == want {
		return
	}
	if update {
		out := string(doc[:s+len(begin)]) + want + string(doc[e:])
		if err := os.WriteFile(path, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("%s rewritten between its markers", path)
		return
	}
	t.Errorf("%s does not show %s; rerun with -update. It prints:\n%s", path, what, want)
}
