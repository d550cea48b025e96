package ablate

import (
	"reflect"
	"strings"
	"testing"

	"github.com/creditsim/creditsim/scenarios"
)

// TestServerPlan: a configuration per defence the scenario has on, then
// trust off altogether; none without server trust.
func TestServerPlan(t *testing.T) {
	offs := map[string]func(*scenarios.Trust){
		"no-pair_untrusted": func(t *scenarios.Trust) { t.PairUntrusted = false },
		"no-check_rate":     func(t *scenarios.Trust) { t.CheckRate = 0 },
		"no-recheck_rate":   func(t *scenarios.Trust) { t.RecheckRate = 0 },
		"no-hold_trusted":   func(t *scenarios.Trust) { t.HoldTrusted = 0 },
		"no-audit":          func(t *scenarios.Trust) { t.Audit = false },
		"no-abort_untrusts": func(t *scenarios.Trust) { t.AbortUntrusts = false },
		"no-untrusted_quota": func(t *scenarios.Trust) {
			t.UntrustedQuota, t.QuotaTenure = 0, 0
		},
		"no-quota_tenure": func(t *scenarios.Trust) { t.QuotaTenure = 0 },
		"no-escrow": func(t *scenarios.Trust) {
			t.Escrow, t.EscrowLimit, t.HoldTrusted, t.Audit = false, 0, 0, false
		},
		"no-trust": func(t *scenarios.Trust) { *t = scenarios.Trust{} },
	}
	for _, c := range []struct {
		sets []string
		want []string
	}{
		{[]string{"server.trust.confirmations=10", "server.trust.check_rate=1"}, []string{"as configured", "no-check_rate", "no-trust"}},
		{[]string{"server.trust.confirmations=10", "server.trust.check_rate=0.5", "server.trust.recheck_rate=0.01", "server.trust.pair_untrusted=true",
			"server.trust.escrow=true", "server.trust.escrow_limit=100", "server.trust.hold_trusted=7d"},
			[]string{"as configured", "no-pair_untrusted", "no-check_rate", "no-recheck_rate", "no-hold_trusted", "no-escrow", "no-trust"}},
		{[]string{"server.trust={confirmations: 10, check_rate: 1, recheck_rate: 0.05, pair_untrusted: true, escrow: true, escrow_limit: 100, " +
			"hold_trusted: 7d, audit: true, abort_untrusts: true, untrusted_quota: 30, quota_tenure: 1d}"},
			[]string{"as configured", "no-pair_untrusted", "no-check_rate", "no-recheck_rate", "no-hold_trusted", "no-audit", "no-abort_untrusts",
				"no-untrusted_quota", "no-quota_tenure", "no-escrow", "no-trust"}},
	} {
		s, err := scenarios.Open("baseline", c.sets)
		if err != nil {
			t.Fatal(err)
		}
		cfgs, err := ServerPlan(s)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, cfg := range cfgs {
			got = append(got, cfg.Name)
			if cfg.Option != "" {
				off, err := scenarios.Open("baseline", append(c.sets, cfg.Option))
				if err != nil {
					t.Errorf("%s: its override %q does not load: %v", cfg.Name, cfg.Option, err)
					continue
				}
				// Each override switches its defence off, with what needs
				// it, and leaves the rest of the scenario's trust as it is.
				want := s.Server.Trust
				offs[cfg.Name](&want)
				if off.Server.Trust != want {
					t.Errorf("%s: trust %+v, want %+v", cfg.Name, off.Server.Trust, want)
				}
			}
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%v: configurations %v, want %v", c.sets, got, c.want)
		}
	}
	s, _ := scenarios.Open("baseline", nil)
	if _, err := ServerPlan(s); err == nil || !strings.Contains(err.Error(), "no server defence on") {
		t.Errorf("without trust: %v", err)
	}
}
