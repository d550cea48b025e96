package results

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// CheckRoom refuses a place whose file system lacks the room a run
// needs, and one it cannot write in, before anything runs; it leaves
// nothing behind; a place below folders not yet made is judged by the
// nearest one that exists.
func TestCheckRoom(t *testing.T) {
	tmp := t.TempDir()
	deep := filepath.Join(tmp, "a", "b", "out")
	if err := CheckRoom(deep, MinRoom); err != nil {
		t.Errorf("a place under folders not yet made: %v", err)
	}
	if _, err := os.Stat(filepath.Join(tmp, "a")); !os.IsNotExist(err) {
		t.Errorf("CheckRoom made a folder: %v", err)
	}
	err := CheckRoom(filepath.Join(tmp, "out"), 1<<62)
	if err == nil || !strings.Contains(err.Error(), "free, and this run writes about 4294967296.0 GB") {
		t.Errorf("4 EB needed: %v", err)
	}
	if entries, _ := os.ReadDir(tmp); len(entries) != 0 {
		t.Errorf("left behind: %v", entries)
	}
	// /proc takes no new files, even from root.
	if _, err := os.Stat("/proc/self"); err == nil {
		if err := CheckRoom("/proc/out", MinRoom); err == nil || !strings.Contains(err.Error(), "/proc/out: cannot write in /proc") {
			t.Errorf("/proc: %v", err)
		}
	}
	if os.Geteuid() == 0 {
		return // root writes in a folder without write permission
	}
	ro := filepath.Join(tmp, "ro")
	os.Mkdir(ro, 0o555)
	if err := CheckRoom(filepath.Join(ro, "out"), MinRoom); err == nil || !strings.Contains(err.Error(), "cannot write in "+ro) {
		t.Errorf("a read-only folder: %v", err)
	}
}

func TestByteSize(t *testing.T) {
	for _, c := range []struct {
		n    int64
		want string
	}{{1 << 10, "1 KB"}, {32 << 20, "32 MB"}, {3 << 29, "1.5 GB"}} {
		if got := byteSize(c.n); got != c.want {
			t.Errorf("byteSize(%d) = %s, want %s", c.n, got, c.want)
		}
	}
}
