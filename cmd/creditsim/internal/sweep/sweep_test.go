package sweep

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	_ "github.com/creditsim/creditsim/policy/all" // every credit system

	"github.com/creditsim/creditsim/cmd/creditsim/internal/runner"
	"github.com/creditsim/creditsim/internal/longtest"
	"github.com/creditsim/creditsim/results"
)

// small is a 3 x 2 grid: the share of benchmark inflators by the
// efficiency of the Windows version (a number and a distribution).
const small = `
name: small
base: baseline
set:
  - hosts.initial=30
  - hosts.arrivals_per_day=0
  - duration=8d
  - warmup=2d
  - projects[0].apps[0].delay_bound=2d
  - "policies=[v1peak, v3pfc-boinc]"
  - "hosts.agents=[{kind: benchmark_inflation, share: 0, k: 4}]"
replications: 2
parameters:
  - path: hosts.agents[0].share
    values: [0, 0.1, 0.2]
  - path: projects[0].apps[0].versions[0].efficiency
    values: [0.5, {dist: lognormal, mean: 0.3, cv: 0.2}]
`

func load(t *testing.T, text string) *Sweep {
	t.Helper()
	if testing.Short() && text == small {
		// One replication a point: what these tests check (bytes equal
		// across shards, resume and merge) does not need two.
		text = strings.Replace(text, "replications: 2", "replications: 1", 1)
		// Two figures' heat maps, not every headline figure's: drawing
		// them was 40% of the short tests' time.
		text += "plots: [honest_ratio, cheat_ratio.benchmark_inflation]\n"
	}
	dir := t.TempDir()
	f := filepath.Join(dir, "sweep.yaml")
	if err := os.WriteFile(f, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	sw, err := Load(f)
	if err != nil {
		t.Fatal(err)
	}
	return sw
}

func run(t *testing.T, sw *Sweep, out string, o Options) *Outcome {
	t.Helper()
	o.Out = out
	oc, err := Run(sw, o)
	if err != nil {
		t.Fatal(err)
	}
	return oc
}

// tree reads every file under dir (relative path -> bytes), ignoring
// nothing: a sweep writes no timing files.
func tree(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	m := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		m[rel] = b
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func sameTree(t *testing.T, what string, want, got map[string][]byte) {
	t.Helper()
	var names []string
	for k := range want {
		names = append(names, k)
	}
	for k := range got {
		if _, ok := want[k]; !ok {
			t.Errorf("%s: extra file %s", what, k)
		}
	}
	sort.Strings(names)
	for _, k := range names {
		g, ok := got[k]
		switch {
		case !ok:
			t.Errorf("%s: missing %s", what, k)
		case !bytes.Equal(g, want[k]):
			t.Errorf("%s: %s differs", what, k)
		}
	}
}

// TestShardedMergeIsByteIdentical: the merged output of 1, 2 and 3
// shards, in separate folders or one shared folder, is the unsharded
// sweep's, byte for byte; so is a run on one core.
func TestShardedMergeIsByteIdentical(t *testing.T) {
	if testing.Short() {
		t.Skip("a sweep run whole and in shards: go test without -short runs it (runner's TestDeterminism checks -j under -short)")
	}
	sw := load(t, small)
	if len(sw.Points) != 6 {
		t.Fatalf("%d points, want 6", len(sw.Points))
	}
	base := t.TempDir()
	ref := filepath.Join(base, "ref")
	oc := run(t, sw, ref, Options{Jobs: 2})
	if !oc.Final || oc.Ran != 6 {
		t.Fatalf("unsharded run: %+v", oc)
	}
	want := tree(t, ref)
	for _, f := range []string{"sweep.csv", "sweep.json", "sweep.resolved.yaml", "points/p0005/summary.json",
		"sweep-honest_ratio-v1peak.png", "sweep-cheat_ratio.benchmark_inflation-v3pfc-boinc.png", "sweep.html"} {
		if _, ok := want[f]; !ok {
			t.Errorf("unsharded sweep wrote no %s", f)
		}
	}
	// sweep.html shows every plot written, and only those.
	refs := map[string]bool{}
	for _, m := range regexp.MustCompile(`<img src="([^"]+)"`).FindAllStringSubmatch(string(want["sweep.html"]), -1) {
		refs[m[1]] = true
		if _, ok := want[m[1]]; !ok {
			t.Errorf("sweep.html shows %s, which was not written", m[1])
		}
	}
	for f := range want {
		if strings.HasSuffix(f, ".png") && !refs[f] {
			t.Errorf("%s is not in sweep.html", f)
		}
	}
	if !strings.Contains(string(want["sweep.html"]), "<td class=\"k\">p0005</td>") {
		t.Error("sweep.html has no row for point p0005")
	}
	one := filepath.Join(base, "j1")
	run(t, sw, one, Options{Jobs: 1})
	sameTree(t, "-j 1", want, tree(t, one))

	shardCounts := []int{1, 2, 3}
	for _, n := range shardCounts {
		var dirs []string
		shared := filepath.Join(base, fmt.Sprintf("shared%d", n))
		for i := 1; i <= n; i++ {
			d := filepath.Join(base, fmt.Sprintf("s%d-%d", n, i))
			oc := run(t, sw, d, Options{Jobs: 2, Shard: i, Shards: n})
			if oc.Final {
				t.Errorf("shard %d/%d wrote the final tables", i, n)
			}
			dirs = append(dirs, d)
			run(t, sw, shared, Options{Jobs: 2, Shard: i, Shards: n})
		}
		merged := filepath.Join(base, fmt.Sprintf("merged%d", n))
		if err := Merge(dirs, merged, false); err != nil {
			t.Fatal(err)
		}
		sameTree(t, fmt.Sprintf("%d shards merged", n), want, tree(t, merged))
		if err := Merge([]string{shared}, "", false); err != nil {
			t.Fatal(err)
		}
		sameTree(t, fmt.Sprintf("%d shards in one folder", n), want, tree(t, shared))
	}
}

// TestResume: a sweep interrupted after some points (and in the middle of
// one, leaving a temporary folder) and resumed gives the same bytes, and
// runs only what was missing.
func TestResume(t *testing.T) {
	if testing.Short() {
		t.Skip("a sweep run twice: go test without -short runs it (TestShardedMergeIsByteIdentical checks shards under -short)")
	}
	sw := load(t, small)
	base := t.TempDir()
	ref := filepath.Join(base, "ref")
	run(t, sw, ref, Options{Jobs: 2})
	d := filepath.Join(base, "resumed")
	run(t, sw, d, Options{Jobs: 2, Shard: 1, Shards: 3}) // points 0 and 3
	stale := filepath.Join(d, "points", ".p0001.tmp-123")
	if err := os.MkdirAll(stale, 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(stale, "point.json"), []byte("{"), 0o644)
	// What a killed run leaves: its folder in progress, marked so.
	os.WriteFile(filepath.Join(stale, results.TempMarker), nil, 0o644)
	if _, err := Run(sw, Options{Out: d, Jobs: 2}); err == nil || !strings.Contains(err.Error(), "--resume") {
		t.Errorf("running into a started sweep without --resume: %v, want a refusal naming --resume", err)
	}
	oc := run(t, sw, d, Options{Jobs: 2, Resume: true})
	if oc.Ran != 4 || oc.Skipped != 2 {
		t.Errorf("resume ran %d and skipped %d points, want 4 and 2", oc.Ran, oc.Skipped)
	}
	sameTree(t, "resumed", tree(t, ref), tree(t, d))
}

// TestMergeNamesMissingPoints: merging an incomplete sweep fails, naming
// each missing point with its values, and writes no tables.
func TestMergeNamesMissingPoints(t *testing.T) {
	sw := load(t, small)
	d := filepath.Join(t.TempDir(), "s")
	run(t, sw, d, Options{Jobs: 2, Shard: 2, Shards: 2}) // points 1, 3, 5
	err := Merge([]string{d}, "", false)
	if !errors.Is(err, ErrIncomplete) {
		t.Fatalf("merge of half a sweep: %v, want ErrIncomplete", err)
	}
	for _, want := range []string{"3 of 6 points missing", "p0000 (hosts.agents[0].share=0, projects[0].apps[0].versions[0].efficiency=0.5)", "p0004"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("merge error %q does not name %q", err, want)
		}
	}
	if _, err := os.Stat(filepath.Join(d, "sweep.csv")); err == nil {
		t.Error("an incomplete merge wrote sweep.csv")
	}
	other := load(t, strings.Replace(small, "0.2]", "0.3]", 1))
	d2 := filepath.Join(t.TempDir(), "other")
	run(t, other, d2, Options{Jobs: 2, Shard: 1, Shards: 2})
	if err := Merge([]string{d, d2}, filepath.Join(t.TempDir(), "m"), false); err == nil || !strings.Contains(err.Error(), "different sweep") {
		t.Errorf("merging two different sweeps: %v", err)
	}
}

// TestPointSeeds: a point's seed depends on its values only (not on its
// position), and policy parameters never change it.
func TestPointSeeds(t *testing.T) {
	a := load(t, small)
	b := load(t, strings.Replace(small, "values: [0, 0.1, 0.2]", "values: [0.2, 0, 0.1]", 1))
	seeds := map[string]uint64{}
	for _, p := range a.Points {
		seeds[strings.Join(p.Values, "|")] = p.Seed
	}
	for _, p := range b.Points {
		if s := seeds[strings.Join(p.Values, "|")]; s != p.Seed {
			t.Errorf("point %v: seed %d after reordering, %d before", p.Values, p.Seed, s)
		}
	}
	if a.Points[0].Seed == a.Points[1].Seed {
		t.Error("two points with different values share a seed")
	}
	pol := load(t, `
base: baseline
parameters:
  - path: policies[0].options.host_cap
    values: [10, 100]
  - path: hosts.initial
    values: [30]
set: ["policies=[{name: x, base: v3pfc-boinc}]"]
`)
	if pol.Points[0].Seed != pol.Points[1].Seed {
		t.Errorf("a policy option changed the seed: %d, %d", pol.Points[0].Seed, pol.Points[1].Seed)
	}
	if pol.Points[0].Scenario.Seed != pol.Points[0].Seed {
		t.Errorf("scenario seed %d, point seed %d", pol.Points[0].Scenario.Seed, pol.Points[0].Seed)
	}
}

// TestZipAndRange: zip pairs values; a range with a step includes both
// ends despite rounding; count spaces evenly.
func TestZipAndRange(t *testing.T) {
	sw := load(t, `
base: baseline
combine: zip
parameters:
  - path: hosts.initial
    range: {from: 100, to: 300, count: 3}
  - path: hosts.team_share
    range: {from: 0.1, to: 0.3, step: 0.1}
`)
	var got []string
	for _, p := range sw.Points {
		got = append(got, strings.Join(p.Values, " "))
	}
	if want := "100 0.1|200 0.2|300 0.3"; strings.Join(got, "|") != want {
		t.Errorf("points %q, want %q", strings.Join(got, "|"), want)
	}
}

// TestBadInput: bad sweeps are reported with file, line, the field and
// what is wrong, before anything runs.
func TestBadInput(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"base: baseline\nparameters:\n  - path: hosts.nosuch\n    values: [1]\n",
			`:3: parameters[0] (path hosts.nosuch): point 0 (hosts.nosuch=1): builtin:baseline (--set hosts.nosuch=1): hosts.nosuch: unknown field "nosuch"`},
		{"base: baseline\nparameters:\n  - path: hosts.initial\n    values: [10]\n  - path: projects[4].name\n    values: [x]\n",
			`:5: parameters[1] (path projects[4].name): point 0 (hosts.initial=10, projects[4].name=x): builtin:baseline (--set projects[4].name=x): projects[4].name: projects has no element 4`},
		{"base: baseline\nparameters:\n  - path: hosts.initial\n    values: [-5]\n", `:3: parameters[0] (path hosts.initial)`},
		{"base: baseline\nparameters:\n  - path: hosts.initial\n    range: {from: 1, to: 5}\n", `:3: parameters[0]: hosts.initial: range needs step or count`},
		{"base: baseline\nparameters:\n  - path: hosts.initial\n    values: [1]\n    valuse: [2]\n", `:5: parameters[0].valuse: unknown field "valuse"`},
		{"base: baseline\nparameter: []\n", `:2: parameter: unknown field "parameter"`},
		{"base: nosuch-scenario\nparameters:\n  - path: hosts.initial\n    values: [1]\n", `:1: base nosuch-scenario with set`},
		{"base: baseline\nplots: [honest_ration]\nparameters:\n  - path: hosts.initial\n    values: [1]\n", `:2: plots[0]: honest_ration: not a figure of summary.json`},
		{"base: baseline\nparameters:\n  - {path: hosts.initial, range: {from: 1, to: 1000, step: 1}}\n  - {path: hosts.teams, range: {from: 1, to: 1000, step: 1}}\n",
			`:2: parameters: the grid of their values has more than 10000 points`},
		{"base: baseline\ncombine: zip\nparameters:\n  - path: hosts.initial\n    values: [1, 2]\n  - path: hosts.teams\n    values: [1]\n", `:6: parameters[1]: hosts.teams: zip needs the same number of values`},
		{"base: baseline\nparameters: [{path: seed, values: [1, 2]}, {path: seed, values: [3]}]\n", `parameters[1].path: seed: swept twice`},
		{"base: baseline\nparameters:\n  - path: hosts.initial\n    values: [1\n", `sweep.yaml:3: did not find expected ',' or ']'`},
		{"base: baseline\nparameters:\n  - path: hosts.initial\n    values: [10, 20]\n    labels: [ten]\n", `:3: parameters[0].labels: ten: one label per value: 1 labels for 2 values`},
		{"base: baseline\nparameters:\n  - path: hosts.initial\n    values: [10, 20]\n    labels: [ten, ' ']\n", `:3: parameters[0].labels[1]:`},
	} {
		dir := t.TempDir()
		f := filepath.Join(dir, "sweep.yaml")
		os.WriteFile(f, []byte(c.text), 0o644)
		_, err := Load(f)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), f) || !IsInput(err) {
			t.Errorf("%q:\n got  %v\n want %s... containing %q", c.text, err, f, c.want)
		}
	}
}

