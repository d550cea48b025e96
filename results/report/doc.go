// Package report writes report.html for a run and sweep.html for a sweep:
// the scorecard and its verdict, the headline table, how results ended,
// the glossary from the figure registry, every plot with its caption and
// the scenario as run. The pages reference their PNGs by file name and
// need no network.
//
// Imports (layer 7): results, results/plot.
package report
