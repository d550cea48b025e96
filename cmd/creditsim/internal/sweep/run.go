package sweep

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/creditsim/creditsim/cmd/creditsim/internal/runner"
	"github.com/creditsim/creditsim/results"
	"github.com/creditsim/creditsim/scenarios"
)

// Options control a sweep run.
type Options struct {
	Out  string // output folder
	Jobs int    // cores to use; 0 = GOMAXPROCS
	// Shard and Shards select shard Shard (1..Shards) of the points:
	// point k belongs to shard k mod Shards + 1. Shards 0 runs them all.
	Shard, Shards int
	// Resume skips points whose folder is complete.
	Resume bool
	// Force starts over: an unsharded sweep replaces the folder; a shard
	// reruns its own points.
	Force bool
	// Log receives one line per point; nil is silent.
	Log io.Writer
	// Protect lists inputs (the sweep file, its base scenario) the output
	// folder must not hold: nothing replaces such a folder.
	Protect []string
}

// Outcome says what a sweep run did.
type Outcome struct {
	Ran, Skipped int  // points of this run
	Final        bool // the sweep's tables and plots were written
	Wall         time.Duration
	Results      int64 // simulated results, summed over the points run
}

const manifestFile = "sweep.resolved.yaml"

// ErrIncomplete is returned by Merge when points are missing.
var ErrIncomplete = errors.New("sweep incomplete")

// Run runs the sweep's points (this shard's, if sharded) into opts.Out,
// each point's folder written to a temporary name and renamed when
// complete. Unsharded, it then writes the sweep's tables and plots.
func Run(sw *Sweep, opts Options) (*Outcome, error) {
	start := time.Now()
	if opts.Shards < 0 || (opts.Shards > 0 && (opts.Shard < 1 || opts.Shard > opts.Shards)) {
		return nil, &Error{File: sw.File, Field: "--shard", Value: fmt.Sprintf("%d/%d", opts.Shard, opts.Shards), Reason: "want i/n with 1 <= i <= n"}
	}
	sharded := opts.Shards > 0
	if err := prepare(sw, opts, sharded); err != nil {
		return nil, err
	}
	jobs := opts.Jobs
	if jobs <= 0 {
		jobs = runtime.GOMAXPROCS(0)
	}
	oc := &Outcome{}
	todo, err := pending(sw, opts, sharded, oc)
	if err != nil {
		return nil, err
	}
	if err := runPoints(sw, opts, todo, jobs, oc); err != nil {
		return nil, err
	}
	if !sharded {
		if err := Finalize(opts.Out, jobs); err != nil {
			return nil, err
		}
		oc.Final = true
	}
	oc.Wall = time.Since(start)
	return oc, nil
}

// pending lists this shard's points still to run, removing what killed
// runs left of them; done points are skipped (counted in oc) with
// --resume, rerun with --force, and an error otherwise.
func pending(sw *Sweep, opts Options, sharded bool, oc *Outcome) ([]Point, error) {
	var todo []Point
	for _, pt := range sw.Points {
		if sharded && pt.Index%opts.Shards != opts.Shard-1 {
			continue
		}
		dir := filepath.Join(opts.Out, "points", pt.ID())
		removeStale(filepath.Join(opts.Out, "points"), pt.ID())
		if complete(dir) && !opts.Force {
			if !opts.Resume {
				return nil, fmt.Errorf("%s: point %s is already done (use --resume to skip done points, --force to rerun them)", opts.Out, pt.ID())
			}
			oc.Skipped++
			continue
		}
		todo = append(todo, pt)
	}
	return todo, nil
}

// runPoints runs the points concurrently, their replications sharing
// jobs slots, so that the cores stay busy to the last point; at most
// 2 x jobs points are in memory at once. It stops starting points at
// the first error, which it returns.
func runPoints(sw *Sweep, opts Options, todo []Point, jobs int, oc *Outcome) error {
	slots := make(chan struct{}, jobs)
	work := make(chan Point)
	var (
		mu       sync.Mutex
		firstErr error
		wg       sync.WaitGroup
	)
	for w := 0; w < 2*jobs && w < len(todo); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for pt := range work {
				t := time.Now()
				n, err := runPoint(sw, pt, opts.Out, slots)
				mu.Lock()
				if err != nil && firstErr == nil {
					firstErr = fmt.Errorf("point %s (%s): %w", pt.ID(), describe(sw.Spec, pt.Values), err)
				}
				if err == nil {
					oc.Ran++
					oc.Results += n
					if opts.Log != nil {
						fmt.Fprintf(opts.Log, "%s %s done in %.1f s (%d of %d)\n", pt.ID(), describe(sw.Spec, pt.Values),
							time.Since(t).Seconds(), oc.Ran, len(todo))
					}
				}
				mu.Unlock()
			}
		}()
	}
	for _, pt := range todo {
		mu.Lock()
		failed := firstErr != nil
		mu.Unlock()
		if failed {
			break
		}
		work <- pt
	}
	close(work)
	wg.Wait()
	return firstErr
}

