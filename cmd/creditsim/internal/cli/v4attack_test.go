package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/creditsim/creditsim/cmd/creditsim/internal/attack"
	"github.com/creditsim/creditsim/cmd/creditsim/internal/stock"
	"github.com/creditsim/creditsim/internal/embedded"
)

const (
	v4attackBegin  = "<!-- v4trust-attacks:begin (CREDITSIM_SEARCHTEST=1 go test ./cmd/creditsim/internal/cli -run TestV4trustAttacks -update-search) -->\n"
	v4attackFinish = "<!-- v4trust-attacks:end -->"
)

// TestV4trustAttacks runs the two searches README states for the fourth
// system beyond the threat model (`creditsim attack defended` and
// `creditsim attack multi-project` under defended's server, 300 hosts,
// the default budget, five fresh seeds), and checks that README and
// docs/attack.md show their confirmed worst cases, and that each row's
// verdict is the figures' own. About 8 minutes on 2 cores with another job running: it runs with
// CREDITSIM_SEARCHTEST=1.
func TestV4trustAttacks(t *testing.T) {
	searchTier(t, "two attack searches at 300 hosts (about 8 minutes on 2 cores with another job running)")
	trust, err := stock.DefendedTrust()
	if err != nil {
		t.Fatal(err)
	}
	var rows []string
	for _, c := range []struct {
		world, label string
		sets         []string
	}{
		{"defended", "defended", nil},
		{"multi-project", "multi-project, defended's server", []string{"--set", trust}},
	} {
		dir := filepath.Join(t.TempDir(), c.world)
		args := append([]string{"attack", c.world, "--confirm", "5", "--policies", "v3pfc-boinc,v4trust", "--set", "hosts.initial=300", "-q", "-o", dir}, c.sets...)
		var out, errb bytes.Buffer
		if code := Main(args, &out, &errb); code != 0 {
			t.Fatalf("attack %s: exit %d: %s", c.world, code, errb.String())
		}
		b, err := os.ReadFile(filepath.Join(dir, "attack.json"))
		if err != nil {
			t.Fatal(err)
		}
		var rep attack.Report
		if err := json.Unmarshal(b, &rep); err != nil {
			t.Fatal(err)
		}
		for _, w := range rep.Worst {
			rows = append(rows, worstRow(t, c.label, w))
		}
	}
	table := "| world (300 hosts) | system | worst behaviour found | confirmed figure | honest accounts keep | by its mean |\n|---|---|---|---|---|---|\n" + strings.Join(rows, "")
	root := filepath.Join("..", "..", "..", "..")
	for _, doc := range []string{"README.md", filepath.Join("docs", "attack.md")} {
		embedded.Check(t, filepath.Join(root, doc), v4attackBegin, v4attackFinish, table, "the two attacks' confirmed worst cases", *updateSearch)
	}
}

// worstRow is a table row of w, its verdict checked against its figures.
func worstRow(t *testing.T, world string, w attack.Worst) string {
	t.Helper()
	g, h := float64(w.Confirmed.Mean), float64(w.Harm.Mean)
	if broken := g > attack.Bound || h < attack.HarmFloor; broken != (w.Breaks != "") {
		t.Errorf("%s %s: breaks %q with gain %g and honest accounts keeping %g", world, w.Policy, w.Breaks, g, h)
	}
	says := "holds"
	switch w.Breaks {
	case "gain":
		says = "breaks: gain past 1.1"
	case "harm":
		says = "breaks: harm below 0.95"
	}
	return fmt.Sprintf("| %s | %s | %s | %s %s | %s | %s |\n", world, w.Policy, w.Behaviour, w.Figure, intervalText(w.Confirmed), intervalText(w.Harm), says)
}
