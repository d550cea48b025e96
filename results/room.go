package results

import (
	"fmt"
	"os"
	"path/filepath"
)

// MinRoom is the least free space a run's output place must have: the
// plots, the report and the small tables of any run fit in it.
const MinRoom = 32 << 20

// CheckRoom checks, before a run, that creditsim can write where dir
// will be made (dir's parent, or the nearest folder above it that
// exists) and that its file system has need bytes free, so that a run
// does not fail at its end for want of either. need is an estimate; a
// file system whose free space is unknown passes.
func CheckRoom(dir string, need int64) error {
	at := nearestFolder(filepath.Dir(filepath.Clean(dir)))
	// A probe file, removed at once: it answers for read-only mounts,
	// permissions and root alike.
	f, err := os.CreateTemp(at, ".creditsim-probe-*")
	if err != nil {
		return Refused("%s: cannot write in %s (%v)", dir, at, unwrapPath(err))
	}
	f.Close()
	os.Remove(f.Name())
	if free, ok := freeBytes(at); ok && free < uint64(need) {
		return Refused("%s: its file system has %s free, and this run writes about %s; free some space or write elsewhere",
			dir, byteSize(int64(free)), byteSize(need))
	}
	return nil
}

// nearestFolder is path, or the nearest folder above it that exists.
func nearestFolder(path string) string {
	for {
		if fi, err := os.Stat(path); err == nil && fi.IsDir() {
			return path
		}
		up := filepath.Dir(path)
		if up == path {
			return path
		}
		path = up
	}
}

// unwrapPath drops the path an *os.PathError repeats.
func unwrapPath(err error) error {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err
	}
	return err
}

// byteSize writes n bytes as "12 MB", "3.4 GB".
func byteSize(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%d MB", n>>20)
	default:
		return fmt.Sprintf("%d KB", n>>10)
	}
}
