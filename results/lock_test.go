//go:build unix

package results

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLockPlace: a place locked once cannot be locked again until
// unlocked, the refusal is an output error (exit 2) naming the place,
// and unlocking leaves no file behind.
func TestLockPlace(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "sub", "out")
	unlock, err := LockPlace(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := LockPlace(dir); !errors.Is(err, ErrOutputExists) {
		t.Fatalf("second lock: %v, want an output error", err)
	}
	other, err := LockPlace(dir + "2")
	if err != nil {
		t.Fatalf("another place: %v", err)
	}
	other()
	unlock()
	again, err := LockPlace(dir)
	if err != nil {
		t.Fatalf("after unlock: %v", err)
	}
	again()
	entries, _ := os.ReadDir(filepath.Dir(dir))
	if len(entries) != 0 {
		t.Errorf("left behind: %v", entries)
	}
}

// TestMountPointRefused: a mount point cannot be renamed over, so it is
// refused as an output folder before anything runs, even with --force.
func TestMountPointRefused(t *testing.T) {
	var mount string
	for _, d := range []string{"/proc", "/sys", "/dev/shm", "/dev"} {
		if isMountPoint(d) {
			mount = d
			break
		}
	}
	if mount == "" {
		t.Skip("no mount point found to try")
	}
	if err := CheckOutDir(mount, Replace{Force: true}); !errors.Is(err, ErrOutputExists) || !strings.Contains(err.Error(), "is a mount point") {
		t.Errorf("%s: %v, want it refused as a mount point", mount, err)
	}
	if isMountPoint(t.TempDir()) {
		t.Errorf("a temporary folder reads as a mount point")
	}
}
