package ablate

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"strings"

	"github.com/creditsim/creditsim/results"
	"github.com/creditsim/creditsim/results/plot"
	"github.com/creditsim/creditsim/scenarios"
	"go.yaml.in/yaml/v3"
)

// ServerConfig is one server configuration of a server ablation: the
// scenario's own, or it with one defence off. Unlike a policy's
// mechanisms, a server option changes dispatch and validation, so each
// configuration is a run of its own (on the same seeds).
type ServerConfig struct {
	// Name labels the configuration: "as configured", "no-<defence>".
	Name string
	// Mechanism is the defence switched off ("" for the scenario's own),
	// Option the override that does it, Doc what the defence does.
	Mechanism, Option, Doc string
}

// serverDefences are the server's defences a server ablation switches
// off one at a time, in order: set is the override that does it where
// one key does; otherwise off changes the trust, and the override
// restates the whole of it (a mapping given to --set replaces
// server.trust), so that escrow off takes hold_trusted and audit with it
// (they need it) and untrusted_quota off takes quota_tenure.
var serverDefences = []struct {
	name, set, doc string
	on             func(t scenarios.Trust) bool
	off            func(t *scenarios.Trust)
}{
	{"pair_untrusted", "server.trust.pair_untrusted=false", "an untrusted host's workunit goes on to trusted hosts only",
		func(t scenarios.Trust) bool { return t.PairUntrusted }, nil},
	{"check_rate", "server.trust.check_rate=0", "the project checks agreeing groups no trusted host is in",
		func(t scenarios.Trust) bool { return t.CheckRate > 0 }, nil},
	{"recheck_rate", "server.trust.recheck_rate=0", "the project checks groups a trusted host vouches for",
		func(t scenarios.Trust) bool { return t.RecheckRate > 0 }, nil},
	{"hold_trusted", "server.trust.hold_trusted=0s", "a trusted host's credit is held a while, revoked if it is caught meanwhile",
		func(t scenarios.Trust) bool { return t.HoldTrusted > 0 }, nil},
	{"audit", "server.trust.audit=false", "a caught trusted host's held results are checked, only the wrong ones revoked",
		func(t scenarios.Trust) bool { return t.Audit }, nil},
	{"abort_untrusts", "server.trust.abort_untrusts=false", "a host that aborts a result loses the server's trust",
		func(t scenarios.Trust) bool { return t.AbortUntrusts }, nil},
	{"untrusted_quota", "", "an untrusted host gets at most this many jobs a day per CPU",
		func(t scenarios.Trust) bool { return t.UntrustedQuota > 0 },
		func(t *scenarios.Trust) { t.UntrustedQuota, t.QuotaTenure = 0, 0 }},
	{"quota_tenure", "server.trust.quota_tenure=0s", "a new host is held to untrusted_quota for a while, trusted or not",
		func(t scenarios.Trust) bool { return t.QuotaTenure > 0 }, nil},
	{"escrow", "", "an untrusted host's credit waits until the server trusts it",
		func(t scenarios.Trust) bool { return t.Escrow },
		func(t *scenarios.Trust) { t.Escrow, t.EscrowLimit, t.HoldTrusted, t.Audit = false, 0, 0, false }},
}

// ServerPlan returns the configurations of a server ablation of s: as
// configured, then one per defence it has on with that defence off,
// then with server trust off altogether. It fails when s has no server
// defence on.
func ServerPlan(s *scenarios.Scenario) ([]ServerConfig, error) {
	t := s.Server.Trust
	if t.Confirmations == 0 {
		return nil, fmt.Errorf("--server: %s has no server defence on (server.trust.confirmations is 0); e.g. --set server.trust.confirmations=10 --set server.trust.check_rate=1 --set server.trust.pair_untrusted=true", s.Name)
	}
	out := []ServerConfig{{Name: "as configured", Doc: "the scenario's server"}}
	for _, d := range serverDefences {
		if !d.on(t) {
			continue
		}
		set := d.set
		if d.off != nil {
			u := t
			d.off(&u)
			var err error
			if set, err = trustOverride(u); err != nil {
				return nil, err
			}
		}
		out = append(out, ServerConfig{Name: "no-" + d.name, Mechanism: d.name, Option: set, Doc: d.doc})
	}
	off, err := trustOverride(scenarios.Trust{})
	if err != nil {
		return nil, err
	}
	return append(out, ServerConfig{Name: "no-trust", Mechanism: "trust", Option: off,
		Doc: "the server keeps no trust of its own (BOINC's server)"}), nil
}

// trustOverride is the --set that makes the server's trust t, on one
// line: every key, so that it reads whole in ablation.csv.
func trustOverride(t scenarios.Trust) (string, error) {
	var n yaml.Node
	if err := n.Encode(t); err != nil {
		return "", err
	}
	n.Style = yaml.FlowStyle
	b, err := yaml.Marshal(&n)
	if err != nil {
		return "", err
	}
	return "server.trust=" + strings.TrimSpace(string(b)), nil
}

// ServerCSV is a server ablation's table: a row per configuration and
// policy with each scorecard figure and its change from the scenario's
// own configuration, and the configuration's price (Summary.Price).
// sums holds one summary per configuration, in cfgs' order.
func ServerCSV(cfgs []ServerConfig, sums []*results.Summary, policies []string) ([]byte, error) {
	if len(sums) != len(cfgs) || len(cfgs) == 0 {
		return nil, fmt.Errorf("%d summaries for %d configurations", len(sums), len(cfgs))
	}
	priceKeys := map[string]bool{}
	for _, s := range sums {
		for k := range s.Price {
			priceKeys[k] = true
		}
	}
	keys := results.SortedKeys(priceKeys)
	head := []string{"configuration", "defence_off", "option", "what_it_does", "policy"}
	for _, c := range results.ScoreColumns {
		head = append(head, c.Figure, c.Figure+"_change")
	}
	for _, k := range keys {
		head = append(head, "price."+k)
	}
	base := results.NewScorecard(sums[0], policies)
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	w.Write(head)
	for i, cfg := range cfgs {
		sc := results.NewScorecard(sums[i], policies)
		for j, r := range sc.Rows {
			row := []string{cfg.Name, cfg.Mechanism, cfg.Option, cfg.Doc, r.Policy}
			for c := range results.ScoreColumns {
				row = append(row, num(r.Values[c]), num(r.Values[c]-base.Rows[j].Values[c]))
			}
			for _, k := range keys {
				x, ok := sums[i].Price[k]
				if !ok {
					row = append(row, "")
					continue
				}
				row = append(row, num(float64(x)))
			}
			w.Write(row)
		}
	}
	w.Flush()
	return b.Bytes(), w.Error()
}

// ServerFrontier draws each policy's worst gain against each
// configuration's cost in jobs computed per validated workunit (results
// sent and the project's checks): the frontier a project chooses from.
// nil when nothing can be drawn.
func ServerFrontier(scenario string, cfgs []ServerConfig, sums []*results.Summary, policies []string) ([]byte, error) {
	var pts []plot.FrontierPoint
	for i, c := range cfgs {
		cost := sums[i].JobsPerValidatedWorkunit()
		for _, n := range policies {
			if ps := sums[i].Policies[n]; ps != nil {
				pts = append(pts, plot.FrontierPoint{Policy: n, Config: c.Name, Cost: cost, Gain: float64(ps.WorstGain)})
			}
		}
	}
	return plot.Frontier(scenario+": the server's defences, their price and the worst gain", pts, policies)
}
