package results

import (
	"math"
	"testing"

	"github.com/creditsim/creditsim/model/hosts"
)

// TestLargestOfRank: the largest of n draws falls on average at the
// quantile 1 − 1/(n+1) of their distribution: the median for one draw,
// two thirds for two, nearer the top the more draws.
func TestLargestOfRank(t *testing.T) {
	hundred := make([]float64, 101)
	for i := range hundred {
		hundred[i] = float64(i) / 100 // 0, 0.01, ..., 1
	}
	for _, c := range []struct {
		sorted []float64
		n      int
		want   float64
	}{
		{hundred, 1, 0.5},
		{hundred, 2, 2.0 / 3},
		{hundred, 9, 0.9},
		{hundred, 99, 0.99},
		{hundred, 999999, 0.999999},
		{[]float64{1, 3}, 1, 2},
		{[]float64{1, 3}, 3, 2.5},
	} {
		if got := largestOfRank(c.sorted, c.n); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("%d values, n %d: %g, want %g", len(c.sorted), c.n, got, c.want)
		}
	}
}

// TestAccountNoiseUnflags: an account's gain at or below what honest
// accounts reach by chance at its rank is not flagged in the scorecard;
// above it, or with no reference, it is.
func TestAccountNoiseUnflags(t *testing.T) {
	for _, c := range []struct {
		gain, noise float64
		flag        bool
	}{
		{1.5, 1.6, false},
		{1.5, 1.5, false},
		{1.5, 1.2, true},
		{1.5, math.NaN(), true},
		{1.05, math.NaN(), false},
	} {
		s := &Summary{Replications: 1, Policies: map[string]*PolicySummary{"p": {WorstAccountGain: Num(c.gain), AccountGainNoise: Num(c.noise),
			HostNeutralityCV: Num(math.NaN()), DeviceNeutrality: Num(math.NaN()), ProjectNeutrality: Num(math.NaN()),
			HonestRatio: Num(math.NaN()), WorstGain: Num(math.NaN()), Harm: Num(math.NaN())}}}
		if got := NewScorecard(s, []string{"p"}).Rows[0].Flag[ColAccountGain]; got != c.flag {
			t.Errorf("account gain %g, noise %g: flagged %v, want %v", c.gain, c.noise, got, c.flag)
		}
	}
}

// TestUnboundedGain: a group the twin paid nothing and the run paid
// something gains without bound (+Inf, written "unbounded"), not an
// absent figure the attack would score as no gain; paid nothing in both,
// it has no gain; the worst gain is then the unbounded one.
func TestUnboundedGain(t *testing.T) {
	fake, _ := hosts.ParseGroup("fake_results")
	inflator, _ := hosts.ParseGroup("benchmark_inflation")
	picker, _ := hosts.ParseGroup("cherry_picker")
	day := 86400.0
	c := NewCollector(Window{From: 0, To: 10 * day}, 1, 1)
	for _, g := range []hosts.Group{fake, inflator, picker} {
		c.hostInfo = append(c.hostInfo, &hosts.Host{Group: g, Arrival: 0, Departure: math.Inf(1)})
	}
	c.hosts = make([]hostAcc, 3)
	c.hostG = []float64{5, 3, 0}                                                // the run: fake paid 5, inflator 3, picker 0
	c.twin = &Twin{npol: 1, hostG: []float64{0, 2, 0}, hostN: make([]int32, 3)} // the twin: 0, 2, 0
	in := &figureInputs{c: c}
	g := in.gains()
	if !math.IsInf(g[fake], 1) || g[inflator] != 1.5 || !math.IsNaN(g[picker]) {
		t.Errorf("gains %v, want fake_results +Inf, benchmark_inflation 1.5, cherry_picker NaN", g)
	}
	if w := worstGain(in); !math.IsInf(w, 1) {
		t.Errorf("worst gain %v, want +Inf", w)
	}
}
