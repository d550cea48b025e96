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
	d, err := NewOutDir(dir, Replace{})
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

	d, err = NewOutDir(filepath.Join(t.TempDir(), "aborted"), Replace{})
	if err != nil {
		t.Fatal(err)
	}
	d.Stream("x.csv", func(w io.Writer) error { _, err := io.WriteString(w, "x"); return err })
	d.Abort()
	if _, err := os.Stat(d.tmp); !os.IsNotExist(err) {
		t.Errorf("aborted folder %s: %v", d.tmp, err)
	}
}

// TestStaleTempsOnlyOurs: a new output folder removes what killed runs
// left for the same place (named as creditsim names its temporary
// folders and holding its marker), and nothing else: not a folder that
// merely looks alike, and never by a pattern, so an output named like a
// glob ("[a-z]*", "*") matches only itself (issue: such a run deleted
// .thesis.tmp-backup and .important.tmp-keep).
func TestStaleTempsOnlyOurs(t *testing.T) {
	parent := t.TempDir()
	mk := func(name string, marker bool) string {
		d := filepath.Join(parent, name)
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
		if marker {
			if err := os.WriteFile(filepath.Join(d, TempMarker), nil, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return d
	}
	stale := mk(".out.tmp-123456", true)
	keep := []string{
		mk(".out.tmp-123457", false),     // no marker: not provably ours
		mk(".out.tmp-backup", true),      // not our name: digits only
		mk(".thesis.tmp-backup", false),  // another place's
		mk(".important.tmp-keep", false), // another place's
		mk(".[a-z]*.tmp-99x", true),      // not digits
		mk(".other.tmp-123456", true),    // ours, but another place's
	}
	for _, base := range []string{"out", "[a-z]*", "*", ".*"} {
		d, err := NewOutDir(filepath.Join(parent, base), Replace{Force: true})
		if err != nil {
			t.Fatal(err)
		}
		d.Abort()
	}
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Errorf("the stale folder %s was left: %v", stale, err)
	}
	for _, k := range keep {
		if _, err := os.Stat(k); err != nil {
			t.Errorf("%s was removed: %v", filepath.Base(k), err)
		}
	}
	// A committed folder holds the output marker, not the one of a run in
	// progress.
	d, err := NewOutDir(filepath.Join(parent, "done"), Replace{})
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Commit(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(parent, "done", TempMarker)); !os.IsNotExist(err) {
		t.Errorf("a committed folder holds %s", TempMarker)
	}
}

// TestWriteFileAtomicRegularOnly: a file is replaced through a rename,
// which would replace a link or a device node itself; such a path is
// refused and left as it is.
func TestWriteFileAtomicRegularOnly(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "target")
	if err := os.WriteFile(target, []byte("keep"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	if err := WriteFileAtomic(link, []byte("new")); err == nil {
		t.Error("a symbolic link was replaced")
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link is gone: %v", err)
	}
	if err := WriteFileAtomic("/dev/null", []byte("x")); err == nil {
		t.Error("/dev/null was replaced")
	}
	plain := filepath.Join(dir, "plain")
	if err := WriteFileAtomic(plain, []byte("a")); err != nil {
		t.Fatal(err)
	}
	if err := WriteFileAtomic(plain, []byte("b")); err != nil {
		t.Errorf("a regular file: %v", err)
	}
}

// TestReplaceRule: without --force, a folder is replaced only when the
// same command and options wrote it (its marker names the same key); a
// quick look never replaces a full run, an older marker naming no
// command needs --force, and an empty key (a sweep's points) takes any
// folder creditsim wrote.
func TestReplaceRule(t *testing.T) {
	const full, quick = "creditsim run baseline", "creditsim run baseline --quick=true"
	for _, c := range []struct {
		name    string
		written string // the key the folder was written for; "old" for an older marker
		r       Replace
		ok      bool
	}{
		{"same command", full, Replace{Key: full}, true},
		{"other options", full, Replace{Key: quick}, false},
		{"other options, forced", full, Replace{Key: quick, Force: true}, true},
		{"older marker", "old", Replace{Key: full}, false},
		{"older marker, forced", "old", Replace{Key: full, Force: true}, true},
		{"any of creditsim's", full, Replace{}, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "out")
			if c.written == "old" {
				os.Mkdir(dir, 0o755)
				os.WriteFile(filepath.Join(dir, Marker), []byte("written by creditsim; a later run may replace this folder\n"), 0o644)
				os.WriteFile(filepath.Join(dir, "summary.json"), []byte("{}"), 0o644)
			} else {
				d, err := NewOutDir(dir, Replace{Key: c.written})
				if err != nil {
					t.Fatal(err)
				}
				d.Write("summary.json", []byte("{}"))
				if err := d.Commit(); err != nil {
					t.Fatal(err)
				}
			}
			err := CheckOutDir(dir, c.r)
			if c.ok != (err == nil) {
				t.Fatalf("CheckOutDir(%+v) on a folder written by %q: %v, want ok %v", c.r, c.written, err, c.ok)
			}
			if err != nil && (!errors.Is(err, ErrOutputExists) || !strings.Contains(err.Error(), "--force")) {
				t.Errorf("refusal %q does not say --force or is not ErrOutputExists", err)
			}
			if err != nil && c.written != "old" && !strings.Contains(err.Error(), "`"+c.written+"`") {
				t.Errorf("refusal %q does not name the command that wrote the folder", err)
			}
		})
	}
}
