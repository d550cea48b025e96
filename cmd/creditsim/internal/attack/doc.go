// Package attack searches, for each credit policy of a scenario, the
// cheating behaviour that earns most over honest work: the worst case a
// policy allows, not only the cases someone thought of.
//
// The space is the agent kinds of package hosts (one behaviour on a share
// of accounts), each with its continuous parameters (share, inflation
// factor, work fraction, threshold, claim), the one-time claim's channel
// enumerated. Every candidate runs on the scenario's seed, so candidates
// are compared on common random numbers: the same hosts, jobs and draws,
// only the behaviour differs. One simulated run grants every policy's
// credit side by side, so each run scores the candidate for all policies
// at once.
//
// The search has three phases. First, every kind at the scenario's own
// agent settings (or the defaults), so the fixed agents of the library
// are always among the candidates. Second, a quasi-random design (Halton)
// over each kind's parameters. Third, for each policy, Nelder-Mead
// (gonum/optimize) from its best candidates, within its kind. The budget
// counts simulated runs of the search. The worst case found for each
// policy is then run again on fresh seeds (the scenario's seed + 1, with
// several replications), so that a lucky draw is not reported as a
// weakness; that run is what the report gives, with its 95% interval.
//
// Imports (layer 10): boinc, cmd/creditsim/internal/runner, model/hosts, results, results/plot, scenarios.
package attack
