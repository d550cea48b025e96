package boinc

import "testing"

// TestCheckTimes: each of the scheduler's checks of reported times
// (sched_result.cpp), with its condition, and their order.
func TestCheckTimes(t *testing.T) {
	seq := func(sent, received, ncpus float64) Report {
		return Report{Sequential: true, Sent: sent, Received: received, NCPUs: ncpus}
	}
	mt := func(sent, received, ncpus float64) Report {
		return Report{Sent: sent, Received: received, NCPUs: ncpus}
	}
	for _, c := range []struct {
		name         string
		elapsed, cpu float64
		r            Report
		wantE, wantC float64
	}{
		{"honest, unchanged", 100, 90, seq(0, 1000, 1), 100, 90},
		// 1: a sequential version's elapsed time below its CPU time.
		{"1: elapsed below CPU, sequential: raised", 0.244, 4.88, seq(0, 1000, 8), 4.88, 4.88},
		{"1: elapsed below CPU, multi-threaded: kept", 10, 40, mt(0, 1000, 4), 10, 40},
		// 2: negative elapsed time.
		{"2: negative elapsed, no CPU time: 0", -5, 0, mt(0, 1000, 1), 0, 0},
		{"2 then 3: negative elapsed with CPU time: the CPU time", -5, 7, mt(0, 1000, 1), 7, 7},
		{"1 before 2: negative elapsed, sequential: the CPU time", -5, 7, seq(0, 1000, 1), 7, 7},
		// 3: zero elapsed time.
		{"3: zero elapsed, multi-threaded: the CPU time", 0, 30, mt(0, 1000, 1), 30, 30},
		{"3: zero elapsed and CPU time: kept", 0, 0, mt(0, 1000, 1), 0, 0},
		// 4: the turnaround, in whole seconds.
		{"4: above the turnaround: clamped", 500, 100, seq(0, 300, 1), 300, 100},
		{"4: turnaround of whole seconds", 99.7, 1, seq(100.2, 199.9, 1), 99, 1},
		{"4: negative turnaround: not clamped", 500, 100, seq(300, 100, 1), 500, 100},
		{"3 before 4: zero elapsed becomes CPU time, then the turnaround", 0, 900, mt(0, 600, 2), 600, 900},
		// 5: CPU time above elapsed x the CPUs reported.
		{"5: CPU time capped by the reported CPUs", 100, 1000, mt(0, 1000, 4), 100, 400},
		{"1 before 5: raised elapsed then clamped, CPU capped", 10, 5000, seq(0, 1000, 2), 1000, 2000},
	} {
		e, cpu := CheckTimes(c.elapsed, c.cpu, c.r)
		if e != c.wantE || cpu != c.wantC {
			t.Errorf("%s: CheckTimes(%v, %v) = %v, %v; want %v, %v", c.name, c.elapsed, c.cpu, e, cpu, c.wantE, c.wantC)
		}
		// Stored times pass unchanged.
		if e2, cpu2 := CheckTimes(e, cpu, c.r); e2 != e || cpu2 != cpu {
			t.Errorf("%s: checked again: %v, %v; want %v, %v unchanged", c.name, e2, cpu2, e, cpu)
		}
	}
}

func TestIsMultithread(t *testing.T) {
	for pc, want := range map[string]bool{"": false, "mt": true, "cuda": false, "opencl_mt": true, "sse2": false, "avx_mt16": true} {
		if got := IsMultithread(pc); got != want {
			t.Errorf("IsMultithread(%q) = %v, want %v", pc, got, want)
		}
	}
}
