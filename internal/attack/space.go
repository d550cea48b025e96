package attack

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/creditsim/creditsim/model/hosts"
)

// Behaviour is one candidate: an agent kind on a share of the accounts,
// with its parameters (those of the kind; the others are zero).
type Behaviour struct {
	Kind         string  `json:"kind"`
	Share        float64 `json:"share"`
	K            float64 `json:"k,omitempty"`
	WorkFraction float64 `json:"work_fraction,omitempty"`
	// Threshold is the cherry picker's, in seconds.
	Threshold float64 `json:"threshold_seconds,omitempty"`
	Channel   string  `json:"channel,omitempty"`
	Claim     float64 `json:"claim,omitempty"`
	// At is when a one-time claim is made, in seconds from the start.
	At float64 `json:"at_seconds,omitempty"`
}

// Agent returns the behaviour as a scenario's agent, in YAML flow form
// (for hosts.agents).
func (b Behaviour) Agent() string {
	f := func(x float64) string { return strconv.FormatFloat(x, 'g', 17, 64) }
	parts := []string{"kind: " + b.Kind, "share: " + f(b.Share)}
	if b.K != 0 {
		parts = append(parts, "k: "+f(b.K))
	}
	if b.WorkFraction != 0 {
		parts = append(parts, "work_fraction: "+f(b.WorkFraction))
	}
	if b.Threshold != 0 {
		parts = append(parts, "threshold: "+f(b.Threshold)+"s")
	}
	if b.Channel != "" {
		parts = append(parts, "channel: "+b.Channel, "claim: "+f(b.Claim), "at: "+f(b.At)+"s")
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

// String is the behaviour in a few words, for logs and plots.
func (b Behaviour) String() string {
	s := fmt.Sprintf("%s on %.3g%% of accounts", b.Kind, 100*b.Share)
	switch {
	case b.K != 0:
		s += fmt.Sprintf(", k %.3g", b.K)
	case b.WorkFraction != 0:
		s += fmt.Sprintf(", work fraction %.3g", b.WorkFraction)
	case b.Threshold != 0:
		s += fmt.Sprintf(", threshold %.3g s", b.Threshold)
	case b.Channel != "":
		s += fmt.Sprintf(", %.3g through %s", b.Claim, b.Channel)
	}
	return s
}

// Figure is the summary figure that scores a kind for a policy: the
// cheat ratio (G/D of the agents over honest G/D) for kinds that do the
// work, credit per host-day over honest credit per host-day for kinds
// that fake it (their D is next to nothing).
func Figure(kind string) string {
	if kind == "fake_results" || kind == "colluding_fakes" {
		return "cheat_credit_per_day." + kind
	}
	return "cheat_ratio." + kind
}

// param is one continuous parameter, searched on a log scale within
// [lo, hi]: the unbounded search coordinate x maps to lo (hi/lo)^σ(x).
type param struct {
	name   string
	lo, hi float64
	set    func(b *Behaviour, v float64)
	get    func(b *Behaviour) float64
}

func (p param) value(x float64) float64 {
	s := 1 / (1 + math.Exp(-x))
	return p.lo * math.Pow(p.hi/p.lo, s)
}

func (p param) coord(v float64) float64 {
	v = math.Min(math.Max(v, p.lo), p.hi)
	s := math.Log(v/p.lo) / math.Log(p.hi/p.lo)
	s = math.Min(math.Max(s, 1e-6), 1-1e-6)
	return math.Log(s / (1 - s))
}

// Share bounds: at least a few accounts in a world of thousands, at most
// under a third of them (beyond, "honest" is no longer the reference).
var shareParam = param{"share", 0.002, 0.3, func(b *Behaviour, v float64) { b.Share = v }, func(b *Behaviour) float64 { return b.Share }}

var (
	kParam  = param{"k", 1, 1000, func(b *Behaviour, v float64) { b.K = v }, func(b *Behaviour) float64 { return b.K }}
	wfParam = param{"work_fraction", 0.001, 1, func(b *Behaviour, v float64) { b.WorkFraction = v },
		func(b *Behaviour) float64 { return b.WorkFraction }}
	thresholdParam = param{"threshold", 1, 86400, func(b *Behaviour, v float64) { b.Threshold = v },
		func(b *Behaviour) float64 { return b.Threshold }}
	claimParam = param{"claim", 1e3, 1e304, func(b *Behaviour, v float64) { b.Claim = v }, func(b *Behaviour) float64 { return b.Claim }}
)

// kindSpace is one categorical choice (a kind, and for one-time claims a
// channel) with its continuous parameters.
type kindSpace struct {
	name    string // kind, or kind/channel
	start   Behaviour
	params  []param
	figure  string
	channel string
}

// spaces returns the search space: every agent kind, one-time claims per
// channel, each starting from the scenario's own agent of that kind where
// it has one (the library's fixed agent), else from the kind's defaults.
// claimAt is when one-time claims are made (after the warm-up).
func spaces(own []hosts.AgentConfig, claimAt float64) []kindSpace {
	ownOf := func(kind, channel string) (hosts.AgentConfig, bool) {
		for _, a := range own {
			if a.Kind == kind && (channel == "" || a.Channel == channel) {
				return a, true
			}
		}
		return hosts.AgentConfig{}, false
	}
	var out []kindSpace
	for _, kind := range hosts.KindNames() {
		channels := []string{""}
		if kind == "one_time_claim" {
			channels = hosts.OneTimeChannels
		}
		for _, ch := range channels {
			ks := kindSpace{name: kind, figure: Figure(kind), channel: ch, params: []param{shareParam}}
			b := Behaviour{Kind: kind, Share: 0.02}
			switch kind {
			case "benchmark_inflation", "runtime_inflation", "count_inflation":
				b.K = 3
				ks.params = append(ks.params, kParam)
			case "idle_vm":
				b.K = 10
				ks.params = append(ks.params, kParam)
			case "ncpus_inflation":
				b.K = 4
				ks.params = append(ks.params, kParam)
			case "fake_results", "colluding_fakes":
				b.WorkFraction = 0.05
				ks.params = append(ks.params, wfParam)
			case "cherry_picker":
				b.Threshold = 3600
				ks.params = append(ks.params, thresholdParam)
			case "one_time_claim":
				ks.name = kind + "/" + ch
				b.Channel, b.Claim, b.At = ch, 1e304, claimAt
				ks.params = append(ks.params, claimParam)
			}
			if a, ok := ownOf(kind, ch); ok {
				b.Share = a.Share
				switch {
				case b.K != 0:
					b.K = a.K
				case b.WorkFraction != 0:
					b.WorkFraction = a.WorkFraction
				case b.Threshold != 0:
					b.Threshold = float64(a.Threshold)
				case b.Channel != "":
					b.Claim, b.At = a.Claim, float64(a.At)
				}
			}
			ks.start = b
			out = append(out, ks)
		}
	}
	return out
}

// behaviour maps search coordinates to a behaviour of the kind.
func (ks *kindSpace) behaviour(x []float64) Behaviour {
	b := ks.start
	for i, p := range ks.params {
		p.set(&b, p.value(x[i]))
	}
	return b
}

// coords maps a behaviour of the kind to search coordinates.
func (ks *kindSpace) coords(b Behaviour) []float64 {
	x := make([]float64, len(ks.params))
	for i, p := range ks.params {
		x[i] = p.coord(p.get(&b))
	}
	return x
}

// halton returns point i (from 1) of the Halton sequence in dim
// dimensions, in (0, 1).
func halton(i, dim int) []float64 {
	primes := []int{2, 3, 5, 7, 11}
	out := make([]float64, dim)
	for d := range out {
		f, r, n := 1.0, 0.0, i
		for n > 0 {
			f /= float64(primes[d])
			r += f * float64(n%primes[d])
			n /= primes[d]
		}
		out[d] = r
	}
	return out
}
