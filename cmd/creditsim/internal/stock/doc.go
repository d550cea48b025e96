// Package stock answers the question a BOINC project can act on today:
// which configuration of BOINC's server as it ships (how jobs are
// replicated, the daily quota, the credit option and max_granted_credit)
// to choose, for a kind of project, and what creditsim's own designs
// (the fourth credit system, the server's own trust) would add.
//
// A search (Search, SearchAll) runs a world under each server
// configuration (Servers) with every credit option side by side (Options)
// and the threat model (Threats, threats.yaml), each replication with
// its honest twin, and judges each row by one rule: it holds the bound
// when every behaviour's gain over the twin and the worst account's gain
// beyond chance are at most 1.1 and honest accounts keep at least 95%
// of their credit (results.HarmFloor); among those the fairest, then the cheapest, is
// recommended; where none holds, the one whose worst figure is nearest
// its ideal. Kinds are the kinds of project `creditsim verdict` answers
// for; `creditsim advise` searches a project's own fitted world.
//
// Imports (layer 10): cmd/creditsim/internal/runner, policy, results, scenarios.
package stock
