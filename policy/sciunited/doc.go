// Package sciunited is Science United's accounting (seed 003): credit by
// runtime, not by job. The client accumulates "estimated credit" as jobs
// run, runtime x the peak FLOPS of the devices they use, and reports the
// running total per project at each account-manager call (every 12 hours
// by default, none while the computer is off). The accounting keeps one
// record per (host, project), credits the difference since the last call
// (the first call credits nothing), and adds it to a daily history per
// user and project.
//
// Its only cheat resistance is a sanity check: each delta is at most the
// reported FLOPS x devices x the wall time since the last call, and
// reports beyond plausible limits (CPU speed, CPU count, GPU speed, GPU
// count) are reset to defaults. A host that lies about its speed below
// those limits gets the whole lie, and one that computes nothing at all
// but runs still earns: the seed accepts both, and the figures show them.
//
// Imports (layer 3): policy.
package sciunited
