// Package plot draws a run's and a sweep's figures as PNG files with
// gonum/plot: the scorecard picture, host, device and project neutrality,
// cheat resistance, each policy's dynamics and RAC, and a sweep's lines
// and heat maps. It reads what results computed and decides only how it
// looks: log axes where values span decades, values past a sane range
// drawn at the edge with their value, reference lines at 1 and 1.1.
//
// Imports (layer 6): boinc, model/hosts, results.
package plot
