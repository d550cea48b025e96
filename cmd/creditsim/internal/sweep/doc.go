// Package sweep runs a scenario over a grid (or a zip) of parameter
// values: a sweep file names a base scenario, overrides, the parameters
// (scenario paths and their values) and the figures to plot. Each point
// is an ordinary run with a seed hashed from the sweep's seed and the
// point's values (policy options never enter it, so every policy of a
// point sees the same draws). Points run on all cores, or a share of
// them per process (--shard, a Slurm or Kubernetes array index), each
// into its own folder with a digest, so that a sweep resumes after a
// kill and merge joins the shards; the finished sweep writes sweep.csv,
// sweep.json, line plots with 95% bands, heat maps and sweep.html.
//
// Imports (layer 10): boinc/rng, cmd/creditsim/internal/runner, internal/suggest, model/hosts, results, results/plot, results/report, scenarios.
package sweep
