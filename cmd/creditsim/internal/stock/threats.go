package stock

import (
	_ "embed"
	"fmt"
	"os"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/creditsim/creditsim/scenarios"
)

//go:embed threats.yaml
var standardThreats []byte

// StandardThreats is the threat model's file as shipped (threats.yaml):
// `creditsim advise --threats-file` writes it for a project to edit.
func StandardThreats() []byte { return append([]byte(nil), standardThreats...) }

// Threat is one behaviour of the threat model: an agent as a scenario's
// hosts.agents holds it, and the kind of app it needs.
type Threat struct {
	// Agent is the agent's mapping, as YAML flow text without `when`.
	Agent string
	// When is "" (every app), "counts_flops", "gpu" or "multi_thread".
	When string
	line int
}

// Threats is a threat model: the behaviours a configuration is judged
// against, each on its share of the accounts.
type Threats struct {
	File    string // where it was read ("" for the standard one)
	Threats []Threat
	// Source is the file as read, comments and all: what advise writes
	// beside its advice, so the run can be repeated with --threats.
	Source []byte
}

// The kinds of app a threat may need.
var whens = map[string]string{
	"":             "every app",
	"counts_flops": "an app that counts its FLOPs",
	"gpu":          "GPU versions",
	"multi_thread": "multi-threaded versions",
}

// ReadThreats reads a threat model file; "" reads the standard one.
// Each entry must be an agent the scenario format accepts: that is
// checked when a world is built with it (Apply), naming the file and
// the entry's line.
func ReadThreats(file string) (*Threats, error) {
	data := standardThreats
	if file != "" {
		var err error
		if data, err = os.ReadFile(file); err != nil {
			return nil, err
		}
	}
	name := file
	if name == "" {
		name = "threats.yaml (the standard threat model)"
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	if len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return nil, fmt.Errorf("%s: want a mapping with the key threats", name)
	}
	root := doc.Content[0]
	var list *yaml.Node
	for i := 0; i+1 < len(root.Content); i += 2 {
		switch k := root.Content[i]; k.Value {
		case "threats":
			list = root.Content[i+1]
		default:
			return nil, fmt.Errorf("%s:%d: %s: unknown field (the file has one key, threats)", name, k.Line, k.Value)
		}
	}
	if list == nil || list.Kind != yaml.SequenceNode || len(list.Content) == 0 {
		return nil, fmt.Errorf("%s: threats: want a list of agents", name)
	}
	t := &Threats{File: file, Source: append([]byte(nil), data...)}
	for i, n := range list.Content {
		th, err := readThreat(n, i, name)
		if err != nil {
			return nil, err
		}
		t.Threats = append(t.Threats, th)
	}
	return t, nil
}

// readThreat reads entry i of file name's threats: an agent mapping and
// its optional when.
func readThreat(n *yaml.Node, i int, name string) (Threat, error) {
	if n.Kind != yaml.MappingNode {
		return Threat{}, fmt.Errorf("%s:%d: threats[%d]: want an agent mapping ({kind: ..., share: ...})", name, n.Line, i)
	}
	th := Threat{line: n.Line}
	var kept []*yaml.Node
	for j := 0; j+1 < len(n.Content); j += 2 {
		if n.Content[j].Value == "when" {
			th.When = n.Content[j+1].Value
			if _, ok := whens[th.When]; !ok || th.When == "" {
				return Threat{}, fmt.Errorf("%s:%d: threats[%d].when: %q: want counts_flops, gpu or multi_thread", name, n.Content[j+1].Line, i, th.When)
			}
			continue
		}
		kept = append(kept, n.Content[j], n.Content[j+1])
	}
	b, err := yaml.Marshal(&yaml.Node{Kind: yaml.MappingNode, Style: yaml.FlowStyle, Content: kept})
	if err != nil {
		return Threat{}, fmt.Errorf("%s:%d: threats[%d]: %v", name, n.Line, i, err)
	}
	th.Agent = strings.TrimSpace(string(b))
	return th, nil
}

// Marshal writes the threat model back as a file ReadThreats reads to
// the same threats (the round trip `advise --threats` relies on).
func (t *Threats) Marshal() []byte {
	var b strings.Builder
	b.WriteString("threats:\n")
	for _, th := range t.Threats {
		a := th.Agent
		if th.When != "" {
			a = strings.TrimSuffix(a, "}") + ", when: " + th.When + "}"
		}
		b.WriteString("  - " + a + "\n")
	}
	return []byte(b.String())
}

// Apps says which kinds of app a world has.
type Apps struct{ CountsFlops, GPU, MultiThread bool }

// AppsOf reads which kinds of app s has.
func AppsOf(s *scenarios.Scenario) Apps {
	var a Apps
	for _, p := range s.Projects {
		for _, app := range p.Apps {
			for _, v := range app.Versions {
				a.CountsFlops = a.CountsFlops || v.CountsFlops
				a.GPU = a.GPU || v.Resource != "" && v.Resource != "cpu"
				a.MultiThread = a.MultiThread || v.MultiThread
			}
		}
	}
	return a
}

// For returns the threats that apply to a world with apps a.
func (t *Threats) For(a Apps) []Threat {
	var out []Threat
	for _, th := range t.Threats {
		switch th.When {
		case "counts_flops":
			if !a.CountsFlops {
				continue
			}
		case "gpu":
			if !a.GPU {
				continue
			}
		case "multi_thread":
			if !a.MultiThread {
				continue
			}
		}
		out = append(out, th)
	}
	return out
}

// Override is the --set override that puts the threats that apply to
// apps a in a world, replacing its own agents.
func (t *Threats) Override(a Apps) string {
	var agents []string
	for _, th := range t.For(a) {
		agents = append(agents, th.Agent)
	}
	return "hosts.agents=[" + strings.Join(agents, ", ") + "]"
}
