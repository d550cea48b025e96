package usage

import (
	"bytes"
	"os"
	"strconv"
)

// ResetPeakRSS makes the process's peak resident set start again from
// its present size, so that PeakRSS measures what follows (a benchmark
// run after others in one process), and reports whether it could:
// Linux allows it (writing 5 to /proc/self/clear_refs resets the
// VmHWM of /proc/self/status, which PeakRSS then reads); elsewhere, or
// where /proc is not writable, nothing changes.
func ResetPeakRSS() bool {
	f, err := os.OpenFile("/proc/self/clear_refs", os.O_WRONLY, 0)
	if err != nil {
		return false
	}
	_, err = f.Write([]byte("5"))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return false
	}
	_, ok := procPeakRSS()
	return ok
}

// procPeakRSS reads the peak resident set from /proc/self/status
// (VmHWM, in kilobytes of 1,024 bytes): unlike getrusage's, it starts
// again at ResetPeakRSS.
func procPeakRSS() (uint64, bool) {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0, false
	}
	_, line, ok := bytes.Cut(b, []byte("\nVmHWM:"))
	if !ok {
		return 0, false
	}
	line, _, _ = bytes.Cut(line, []byte("\n"))
	f := bytes.Fields(line)
	if len(f) != 2 || string(f[1]) != "kB" {
		return 0, false
	}
	kb, err := strconv.ParseUint(string(f[0]), 10, 64)
	if err != nil {
		return 0, false
	}
	return kb * 1024, true
}
