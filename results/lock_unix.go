//go:build unix

package results

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
)

// LockPlace takes the lock of the output place dir for this process, so
// that a second run to the same place fails at its start, before it
// simulates anything, rather than half-way when the two replace each
// other's files. The lock is an flock on a file beside dir, which the
// kernel releases if the process dies; unlock removes the file. It fails
// with an OutputError when another process holds the lock.
func LockPlace(dir string) (unlock func(), err error) {
	clean := filepath.Clean(dir)
	parent := filepath.Dir(clean)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return nil, err
	}
	path := filepath.Join(parent, "."+filepath.Base(clean)+".lock")
	for {
		f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
		if err != nil {
			return nil, err
		}
		if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
			f.Close()
			if errors.Is(err, syscall.EWOULDBLOCK) {
				return nil, Refused("another creditsim run is writing %s (it holds %s); wait for it to finish or choose another output place", dir, path)
			}
			return nil, err
		}
		// The holder before us may have removed the file between our
		// open and our lock: then we hold a lock on a file no one else
		// will find, so try again on the one at the path.
		a, errA := f.Stat()
		b, errB := os.Stat(path)
		if errA == nil && errB == nil && os.SameFile(a, b) {
			trackLock(path, true)
			return func() {
				os.Remove(path)
				trackLock(path, false)
				f.Close()
			}, nil
		}
		f.Close()
	}
}

// isMountPoint reports whether dir is mounted on its own (its device is
// not its parent's): such a folder cannot be renamed over.
func isMountPoint(dir string) bool {
	var a, b syscall.Stat_t
	if syscall.Stat(dir, &a) != nil || syscall.Stat(filepath.Dir(filepath.Clean(dir)), &b) != nil {
		return false
	}
	return a.Dev != b.Dev
}
