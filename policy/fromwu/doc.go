// Package fromwu is the validator's --credit_from_wu option, fixed
// credit: every job is granted the credit its workunit was created with
// (create_work --credit), whatever its hosts report. A project sets it
// from what it knows of the job before it runs, usually its estimated
// size; when that estimate is wrong (jobs of one estimate that differ in
// size), fixed credit is wrong by as much.
//
// Options:
//
//	credit              the credit a job is created with, for every app:
//	                    "estimate" (default: rsc_fpops_est x scale /
//	                    86400e9, the job's estimated peak-FLOP credit), a
//	                    number of Cobblestones, a multiple of the
//	                    estimate written "2x", or "none": workunits
//	                    created without a credit, which BOINC grants 0
//	credit_by_app       the same per app, overriding credit:
//	                    "appA=50,appB=1.5x"
//	scale               Cobblestones per GFLOPS-day (default 200)
//	max_granted_credit  credit is capped at it; 0 = none (default 73e6)
//
// Imports (layer 3): policy.
package fromwu
