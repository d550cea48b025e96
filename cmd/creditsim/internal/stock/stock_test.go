package stock

import (
	"flag"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"

	embeddedtext "github.com/creditsim/creditsim/internal/embedded"
	"github.com/creditsim/creditsim/internal/longtest"
	"github.com/creditsim/creditsim/results"
	"github.com/creditsim/creditsim/scenarios"

	_ "github.com/creditsim/creditsim/policy/all"
)

// TestThreatsRoundTrip: the standard threat model reads, writes and
// reads back to the same threats; an edited copy is read as edited; a
// bad file is refused naming the file, line and field.
func TestThreatsRoundTrip(t *testing.T) {
	std, err := ReadThreats("")
	if err != nil {
		t.Fatal(err)
	}
	if len(std.Threats) < 8 {
		t.Fatalf("%d standard threats", len(std.Threats))
	}
	dir := t.TempDir()
	f := filepath.Join(dir, "threats.yaml")
	if err := os.WriteFile(f, std.Marshal(), 0o644); err != nil {
		t.Fatal(err)
	}
	back, err := ReadThreats(f)
	if err != nil {
		t.Fatal(err)
	}
	strip := func(ts []Threat) []Threat {
		out := append([]Threat(nil), ts...)
		for i := range out {
			out[i].line = 0
		}
		return out
	}
	if !reflect.DeepEqual(strip(back.Threats), strip(std.Threats)) {
		t.Errorf("round trip changed the threats:\n%v\n%v", back.Threats, std.Threats)
	}
	edited := strings.Replace(string(std.Marshal()), "{kind: fake_results, share: 0.02", "{kind: fake_results, share: 0.1", 1)
	os.WriteFile(f, []byte(edited), 0o644)
	if e, err := ReadThreats(f); err != nil || !strings.Contains(e.Override(Apps{}), "{kind: fake_results, share: 0.1,") {
		t.Errorf("edited share not read: %v", err)
	}
	for _, c := range []struct{ text, want string }{
		{"threats: [{kind: fake_results, share: 0.1, when: always}]\n", ":1: threats[0].when: \"always\": want counts_flops, gpu or multi_thread"},
		{"threat: []\n", ":1: threat: unknown field"},
		{"threats: []\n", "threats: want a list of agents"},
		{"threats: [3]\n", ":1: threats[0]: want an agent mapping"},
	} {
		os.WriteFile(f, []byte(c.text), 0o644)
		if _, err := ReadThreats(f); err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), f) {
			t.Errorf("%q: %v, want %s...%q", c.text, err, f, c.want)
		}
	}
}

// TestThreatsFor: a behaviour that needs a kind of app is left out where
// the world has none, and every standard threat is an agent the
// scenario format accepts in each kind's world.
func TestThreatsFor(t *testing.T) {
	std, _ := ReadThreats("")
	has := func(a Apps, kind string) bool { return strings.Contains(std.Override(a), "kind: "+kind) }
	if has(Apps{}, "ncpus_inflation") || !has(Apps{MultiThread: true}, "ncpus_inflation") || has(Apps{}, "count_inflation") || !has(Apps{CountsFlops: true}, "count_inflation") {
		t.Errorf("threats not filtered by app: %s", std.Override(Apps{}))
	}
	for _, k := range Kinds {
		s, err := k.Subject().Open(nil)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := k.Subject().Open([]string{std.Override(AppsOf(s))}); err != nil {
			t.Errorf("%s: the threats do not load: %v", k.Name, err)
		}
	}
}

// TestCap: max_granted_credit is twice the largest job's estimated
// credit at 200 Cobblestones per GFLOPS-day, rounded up to two digits.
func TestCap(t *testing.T) {
	for _, c := range []struct {
		set  []string
		want float64
	}{
		// 2.5e13 FLOPs = 57.87 credits; twice: 115.7 -> 120.
		{[]string{"projects[0].apps[0].rsc_fpops_est=2.5e13", "projects[0].apps[0].size_classes=[]"}, 120},
		// A class 8 x larger: 925.9 -> 930.
		{[]string{"projects[0].apps[0].rsc_fpops_est=2.5e13", "projects[0].apps[0].size_classes=[{share: 0.9, factor: 1}, {share: 0.1, factor: 8}]"}, 930},
	} {
		s, err := scenarios.Open("baseline", c.set)
		if err != nil {
			t.Fatal(err)
		}
		if got := Cap(s); got != c.want {
			t.Errorf("%v: Cap = %g, want %g", c.set, got, c.want)
		}
	}
}

