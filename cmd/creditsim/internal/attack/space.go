package attack

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/creditsim/creditsim/boinc"
	"github.com/creditsim/creditsim/model/hosts"
	"github.com/creditsim/creditsim/scenarios"
)

// Behaviour is one candidate: an agent kind on a share of the accounts,
// with its parameters (those of the kind; the others are zero), and
// possibly a second kind the same accounts combine with it.
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
	// Report is the time a runtime inflator inflates ("cpu_time"; empty
	// for elapsed time).
	Report string `json:"report,omitempty"`
	// Every is how often a new_identity host registers anew, in seconds;
	// Results, instead, after how many results.
	Every   float64 `json:"every_seconds,omitempty"`
	Results int     `json:"results,omitempty"`
	// And is the second behaviour of the same accounts (its Share is
	// 0), or nil.
	And *Behaviour `json:"and,omitempty"`
	// With is a second group of accounts in the same run, with its own
	// share and behaviour, or nil: a coalition (identity churners beside
	// plain inflators), each group judged by its own gain. Its kinds
	// differ from the first group's, so that each group has its figure.
	With *Behaviour `json:"with,omitempty"`
}

// clone returns a copy of b that shares nothing with it.
func (b Behaviour) clone() Behaviour {
	if b.And != nil {
		and := *b.And
		b.And = &and
	}
	if b.With != nil {
		with := b.With.clone()
		b.With = &with
	}
	return b
}

// Agents returns the behaviour's groups of accounts as a scenario's
// agents (hosts.agents), in YAML flow form: one, or two for a coalition.
func (b Behaviour) Agents() []string {
	out := []string{b.Agent()}
	if b.With != nil {
		out = append(out, b.With.Agents()...)
	}
	return out
}

// Key names the behaviour exactly, every group and setting: two
// behaviours with one key make the same run.
func (b Behaviour) Key() string { return strings.Join(b.Agents(), ", ") }

// Figures are the figures that score the behaviour: each group's gain
// over the honest twin (Figure: one group, or two for a coalition).
func (b Behaviour) Figures() []string {
	out := []string{b.Figure()}
	if b.With != nil {
		out = append(out, b.With.Figures()...)
	}
	return out
}

// Name is the behaviour's kind, or both kinds joined by "+": the member
// of the figure family that scores it.
func (b Behaviour) Name() string {
	if b.And != nil {
		return b.Kind + "+" + b.And.Kind
	}
	return b.Kind
}