// prepare creates the output folder or checks that it holds this sweep.
func prepare(sw *Sweep, opts Options, sharded bool) error {
	// Never a file, the current directory or a folder holding the input,
	// whatever the flags; the rest of the rule is below.
	if err := results.CheckOutDir(opts.Out, results.Replace{Force: true}, opts.Protect...); err != nil {
		return err
	}
	old, err := os.ReadFile(filepath.Join(opts.Out, manifestFile))
	switch {
	case err == nil && !bytes.Equal(old, sw.Resolved):
		if !opts.Force || sharded {
			return results.Refused("%s holds a different sweep (its %s differs); use another folder, or --force to replace it", opts.Out, manifestFile)
		}
		if err := os.RemoveAll(opts.Out); err != nil {
			return err
		}
	case err == nil && !sharded && !opts.Resume:
		// The same sweep: its points may have cost hours, so starting
		// over is asked for, not assumed.
		if !opts.Force {
			return results.Refused("%s already holds this sweep; use --resume to continue it (points done are kept), or --force to start over", opts.Out)
		}
		if err := os.RemoveAll(opts.Out); err != nil {
			return err
		}
	case err != nil && !os.IsNotExist(err):
		return err
	case err != nil:
		if err := replaceOther(opts, sharded); err != nil {
			return err
		}
	}
	if err := os.MkdirAll(filepath.Join(opts.Out, "points"), 0o755); err != nil {
		return err
	}
	if err := results.WriteFileAtomic(filepath.Join(opts.Out, manifestFile), sw.Resolved); err != nil {
		return err
	}
	if sharded {
		// Another shard may have prepared the folder at the same moment
		// for a different sweep; the last manifest written stands.
		if now, err := os.ReadFile(filepath.Join(opts.Out, manifestFile)); err != nil || !bytes.Equal(now, sw.Resolved) {
			return results.Refused("%s holds a different sweep (its %s differs); use another folder", opts.Out, manifestFile)
		}
	}
	return nil
}

// replaceOther handles an output folder that holds no sweep: used if
// empty (or being prepared by another shard), replaced with --force
// unless sharded, else refused.
func replaceOther(opts Options, sharded bool) error {
	entries, err := os.ReadDir(opts.Out)
	if err != nil || len(entries) == 0 || sharded && beingPrepared(entries) {
		return nil
	}
	switch {
	case !opts.Force:
		return fmt.Errorf("%s exists and is not a sweep folder: %w", opts.Out, runner.ErrOutputExists)
	case sharded:
		// Shards start at once: one must not remove what another has
		// begun to write.
		return results.Refused("%s exists and is not a sweep folder; shards do not replace a folder, even with --force: give a new or empty one", opts.Out)
	}
	return os.RemoveAll(opts.Out)
}

// beingPrepared reports whether a folder without a manifest holds only
// what prepare writes before the manifest lands (the points folder, the
// manifest's temporary file): shards start at once, and one may find
// the folder another is preparing.
func beingPrepared(entries []os.DirEntry) bool {
	for _, e := range entries {
		if !(e.Name() == "points" && e.IsDir() || strings.HasPrefix(e.Name(), "."+manifestFile+".tmp-")) {
			return false
		}
	}
	return true
}

// complete reports whether a point folder was committed (folders appear
// by rename only, with summary.json inside).
func complete(dir string) bool {
	_, err := os.Stat(filepath.Join(dir, "summary.json"))
	return err == nil
}

// removeStale deletes what an interrupted run left of a point.
func removeStale(parent, id string) { results.RemoveStaleTemps(parent, id) }

// runPoint simulates one point and writes its folder.
func runPoint(sw *Sweep, pt Point, out string, slots chan struct{}) (int64, error) {
	s := pt.Scenario
	oc, err := runner.Run(s, runner.Options{Workers: s.Replications, Slots: slots, NoPlots: true})
	if err != nil {
		return 0, err
	}
	resolved, _, err := scenarios.Resolved(s)
	if err != nil {
		return 0, err
	}
	js, err := results.JSON(oc.Summary)
	if err != nil {
		return 0, err
	}
	type value struct {
		Path  string `json:"path"`
		Value string `json:"value"`
	}
	info := struct {
		ID     string  `json:"id"`
		Index  int     `json:"index"`
		Seed   uint64  `json:"seed"`
		Values []value `json:"values"`
	}{ID: pt.ID(), Index: pt.Index, Seed: pt.Seed}
	for i, p := range sw.Spec.Parameters {
		info.Values = append(info.Values, value{p.Path, pt.Values[i]})
	}
	pj, err := results.JSON(info)
	if err != nil {
		return 0, err
	}
	dir, err := results.NewOutDir(filepath.Join(out, "points", pt.ID()), results.Replace{Force: true})
	if err != nil {
		return 0, err
	}
	for _, f := range []struct {
		name string
		data []byte
	}{{"point.json", pj}, {"scenario.resolved.yaml", resolved}, {"summary.json", js}, {digestFile, []byte(pointDigest(pt.ID(), pt.Seed, pj, js) + "\n")}} {
		if err := dir.Write(f.name, f.data); err != nil {
			dir.Abort()
			return 0, err
		}
	}
	if err := dir.Commit(); err != nil {
		dir.Abort()
		return 0, err
	}
	return oc.Summary.Results, nil
}

