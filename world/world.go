package world

import (
	"github.com/creditsim/creditsim/boinc/rng"
	"github.com/creditsim/creditsim/policy"
	"github.com/creditsim/creditsim/results"
	"github.com/creditsim/creditsim/scenarios"
	"github.com/creditsim/creditsim/sim"
)

// ReplicationSeed is the seed of replication r: hash(seed, r).
func ReplicationSeed(seed uint64, r int) uint64 { return rng.Hash(seed, uint64(r)) }

// Config returns replication r's engine configuration with fresh policies.
func Config(s *scenarios.Scenario, r int, obs sim.Observer) (*sim.Config, error) {
	pols := make([]policy.Policy, len(s.Policies))
	for i, ps := range s.Policies {
		p, err := policy.New(ps.Spec())
		if err != nil {
			return nil, err
		}
		pols[i] = p
	}
	return &sim.Config{
		Seed:     ReplicationSeed(s.Seed, r),
		Duration: float64(s.Duration),
		Server: sim.Server{
			DailyResultQuota:      s.Server.DailyResultQuota,
			ValidatorPeriod:       float64(s.Server.ValidatorPeriod),
			FeederPeriod:          float64(s.Server.FeederPeriod),
			PerfInfoPeriod:        float64(s.Server.PerfInfoPeriod),
			MaxWUsToSend:          s.Server.MaxWUsToSend,
			GPUMultiplier:         s.Server.GPUMultiplier,
			MaxNCPUs:              s.Server.MaxNCPUs,
			OneResultPerUserPerWU: s.Server.OneResultPerUserPerWU,
			OneResultPerHostPerWU: s.Server.OneResultPerHostPerWU,
			ShmemWorkItems:        s.Server.ShmemWorkItems,
			MaxJobsInProgress:     s.Server.MaxJobsInProgress,
			MaxJobsInProgressGPU:  s.Server.MaxJobsInProgressGPU,
			IgnoreDelayBound:      s.Server.IgnoreDelayBound,
			MaxClaimedCredit:      s.Server.MaxClaimedCredit,
			ValidatorComparesWork: s.Server.ValidatorComparesWork,
			Trust:                 trust(s.Server.Trust),
		},
		Hosts:       &s.Hosts,
		Projects:    s.Projects,
		Policies:    pols,
		Observer:    obs,
		SampleHosts: s.Output.SampleHosts,
	}, nil
}

// Window returns the counting window of a scenario: results sent from the
// warm-up on and at least one (longest) delay bound before the end.
func Window(s *scenarios.Scenario) results.Window {
	longest, _ := s.LongestDelayBound()
	to := float64(s.Duration) - longest
	return results.Window{From: float64(s.Warmup), To: to, End: float64(s.Duration)}
}

// trust is the engine's server trust, the escrow limit's default filled in.
func trust(t scenarios.Trust) sim.Trust {
	if t.EscrowLimit == 0 {
		t.EscrowLimit = scenarios.DefaultEscrowLimit
	}
	return sim.Trust{Confirmations: t.Confirmations, CheckRate: t.CheckRate, RecheckRate: t.RecheckRate,
		PairUntrusted: t.PairUntrusted, Escrow: t.Escrow, EscrowLimit: t.EscrowLimit, HoldTrusted: float64(t.HoldTrusted),
		Audit: t.Audit, AbortUntrusts: t.AbortUntrusts, UntrustedQuota: t.UntrustedQuota,
		QuotaTenure: float64(t.QuotaTenure)}
}
