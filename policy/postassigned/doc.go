// Package postassigned is the validator's --post_assigned_credit option:
// the project's own code reads each result's output and sets its claimed
// credit from the work the output shows (a count of what was computed),
// and the canonical result's claim is granted. The hosts' benchmarks,
// times and FLOP counts play no part, so what a host reports cannot
// inflate it; what the project's count gets wrong, it pays wrongly.
//
// The work an output shows is the FLOPs the result really did (none for
// a result that did none, such as a fake), times a count error the
// project's measure makes: a factor with mean 1 and coefficient of
// variation count_error, fixed per workunit (its replicas' outputs show
// the same work), drawn from the workunit's ID so it is the same in
// every run.
//
// Options:
//
//	factor              credit per FLOP the output shows, as a multiple of
//	                    scale / 86400e9 (default 1: true FLOPs at the scale)
//	count_error         coefficient of variation of the project's count
//	                    (default 0: exact)
//	scale               Cobblestones per GFLOPS-day (default 200)
//	max_granted_credit  credit is capped at it; 0 = none (default 73e6)
//
// Imports (layer 3): boinc/rng, policy.
package postassigned
