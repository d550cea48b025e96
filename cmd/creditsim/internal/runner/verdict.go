package runner

import (
	"fmt"
	"sort"
	"sync"

	"github.com/creditsim/creditsim/policy"
	"github.com/creditsim/creditsim/results"
	"github.com/creditsim/creditsim/scenarios"
)

// Progress, if set, is told each time one of total steps (a scenario's
// runs) finishes, with the step's name and how many are done.
type Progress func(name string, done, total int)

// counting returns a Progress that counts finished steps out of total
// and reports each to p; nil stays nil. Safe for concurrent use.
func (p Progress) counting(total int) Progress {
	if p == nil {
		return nil
	}
	var mu sync.Mutex
	done := 0
	return func(name string, _, _ int) {
		mu.Lock()
		defer mu.Unlock()
		done++
		p(name, done, total)
	}
}

func (p Progress) step(name string) {
	if p != nil {
		p(name, 0, 0)
	}
}

// cheats reports whether some of s's hosts cheat: an agent kind other
// than failed_benchmark, a fault. Only such worlds need their twins.
func cheats(s *scenarios.Scenario) bool {
	for _, k := range agentKinds(s) {
		if k != "failed_benchmark" {
			return true
		}
	}
	return false
}

// LibraryVerdict runs every built-in scenario as its file has it at the
// claim size (300 hosts or fewer, one replication; with its honest twins
// where it has agents) and folds the runs into the verdict over the
// standard policies: each figure at its worst over the worlds. The runs
// are the claims' own (CheckLibrary), made once per process.
func LibraryVerdict(workers int, progress Progress) (*results.Verdict, error) {
	names := scenarios.Names()
	sort.Strings(names)
	worlds := make([]results.World, len(names))
	errs := make([]error, len(names))
	progress = progress.counting(len(names))
	inParallel(len(names), max(workers, 1), nil, func(i int) {
		s, err := scenarios.Open(names[i], nil)
		if err != nil {
			errs[i] = err
			return
		}
		sum, err := libraryRun(names[i], nil, cheats(s))
		worlds[i], errs[i] = results.World{Name: names[i], Summary: sum, Cheats: cheats(s)}, err
		progress.step(names[i])
	})
	for i, err := range errs {
		if err != nil {
			return nil, fmt.Errorf("%s: %w", names[i], err)
		}
	}
	return results.NewVerdict(worlds, policy.Standard(), policy.UseWhen, claimHosts), nil
}

// VerdictText is what `creditsim verdict` prints and README embeds: a
// line on how the worlds ran, the table and its sentences.
func VerdictText(v *results.Verdict) string {
	reps := "one replication"
	if v.Replications != 1 {
		reps = fmt.Sprintf("%d replications", v.Replications)
	}
	return fmt.Sprintf("Each of the %d built-in worlds run with %d hosts (or fewer if it has fewer) and %s, seed as in its file. Each figure is the system's worst: fairness over the %d worlds where no host cheats, cheating over the %d where some do, with the world it comes from; ! marks a figure outside the 1.1 bound. Printed by `creditsim verdict --systems`.\n\n",
		v.Worlds, v.Hosts, reps, v.Worlds-v.CheatWorlds, v.CheatWorlds) + v.Markdown()
}
