package policy

import "github.com/creditsim/creditsim/boinc"

// SecondsPerDay is BOINC's SECONDS_PER_DAY.
const SecondsPerDay = boinc.SecondsPerDay

// Historic Cobblestone scales, in credits per GFLOPS-day (package boinc's).
const (
	ScaleClassic = boinc.ScaleClassic
	ScaleServer  = boinc.ScaleServer
)

// MaxGrantedCredit is the validator's default max_granted_credit,
// 200 x 1000 x 365 ("1 TeraFLOP-year"): the most one result may be
// granted.
const MaxGrantedCredit = 200 * 1000 * 365

// FlopsToCredit converts FLOPs to Cobblestones at scale credits per
// GFLOPS-day. It evaluates (flops*scale)/86400e9 left to right, exactly as
// BOINC's unparenthesised macro x*COBBLESTONE_SCALE expands for scale 200;
// that can differ by one ulp from flops*(scale/86400e9).
func FlopsToCredit(flops, scale float64) float64 {
	return float64(flops*scale) / 86400e9
}

// CreditToFlops is the inverse of FlopsToCredit (x / (scale/86400e9), as
// tools/backend_lib.cpp's correct "/=" evaluates it).
func CreditToFlops(credit, scale float64) float64 {
	return credit / (scale / 86400e9)
}

// FlopsToCreditAssign converts as a compound assignment "x *=
// COBBLESTONE_SCALE" does: the whole macro is evaluated first, so this is
// flops*(scale/86400e9). assign_credit_set converts a workunit's combined
// PFC this way (sched/credit.cpp), while get_pfc's claims use the macro's
// left-to-right order (FlopsToCredit); the two can differ by one ulp.
func FlopsToCreditAssign(flops, scale float64) float64 {
	return flops * (scale / 86400e9)
}
