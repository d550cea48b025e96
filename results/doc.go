// Package results turns what a run observed into figures and files: it
// collects the truth of every finished result as the simulation streams
// it (memory grows with hosts, not with results), computes the figures of
// the design (G/D ratios, device, host and project neutrality, cheat
// ratios), aggregates replications with 95% confidence intervals, and
// writes summary.json, CSV tables and run-info.json. Every figure is
// declared once, in Registry. Drawing (results/plot) and HTML
// (results/report) live beside it, so this package needs neither.
//
// Output floats carry 12 significant digits so that identical runs give
// identical bytes on every machine; a figure that cannot be computed is
// null, never NaN or Inf.
//
// Imports (layer 5): boinc, internal/chunked, internal/hugepage, internal/prefetch, model/hosts, policy, sim.
package results