func writeFile(tb testing.TB, name, text string) {
	tb.Helper()
	if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
		tb.Fatal(err)
	}
}

// TestShippedSweepsLoad: every example sweep under scenarios/sweeps is
// valid (CI runs gpu-inflators in full).
func TestShippedSweepsLoad(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "..", "..", "..", "scenarios", "sweeps", "*.yaml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no shipped sweeps found: %v", err)
	}
	for _, f := range files {
		sw, err := Load(f)
		if err != nil {
			t.Error(err)
			continue
		}
		if len(sw.Points) < 2 || len(sw.Points[0].Scenario.Policies) < 7 {
			t.Errorf("%s: %d points, %d policies; want a real sweep of every standard policy", f, len(sw.Points), len(sw.Points[0].Scenario.Policies))
		}
	}
}

// TestGPUInflatorsClaim: docs/sweeps.md's figures of the shipped sweep
// are what its end points give, run as `creditsim sweep
// scenarios/sweeps/gpu-inflators.yaml` runs them (300 hosts, 3
// replications with their twins, the points' own seeds): at 20% of
// accounts reporting 10 x their benchmarks, the first system pays them
// about 6 x what their hosts earn honestly (gain 5 to 7) and per FLOP
// as much (cheat ratio); CreditNew pays them per FLOP as it pays honest
// hosts (cheat ratio below 1.05), yet they gain more than 2 x over
// their twin, because host normalisation inflates everyone's pay: honest
// hosts' G/D more than doubles from no inflators to 20%; the fourth
// system keeps their gain below 1.12 and honest G/D flat within 10%.
func TestGPUInflatorsClaim(t *testing.T) {
	longtest.Skip(t, "the two end points of the shipped sweep, as the command runs them")
	sw, err := Load(filepath.Join("..", "..", "..", "..", "scenarios", "sweeps", "gpu-inflators.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	ends := []Point{sw.Points[0], sw.Points[len(sw.Points)-1]}
	sums := map[string]*results.Summary{}
	for _, pt := range ends {
		oc, err := runner.Run(pt.Scenario, runner.Options{NoPlots: true})
		if err != nil {
			t.Fatal(err)
		}
		sums[pt.ID()] = oc.Summary
	}
	fig := func(pt Point, policy, name string) float64 {
		return float64(sums[pt.ID()].Policies[policy].Flat()[name])
	}
	last := ends[1]
	for _, c := range []struct {
		policy, figure string
		lo, hi         float64
	}{
		{"v1peak", "gain.benchmark_inflation", 5, 7},
		{"v1peak", "cheat_ratio.benchmark_inflation", 5, 7},
		{"v3pfc-boinc", "cheat_ratio.benchmark_inflation", 0.95, 1.05},
		{"v3pfc-boinc", "gain.benchmark_inflation", 2, 3.5},
		{"v4trust", "gain.benchmark_inflation", 0.9, 1.12},
	} {
		if v := fig(last, c.policy, c.figure); !(v >= c.lo && v <= c.hi) {
			t.Errorf("at 20%%: %s %s = %.3g, docs/sweeps.md says within [%g, %g]", c.policy, c.figure, v, c.lo, c.hi)
		}
	}
	h0, h1 := fig(ends[0], "v3pfc-boinc", "honest_ratio"), fig(last, "v3pfc-boinc", "honest_ratio")
	if !(h1 > 2*h0) {
		t.Errorf("v3pfc-boinc honest G/D %.3g with no inflators, %.3g with 20%%; docs/sweeps.md says it more than doubles", h0, h1)
	}
	g0, g1 := fig(ends[0], "v4trust", "honest_ratio"), fig(last, "v4trust", "honest_ratio")
	if !(math.Abs(g1/g0-1) < 0.1) {
		t.Errorf("v4trust honest G/D %.3g with no inflators, %.3g with 20%%; want it flat within 10%%", g0, g1)
	}
	t.Logf("honest G/D: v3pfc-boinc %.3g -> %.3g, v4trust %.3g -> %.3g", h0, h1, g0, g1)
}

// TestRangeLimits: a step so small (or NaN) that the count would overflow
// is an error, not a panic.
func TestRangeLimits(t *testing.T) {
	for _, r := range []Range{
		{From: 0, To: 0.5, Step: 1e-300},
		{From: 0, To: 0.5, Step: math.NaN()},
		{From: 0, To: 0.5, Step: math.Inf(1)},
		{From: 0, To: 1, Step: 1e-6},
	} {
		if v, err := r.expand(); err == nil {
			t.Errorf("%+v: %d values, want an error", r, len(v))
		}
	}
	if v, err := (&Range{From: 0, To: 0.2, Step: 0.05}).expand(); err != nil || len(v) != 5 {
		t.Errorf("0 to 0.2 by 0.05: %v, %v", v, err)
	}
}

// TestShardFindsFolderBeingPrepared: a shard that finds the folder
// another shard is preparing (the points folder and the manifest's
// temporary file, no manifest yet) joins it; an unsharded sweep, or a
// folder holding anything else, is still refused.
func TestShardFindsFolderBeingPrepared(t *testing.T) {
	sw := load(t, small)
	for _, c := range []struct {
		name    string
		extra   string // another file in the folder
		sharded bool
		ok      bool
	}{
		{"shard", "", true, true},
		{"unsharded", "", false, false},
		{"shard, other file", "notes.txt", true, false},
	} {
		out := filepath.Join(t.TempDir(), "sweep")
		if err := os.MkdirAll(filepath.Join(out, "points"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(out, "."+manifestFile+".tmp-123"), nil, 0o644); err != nil {
			t.Fatal(err)
		}
		if c.extra != "" {
			if err := os.WriteFile(filepath.Join(out, c.extra), nil, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		opts := Options{Out: out}
		if c.sharded {
			opts.Shard, opts.Shards = 1, 3
		}
		err := prepare(sw, opts, c.sharded)
		if (err == nil) != c.ok {
			t.Errorf("%s: prepare gave %v", c.name, err)
		}
		if m, rerr := os.ReadFile(filepath.Join(out, manifestFile)); c.ok && (rerr != nil || !bytes.Equal(m, sw.Resolved)) {
			t.Errorf("%s: manifest not written", c.name)
		}
	}
}

// TestMergeRefusesTampering: a point folder whose summary was edited, or
// swapped with another point's, since it was written is refused by the
// merge, named; the sweep as written merges.
func TestMergeRefusesTampering(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a small sweep")
	}
	sw := load(t, small)
	d := filepath.Join(t.TempDir(), "sw")
	run(t, sw, d, Options{Jobs: 2})
	if err := Merge([]string{d}, "", false); err != nil {
		t.Fatalf("the sweep as written: %v", err)
	}
	points, _ := filepath.Glob(filepath.Join(d, "points", "p*"))
	if len(points) < 2 {
		t.Fatalf("%d points", len(points))
	}
	a, b := filepath.Join(points[0], "summary.json"), filepath.Join(points[1], "summary.json")
	sa, _ := os.ReadFile(a)
	sb, _ := os.ReadFile(b)
	for _, c := range []struct {
		name  string
		fileA []byte
		fileB []byte
	}{
		{"a figure edited", []byte(strings.Replace(string(sa), `"honest_ratio": `, `"honest_ratio": 9`, 1)), sb},
		{"summaries swapped", sb, sa},
	} {
		os.WriteFile(a, c.fileA, 0o644)
		os.WriteFile(b, c.fileB, 0o644)
		err := Merge([]string{d}, "", false)
		if err == nil || !strings.Contains(err.Error(), "digest does not match") {
			t.Errorf("%s: %v", c.name, err)
		}
	}
	os.WriteFile(a, sa, 0o644)
	os.WriteFile(b, sb, 0o644)

	// A point.json given a value the sweep does not have, with its digest
	// made again to match (the digest is integrity, not a signature), is
	// refused against the sweep file.
	pj := filepath.Join(points[0], "point.json")
	orig, _ := os.ReadFile(pj)
	forged := regexp.MustCompile(`"value": "[^"]*"`).ReplaceAllString(string(orig), `"value": "12345"`)
	if forged == string(orig) {
		t.Fatal("point.json has no value to change")
	}
	os.WriteFile(pj, []byte(forged), 0o644)
	var info struct {
		ID   string `json:"id"`
		Seed uint64 `json:"seed"`
	}
	json.Unmarshal(orig, &info)
	os.WriteFile(filepath.Join(points[0], digestFile), []byte(pointDigest(info.ID, info.Seed, []byte(forged), sa)+"\n"), 0o644)
	err := Merge([]string{d}, "", false)
	if err == nil || !strings.Contains(err.Error(), "are not the sweep's for point") || !strings.Contains(err.Error(), "12345") {
		t.Errorf("a value not in the sweep: %v", err)
	}
}

// TestFrontierSweep runs the shipped frontier sweep, smaller, and checks
// the frontier plot and what its header says: BOINC's server is the
// cheapest and pays CreditNew's colluders and fakes several times over;
// pairing costs fewer jobs than checking every untrusted group; with
// escrow (and every defence after it) CreditNew, the fourth system and
// post-assigned credit hold every behaviour's gain to 1.1 with honest
// harm of at most 5%;
// the first system's benchmark inflators gain under every server.
func TestFrontierSweep(t *testing.T) {
	longtest.Skip(t, "seven servers on a world of 200 hosts")
	t.Parallel()
	text, err := os.ReadFile(filepath.Join("..", "..", "..", "..", "scenarios", "sweeps", "frontier.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	smaller := strings.Replace(strings.Replace(string(text), "hosts.initial=300", "hosts.initial=200", 1), "replications: 2", "replications: 1", 1)
	// The base is a built-in, so the copy loads from anywhere.
	sw := load(t, smaller)
	out := t.TempDir()
	run(t, sw, out, Options{Jobs: 2})
	html, err := os.ReadFile(filepath.Join(out, "sweep.html"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(out, "sweep-frontier.png")); err != nil || !bytes.Contains(html, []byte(`src="sweep-frontier.png"`)) ||
		!bytes.Contains(html, []byte("jobs computed per validated workunit")) {
		t.Fatalf("no frontier plot with its caption in sweep.html (%v)", err)
	}
	sums, _, err := Summaries(out)
	if err != nil {
		t.Fatal(err)
	}
	if len(sums) != 7 {
		t.Fatalf("%d points, want 7", len(sums))
	}
	worst := func(i int, p string) float64 { return float64(sums[i].Policies[p].WorstGain) }
	cost := func(i int) float64 { return sums[i].JobsPerValidatedWorkunit() }
	for i := 1; i < 7; i++ {
		if !(cost(0) < cost(i)) {
			t.Errorf("BOINC's server costs %.3g jobs a workunit, point %d %.3g", cost(0), i, cost(i))
		}
	}
	if !(cost(3) < cost(2)) {
		t.Errorf("pairing costs %.3g jobs a workunit, checking every untrusted group %.3g", cost(3), cost(2))
	}
	gain := func(i int, p, kind string) float64 { return float64(sums[i].Policies[p].Gain[kind]) }
	for _, kind := range []string{"colluding_fakes", "fake_results"} {
		if g := gain(0, "v3pfc-boinc", kind); !(g > 3) {
			t.Errorf("BOINC's server: CreditNew's gain.%s %.3g, want several", kind, g)
		}
	}
	if d := cost(5) - cost(0); !(d > 0.5 && d < 1.5) {
		t.Errorf("the defended server costs %.3g jobs a workunit more than BOINC's, want about one", d)
	}
	if days := sums[5].Price["honest_days_to_trust"]; !(days > 0.5 && days < 2) {
		t.Errorf("the defended server trusts a new honest host after %.3g days, want about one", days)
	}
	for i := range sums {
		if g := gain(i, "v1peak", "benchmark_inflation"); !(g > 1.5) {
			t.Errorf("point %d: the first system's benchmark inflators gain %.3g, want about 2", i, g)
		}
	}
	// What the docs say of points 4 to 6: every behaviour's gain at most
	// 1.1 and honest harm at most 5%. Not that they hold the bound: the
	// worst single account's gain, beyond what chance gives, is the
	// bound's other half, and at this size it is above it.
	for i := 4; i < 7; i++ {
		for _, p := range []string{"v3pfc-boinc", "v4trust", "post-assigned-credit"} {
			if g, h := worst(i, p), float64(sums[i].Policies[p].Harm); !(g <= 1.1) || !(h >= 0.95) {
				t.Errorf("point %d: %s's worst gain %.3g, harm %.3g; want at most 1.1 and at least 0.95", i, p, g, h)
			}
		}
	}
}

// TestPointLabel: a point is named by its parameters' labels in words
// where the sweep gives them, by its values where they are short, and by
// its ID where a value is too long to read and has no label; an axis is
// the parameter's name, else its path.
func TestPointLabel(t *testing.T) {
	m := &manifest{Parameters: []manifestParam{
		{Path: "server.trust", Name: "server", Values: []string{"{confirmations: 0}", "{confirmations: 10}"}, Labels: []string{"BOINC's server", "trust"}},
		{Path: "hosts.initial", Values: []string{"300"}},
	}}
	long := &manifest{Parameters: []manifestParam{{Path: "server.trust", Values: []string{"{confirmations: 10, check_rate: 1, pair_untrusted: true}"}}}}
	for _, c := range []struct {
		m    *manifest
		pd   pointData
		want string
	}{
		{m, pointData{ID: "p0001", Values: []string{"{confirmations: 10}", "300"}}, "trust, 300"},
		{long, pointData{ID: "p0000", Values: []string{"{confirmations: 10, check_rate: 1, pair_untrusted: true}"}}, "p0000"},
	} {
		if got := c.m.pointLabel(c.pd); got != c.want {
			t.Errorf("pointLabel(%v) = %q, want %q", c.pd.Values, got, c.want)
		}
	}
	if a, b := m.Parameters[0].axis(), m.Parameters[1].axis(); a != "server" || b != "hosts.initial" {
		t.Errorf("axes %q, %q; want server, hosts.initial", a, b)
	}
}

// TestWrapWords: a label in words is wrapped under the axis at spaces,
// no line past the width unless one word is.
func TestWrapWords(t *testing.T) {
	for _, c := range []struct {
		in, want string
		width    int
	}{
		{"inflators x 3 on 35%", "inflators x\n3 on 35%", 12},
		{"short", "short", 12},
		{"churners with inflated benchmarks 15%", "churners\nwith\ninflated\nbenchmarks\n15%", 12},
		{"averyveryverylongword here", "averyveryverylongword\nhere", 12},
		{"", "", 12},
	} {
		if got := wrapWords(c.in, c.width); got != c.want {
			t.Errorf("wrapWords(%q, %d) = %q, want %q", c.in, c.width, got, c.want)
		}
	}
}
