//go:build linux || darwin || freebsd

package results

import "syscall"

// freeBytes is the space free to an unprivileged user on the file system
// holding path.
func freeBytes(path string) (uint64, bool) {
	var st syscall.Statfs_t
	if syscall.Statfs(path, &st) != nil {
		return 0, false
	}
	return uint64(st.Bavail) * uint64(st.Bsize), true
}
