// Package policy defines what a credit policy is and the credit math that
// every BOINC credit system shares.
//
// A policy observes the results of a simulation as a BOINC server sees them
// (never the truth: real FLOPs and whether a host cheated stay in package
// sim) and returns the credit each validated workunit grants. Events arrive
// in simulated-time order: Sent, Reported, Validated, Tick and ClientReport.
// Concrete policies live in sub-packages and register a Factory with
// Register from their init function; package sim only knows the interface.
//
// The shared math follows BOINC's own code (see CREDIT-SPEC in the project's
// shared folder): the Cobblestone conversion with its evaluation order,
// AVERAGE and AVERAGE_VAR (lib/average.h), update_average and the RAC decay
// (lib/util.cpp), and the replica-combination helpers of sched/credit.cpp.
// Where golden vectors exist the functions reproduce them bit for bit
// (update_average within a relative 1e-12, the difference being Go's
// math.Exp against glibc's exp).
//
// Imports (layer 2): boinc, internal/suggest.
package policy
