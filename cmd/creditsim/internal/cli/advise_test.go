package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/creditsim/creditsim/cmd/creditsim/internal/stock"
	"github.com/creditsim/creditsim/internal/longtest"
)

// TestAdviseAgreesWithVerdict: `creditsim run W --export-tables T` then
// `creditsim advise T` recommends what `creditsim verdict` recommends for
// W's kind of project, or a configuration the verdict calls a tie with
// it (and the other way round), on two kinds: apps with GPU versions
// (gpu-mix) and CPU apps whose jobs' sizes are not known, whose answer
// sends jobs once (job-size-variance).
func TestAdviseAgreesWithVerdict(t *testing.T) {
	longtest.Skip(t, "two kinds' searches, two exports and two advices, about 4 minutes on 2 cores")
	for _, name := range []string{"gpu", "sizes"} {
		t.Run(name, func(t *testing.T) {
			var kind stock.Kind
			for _, k := range stock.Kinds {
				if k.Name == name {
					kind = k
				}
			}
			verdict, err := stock.Search(kind.Subject(), stock.Settings{Jobs: 2})
			if err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			tables := filepath.Join(dir, "tables")
			var out, errb bytes.Buffer
			run := append([]string{"run", kind.World, "-q", "--no-plots", "-o", filepath.Join(dir, "run"), "--replications", "1", "--set", "hosts.initial=600",
				"--export-tables", tables}, setFlags(kind.Sets)...)
			if code := Main(run, &out, &errb); code != 0 {
				t.Fatalf("run: exit %d: %s", code, errb.String())
			}
			adv := filepath.Join(dir, "advice")
			if code := Main([]string{"advise", tables, "-q", "--budget", "0", "-o", adv}, &out, &errb); code != 0 {
				t.Fatalf("advise: exit %d: %s", code, errb.String())
			}
			b, err := os.ReadFile(filepath.Join(adv, "advice.json"))
			if err != nil {
				t.Fatal(err)
			}
			var got adviceJSON
			if err := json.Unmarshal(b, &got); err != nil {
				t.Fatal(err)
			}
			key := func(option, jobs string) string { return option + ", jobs " + jobs }
			vset := map[string]bool{key(verdict.Best.Option.Label, verdict.Best.Server.Name): true}
			for _, r := range verdict.Ties {
				vset[key(r.Option.Label, r.Server.Name)] = true
			}
			aset := map[string]bool{key(got.Recommended.Option, got.Recommended.Jobs): true}
			for _, r := range got.Ties {
				aset[key(r.Option, r.Jobs)] = true
			}
			agree := vset[key(got.Recommended.Option, got.Recommended.Jobs)] || aset[key(verdict.Best.Option.Label, verdict.Best.Server.Name)]
			if !agree {
				t.Errorf("advise recommends %v (ties %v); the verdict for %s, %v", key(got.Recommended.Option, got.Recommended.Jobs), aset, kind.Says, vset)
			}
			t.Logf("verdict %v; advise %v", vset, aset)
		})
	}
}

// setFlags turns overrides into --set flags.
func setFlags(sets []string) []string {
	var out []string
	for _, s := range sets {
		out = append(out, "--set", s)
	}
	return out
}
