// Package fromruntime is the validator's --credit_from_runtime option:
// each replica claims the peak FLOPs its host could have done in the time
// it ran, flops_estimate x elapsed time, and the job is granted the low
// average of the claims. It keeps no statistics; VM projects choose it
// because their apps' CPU time says little about their work.
//
// Per replica, over every viable replica of the quorum (valid and
// invalid alike, as the validator's loop does): a flops_estimate of
// exactly 1e9 (a failed benchmark) becomes 4.3e9 (AVG_CPU_FPOPS); PFC =
// flops_estimate x elapsed, set to rsc_fpops_bound when it exceeds twice
// the bound; claim = PFC x scale / 86400e9; claims <= 0 or above
// max_granted_credit are dropped; the job gets low_average of the rest,
// capped at max_granted_credit (0 if none is left).
//
// Options:
//
//	scale               Cobblestones per GFLOPS-day (default 200, COBBLESTONE_SCALE)
//	max_granted_credit  claims above it are dropped, credit capped at it
//	                    (default 73e6, "1 TeraFLOP-year"; the option
//	                    requires it above 0)
//
// Imports (layer 3): policy.
package fromruntime
