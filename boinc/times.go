package boinc

import (
	"math"
	"strings"
)

// IsMultithread is BOINC's APP_VERSION::is_multithread: the plan class
// names "mt" anywhere in it.
func IsMultithread(planClass string) bool { return strings.Contains(planClass, "mt") }

// Report is what the scheduler knows when it stores a completed result's
// times: whether the result ran a sequential version the server knows
// (app_version_id > 0 and a plan class without "mt": anonymous-platform
// results have a negative version ID), when it was sent and received, in
// seconds, and the host's CPU count as the client reports it (p_ncpus).
type Report struct {
	Sequential     bool
	Sent, Received float64
	NCPUs          float64
}

// CheckTimes returns a reported elapsed and CPU time as BOINC's
// scheduler stores them (handle_completed_results in
// sched/sched_result.cpp), applying its checks in its order:
//
//  1. on a Sequential version, elapsed time below CPU time becomes the
//     CPU time (some clients report a low elapsed time);
//  2. a negative elapsed time becomes 0;
//  3. a zero elapsed time becomes the CPU time, when that is positive;
//  4. elapsed time above the turnaround becomes the turnaround, unless
//     the turnaround is negative; the database keeps times in whole
//     seconds, so the turnaround is floor(Received) - floor(Sent);
//  5. CPU time above elapsed time x NCPUs becomes elapsed time x NCPUs.
//
// Times already stored (a project database's rows) pass unchanged: each
// check's output satisfies the checks before and after it.
func CheckTimes(elapsed, cpu float64, r Report) (float64, float64) {
	if r.Sequential && elapsed < cpu {
		elapsed = cpu
	}
	if elapsed < 0 {
		elapsed = 0
	}
	if elapsed == 0 && cpu > 0 {
		elapsed = cpu
	}
	if turnaround := math.Floor(r.Received) - math.Floor(r.Sent); turnaround >= 0 && elapsed > turnaround {
		elapsed = turnaround
	}
	if lim := elapsed * r.NCPUs; cpu > lim {
		cpu = lim
	}
	return elapsed, cpu
}
