package ablate

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/creditsim/creditsim/policy"
	"github.com/creditsim/creditsim/results"
	"github.com/creditsim/creditsim/scenarios"
)

// Plan is an ablation: the instance and its variants.
type Plan struct {
	Spec       policy.Spec
	Ablations  []policy.Ablation
	Override   string // the scenario's policies, as a --set value
	Mechanisms []string
}

// New plans the ablation of the scenario's policy instance name (or, if
// the scenario has none by that name, the registered preset or kind).
func New(s *scenarios.Scenario, name string) (*Plan, error) {
	spec := policy.Spec{Name: name}
	found := false
	var have []string
	for _, p := range s.Policies {
		have = append(have, p.Name)
		if p.Name == name {
			spec = policy.Spec{Name: p.Name, Base: p.Base, Options: policy.Options(p.Options)}
			found = true
		}
	}
	if !found {
		if _, _, err := policy.Resolve(spec); err != nil {
			return nil, fmt.Errorf("--policy %q: not a policy of %s (%s) nor a registered one: %v", name, s.Name, strings.Join(have, ", "), err)
		}
	}
	abl, err := policy.Ablations(spec)
	if err != nil {
		return nil, err
	}
	if len(abl) == 0 {
		return nil, fmt.Errorf("--policy %q: no mechanism to switch off (ablate works on v3pfc and its presets; %s has none on)", name, name)
	}
	pl := &Plan{Spec: spec, Ablations: abl}
	items := []string{specYAML(spec)}
	for _, a := range abl {
		items = append(items, specYAML(a.Spec))
		pl.Mechanisms = append(pl.Mechanisms, a.Mechanism.Name)
	}
	pl.Override = "policies=[" + strings.Join(items, ", ") + "]"
	return pl, nil
}

// specYAML writes a policy instance in YAML flow form.
func specYAML(s policy.Spec) string {
	parts := []string{"name: " + strconv.Quote(s.Name)}
	if s.Base != "" {
		parts = append(parts, "base: "+strconv.Quote(s.Base))
	}
	if len(s.Options) > 0 {
		keys := make([]string, 0, len(s.Options))
		for k := range s.Options {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		var o []string
		for _, k := range keys {
			o = append(o, k+": "+strconv.Quote(s.Options[k]))
		}
		parts = append(parts, "options: {"+strings.Join(o, ", ")+"}")
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

// Names returns the instance names in the run's order.
func (pl *Plan) Names() []string {
	out := []string{pl.Spec.Name}
	for _, a := range pl.Ablations {
		out = append(out, a.Spec.Name)
	}
	return out
}

// CSV is the ablation table: one row for the instance as configured,
// then one per mechanism switched off, with each scorecard figure and
// its change from the instance as configured (what the mechanism buys:
// the figure without it minus with it).
func (pl *Plan) CSV(s *results.Summary) ([]byte, error) {
	sc := results.NewScorecard(s, pl.Names())
	head := []string{"instance", "mechanism_off", "option", "what_it_does"}
	for _, c := range results.ScoreColumns {
		head = append(head, c.Figure, c.Figure+"_change")
	}
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	w.Write(head)
	for i, r := range sc.Rows {
		row := []string{r.Policy, "", "", "as configured"}
		if i > 0 {
			m := pl.Ablations[i-1].Mechanism
			row = []string{r.Policy, m.Name, m.Option + "=" + m.Off, m.Doc}
		}
		for c := range results.ScoreColumns {
			row = append(row, num(r.Values[c]), num(r.Values[c]-sc.Rows[0].Values[c]))
		}
		w.Write(row)
	}
	w.Flush()
	return b.Bytes(), w.Error()
}

// num formats a figure, empty where undefined.
func num(x float64) string {
	if !results.Defined(x) {
		return ""
	}
	return results.FormatFloat(x)
}
