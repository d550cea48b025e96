package attack

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/creditsim/creditsim/results"
)

// ScanStep is the search at one share of accounts: each policy's worst
// case with every candidate's share pinned there.
type ScanStep struct {
	Share float64 `json:"share"`
	Runs  int     `json:"search_runs"`
	Worst []Worst `json:"worst"`
}

// Scan is a share scan: the search run once per share of accounts, and
// for each policy the smallest share whose confirmed worst gain is over
// the bound (absent if none is).
type Scan struct {
	Steps          []ScanStep         `json:"steps"`
	FirstOverBound map[string]float64 `json:"smallest_share_over_bound"`
}

// MinShare and MaxShare bound a scan's shares: those the search's own
// share parameter spans.
var (
	MinShare = shareParam.lo
	MaxShare = shareParam.hi
)

// RunScan runs the search of opts once per share (each on the same seed
// and budget, its confirmations on fresh seeds as Run's), in the order
// given. Each step is a whole search: a scan of four shares costs four
// (the honest twins of each seed are simulated once for all of them,
// and for the search before them if opts shares its twins).
func RunScan(opts Options, shares []float64) (*Scan, error) {
	if err := CheckShares(shares); err != nil {
		return nil, err
	}
	sc := &Scan{FirstOverBound: map[string]float64{}}
	opts.ShareTwins()
	for _, s := range shares {
		o := opts
		o.Share, o.From = s, nil
		if o.Log != nil {
			fmt.Fprintf(o.Log, "attack: share scan, %g of accounts\n", s)
		}
		rep, err := Run(o)
		if err != nil {
			return nil, err
		}
		sc.Steps = append(sc.Steps, ScanStep{Share: s, Runs: rep.Runs, Worst: rep.Worst})
	}
	sort.SliceStable(sc.Steps, func(i, j int) bool { return sc.Steps[i].Share < sc.Steps[j].Share })
	for _, st := range sc.Steps {
		for _, w := range st.Worst {
			if _, done := sc.FirstOverBound[w.Policy]; !done && float64(w.Confirmed.Mean) > Bound {
				sc.FirstOverBound[w.Policy] = st.Share
			}
		}
	}
	return sc, nil
}

// CheckShares refuses a scan's shares before anything runs: none, one
// outside MinShare to MaxShare, or one given twice.
func CheckShares(shares []float64) error {
	if len(shares) == 0 {
		return inputErr("--shares: give at least one share")
	}
	seen := map[float64]bool{}
	for _, s := range shares {
		if !(s >= MinShare && s <= MaxShare) {
			return inputErr("--shares: %g: each share of accounts must be %g to %g", s, MinShare, MaxShare)
		}
		if seen[s] {
			return inputErr("--shares: %g is given twice", s)
		}
		seen[s] = true
	}
	return nil
}

// ParseShares reads --shares: shares of accounts, comma-separated.
func ParseShares(text string) ([]float64, error) {
	var out []float64
	for _, f := range strings.Split(text, ",") {
		var v float64
		if _, err := fmt.Sscan(strings.TrimSpace(f), &v); err != nil || math.IsNaN(v) {
			return nil, inputErr("--shares: %q is not a number (give shares of accounts, e.g. 0.01,0.03,0.1,0.25)", strings.TrimSpace(f))
		}
		out = append(out, v)
	}
	return out, nil
}

// Gains returns policy p's confirmed worst gain at each step's share,
// NaN where the step has no figure for p.
func (sc *Scan) Gains(p string) (shares, gains []float64) {
	for _, st := range sc.Steps {
		g := math.NaN()
		for _, w := range st.Worst {
			if w.Policy == p {
				g = float64(w.Confirmed.Mean)
			}
		}
		shares, gains = append(shares, st.Share), append(gains, g)
	}
	return shares, gains
}

// ScanTable is the scan as text: per policy, the confirmed worst gain at
// each share and the smallest share over the bound.
func ScanTable(sc *Scan, pols []string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "\nShare scan: each policy's confirmed worst gain over the honest twin, with every candidate's share of accounts pinned\n")
	fmt.Fprintf(&b, "  %-22s", "policy")
	for _, st := range sc.Steps {
		fmt.Fprintf(&b, " %10s", fmt.Sprintf("%g", st.Share))
	}
	fmt.Fprintf(&b, "  over %g from\n", Bound)
	for _, p := range pols {
		fmt.Fprintf(&b, "  %-22s", p)
		_, gains := sc.Gains(p)
		for _, g := range gains {
			fmt.Fprintf(&b, " %10s", results.FormatScore(g))
		}
		if s, ok := sc.FirstOverBound[p]; ok {
			fmt.Fprintf(&b, "  %g\n", s)
		} else {
			fmt.Fprintf(&b, "  none of these\n")
		}
	}
	return b.String()
}
