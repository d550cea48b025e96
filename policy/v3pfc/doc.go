// Package v3pfc is BOINC's third credit system, CreditNew: a job's claim
// is its peak FLOP count PFC(J) = elapsed time x the peak FLOPS of the
// devices it used, normalised across app versions (so that a GPU version
// running at 10% of peak is paid like a CPU version at 50%) and across
// hosts (so that every host gets the same average credit per job of an
// app).
//
// Three sources disagree on the details: the design page in its version 2
// (seed 004) and version 29 (seed 001), and BOINC's server code
// (BOINC's server code; HEAD since 2025, "classic" before). Every point where they
// differ is an option of the kind "v3pfc" (see Config and `creditsim
// policies`), and four presets name the documented combinations:
//
//	v3pfc-boinc          the server code today (HEAD)
//	v3pfc-boinc-classic  the server code of 2012-2025
//	v3pfc-design-v29     the design page, version 29
//	v3pfc-design-v2      the design page, version 2
//
// Config.PFC and Config.AssignCredit reproduce get_pfc and
// assign_credit_set bit for bit under the v3pfc-boinc preset, and
// Config.UpdateScales the feeder's update_av_scales; the golden vectors
// of ../testdata/golden (pfc_cases.csv, av_scales.csv) test every row.
//
// Statistics are kept as the server keeps them: per app version (AV) and
// per host and app version (HAV), of PFC/E(J) where E(J) is the
// workunit's rsc_fpops_est. Under the server presets AV samples wait for
// the end of a validator pass and scales change at feeder ticks (600 s);
// under the design presets both change at once.
//
// Imports (layer 3): internal/hugepage, internal/prefetch, policy.
package v3pfc
