package layers

import (
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/creditsim/creditsim/"

// layer is every package's place in the import order (see doc.go).
var layer = map[string]int{
	"boinc": 0, "boinc/rng": 0, "internal/hugepage": 0, "internal/prefetch": 0, "internal/suggest": 0, "internal/usage": 0,
	"internal/layers": 0, "internal/docs": 0, "internal/mariadbtest": 0, "internal/longtest": 0, "internal/embedded": 0,
	"internal/inputlimit": 0,
	"model/param":         1, "internal/chunked": 1,
	"model/hosts": 2, "model/jobs": 2, "policy": 2,
	"policy/fromruntime": 3, "policy/fromwu": 3, "policy/postassigned": 3, "policy/sciunited": 3,
	"policy/v1peak": 3, "policy/v2actual": 3, "policy/v3pfc": 3, "scenarios": 3,
	"sim": 4, "policy/all": 4,
	"results":      5,
	"results/plot": 6, "world": 6,
	"results/report":                7,
	"cmd/creditsim/internal/tables": 7, "cmd/creditsim/internal/replay": 8, "cmd/creditsim/internal/statsdump": 8,
	"cmd/creditsim/internal/runner": 9, "cmd/creditsim/internal/projectdb": 9,
	"cmd/creditsim/internal/ablate": 10, "cmd/creditsim/internal/attack": 10, "cmd/creditsim/internal/sweep": 10,
	"cmd/creditsim/internal/fit": 10, "cmd/creditsim/internal/stock": 10,
	"cmd/creditsim/internal/cli": 11,
	"cmd/creditsim":              12,
}

var importsLine = regexp.MustCompile(`(?m)^// Imports \(layer (\d+)\): (.*)\.$`)

// TestLayers: every package has a layer, imports only packages of lower
// layers, and says so in its doc.go's last line, naming exactly the
// creditsim packages it imports.
func TestLayers(t *testing.T) {
	cmd := exec.Command("go", "list", "-json", "./...")
	cmd.Dir = "../.."
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	dec := json.NewDecoder(strings.NewReader(string(out)))
	seen := map[string]bool{}
	for {
		var p struct {
			ImportPath, Dir string
			Imports         []string
		}
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		name := strings.TrimPrefix(p.ImportPath, module)
		seen[name] = true
		l, ok := layer[name]
		if !ok {
			t.Errorf("%s has no layer: add it to the order in internal/layers", name)
			continue
		}
		var own []string
		for _, imp := range p.Imports {
			if dep, ok := strings.CutPrefix(imp, module); ok {
				own = append(own, dep)
				if dl, ok := layer[dep]; ok && dl >= l {
					t.Errorf("%s (layer %d) imports %s (layer %d): imports run downward only", name, l, dep, dl)
				}
			}
		}
		sort.Strings(own)
		doc, err := os.ReadFile(filepath.Join(p.Dir, "doc.go"))
		if err != nil {
			t.Errorf("%s has no doc.go", name)
			continue
		}
		m := importsLine.FindSubmatch(doc)
		if m == nil {
			t.Errorf("%s/doc.go has no line \"// Imports (layer N): ...\"", name)
			continue
		}
		said := []string{}
		if s := string(m[2]); s != "none" {
			said = strings.Split(s, ", ")
		}
		if n, _ := strconv.Atoi(string(m[1])); n != l || !slices.Equal(said, own) {
			want := "none"
			if len(own) > 0 {
				want = strings.Join(own, ", ")
			}
			t.Errorf("%s/doc.go says \"Imports (layer %s): %s\"; want \"// Imports (layer %d): %s.\"", name, m[1], m[2], l, want)
		}
	}
	for name := range layer {
		if !seen[name] {
			t.Errorf("the order names %s, which go list does not", name)
		}
	}
}
