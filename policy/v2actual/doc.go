// Package v2actual is BOINC's second credit system (seeds 001 and 004):
// credit proportional to the FLOPs an application counts and reports, as
// SETI@home did. A project scaling factor keeps the average credit per
// job equal to the first system's: fixed, or calibrated ("auto") over the
// first days of validations and frozen after. Apps that cannot count keep
// claiming benchmark x CPU time, times a factor that matches the counting
// project's credit per CPU second; GPU apps that cannot count need a rule
// the project chooses (the seeds: "projects using GPUs have to write
// custom code"). Replicas are combined by the first system's rules.
//
// Its known weaknesses are reproducible: a falsified count passes under
// single replication (the count_inflation agent), apps that cannot count
// keep the first system's host non-neutrality, and nothing handles GPUs
// in general.
//
// The validator's --max_granted_credit of the era (2006) caps a
// workunit's credit when the option max_granted_credit is above 0 (off
// by default); its --max_claimed_credit, which made a result claiming
// more invalid, is the scenario's server option of that name, as it
// changes validity.
//
// Imports (layer 3): policy.
package v2actual
