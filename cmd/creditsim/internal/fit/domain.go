package fit

import (
	"fmt"
	"strings"
)

// The domains of the host columns a fit reads. BOINC's own meanings
// first: a benchmark of exactly 1e9 is the client's default when its
// benchmark failed (client/cs_benchmark.cpp), zero or less is unset; a
// CPU count of zero or less is unset. The upper bounds are far beyond
// any real host, so a value past them is a broken or forged row, not a
// fast machine.
const (
	failedBenchmark = 1e9
	maxPFpops       = 1e12 // one core's Whetstone: today's fastest are near 1e10
	maxIopsRatio    = 100  // Dhrystone over Whetstone: real hosts 0.5 to 10
	maxCores        = 1024 // CPUs of one host (p_ncpus)
	maxGPUs         = 64   // GPUs of one kind in one host (p_ngpus, coprocessor counts)
	// firstHost is 1995-01-01, before volunteer computing: an earlier
	// create_time (0 where the column is missing, or a year like -1200)
	// says nothing about when the host came.
	firstHost = 788918400
)

// checkGPUCount counts a GPU host's count of GPUs in c and reports
// whether it is in the domain.
func checkGPUCount(c *column, n int) bool {
	switch {
	case n <= 0:
		c.reject("at 0 or less (unset)")
	case n > maxGPUs:
		c.reject(fmt.Sprintf("above %d (no host has so many)", maxGPUs))
	default:
		c.used++
		return true
	}
	return false
}

// checkFraction counts a fraction of time in c (on_frac, active_frac)
// and reports whether it is in the domain (0, 1].
func checkFraction(c *column, x float64) bool {
	switch {
	case !(x > 0):
		c.reject("at 0 or less (unset, or the column missing)")
	case !(x <= 1):
		c.reject("above 1 (a fraction of the time)")
	default:
		c.used++
		return true
	}
	return false
}

// checkCreated counts a host's create_time in c and reports whether it
// is in the domain: from 1995 to the host's last contact.
func checkCreated(c *column, created, lastContact float64) bool {
	switch {
	case !(created >= firstHost):
		c.reject("before 1995 (unset, the column missing, or not a date)")
	case lastContact > 0 && created > lastContact:
		c.reject("after the host's last contact (rpc_time)")
	default:
		c.used++
		return true
	}
	return false
}

// column counts one host column's values over the hosts present: those
// within its domain (used) and each reason one is not.
type column struct {
	name, file string
	rows       string // what a value belongs to: "hosts present"
	used       int
	out        map[string]int // reason -> rows
	order      []string
}

func newColumn(name, file string) *column {
	return &column{name: name, file: file, rows: "hosts present", out: map[string]int{}}
}

// check counts x in c and reports whether it lies in [lo, hi], with
// the reason for a value outside: unset at 0 or less (lo > 0), below or
// above the domain.
func (c *column) check(x, lo, hi float64, low, high string) bool {
	switch {
	case lo > 0 && !(x > 0):
		c.reject("at 0 or less (unset, or the column missing)")
	case !(x >= lo):
		c.reject(fmt.Sprintf("below %g (%s)", lo, low))
	case !(x <= hi):
		c.reject(fmt.Sprintf("above %g (%s)", hi, high))
	default:
		c.used++
		return true
	}
	return false
}

func (c *column) reject(reason string) {
	if c.out[reason] == 0 {
		c.order = append(c.order, reason)
	}
	c.out[reason]++
}

// outside says how many values were outside the domain and why, "" when
// none were.
func (c *column) outside() string {
	var parts []string
	for _, r := range c.order {
		parts = append(parts, fmt.Sprintf("%d %s", c.out[r], r))
	}
	return strings.Join(parts, ", ")
}

// identified reports whether at least half of the hosts present (and
// at least one) have a value in the domain: fewer, and what the column
// holds is mostly not data.
func (c *column) identified() bool {
	n := c.used
	for _, k := range c.out {
		n += k
	}
	return c.used > 0 && 2*c.used >= n
}

// judge says, for the header, how the column was used: a note when it
// was fitted with some values left out, an entry of "Not identified"
// when it was not fitted (then the baseline's values are written).
func (c *column) judge(field, baseline string) (note, unidentified string) {
	out := c.outside()
	if c.identified() {
		if out != "" {
			note = fmt.Sprintf("%s: %s of %s left out of the fit (%s)", field, c.name, c.file, out)
		}
		return note, ""
	}
	n := c.used
	for _, k := range c.out {
		n += k
	}
	why := fmt.Sprintf("%d of the %d %s have a usable %s in %s", c.used, n, c.rows, c.name, c.file)
	if out != "" {
		why += " (" + out + ")"
	}
	return "", fmt.Sprintf("%s: not identified: %s, fewer than half; the baseline's %s written", field, why, baseline)
}