// row builds a row with the given means (NaN: not measured) and
// intervals a tenth either side.
func row(name string, order int, holds bool, price float64, cv, gain, acct, harm float64) *Row {
	r := &Row{Option: Option{Policy: name, Label: name}, Server: Server{Name: "replicated twice"}, Holds: holds, Price: price, order: order, Allowed: true}
	nan := math.NaN()
	set := func(c int, x float64) {
		r.Figs[c] = Fig{x, x * 0.9, x * 1.1}
		if math.IsNaN(x) {
			r.Figs[c] = Fig{nan, nan, nan}
		}
	}
	set(results.ColHostCV, cv)
	set(results.ColDevice, nan)
	set(results.ColProject, nan)
	set(results.ColGain, gain)
	set(results.ColAccountGain, acct)
	set(results.ColHarm, harm)
	set(results.ColHonest, 1)
	r.Score.AccountNoise = 1
	r.Score.Flag[results.ColHarm] = results.MustLookup("harm").Flagged(harm)
	return r
}

// TestPick: a row that holds the bound beats one that does not; then
// one whose honest accounts keep their credit; then the one whose worst
// figure is nearest its ideal (in units of its bound); rows the
// intervals cannot tell apart tie, and the cheaper, then the first
// listed, is picked.
func TestPick(t *testing.T) {
	for _, c := range []struct {
		name string
		rows []*Row
		want string
	}{
		{"holds first", []*Row{row("a", 0, false, 1, 0.05, 1.05, 1, 1), row("b", 1, true, 3, 0.09, 1.08, 1, 0.95)}, "b"},
		{"smaller worst figure", []*Row{row("cv", 0, false, 2, 0.6, 1, 1, 1), row("gain", 1, false, 2, 0.05, 1.5, 1, 1)}, "gain"},
		{"harm counts", []*Row{row("harmful", 0, false, 2, 0.05, 1, 1, 0.4), row("gainful", 1, false, 2, 0.05, 1.3, 1, 1)}, "gainful"},
		{"a tie goes to the cheaper", []*Row{row("dear", 0, false, 3, 0.05, 1.5, 1, 1), row("cheap", 1, false, 1, 0.05, 1.52, 1, 1)}, "cheap"},
		{"then to the first listed", []*Row{row("second", 1, false, 2, 0.05, 1.52, 1, 1), row("first", 0, false, 2, 0.05, 1.5, 1, 1)}, "first"},
		{"a worst account counts beyond chance", []*Row{row("account", 0, false, 2, 0.05, 1, 4, 1), row("gain", 1, false, 2, 0.05, 1.5, 1, 1)}, "gain"},
		{"honest accounts keep their credit first", []*Row{row("harms", 0, false, 2, 0.05, 1, 1, 0.8), row("gains", 1, false, 2, 0.05, 3, 1, 1)}, "gains"},
		{"keeping 93% is below the harm floor of 95%", []*Row{row("keeps 93%", 0, false, 2, 0.05, 1, 1, 0.93), row("gains", 1, false, 2, 0.05, 3, 1, 1)}, "gains"},
	} {
		if got := pick(c.rows); got == nil || got.Option.Policy != c.want {
			t.Errorf("%s: picked %v, want %s", c.name, got, c.want)
		}
	}
}

var update = flag.Bool("update", false, "rewrite README's verdict from this run")

// The verdict README shows, between its markers.
const (
	readme        = "../../../../README.md"
	verdictBegin  = "<!-- verdict:begin (creditsim verdict; CREDITSIM_LONGTEST=1 go test ./cmd/creditsim/internal/stock -run TestVerdict -update) -->\n"
	verdictFinish = "<!-- verdict:end -->\n"
	verdictDoc    = "../../../../docs/verdict.md"
	allBegin      = "<!-- verdict-all:begin (creditsim verdict --all; CREDITSIM_LONGTEST=1 go test ./cmd/creditsim/internal/stock -run TestVerdict -update) -->\n"
	allFinish     = "<!-- verdict-all:end -->\n"
)

