package policy

// ReplicaRules are the replica-combination rules of the first and second
// credit systems (seeds 000, 001, 004).
var ReplicaRules = []string{"boinc-pre2010", "min", "mean"}

// CombineReplicas grants one credit for a workunit's valid claims by rule
// (one of ReplicaRules; anything else is taken as boinc-pre2010): the
// pre-2010 validator's rule (Pre2010), the minimum, or the mean. It
// returns 0 for no claims.
func CombineReplicas(rule string, claims []float64) float64 {
	if len(claims) == 0 {
		return 0
	}
	switch rule {
	case "min":
		return Min(claims)
	case "mean":
		return Mean(claims)
	}
	return Pre2010(claims)
}

// BenchmarkClaim is the first system's claim for r (seed 000): CPU time x
// the mean of Whetstone and Dhrystone, or Whetstone alone (seeds 001/004:
// C1 = whetstone x cpu_time), at scale Cobblestones per GFLOPS-day,
// clamped finite.
func BenchmarkClaim(r *Result, whetstoneOnly bool, scale float64) float64 {
	bench := r.HostPFpops
	if !whetstoneOnly {
		bench = (r.HostPFpops + r.HostPIops) / 2
	}
	return Finite(FlopsToCredit(r.CPUTime*bench, scale))
}
