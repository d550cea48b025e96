package attack

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/creditsim/creditsim/results"
)

// The screen tries every pair of kinds the space allows, not only the
// pairs of kinds that pay alone: colluding fakes pay little alone and
// many times more with an inflated benchmark. A pair's own run would
// cost more runs than the budget has (about a hundred pairs), so pairs
// are pooled: each screening run holds several pairs at their kinds'
// fixed settings, each on its own accounts, and reads each pair's gain
// from its group. The pools share one world, so a pair's screened gain
// carries its pool-mates' effect on that world; it only ranks the pairs.
// Each policy's most profitable screened pairs then run alone among the
// pairs (Report.Screen keeps every pair's screened gain, which is why a
// pair not run alone was left out).

// poolShare bounds the accounts a screening run's pairs take together,
// and poolSize the pairs it holds: the pooled world stays mostly honest.
const (
	poolShare = 0.25
	poolSize  = 12
)

// screenPerPolicy is how many of each policy's most profitable screened
// pairs are proposed to run alone.
const screenPerPolicy = 3

// Screen is the pair screen: every pair the space allows, pooled, and,
// where the budget affords them too, every coalition.
type Screen struct {
	// Pairs is how many pairs the space allows, Coalitions how many
	// coalitions were screened; Runs the pooled runs (pairs first).
	Pairs      int         `json:"pairs"`
	Coalitions int         `json:"coalitions,omitempty"`
	Runs       []ScreenRun `json:"runs,omitempty"`
	// Skipped says why no screen ran (a budget too small), if it did
	// not; CoalitionsSkipped why the coalitions were left out.
	Skipped           string `json:"skipped,omitempty"`
	CoalitionsSkipped string `json:"coalitions_skipped,omitempty"`
}

// String says what the screen did, in a few words.
func (sc *Screen) String() string {
	switch {
	case sc == nil:
		return "not screened"
	case sc.Skipped != "":
		return "not screened: " + sc.Skipped
	case len(sc.Runs) == 0:
		return "none the space allows"
	}
	figures := 0
	for _, r := range sc.Runs {
		for _, p := range r.Pairs {
			if len(p.Values) > 0 {
				figures++
			}
		}
	}
	coalitions := fmt.Sprintf("every coalition of two kinds on two groups, %d, too", sc.Coalitions)
	if sc.Coalitions == 0 {
		coalitions = "no coalition (" + cmp.Or(sc.CoalitionsSkipped, "none the space allows") + ")"
	}
	return fmt.Sprintf("every pair the space allows, %d, and %s, screened in %d pooled runs at the kinds' fixed settings, %d with a figure; "+
		"each policy's %d most profitable pairs and coalitions then ran alone; attack.json's pair_screen holds every screened gain",
		sc.Pairs, coalitions, len(sc.Runs), figures, screenPerPolicy)
}

// ScreenRun is one pooled screening run on the search seed.
type ScreenRun struct {
	// Pairs are the run's pairs, each on its own accounts.
	Pairs []ScreenPair `json:"pairs"`
	// Results is how many results the run sent; Skipped says why it
	// was not run (too costly), and then its pairs have no figures.
	Results int64  `json:"results,omitempty"`
	Skipped string `json:"skipped,omitempty"`
}

// ScreenPair is one pair or coalition of a screening run and its gain
// per policy (a coalition's: the worse of its two groups').
type ScreenPair struct {
	Space     string                 `json:"space"`
	Behaviour Behaviour              `json:"behaviour"`
	Values    map[string]results.Num `json:"values,omitempty"`
}

// screenSpaces returns every pair of sp's kinds that can combine on one
// account, each at its kinds' fixed settings and the first kind's share,
// in a fixed order (a kind's variants are separate spaces).
func screenSpaces(sp []kindSpace) []kindSpace {
	return everyTwo(sp, (*kindSpace).pairs, pair)
}

// coalitionSpaces returns every coalition of two of sp's kinds (each
// alone on its accounts) that can be one run's two groups, each at its
// kind's fixed settings and share, in a fixed order.
func coalitionSpaces(sp []kindSpace) []kindSpace {
	return everyTwo(sp, (*kindSpace).coalesces, coalition)
}

// everyTwo combines every two of sp's single kinds that can allows, in
// order, each at its fixed settings.
func everyTwo(sp []kindSpace, can func(a, b *kindSpace) bool, combine func(a, b *kindSpace, startA, startB Behaviour) kindSpace) []kindSpace {
	var out []kindSpace
	for i := range sp {
		for j := i + 1; j < len(sp); j++ {
			a, b := &sp[i], &sp[j]
			if a.start.And == nil && b.start.And == nil && can(a, b) {
				out = append(out, combine(a, b, a.start, b.start))
			}
		}
	}
	return out
}

// groupsOf are the names of b's groups of accounts (two for a
// coalition), and the share of the accounts they take together.
func groupsOf(b Behaviour) ([]string, float64) {
	names, share := []string{b.Name()}, b.Share
	if b.With != nil {
		names, share = append(names, b.With.Name()), share+b.With.Share
	}
	return names, share
}