// digestFile holds a point folder's digest (pointDigest).
const digestFile = "digest.sha256"

// pointDigest is the SHA-256 that binds a point's figures to the point:
// its ID and seed, its point.json and its summary.json. A merge refuses
// a point folder whose files were edited, or swapped with another
// point's, since it was written (integrity, not a signature).
func pointDigest(id string, seed uint64, point, summary []byte) string {
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%d\x00", id, seed)
	h.Write(point)
	h.Write([]byte{0})
	h.Write(summary)
	return hex.EncodeToString(h.Sum(nil))
}

// Merge joins the point folders of several shard folders (or one shared
// folder) into out (default: the first) and writes the sweep's tables and
// plots, exactly as an unsharded run would. Every folder must hold the
// same sweep; a missing point is an error naming it.
func Merge(dirs []string, out string, force bool) error {
	if len(dirs) == 0 {
		return errors.New("give the sweep folders to merge")
	}
	man, err := sameManifest(dirs)
	if err != nil {
		return err
	}
	m, err := parseManifest(man)
	if err != nil {
		return err
	}
	if out == "" {
		out = dirs[0]
	}
	inDirs := slices.ContainsFunc(dirs, func(d string) bool { return filepath.Clean(d) == filepath.Clean(out) })
	if !inDirs {
		if _, err := os.Stat(out); err == nil && !force {
			return fmt.Errorf("%s: %w", out, runner.ErrOutputExists)
		}
	}
	src, err := pointSources(m, dirs)
	if err != nil {
		return err
	}
	if !inDirs && force {
		if err := os.RemoveAll(out); err != nil {
			return err
		}
	}
	if err := os.MkdirAll(filepath.Join(out, "points"), 0o755); err != nil {
		return err
	}
	if err := results.WriteFileAtomic(filepath.Join(out, manifestFile), man); err != nil {
		return err
	}
	for _, pt := range m.Points {
		from := filepath.Join(src[pt.ID], "points", pt.ID)
		to := filepath.Join(out, "points", pt.ID)
		if filepath.Clean(from) == filepath.Clean(to) {
			continue
		}
		if err := copyPoint(from, to); err != nil {
			return err
		}
	}
	return Finalize(out, runtime.GOMAXPROCS(0))
}

// sameManifest is the sweep file the folders share; a folder that holds
// none, or another sweep's, is an error naming it.
func sameManifest(dirs []string) ([]byte, error) {
	var man []byte
	for _, d := range dirs {
		b, err := os.ReadFile(filepath.Join(d, manifestFile))
		if err != nil {
			return nil, &Error{File: d, Reason: fmt.Sprintf("not a sweep folder (%v)", err)}
		}
		if man == nil {
			man = b
		} else if !bytes.Equal(man, b) {
			return nil, &Error{File: d, Reason: fmt.Sprintf("holds a different sweep from %s (their %s differ)", dirs[0], manifestFile)}
		}
	}
	return man, nil
}

// pointSources finds, for each point, the first folder that holds it
// complete; a point none holds is an error naming it with its values.
func pointSources(m *manifest, dirs []string) (map[string]string, error) {
	var missing []string
	src := map[string]string{}
	for _, pt := range m.Points {
		for _, d := range dirs {
			if complete(filepath.Join(d, "points", pt.ID)) {
				src[pt.ID] = d
				break
			}
		}
		if src[pt.ID] == "" {
			missing = append(missing, pt.ID+" ("+pt.Values+")")
		}
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("%w: %d of %d points missing: %s", ErrIncomplete, len(missing), len(m.Points), strings.Join(missing, ", "))
	}
	return src, nil
}

// copyPoint copies a point folder through a temporary folder.
func copyPoint(from, to string) error {
	entries, err := os.ReadDir(from)
	if err != nil {
		return err
	}
	dir, err := results.NewOutDir(to, results.Replace{Force: true})
	if err != nil {
		return err
	}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(from, e.Name()))
		if err == nil {
			err = dir.Write(e.Name(), b)
		}
		if err != nil {
			dir.Abort()
			return err
		}
	}
	if err := dir.Commit(); err != nil {
		dir.Abort()
		return err
	}
	return nil
}
