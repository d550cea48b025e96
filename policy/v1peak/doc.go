// Package v1peak is BOINC's first credit system (seed 000): claimed credit
// is the CPU time a result used times the host's benchmarks, with 100
// Cobblestones for a day of CPU time on a computer doing 1,000 MIPS
// Whetstone and 1,000 MIPS Dhrystone. The replicas of a workunit are
// combined into one granted credit by a configurable rule.
//
// Options:
//
//	scale      Cobblestones per GFLOPS-day (default 100, seed 000)
//	benchmark  mean: mean of Whetstone and Dhrystone (seed 000, default);
//	           whetstone: Whetstone only (seeds 001/004: C1 = whetstone x cpu_time)
//	replicas   boinc-pre2010 (default): 1 or 2 valid claims grant the
//	           minimum, 3 or more drop the highest and lowest and average
//	           the rest, claims under 0.001 are ignored; or min; or mean
//	gpu        app_claim (default): a GPU app determines its claimed credit
//	           itself (BOINC's credit page: "some applications determine
//	           claimed credit themselves"): its counted FLOPs x scale when
//	           it counts them, otherwise its workunit's estimate
//	           (rsc_fpops_est x scale); cpu_time: GPU jobs claim like CPU
//	           jobs, CPU time x benchmark, the under-crediting the later
//	           CreditNew design pages complain about
//	max_granted_credit  the validator's --max_granted_credit (2006): a
//	           workunit's credit is capped at it; 0 (default, as in the
//	           first system's era) is no cap
//
// Imports (layer 3): policy.
package v1peak
