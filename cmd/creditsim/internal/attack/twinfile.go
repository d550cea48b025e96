package attack

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/creditsim/creditsim/results"
)

// The honest twins of a seed do not depend on the candidate, so the
// shards of one attack need them once between them: a shard writes the
// twins it simulated into its folder, and a shard or a join that finds
// them there (written by the same binary, for the same scenario as
// resolved, seed, replications and policies) reads them instead of
// simulating them. Shards that start
// together each simulate them (the file is written whole or not at all,
// and the same bytes whoever writes it); shards that start later, and
// the join, read them.

// TwinFile is the twins of one seed as a file.
type TwinFile struct {
	// Build is the SHA-256 of the creditsim binary that simulated them:
	// twins are read only by the same binary, so a file left in a
	// shared folder by an earlier version is never taken for this one's.
	Build          string             `json:"build"`
	Scenario       string             `json:"scenario"`
	ScenarioSHA256 string             `json:"scenario_sha256"`
	Seed           uint64             `json:"seed"`
	Replications   int                `json:"replications"`
	Policies       []string           `json:"policies"`
	Twins          []results.TwinData `json:"twins"`
}

// TwinFileName is the name of the twins of seed on reps replications in
// a shard's folder.
func TwinFileName(seed uint64, reps int) string {
	return fmt.Sprintf("attack-twin-seed-%d-x%d.json", seed, reps)
}

// readTwins returns the twins of k from the first of e's folders that
// holds them for this very scenario, or false.
func (e *evaluator) readTwins(k twinKey) ([]*results.Twin, bool) {
	build := buildID()
	if build == "" {
		return nil, false
	}
	for _, dir := range e.opts.TwinDirs {
		b, err := os.ReadFile(filepath.Join(dir, TwinFileName(k.seed, k.reps)))
		if err != nil {
			continue
		}
		var f TwinFile
		if json.Unmarshal(b, &f) != nil || f.Build != build || f.ScenarioSHA256 != e.sha || f.Seed != k.seed || f.Replications != k.reps ||
			strings.Join(f.Policies, ",") != strings.Join(e.all, ",") || len(f.Twins) != k.reps {
			continue
		}
		twins := make([]*results.Twin, len(f.Twins))
		ok := true
		for i, d := range f.Twins {
			if twins[i], err = results.TwinFrom(d); err != nil {
				ok = false
			}
		}
		if ok {
			e.logf("  the honest twins of seed %d read from %s", k.seed, dir)
			return twins, true
		}
	}
	return nil, false
}

// writeTwins writes the twins of k into e's twin folder, if it has one
// and they are not there yet.
func (e *evaluator) writeTwins(k twinKey, twins []*results.Twin) error {
	dir := e.opts.TwinOut
	if dir == "" || buildID() == "" {
		return nil
	}
	path := filepath.Join(dir, TwinFileName(k.seed, k.reps))
	if _, err := os.Stat(path); err == nil || !errors.Is(err, fs.ErrNotExist) {
		return nil // another shard wrote them (or the place is not ours to write)
	}
	f := TwinFile{Build: buildID(), Scenario: e.name, ScenarioSHA256: e.sha, Seed: k.seed, Replications: k.reps, Policies: e.all}
	for _, t := range twins {
		f.Twins = append(f.Twins, t.Data())
	}
	b, err := json.Marshal(&f)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	return results.WriteFileAtomic(path, append(b, '\n'))
}

// logf logs a line of the search.
func (e *evaluator) logf(format string, a ...any) {
	if e.opts.Log != nil {
		e.mu.Lock()
		defer e.mu.Unlock()
		fmt.Fprintf(e.opts.Log, format+"\n", a...)
	}
}

// buildID is the SHA-256 of the running binary, "" if it cannot be read
// (then twins are neither read nor written).
var buildID = sync.OnceValue(func() string {
	exe, err := os.Executable()
	if err != nil {
		return ""
	}
	f, err := os.Open(exe)
	if err != nil {
		return ""
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return ""
	}
	return hex.EncodeToString(h.Sum(nil))
})
