package embedded

import (
	"os"
	"path/filepath"
	"testing"
)

// TestCheck: the text between the markers is left as it is when it is
// what the runs print, and rewritten with update, the rest of the file
// kept.
func TestCheck(t *testing.T) {
	path := filepath.Join(t.TempDir(), "doc.md")
	if err := os.WriteFile(path, []byte("head\n<!-- b -->\nold\n<!-- e -->\ntail\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	Check(t, path, "<!-- b -->\n", "<!-- e -->", "old\n", "the runs", false)
	Check(t, path, "<!-- b -->\n", "<!-- e -->", "new\n", "the runs", true)
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if want := "head\n<!-- b -->\nnew\n<!-- e -->\ntail\n"; string(got) != want {
		t.Errorf("rewritten as %q, want %q", got, want)
	}
}
