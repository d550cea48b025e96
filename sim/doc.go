// Package sim is creditsim's discrete-event engine: a virtual clock and an
// event queue, per-component random streams, the BOINC server (feeder,
// scheduler, transitioner, validator, dispatch rules and accounting) and
// the clients (hosts that arrive and leave, are on and off, buffer work,
// run jobs and report them).
//
// Credit policies observe the server's view of each result through the
// policy.Policy events; the truth of each result (the FLOPs really done,
// whether the host cheated) is passed only to the Observer, for metrics.
// Dispatch rules (daily quota, error-rate punishment, adaptive
// replication, consecutive valid results) follow the BOINC server code
// and are never a policy's business.
//
// Imports (layer 4): boinc, boinc/rng, internal/chunked, internal/hugepage, internal/prefetch, model/hosts, model/jobs, policy.
package sim
