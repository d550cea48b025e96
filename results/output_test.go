package results

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOutDirStream: a streamed file holds what fill wrote, past the
// buffer's size; a fill that fails makes Stream fail, and an aborted
// folder leaves nothing behind.
func TestOutDirStream(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	d, err := NewOutDir(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Repeat("0123456789abcdef", 1<<13) // 128 KB: two buffers
	if err := d.Stream("big.csv", func(w io.Writer) error {
		_, err := io.WriteString(w, want)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	boom := errors.New("boom")
	if err := d.Stream("bad.csv", func(w io.Writer) error { return boom }); !errors.Is(err, boom) {
		t.Errorf("Stream with a failing fill: %v, want %v", err, boom)
	}
	if err := d.Commit(); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join(dir, "big.csv"))
	if err != nil || string(got) != want {
		t.Errorf("big.csv: %d bytes (%v), want %d", len(got), err, len(want))
	}

	d, err = NewOutDir(filepath.Join(t.TempDir(), "aborted"), false)
	if err != nil {
		t.Fatal(err)
	}
	d.Stream("x.csv", func(w io.Writer) error { _, err := io.WriteString(w, "x"); return err })
	d.Abort()
	if _, err := os.Stat(d.tmp); !os.IsNotExist(err) {
		t.Errorf("aborted folder %s: %v", d.tmp, err)
	}
}
