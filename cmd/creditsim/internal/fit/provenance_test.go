package fit

import (
	"regexp"
	"strconv"
	"testing"

	"github.com/creditsim/creditsim/cmd/creditsim/internal/tables"
	"go.yaml.in/yaml/v3"
)

// TestProvenanceEntries: every line of a fit's provenance that is about
// fields names their scenario keys, each a key the fitted scenario
// has; every fitted one names the input columns it read.
func TestProvenanceEntries(t *testing.T) {
	if testing.Short() {
		t.Skip("a run and a fit; go test ./... runs it")
	}
	dir := smallExport(t)
	p, err := FitTables(tables.Dir(dir), TableOptions{})
	if err != nil {
		t.Fatal(err)
	}
	text, err := p.Scenario("x", dir)
	if err != nil {
		t.Fatal(err)
	}
	var doc any
	if err := yaml.Unmarshal(text, &doc); err != nil {
		t.Fatal(err)
	}
	pv := p.Provenance(dir)
	withFields := 0
	for _, list := range [][]Entry{pv.Fitted, pv.NotIdentified} {
		for _, e := range list {
			if e.Field == "" {
				continue
			}
			withFields++
			if len(e.Paths) == 0 {
				t.Errorf("%q names no scenario key", e.Field)
			}
			for _, path := range e.Paths {
				if !hasPath(doc, path) {
					t.Errorf("%q: the scenario has no %s", e.Field, path)
				}
			}
		}
	}
	for _, e := range pv.Fitted {
		if e.Field != "" && len(e.Columns) == 0 {
			t.Errorf("fitted %q names no column: %s", e.Field, e.How)
		}
	}
	if withFields < 10 {
		t.Errorf("only %d provenance lines name their fields", withFields)
	}
}

var pathPart = regexp.MustCompile(`^([a-z_]+)(?:\[(\d+)\])?$`)

// hasPath reports whether the YAML document doc has the key path
// (dotted, with [i] indices).
func hasPath(doc any, path string) bool {
	for _, part := range regexp.MustCompile(`\.`).Split(path, -1) {
		m := pathPart.FindStringSubmatch(part)
		mp, ok := doc.(map[string]any)
		if m == nil || !ok {
			return false
		}
		if doc, ok = mp[m[1]]; !ok {
			return false
		}
		if m[2] != "" {
			i, _ := strconv.Atoi(m[2])
			list, ok := doc.([]any)
			if !ok || i >= len(list) {
				return false
			}
			doc = list[i]
		}
	}
	return true
}
