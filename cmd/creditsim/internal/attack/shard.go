package attack

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/creditsim/creditsim/results"
)

// Shard is one shard's share of an attack's first phase (every kind at
// its fixed settings and the design points: independent runs, the bulk
// of the search). Shard k of n runs the candidates whose index is k-1
// modulo n. Run with Options.From joins the shards and goes on with the
// pairs, the local searches and the confirmation, which depend on all of
// them; its report is the same as that of an unsharded attack.
type Shard struct {
	Scenario       string     `json:"scenario"`
	ScenarioSHA256 string     `json:"scenario_sha256"`
	Seed           uint64     `json:"seed"`
	Budget         int        `json:"budget"`
	MaxCost        float64    `json:"max_cost"`
	Policies       []string   `json:"policies"`
	Shard          int        `json:"shard"`
	Shards         int        `json:"shards"`
	Runs           []ShardRun `json:"runs"`
	// Digest is the SHA-256 of the shard's JSON with Digest empty: a
	// join refuses a shard edited since it was written (integrity
	// against mistakes and naive edits, not a signature).
	Digest string `json:"digest"`
}

// digest is the SHA-256 of sh's JSON with its Digest empty.
func (sh *Shard) digest() (string, error) {
	c := *sh
	c.Digest = ""
	b, err := json.Marshal(&c)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:]), nil
}

// ShardRun is one first-phase candidate's run, its figures kept at full
// precision so that the joined search continues exactly as an unsharded
// one.
type ShardRun struct {
	Index int `json:"index"`
	// Agent is the candidate as a scenario agent; the join checks it
	// against its own candidate of that index.
	Agent   string             `json:"agent"`
	Values  map[string]float64 `json:"values"`
	Harm    map[string]float64 `json:"harm,omitempty"`
	Regime  map[string]float64 `json:"regime,omitempty"`
	Results int64              `json:"results,omitempty"`
	Skipped string             `json:"skipped,omitempty"`
}

// full and nums convert figures to and from a shard's full precision.
func full(m map[string]results.Num) map[string]float64 {
	if m == nil {
		return nil
	}
	out := make(map[string]float64, len(m))
	for k, v := range m {
		switch x := float64(v); {
		case math.IsInf(x, 1):
			out[k] = math.MaxFloat64 // unbounded: JSON has no Inf; nums reads it back
		case results.Defined(x):
			out[k] = x // undefined figures are left out, as JSON has no NaN
		}
	}
	return out
}

func nums(m map[string]float64) map[string]results.Num {
	if m == nil {
		return nil
	}
	out := make(map[string]results.Num, len(m))
	for k, v := range m {
		if v == math.MaxFloat64 {
			v = math.Inf(1)
		}
		out[k] = results.Num(v)
	}
	return out
}

// ShardFile is the name a shard's file has in its folder.
func ShardFile(k, n int) string { return fmt.Sprintf("attack-shard-%d-of-%d.json", k, n) }

// RunShard runs shard k of n (1 <= k <= n) of the attack's first phase.
func RunShard(opts Options, k, n int) (*Shard, error) {
	if n < 1 || k < 1 || k > n {
		return nil, inputErr("--shard %d/%d: want i/n with 1 <= i <= n", k, n)
	}
	if len(opts.From) > 0 {
		return nil, inputErr("--shard and --from: a shard runs its part of the first phase; --from joins the shards afterwards")
	}
	st, err := prepare(opts)
	if err != nil {
		return nil, err
	}
	var mine []Evaluation
	for _, ev := range st.first {
		if ev.Index%n == k-1 {
			mine = append(mine, ev)
		}
	}
	st.logf("attack %s, shard %d of %d: %d of the %d first-phase runs, on seed %d", st.base.Name, k, n, len(mine), len(st.first), st.base.Seed)
	if err := st.e.runAll(mine); err != nil {
		return nil, err
	}
	sh := st.header()
	sh.Shard, sh.Shards = k, n
	for _, ev := range mine {
		r := ShardRun{Index: ev.Index, Agent: ev.Behaviour.Key(), Values: full(ev.Values), Harm: full(ev.Harm), Regime: full(ev.Regime),
			Results: ev.Results, Skipped: ev.Skipped}
		if r.Values == nil {
			r.Values = map[string]float64{}
		}
		sh.Runs = append(sh.Runs, r)
	}
	return sh, nil
}

// header is what every shard of the search must agree on.
func (st *search) header() *Shard {
	o := st.e.opts
	return &Shard{Scenario: st.base.Name, ScenarioSHA256: st.sha, Seed: st.base.Seed, Budget: o.Budget, MaxCost: o.MaxCost,
		Policies: st.e.pols}
}

