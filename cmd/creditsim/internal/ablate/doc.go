// Package ablate switches a credit system's mechanisms off one at a time
// on the same simulated results: the instance as configured and, beside
// it in the same run, one instance per mechanism it has on with that
// mechanism off. Policies never change dispatch, so every variant grants
// credit for exactly the same results, and the difference in a figure is
// what the mechanism buys.
//
// It also plans the ablation of the server's defences (ServerPlan):
// server options change dispatch and validation, so each configuration
// (the scenario's, each defence off, trust off) is a run of its own on
// the same seeds; ServerCSV sets their figures and price side by side,
// and ServerFrontier draws each policy's worst gain against the price.
//
// Imports (layer 10): policy, results, results/plot, scenarios.
package ablate
