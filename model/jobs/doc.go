// Package jobs describes what projects compute: projects, their apps, the
// app versions for each platform and plan class (CPU, GPU, anonymous
// platform), and the workunit stream of each app (rsc_fpops_est, the true
// FLOPs drawn around it, size classes, rsc_fpops_bound, quorum and delay
// bound).
//
// Workunit k of an app is drawn only from its own random stream, so the
// job sequence does not depend on which hosts ask for work.
//
// Imports (layer 2): boinc, boinc/rng, model/param.
package jobs
