// Package ablate switches a credit system's mechanisms off one at a time
// on the same simulated results: the instance as configured and, beside
// it in the same run, one instance per mechanism it has on with that
// mechanism off. Policies never change dispatch, so every variant grants
// credit for exactly the same results, and the difference in a figure is
// what the mechanism buys.
//
// Imports (layer 10): policy, results, scenarios.
package ablate