// Agent returns the behaviour's first group of accounts as a scenario's
// agent, in YAML flow form (for hosts.agents; Agents has every group).
func (b Behaviour) Agent() string {
	f := func(x float64) string { return strconv.FormatFloat(x, 'g', 17, 64) }
	parts := []string{"kind: " + b.Kind}
	if b.Share != 0 {
		parts = append(parts, "share: "+f(b.Share))
	}
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
	if b.Report != "" {
		parts = append(parts, "report: "+b.Report)
	}
	if b.Every != 0 {
		parts = append(parts, "every: "+f(b.Every)+"s")
	}
	if b.Results != 0 {
		parts = append(parts, "results: "+strconv.Itoa(b.Results))
	}
	if b.And != nil {
		parts = append(parts, "and: "+b.And.Agent())
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

// String is the behaviour in a few words, for logs and plots.
func (b Behaviour) String() string {
	s := fmt.Sprintf("%s on %.3g%% of accounts", b.Kind, 100*b.Share)
	s += b.params()
	if b.And != nil {
		s += ", and " + b.And.Kind + b.And.params()
	}
	if b.With != nil {
		s += "; beside them, " + b.With.String()
	}
	return s
}

// params is the kind's parameter in words.
func (b Behaviour) params() string {
	switch {
	case b.K != 0 && b.Report != "":
		return fmt.Sprintf(", k %.3g on %s", b.K, b.Report)
	case b.K != 0:
		return fmt.Sprintf(", k %.3g", b.K)
	case b.WorkFraction != 0:
		return fmt.Sprintf(", work fraction %.3g", b.WorkFraction)
	case b.Threshold != 0:
		return fmt.Sprintf(", threshold %.3g s", b.Threshold)
	case b.Channel != "":
		return fmt.Sprintf(", %.3g through %s", b.Claim, b.Channel)
	case b.Every != 0:
		return fmt.Sprintf(", a new identity every %.3g d", b.Every/86400)
	case b.Results != 0:
		return fmt.Sprintf(", a new identity every %d results", b.Results)
	}
	return ""
}

// Figure is the summary figure that scores the behaviour for a policy:
// its gain over the honest twin (the agents' credit per host-day over the
// same hosts' in the same world with every behaviour switched off), the
// one figure, with the one bound 1.1, for every kind.
func (b Behaviour) Figure() string { return "gain." + b.Name() }

// identityByCount is the variant of new_identity that registers anew
// after a count of results (results:), not every so often (every:).
const identityByCount = "results"

func fake(kind string) bool { return kind == "fake_results" || kind == "colluding_fakes" }

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
	v = min(max(v, p.lo), p.hi)
	s := math.Log(v/p.lo) / math.Log(p.hi/p.lo)
	s = min(max(s, 1e-6), 1-1e-6)
	return math.Log(s / (1 - s))
}

// Share bounds: at least a few accounts in a world of thousands, at most
// half of them. The reference stays the honest twin (the same hosts with
// every behaviour off), so a share past a third is still measured
// against honest work: it is where a median- or quartile-based
// normalisation gives way, which the search must be able to find.
var shareParam = param{"share", 0.002, 0.5, func(b *Behaviour, v float64) { b.Share = v }, func(b *Behaviour) float64 { return b.Share }}

var (
	kParam = param{"k", 1, 1000, func(b *Behaviour, v float64) { b.K = v }, func(b *Behaviour) float64 { return b.K }}
	// claimParam's k: an inflator's claim factor, from deflation (0.1 x
	// the benchmark, the times or the FLOP count: it gains nothing and
	// may lower what honest hosts are paid, judged by harm) to 1000 x.
	claimKParam = param{"k", 0.1, 1000, func(b *Behaviour, v float64) { b.K = v }, func(b *Behaviour) float64 { return b.K }}
	wfParam     = param{"work_fraction", 0.001, 1, func(b *Behaviour, v float64) { b.WorkFraction = v },
		func(b *Behaviour) float64 { return b.WorkFraction }}
	thresholdParam = param{"threshold", 1, 86400, func(b *Behaviour, v float64) { b.Threshold = v },
		func(b *Behaviour) float64 { return b.Threshold }}
	claimParam = param{"claim", 1e3, 1e304, func(b *Behaviour, v float64) { b.Claim = v }, func(b *Behaviour) float64 { return b.Claim }}
	everyParam = param{"every", 3600, 60 * 86400, func(b *Behaviour, v float64) { b.Every = v }, func(b *Behaviour) float64 { return b.Every }}
	// resultsParam: a new identity after this many results (whole ones).
	resultsParam = param{"results", 1, 1000, func(b *Behaviour, v float64) { b.Results = max(1, int(math.Round(v))) },
		func(b *Behaviour) float64 { return float64(b.Results) }}
)

// kindSpace is one categorical choice (a kind, and for one-time claims a
// channel) with its continuous parameters.
type kindSpace struct {
	name    string // kind, or kind/channel (kind/report for runtime_inflation)
	start   Behaviour
	params  []param
	channel string // a one-time claim's channel, or a runtime inflator's report
}

// kindStart is the space of kind and variant ch with its defaults: the
// kind's parameter, started where the kind is likely to gain.
func kindStart(kind, ch string, claimAt float64) (kindSpace, Behaviour) {
	ks := kindSpace{name: kind, channel: ch, params: []param{shareParam}}
	b := Behaviour{Kind: kind, Share: 0.02}
	switch kind {
	case "benchmark_inflation", "runtime_inflation", "count_inflation":
		b.K = 3
		ks.params = append(ks.params, claimKParam)
		if ch != "" {
			ks.name, b.Report = kind+"/"+ch, ch
		}
	case "idle_vm", "ncpus_inflation", "forged_output":
		b.K = map[string]float64{"idle_vm": 10, "ncpus_inflation": 4, "forged_output": 10}[kind]
		ks.params = append(ks.params, kParam)
	case "new_identity":
		if ch == identityByCount {
			ks.name, b.Results = kind+"/"+ch, 8
			ks.params = append(ks.params, resultsParam)
			break
		}
		b.Every = 5 * 86400
		ks.params = append(ks.params, everyParam)
	case "fake_results", "colluding_fakes", "sleeper":
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
	return ks, b
}

// spaces returns the search space: every agent kind but
// failed_benchmark, one-time claims per channel, runtime inflation of
// elapsed and of CPU time (which BOINC's scheduler raises elapsed time
// to on a sequential version), each starting from the
// scenario's own agent of that kind where it has one (the library's fixed
// agent), else from the kind's defaults; and the scenario's own combined
// agents, each in its pair's space.
// claimAt is when one-time claims are made (after the warm-up).
func spaces(own []hosts.AgentConfig, claimAt float64) []kindSpace {
	ownOf := func(kind, channel string) (hosts.AgentConfig, bool) {
		for _, a := range own {
			if a.Kind == kind && variant(a) == channel {
				return a, true
			}
		}
		return hosts.AgentConfig{}, false
	}
	var out []kindSpace
	for _, kind := range hosts.KindNames() {
		if kind == "failed_benchmark" {
			continue // a fault, scored apart (failed_benchmark_ratio): no cheat figure
		}
		channels := []string{""}
		switch kind {
		case "one_time_claim":
			channels = hosts.OneTimeChannels
		case "runtime_inflation":
			channels = []string{"", hosts.ReportCPUTime}
		case "new_identity":
			channels = []string{"", identityByCount}
		}
		for _, ch := range channels {
			ks, b := kindStart(kind, ch, claimAt)
			if a, ok := ownOf(kind, ch); ok {
				setOwn(&b, a)
			}
			ks.start = b
			out = append(out, ks)
		}
	}
	// The scenario's own combined agents, each as its pair's space.
	for _, a := range own {
		if a.And == nil {
			continue
		}
		first, second := spaceOf(out, a.Kind, variant(a)), spaceOf(out, a.And.Kind, variant(*a.And))
		if first == nil || second == nil || !first.pairs(second) {
			continue
		}
		startA, startB := first.start, second.start
		setOwn(&startA, a)
		setOwn(&startB, *a.And)
		startA.Share = a.Share
		out = append(out, pair(first, second, startA, startB))
	}
	return out
}

// variant is an agent's channel (one-time claims) or the time it
// inflates (runtime inflation: "" for elapsed time).
func variant(a hosts.AgentConfig) string {
	if a.Kind == "new_identity" && a.Results != 0 {
		return identityByCount
	}
	if a.Report == hosts.ReportElapsed {
		return ""
	}
	return a.Channel + a.Report
}

// spaceOf returns the space of kind and variant (a one-time claim's
// channel, a runtime inflator's time).
func spaceOf(sp []kindSpace, kind, channel string) *kindSpace {
	for i := range sp {
		if sp[i].start.Kind == kind && sp[i].start.And == nil && sp[i].channel == channel {
			return &sp[i]
		}
	}
	return nil
}

// setOwn sets b's parameter (and share) from a scenario's agent of its kind.
func setOwn(b *Behaviour, a hosts.AgentConfig) {
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
	case b.Every != 0:
		b.Every = float64(a.Every)
	case b.Results != 0:
		b.Results = a.Results
	}
}

// behaviour maps search coordinates to a behaviour of the space.
func (ks *kindSpace) behaviour(x []float64) Behaviour {
	b := ks.start.clone()
	for i, p := range ks.params {
		p.set(&b, p.value(x[i]))
	}
	return b
}

// coords maps a behaviour of the space to search coordinates.
func (ks *kindSpace) coords(b Behaviour) []float64 {
	x := make([]float64, len(ks.params))
	for i, p := range ks.params {
		x[i] = p.coord(p.get(&b))
	}
	return x
}

// pairs says whether two spaces' kinds can combine on one account: two
// kinds, not both returning garbage.
func (ks *kindSpace) pairs(o *kindSpace) bool {
	return ks.start.Kind != o.start.Kind && !(fake(ks.start.Kind) && fake(o.start.Kind)) &&
		ks.start.And == nil && o.start.And == nil
}

// pair returns the space of a's kind combined with b's on the same
// accounts, starting from a and b (a's share): the share, then a's
// parameters, then b's (set on the second behaviour).
func pair(a, b *kindSpace, startA, startB Behaviour) kindSpace {
	start := startA.clone()
	second := startB.clone()
	second.Share, second.And = 0, nil
	start.And = &second
	ps := append([]param(nil), a.params...)
	for _, p := range withoutShare(b.params) { // the accounts' share is a's
		ps = append(ps, p.onSecond())
	}
	return kindSpace{name: a.name + "+" + b.name, start: start, params: ps}
}

// coalition returns the space of a's behaviour on one group of accounts
// beside b's on another, in one run, starting from a and b (each at its
// own share): a's parameters, then b's (set on With). Each group keeps
// its figure; the coalition is scored by the worse of them.
func coalition(a, b *kindSpace, startA, startB Behaviour) kindSpace {
	start := startA.clone()
	with := startB.clone()
	with.With = nil
	start.With = &with
	ps := append([]param(nil), a.params...)
	for _, p := range b.params {
		ps = append(ps, p.onWith())
	}
	return kindSpace{name: a.name + coalitionSep + b.name, start: start, params: ps}
}

// coalitionSep joins the spaces of a coalition's two groups in its name.
const coalitionSep = " with "

// coalesces says whether two spaces' behaviours can be a coalition:
// different kinds in each group (each group has its own figure), and
// neither one already a coalition.
func (ks *kindSpace) coalesces(o *kindSpace) bool {
	kinds := func(b Behaviour) []string {
		k := []string{b.Kind}
		if b.And != nil {
			k = append(k, b.And.Kind)
		}
		return k
	}
	for _, x := range kinds(ks.start) {
		if slices.Contains(kinds(o.start), x) {
			return false
		}
	}
	return ks.start.With == nil && o.start.With == nil
}

// withoutShare is ps less the share of accounts.
func withoutShare(ps []param) []param {
	var out []param
	for _, p := range ps {
		if p.name != shareParam.name {
			out = append(out, p)
		}
	}
	return out
}

// pinShare fixes every space's share of accounts at share: it is no
// longer searched (a share scan searches the rest at each share).
func pinShare(sp []kindSpace, share float64) {
	for i := range sp {
		sp[i].params = withoutShare(sp[i].params)
		sp[i].start.Share = share
	}
}

// onSecond is p applied to the second behaviour of a combined one.
func (p param) onSecond() param {
	set, get := p.set, p.get
	return param{name: "and." + p.name, lo: p.lo, hi: p.hi,
		set: func(b *Behaviour, v float64) { set(b.And, v) },
		get: func(b *Behaviour) float64 { return get(b.And) }}
}

// onWith is p applied to a coalition's second group.
func (p param) onWith() param {
	set, get := p.set, p.get
	return param{name: "with." + p.name, lo: p.lo, hi: p.hi,
		set: func(b *Behaviour, v float64) { set(b.With, v) },
		get: func(b *Behaviour) float64 { return get(b.With) }}
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

// inert returns, for a space whose behaviour the scenario's world makes
// the same as honest work, why (else ""): a FLOP count matters only to an
// app that counts, a GPU peak claimed with one job only to a GPU
// version, which needs hosts with GPUs. (A CPU count is never inert:
// runtime accounting bounds a call by the CPUs reported.) A kind the
// scenario's own agents use is always searched: it is a library
// candidate.
func inert(ks *kindSpace, s *scenarios.Scenario) string {
	for _, a := range s.Hosts.Agents {
		if a.Kind == ks.start.Kind || a.And != nil && a.And.Kind == ks.start.Kind {
			return ""
		}
	}
	var counts, gpu bool
	for _, p := range s.Projects {
		for _, app := range p.Apps {
			for _, v := range app.Versions {
				counts = counts || v.CountsFlops
				r, _ := boinc.ParseResource(v.Resource)
				gpu = gpu || r.IsGPU()
			}
		}
	}
	switch {
	case (ks.start.Kind == "count_inflation" || ks.channel == "flop_count") && !counts:
		return "no app counts its FLOPs"
	case ks.channel == "gpu_peak" && !(gpu && s.Hosts.GPU.Share > 0):
		return "no GPU version runs on a GPU host"
	}
	return ""
}
