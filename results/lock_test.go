//go:build unix

package results

import (
	"errors"
	"os"
	"path/filepath"
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
