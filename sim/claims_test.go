package sim_test

import (
	"testing"

	"github.com/creditsim/creditsim/policy"
	"github.com/creditsim/creditsim/scenarios"
	"github.com/creditsim/creditsim/sim"
	"github.com/creditsim/creditsim/world"
)

// claimTracer counts validated results by their claimed credit.
type claimTracer struct {
	versions                      []policy.AppVersion
	max                           float64
	validOver, invalidOver, valid int
}

func (tr *claimTracer) Sent(*policy.Result)     {}
func (tr *claimTracer) Reported(*policy.Result) {}
func (tr *claimTracer) Tick(policy.Tick)        {}
func (tr *claimTracer) Validated(v *policy.Validation, _ []float64) {
	for _, r := range v.Valid {
		tr.valid++
		if sim.ClaimedCredit(r, &tr.versions[r.VersionID]) > tr.max {
			tr.validOver++
		}
	}
	for _, r := range v.Invalid {
		if sim.ClaimedCredit(r, &tr.versions[r.VersionID]) > tr.max {
			tr.invalidOver++
		}
	}
}

// TestMaxClaimedCredit: with the validator's max_claimed_credit a result
// that claims more is invalid, whatever its output; off (0), a one-time
// claim of 1e304 FLOPs counted is valid.
func TestMaxClaimedCredit(t *testing.T) {
	for _, max := range []string{"0", "1e5"} {
		s, err := scenarios.Open("baseline", []string{"hosts.initial=60", "duration=10d", "warmup=0d", "replications=1", "policies=[v2actual]",
			"hosts.agents=[{kind: one_time_claim, share: 0.3, channel: flop_count, claim: 1e304, at: 1d}]",
			"server.max_claimed_credit=" + max})
		if err != nil {
			t.Fatal(err)
		}
		cfg, err := world.Config(s, 0, nil)
		if err != nil {
			t.Fatal(err)
		}
		x := sim.New(cfg)
		tr := &claimTracer{versions: x.World().Versions, max: 1e5}
		cfg.Tracer = tr
		x = sim.New(cfg)
		x.Run(nil)
		t.Logf("max_claimed_credit %s: %d valid results, %d of them claiming over 1e5; %d invalid ones over it", max, tr.valid, tr.validOver, tr.invalidOver)
		switch {
		case tr.valid < 1000:
			t.Errorf("max_claimed_credit %s: only %d valid results", max, tr.valid)
		case max == "0" && tr.validOver == 0:
			t.Error("off: no absurd claim was valid; the case is not exercised")
		case max != "0" && (tr.validOver != 0 || tr.invalidOver == 0):
			t.Errorf("max_claimed_credit %s: %d valid results claim more, %d invalid ones", max, tr.validOver, tr.invalidOver)
		}
	}
}