// fill takes the first phase's runs from the shards, which must be the
// n shards of this very search, each once.
func (st *search) fill(from []*Shard) error {
	want := st.header()
	n := from[0].Shards
	seen := make([]bool, n+1)
	got := make([]bool, len(st.first))
	for _, sh := range from {
		name := ShardFile(sh.Shard, sh.Shards)
		switch {
		case sh.ScenarioSHA256 != want.ScenarioSHA256 || sh.Seed != want.Seed:
			return inputErr("--from: %s is a shard of %s resolved otherwise (SHA-256 %.12s, seed %d; this attack's %s: %.12s, seed %d): give the join the shards' scenario and --set",
				name, sh.Scenario, sh.ScenarioSHA256, sh.Seed, want.Scenario, want.ScenarioSHA256, want.Seed)
		case sh.Budget != want.Budget || sh.MaxCost != want.MaxCost || strings.Join(sh.Policies, ",") != strings.Join(want.Policies, ","):
			return inputErr("--from: %s was run with --budget %d --max-cost %g --policies %s; give the join the same (now %d, %g, %s)",
				name, sh.Budget, sh.MaxCost, strings.Join(sh.Policies, ","), want.Budget, want.MaxCost, strings.Join(want.Policies, ","))
		case sh.Shards != n || sh.Shard < 1 || sh.Shard > n:
			return inputErr("--from: %s is not one of %d shards, as %s is", name, n, ShardFile(from[0].Shard, n))
		case seen[sh.Shard]:
			return inputErr("--from: shard %d of %d is given twice", sh.Shard, n)
		}
		seen[sh.Shard] = true
		if err := st.take(sh, got); err != nil {
			return err
		}
	}
	var missing []string
	for k := 1; k <= n; k++ {
		if !seen[k] {
			missing = append(missing, fmt.Sprint(k))
		}
	}
	switch {
	case len(missing) == 1:
		return inputErr("--from: shard %s of %d is missing", missing[0], n)
	case len(missing) > 1:
		return inputErr("--from: shards %s of %d are missing", strings.Join(missing, ", "), n)
	}
	for i, ok := range got {
		if !ok {
			return inputErr("--from: no shard holds run %d (%s)", i, st.first[i].Behaviour)
		}
	}
	return nil
}

// take fills the first phase's runs from shard sh, each of which must be
// its own and not yet taken (got).
func (st *search) take(sh *Shard, got []bool) error {
	name := ShardFile(sh.Shard, sh.Shards)
	for _, r := range sh.Runs {
		if r.Index < 0 || r.Index >= len(st.first) || r.Index%sh.Shards != sh.Shard-1 || got[r.Index] {
			return inputErr("--from: %s holds run %d, which is not its own", name, r.Index)
		}
		ev := &st.first[r.Index]
		if ev.Behaviour.Key() != r.Agent {
			return inputErr("--from: %s ran %s as run %d; this attack's run %d is %s", name, r.Agent, r.Index, r.Index, ev.Behaviour.Key())
		}
		got[r.Index] = true
		ev.Results, ev.Skipped = r.Results, r.Skipped
		ev.Values, ev.Harm, ev.Regime = nums(r.Values), nums(r.Harm), nums(r.Regime)
		if ev.Values == nil {
			ev.Values = map[string]results.Num{}
		}
	}
	return nil
}

// WriteShard writes sh into dir (made if missing; shards may share it)
// through a temporary file, replacing that shard's earlier file.
func WriteShard(sh *Shard, dir string) (string, error) {
	d, err := sh.digest()
	if err != nil {
		return "", err
	}
	sh.Digest = d
	b, err := json.MarshalIndent(sh, "", "  ")
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	path := filepath.Join(dir, ShardFile(sh.Shard, sh.Shards))
	return path, results.WriteFileAtomic(path, append(b, '\n'))
}

// checkFigures refuses a figure for a policy the shard does not search, or
// one that is not a finite number at least 0 (a gain, a harm or a
// regime share).
func (sh *Shard) checkFigures() error {
	pols := map[string]bool{}
	for _, p := range sh.Policies {
		pols[p] = true
	}
	for _, r := range sh.Runs {
		for _, m := range []map[string]float64{r.Values, r.Harm} {
			for p, v := range m {
				switch {
				case !pols[p]:
					return fmt.Errorf("run %d has a figure for %s, which the shard does not search", r.Index, p)
				case !(v >= 0) || math.IsInf(v, 0):
					return fmt.Errorf("run %d: %s's figure %g is not a finite number at least 0", r.Index, p, v)
				}
			}
		}
		for k, v := range r.Regime {
			if !(v >= 0 && v <= 1) {
				return fmt.Errorf("run %d: regime %s %g is not a share", r.Index, k, v)
			}
		}
	}
	return nil
}

// shardFiles lists d's attack shard files, sorted by name. The folder's
// name is never used as a pattern: "[a-z]*" is a name like any other.
func shardFiles(d string) ([]string, error) {
	entries, err := os.ReadDir(d)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range entries {
		if ok, _ := filepath.Match("attack-shard-*-of-*.json", e.Name()); ok && e.Type().IsRegular() {
			out = append(out, filepath.Join(d, e.Name()))
		}
	}
	return out, nil
}

// unwrapPath drops the path an *os.PathError repeats.
func unwrapPath(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// ReadShards reads every shard file in the folders, in the order of their
// shard numbers.
func ReadShards(dirs []string) ([]*Shard, error) {
	var out []*Shard
	for _, d := range dirs {
		fi, err := os.Stat(d)
		switch {
		case err != nil:
			return nil, inputErr("--from %s: %v", d, unwrapPath(err))
		case !fi.IsDir():
			return nil, inputErr("--from %s: not a folder (give the folder an attack shard wrote)", d)
		}
		files, err := shardFiles(d)
		if err != nil {
			return nil, inputErr("--from %s: %v", d, unwrapPath(err))
		}
		if len(files) == 0 {
			return nil, inputErr("--from %s: no attack shard file (attack-shard-<i>-of-<n>.json) in it", d)
		}
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				return nil, err
			}
			sh := &Shard{}
			if err := json.Unmarshal(b, sh); err != nil {
				return nil, inputErr("--from: %s: %v", f, err)
			}
			if filepath.Base(f) != ShardFile(sh.Shard, sh.Shards) {
				return nil, inputErr("--from: %s holds shard %d of %d", f, sh.Shard, sh.Shards)
			}
			if d, err := sh.digest(); err != nil || d != sh.Digest {
				return nil, inputErr("--from: %s was edited after it was written (its digest does not match its contents); run that shard again", f)
			}
			if err := sh.checkFigures(); err != nil {
				return nil, inputErr("--from: %s: %v", f, err)
			}
			out = append(out, sh)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Shard < out[j].Shard })
	return out, nil
}
