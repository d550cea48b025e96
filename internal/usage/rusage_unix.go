//go:build unix

package usage

import (
	"runtime"
	"syscall"
)

// CPUSeconds returns the user and system CPU time the process has used.
func CPUSeconds() float64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}

// PeakRSS returns the process's largest resident set so far, in bytes
// (0 where the system does not say): since the last ResetPeakRSS where
// that succeeded, else since the process started.
func PeakRSS() uint64 {
	if b, ok := procPeakRSS(); ok {
		return b
	}
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil || ru.Maxrss < 0 {
		return 0
	}
	if runtime.GOOS == "darwin" || runtime.GOOS == "ios" {
		return uint64(ru.Maxrss) // bytes there, kilobytes elsewhere
	}
	return uint64(ru.Maxrss) * 1024
}