// TestVerdict runs `creditsim verdict` (every kind of project, every
// configuration, 3 replications with twins) and checks what it says: an
// answer per kind with intervals and the lines to set it, never "holds"
// where a figure of the row is flagged, the beyond-BOINC section apart;
// and that README shows exactly what it prints (-update rewrites it).
func TestVerdict(t *testing.T) {
	longtest.Skip(t, "every kind of project under every configuration, about 3 minutes on 2 cores")
	v, err := RunVerdict(Settings{Jobs: runtime.GOMAXPROCS(0)})
	if err != nil {
		t.Fatal(err)
	}
	text := v.Markdown()
	if len(v.Answers) != len(Kinds) {
		t.Fatalf("%d answers for %d kinds", len(v.Answers), len(Kinds))
	}
	for _, a := range v.Answers {
		b := a.Best
		if b == nil || !b.Allowed || !b.Stock() {
			t.Fatalf("%s: recommended %v, which is not a stock configuration the project can set", a.Subject.Name, b)
		}
		line := a.Line()
		if !strings.Contains(text, "* "+line) {
			t.Errorf("%s: the verdict lacks its one-line answer %q", a.Subject.Name, line)
		}
		if !strings.Contains(line, " [") {
			t.Errorf("%s: no interval in %q", a.Subject.Name, line)
		}
		held := b.Holds
		flagged := b.Score.Flag[results.ColGain] || b.Score.Flag[results.ColAccountGain] || b.Score.Flag[results.ColHarm]
		if held == flagged {
			t.Errorf("%s: holds %v with a figure flagged %v", a.Subject.Name, held, flagged)
		}
		if says := !strings.Contains(line, "no stock configuration holds the bound"); says != held {
			t.Errorf("%s: the line says it holds (%v), the row %v: %q", a.Subject.Name, says, held, line)
		}
		for _, c := range append(append([]string(nil), b.Server.Config...), b.Option.Config) {
			if !strings.Contains(text, c) {
				t.Errorf("%s: the verdict does not say how to set %q", a.Subject.Name, c)
			}
		}
	}
	i, j := strings.Index(text, "**Stock BOINC"), strings.Index(text, "**Beyond BOINC")
	if i < 0 || j < i || strings.Contains(text[i:j], "v4trust") || strings.Contains(text[i:j], "server trust") {
		t.Error("the stock section names a design beyond BOINC, or the sections are missing")
	}
	embedded(t, readme, verdictBegin, verdictFinish, text)
	embedded(t, verdictDoc, allBegin, allFinish, v.All())
}

// embedded checks that the file at path holds want between the lines
// begin and end; with -update it writes want there.
func embedded(t *testing.T, path, begin, end, want string) {
	t.Helper()
	embeddedtext.Check(t, path, begin, end, want, "what creditsim verdict prints", *update)
}

// TestKindsNamed: --kind's list picks kinds in the verdict's order, ""
// is every kind, and an unknown name is refused with the known ones.
func TestKindsNamed(t *testing.T) {
	for _, c := range []struct {
		list string
		want []string
		err  string
	}{
		{"", []string{"cpu", "sizes", "gpu", "vm"}, ""},
		{"gpu", []string{"gpu"}, ""},
		{"vm, cpu", []string{"cpu", "vm"}, ""},
		{"gpu,gpu", []string{"gpu"}, ""},
		{"cpu,GPU", nil, `"GPU" is not a kind of project (want cpu, sizes, gpu, vm)`},
	} {
		ks, err := KindsNamed(c.list)
		if c.err != "" {
			if err == nil || err.Error() != c.err {
				t.Errorf("%q: error %v, want %q", c.list, err, c.err)
			}
			continue
		}
		var got []string
		for _, k := range ks {
			got = append(got, k.Name)
		}
		if err != nil || strings.Join(got, ",") != strings.Join(c.want, ",") {
			t.Errorf("%q: %v, %v; want %v", c.list, got, err, c.want)
		}
	}
}
