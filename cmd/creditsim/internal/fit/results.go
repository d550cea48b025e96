package fit

import (
	"github.com/creditsim/creditsim/cmd/creditsim/internal/tables"
)

// The result columns' domains: no job runs for more than three years,
// and its CPU time is at most its elapsed time on every CPU of the
// largest host.
const maxElapsed = 3 * 365 * 86400.0

// timesInDomain counts a valid result's elapsed_time and cpu_time
// against their domains and reports whether both are in them: a result
// outside is left out of the versions' efficiency and CPU use.
func (t *tableFit) timesInDomain(r *tables.Result) bool {
	if t.elapsed == nil {
		rows := "valid results in the window"
		t.elapsed = &column{name: "elapsed_time", file: "result", rows: rows, out: map[string]int{}}
		t.cpuTime = &column{name: "cpu_time", file: "result", rows: rows, out: map[string]int{}}
	}
	if !t.elapsed.check(r.ElapsedTime, 1e-3, maxElapsed, "shorter than a millisecond", "more than three years") {
		return false
	}
	return t.cpuTime.check(r.CPUTime, 0, r.ElapsedTime*maxCores, "negative", "more than every CPU of the largest host for its elapsed time")
}

// resultNotes are what the result columns' domains left out (notes) and
// could not identify (warnings: the versions' efficiency and CPU use).
func (t *tableFit) resultNotes() (notes, unidentified []string) {
	for _, c := range []*column{t.elapsed, t.cpuTime} {
		if c == nil || c == t.cpuTime && !t.elapsed.identified() {
			continue // nothing, or said with elapsed_time
		}
		note, un := c.judge("efficiency and cpu use", "efficiency")
		if note != "" {
			notes = append(notes, note)
		}
		if un != "" {
			unidentified = append(unidentified, un)
		}
	}
	return notes, unidentified
}