// pools packs pairs (or coalitions) into screening runs, in order: one
// goes into the first run that has room for its share and holds none of
// its groups (a kind's variants share a group, and a figure names a
// group).
func pools(pairs []kindSpace) []ScreenRun {
	var runs []ScreenRun
	var share []float64
	var groups []map[string]bool
	for _, ps := range pairs {
		names, sh := groupsOf(ps.start)
		taken := func(k int) bool { return slices.ContainsFunc(names, func(n string) bool { return groups[k][n] }) }
		k := 0
		for ; k < len(runs); k++ {
			if len(runs[k].Pairs) < poolSize && share[k]+sh <= poolShare && !taken(k) {
				break
			}
		}
		if k == len(runs) {
			runs, share, groups = append(runs, ScreenRun{}), append(share, 0), append(groups, map[string]bool{})
		}
		runs[k].Pairs = append(runs[k].Pairs, ScreenPair{Space: ps.name, Behaviour: ps.start})
		share[k] += sh
		for _, n := range names {
			groups[k][n] = true
		}
	}
	return runs
}

// screenRun runs one pool on the search seed and reads each pair's gain
// for every policy of the scenario.
func (e *evaluator) screenRun(r *ScreenRun) error {
	var agents []string
	for _, p := range r.Pairs {
		agents = append(agents, p.Behaviour.Agents()...)
	}
	s, err := e.openAgents(agents, e.seed, 1)
	if err != nil {
		return err
	}
	what := fmt.Sprintf("a screen of %d pairs", len(r.Pairs))
	if len(r.Pairs) > 0 && r.Pairs[0].Behaviour.With != nil { // coalitions pool apart
		what = fmt.Sprintf("a screen of %d coalitions", len(r.Pairs))
	}
	if est := s.EstimateResults(); est > e.maxResults {
		r.Skipped = fmt.Sprintf("estimated %.3g results, more than %g x the scenario's", est, e.opts.MaxCost)
		e.logLine(what + ", not run: " + r.Skipped)
		return nil
	}
	sum, _, err := e.run(s)
	if err != nil {
		return err
	}
	r.Results = sum.Results
	e.logLine(fmt.Sprintf("%s (%d results)", what, sum.Results))
	for i := range r.Pairs {
		p := &r.Pairs[i]
		p.Values = map[string]results.Num{}
		for _, pol := range e.all {
			ps := sum.Policies[pol]
			if ps == nil {
				continue
			}
			// A coalition's gain is its worse group's.
			flat := ps.Flat()
			for _, fig := range p.Behaviour.Figures() {
				if v, ok := flat[fig]; ok && results.Defined(float64(v)) {
					if old, had := p.Values[pol]; !had || v > old {
						p.Values[pol] = v
					}
				}
			}
		}
	}
	return nil
}

// runScreen runs every pool, jobs at a time.
func (e *evaluator) runScreen(sc *Screen) error {
	errs := make([]error, len(sc.Runs))
	var wg sync.WaitGroup
	for i := range sc.Runs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = e.screenRun(&sc.Runs[i])
		}()
	}
	wg.Wait()
	return errors.Join(errs...)
}

// screened returns policy p's screened pairs (or coalitions) in order
// of their gain for p, most first, at most n, each named by its space.
func (sc *Screen) screened(p string, n int, coalitions bool) []string {
	type entry struct {
		space string
		v     float64
	}
	var all []entry
	for _, r := range sc.Runs {
		for _, pr := range r.Pairs {
			if v, ok := pr.Values[p]; ok && (pr.Behaviour.With != nil) == coalitions {
				all = append(all, entry{pr.Space, float64(v)})
			}
		}
	}
	sort.SliceStable(all, func(i, j int) bool { return all[i].v > all[j].v })
	var out []string
	for _, x := range all[:min(n, len(all))] {
		out = append(out, x.space)
	}
	return out
}

// screenedPair is the pair named space (as screenSpaces names it) at
// each kind's most profitable settings for the policy best is of (from
// bestBySpace; its fixed settings where the policy has no figure for the
// kind), or false.
func screenedPair(sp []kindSpace, best map[string]*spaceBest, space string) (kindSpace, bool) {
	return screenedAt(sp, best, space, "+", pair)
}

// screenedCoalition is the coalition named space (as coalitionSpaces
// names it), each group at its kind's most profitable settings and share
// for the policy best is of, or false.
func screenedCoalition(sp []kindSpace, best map[string]*spaceBest, space string) (kindSpace, bool) {
	return screenedAt(sp, best, space, coalitionSep, coalition)
}

// screenedAt rebuilds the combination named space (its two spaces
// joined by sep) with each at its best behaviour in best.
func screenedAt(sp []kindSpace, best map[string]*spaceBest, space, sep string, combine func(a, b *kindSpace, startA, startB Behaviour) kindSpace) (kindSpace, bool) {
	first, second, ok := strings.Cut(space, sep)
	a, b := spaceNamed(sp, first), spaceNamed(sp, second)
	if !ok || a == nil || b == nil {
		return kindSpace{}, false
	}
	at := func(ks *kindSpace) Behaviour {
		if t := best[ks.name]; t != nil {
			return t.b
		}
		return ks.start
	}
	return combine(a, b, at(a), at(b)), true
}
