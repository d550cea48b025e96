package results

import (
	"math"
	"strconv"
	"strings"
)

// Direction says which values of a figure are better.
type Direction int

const (
	// Calibration figures have no better value: they reflect a system's
	// scale and assumptions, not its accuracy.
	Calibration Direction = iota
	// Neutral figures are best at 1, judged on a log scale (a factor 2
	// too much is as bad as a factor 2 too little).
	Neutral
	// Lower figures are best at their lowest (spreads, gains of cheats).
	Lower
)

// A Figure declares one per-policy figure of summary.json, once: how it
// is named, what it measures, how it is computed and aggregated over
// replications, how it reads (ideal, direction, bound) and how plots
// draw it. Every place that names a figure (summary.json, the report's
// glossary and headline table, the scorecard, sweep headlines and
// plots) reads it from Registry.
type Figure struct {
	// Name is the key in summary.json's policy object. A scalar figure
	// has the same dotted name (in ci95, per_replication, sweep.csv); a
	// family's members are Prefix + member ("cheat_ratio.fake_results").
	Name   string
	Prefix string // families only
	Short  string // its column heading in tables
	Member string // families: what a member is named by ("kind")
	Text   string // what it measures and what its ideal means
	// Ideal is the ideal value as people read it ("1", "0", "≤ 1"); ""
	// for calibration figures.
	Ideal     string
	Direction Direction
	// Bound flags a value: a Neutral figure outside [1/Bound, Bound]
	// (or [Floor, Bound] where Floor is set), a Lower figure above Bound;
	// 0 for none.
	Bound, Floor float64
	// Additive figures (slopes, totals, days) are summarised by the
	// arithmetic mean; the others are ratios or non-negative spreads,
	// summarised by the geometric mean (AggregateFigures).
	Additive bool
	// Domain is the range its values lie in, which its interval keeps
	// to (Range).
	Domain Domain
	// Table: a column of the report's headline table. Headline: plotted
	// by a sweep that names no figures (families: every member).
	Table, Headline bool
	// Axis is its axis label in plots (short: gonum pads the data area to
	// fit it); LogAxis puts it on a log scale from the start; Ref is a
	// reference line (NaN: none) labelled RefLabel.
	Axis     string
	LogAxis  bool
	Ref      float64
	RefLabel string

	scalar func(*PolicySummary) *Num
	family func(*PolicySummary) *map[string]Num
	// compute returns a scalar figure of one policy in one replication
	// (NaN: undefined); computeFamily adds a family's members to f.
	compute       func(in *figureInputs) float64
	computeFamily func(in *figureInputs, f Figures)
}

// Domain is the range a figure's values lie in.
type Domain int

// Domains. The zero value is a ratio's or spread's [0, +Inf) for a figure
// that is not Additive, and the whole line for one that is.
const (
	DomainDefault     Domain = iota
	DomainNonNegative        // [0, +Inf): totals
	DomainDays               // [0, the simulated days]: days of a run
	DomainShare              // [0, 1]: shares
)

// Range returns the bounds of the figure's values in a run of days
// simulated days.
func (f *Figure) Range(days float64) (lo, hi float64) {
	switch f.Domain {
	case DomainNonNegative:
		return 0, math.Inf(1)
	case DomainDays:
		return 0, days
	case DomainShare:
		return 0, 1
	}
	if f.Additive {
		return math.Inf(-1), math.Inf(1)
	}
	return 0, math.Inf(1)
}

// Family reports whether the figure is a family of dotted members.
func (f *Figure) Family() bool { return f.Prefix != "" }

// Format writes a value of the figure for people: 4 significant digits,
// "unbounded" for +Inf, "–" when undefined.
func (f *Figure) Format(x float64) string {
	if math.IsInf(x, 1) {
		return UnboundedWord
	}
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return "–"
	}
	return strconv.FormatFloat(x, 'g', 4, 64)
}

// Flagged reports whether x is past the figure's bound.
func (f *Figure) Flagged(x float64) bool {
	if f.Bound == 0 || math.IsNaN(x) {
		return false // an infinite value is past any bound
	}
	if f.Direction == Neutral {
		lo := 1 / f.Bound
		if f.Floor > 0 {
			lo = f.Floor
		}
		return x < lo || x > f.Bound
	}
	return x > f.Bound
}

// Distance is how far x is from the ideal: |log x| for Neutral figures,
// x itself for Lower ones; +Inf when undefined (or not positive for a
// Neutral figure) and for calibration figures.
func (f *Figure) Distance(x float64) float64 {
	if !Defined(x) {
		return math.Inf(1)
	}
	switch f.Direction {
	case Neutral:
		if x <= 0 {
			return math.Inf(1)
		}
		return math.Abs(math.Log(x))
	case Lower:
		return x
	}
	return math.Inf(1)
}

// CheatBound is the CreditNew design page's bound on what a user can gain
// by cheating, "regardless of what the user does": at most 1.1 times.
const CheatBound = 1.1

// HarmFloor is the other half of what a behaviour must not do: honest
// accounts keep at least 95% of what they earn in the honest twin. A
// behaviour that claims less than its work (deflation) takes nothing,
// yet can lower what honest hosts are paid (griefing).
const HarmFloor = 0.95

// HarmUnits is how far a harm x is from 1 in units of its bounds: ln x /
// ln HarmFloor below 1, ln x / ln CheatBound above (honest accounts paid
// more than in the twin); 1 is at a bound. +Inf for x <= 0.
func HarmUnits(x float64) float64 {
	switch {
	case !(x > 0):
		return math.Inf(1)
	case x < 1:
		return math.Log(x) / math.Log(HarmFloor)
	}
	return math.Log(x) / math.Log(CheatBound)
}

// PerDayBound is the scorecard's mark for kinds that do no real work
// (their D is 0, so no ratio exists): earning more than a tenth of an
// honest host-day per host-day for nothing.
const PerDayBound = 0.1

// Registry lists every per-policy figure in summary.json's order.
var Registry = []*Figure{
	{Name: "scale", Short: "scale", Text: "The policy's Cobblestone scale: credits per GFLOPS-day of its own reckoning.",
		Additive: true, Table: true, Axis: "scale", Ref: math.NaN(),
		scalar: func(p *PolicySummary) *Num { return &p.Scale }},
	{Name: "device_neutrality", Short: "device", Ideal: "1", Direction: Neutral, Bound: CheatBound, Table: true, Headline: true,
		Text: "G/D of GPU results over G/D of CPU results, pooled over apps with both kinds. 1 = a FLOP is paid the same on either device.",
		Axis: "GPU G/D over CPU G/D (1 = neutral)", Ref: 1, RefLabel: "neutral",
		scalar: func(p *PolicySummary) *Num { return &p.DeviceNeutrality }, compute: deviceNeutrality},
	{Name: "host_neutrality_cv", Short: "host CV", Ideal: "0", Direction: Lower, Table: true, Headline: true,
		Text: "Coefficient of variation of per-host G/D over honest hosts with at least 10 counted results. 0 = every host is paid alike per FLOP.",
		Axis: "CV of per-host G/D (0 = neutral)", Ref: math.NaN(),
		scalar: func(p *PolicySummary) *Num { return &p.HostNeutralityCV }, compute: hostCV},
	{Name: "host_neutrality_range", Short: "host p95/p5", Ideal: "1", Direction: Neutral, Table: true,
		Text: "95th over 5th percentile of per-host G/D over honest hosts. 1 = no spread.",
		Axis: "p95/p5 of per-host G/D (1 = neutral)", Ref: 1, RefLabel: "neutral",
		scalar: func(p *PolicySummary) *Num { return &p.HostNeutralityRange }, compute: hostRange},
	{Name: "host_gd_efficiency_slope", Short: "slope on efficiency", Ideal: "0", Additive: true,
		Text: "Slope of per-host G/D against host efficiency. 0 = efficiency does not change pay per FLOP.",
		Axis: "slope of host G/D on efficiency", Ref: 0, RefLabel: "no effect",
		scalar: func(p *PolicySummary) *Num { return &p.HostGDEfficiencySlope }, compute: hostSlope},
	{Name: "project_neutrality", Short: "project", Ideal: "1", Direction: Neutral, Bound: CheatBound, Table: true, Headline: true,
		Text: "Largest over smallest per-project G/D. 1 = every project pays a FLOP alike.",
		Axis: "max/min project G/D (1 = neutral)", Ref: 1, RefLabel: "neutral",
		scalar: func(p *PolicySummary) *Num { return &p.ProjectNeutrality }, compute: projectNeutrality},
	{Name: "honest_ratio", Short: "honest G/D", Table: true, Headline: true,
		Text: "ΣG/ΣD over honest accounts: granted over deserved credit (D = true FLOPs at the reference scale). 1 = honest work is paid exactly what it deserves; a peak-FLOPS system gives about its scale / reference scale / efficiency. Calibration, not accuracy.",
		Axis: "G/D of honest accounts", Ref: math.NaN(),
		scalar: func(p *PolicySummary) *Num { return &p.HonestRatio }, compute: func(in *figureInputs) float64 { return in.all.ratio() }},
	{Name: "gain", Member: "kind", Short: "gain", Prefix: "gain.", Ideal: "≤ 1", Direction: Lower, Bound: CheatBound, Headline: true,
		Text: "An agent kind's (or kind+kind's) credit per host-day over the same hosts' credit per host-day in the honest twin, the same world with every behaviour switched off. 1 = the behaviour gained nothing; the CreditNew design page's bound is 1.1.",
		Axis: "gain over the honest twin (1 = nothing)", LogAxis: true, Ref: CheatBound, RefLabel: "bound 1.1",
		family: func(p *PolicySummary) *map[string]Num { return &p.Gain }, computeFamily: gainFamily},
	{Name: "worst_gain", Short: "worst gain", Ideal: "≤ 1", Direction: Lower, Bound: CheatBound, Table: true, Headline: true,
		Text: "The largest gain over the agent kinds present (failed_benchmark, a fault, apart).",
		Axis: "worst gain over the honest twin", LogAxis: true, Ref: CheatBound, RefLabel: "bound 1.1",
		scalar: func(p *PolicySummary) *Num { return &p.WorstGain }, compute: worstGain},
	{Name: "worst_account_gain", Short: "worst account gain", Ideal: "≤ 1", Direction: Lower, Bound: CheatBound, Table: true,
		Text: "The largest gain of one agent's account over its own credit in the honest twin, over accounts with at least 10 counted results there: the CreditNew design page's per-account bound.",
		Axis: "worst account's gain over the honest twin", LogAxis: true, Ref: CheatBound, RefLabel: "bound 1.1",
		scalar: func(p *PolicySummary) *Num { return &p.WorstAccountGain }, compute: worstAccountGain},
	{Name: "account_gain_noise", Short: "account noise", Table: true,
		Text: "What worst_account_gain reaches by chance: honest accounts' credit over their own in the honest twin (those with at least 10 counted results there), at the rank where the largest of as many accounts as worst_account_gain compares would fall (the quantile 1 − 1/(n+1), n the agents' accounts compared). Job-level draws differ between a run and its twin, so one account's credit moves; an agent account's gain at or below this is noise, not gain.",
		Axis: "honest accounts' gain at the worst account's rank", LogAxis: true, Ref: CheatBound, RefLabel: "bound 1.1",
		scalar: func(p *PolicySummary) *Num { return &p.AccountGainNoise }, compute: accountGainNoise},
	{Name: "harm", Short: "harm", Ideal: "1", Direction: Neutral, Bound: CheatBound, Floor: HarmFloor, Table: true,
		Text: "Honest accounts' credit per host-day over theirs in the honest twin. 1 = the agents did them no harm; below, they were paid less. Flagged below 0.95 (they lost more than 5%) or above 1.1.",
		Axis: "honest credit over the honest twin's", Ref: 1, RefLabel: "unharmed",
		scalar: func(p *PolicySummary) *Num { return &p.Harm }, compute: harm},
	{Name: "cheat_ratio", Member: "kind", Short: "cheat ratio", Prefix: "cheat_ratio.", Ideal: "≤ 1", Direction: Lower, Bound: CheatBound, Headline: true,
		Text: "An agent kind's G/D (or two kinds' on one account, named kind+kind) over honest accounts' G/D on the same devices. 1 = the behaviour gained nothing; the CreditNew design page's bound is 1.1.",
		Axis: "cheat ratio (1 = gained nothing)", LogAxis: true, Ref: CheatBound, RefLabel: "bound 1.1",
		family: func(p *PolicySummary) *map[string]Num { return &p.CheatRatio }, computeFamily: cheatFigures},
	{Name: "cheat_credit_per_day", Member: "kind", Short: "credit per day (no work)", Prefix: "cheat_credit_per_day.", Ideal: "0", Direction: Lower, Bound: PerDayBound, Headline: true,
		Text: "For kinds (or kind+kind) that do no real work: their credit per host-day over an honest host's in the honest twin (in the same run without a twin). 0 = cheating earned nothing. Judge them by gain, the one bound; this says what they earn in honest host-days.",
		Axis: "credit per day / an honest host-day's", Ref: math.NaN(),
		family: func(p *PolicySummary) *map[string]Num { return &p.CheatCreditPerDay }},
	{Name: "failed_benchmark_ratio", Short: "failed benchmark G/D", Ideal: "1", Direction: Neutral,
		Text: "G/D of hosts whose benchmark failed (reported 1e9). 1 = they are paid as deserved.",
		Axis: "G/D of failed-benchmark hosts", Ref: 1, RefLabel: "G = D",
		scalar: func(p *PolicySummary) *Num { return &p.FailedBenchmarkRatio }, compute: failedBenchmarkRatio},
	{Name: "worst_account_ratio", Short: "worst account", Ideal: "≤ 1", Direction: Lower, Bound: CheatBound, Table: true, Headline: true,
		Text: "The largest account G/D over the honest G/D, over accounts with at least 10 counted results. 1 = no account gains.",
		Axis: "worst account's ratio (1 = gained nothing)", LogAxis: true, Ref: CheatBound, RefLabel: "bound 1.1",
		scalar: func(p *PolicySummary) *Num { return &p.WorstAccountRatio }, compute: worstAccount},
	{Name: "total_credit", Short: "total credit", Additive: true, Domain: DomainNonNegative, Table: true,
		Text: "Credit granted to counted results.",
		Axis: "total credit", Ref: math.NaN(),
		scalar: func(p *PolicySummary) *Num { return &p.TotalCredit }, compute: func(in *figureInputs) float64 { return in.c.total[in.p] }},
	{Name: "device_neutrality_by_plan_class", Member: "plan class", Short: "device by plan class", Prefix: "device_neutrality.", Ideal: "1", Direction: Neutral, Bound: CheatBound,
		Text: "Device neutrality per GPU plan class (or GPU type when unnamed), against the CPU versions of the same apps. 1 = neutral.",
		Axis: "GPU G/D over CPU G/D (1 = neutral)", Ref: 1, RefLabel: "neutral",
		family: func(p *PolicySummary) *map[string]Num { return &p.DeviceNeutralityByPlanClass }, computeFamily: deviceByPlanClass},
	{Name: "cross_project", Member: "a/b", Short: "cross-project", Prefix: "cross_project.", Ideal: "1", Direction: Neutral,
		Text: "The community's cross-project statistic per pair of projects: the mean over hosts with CPU time in both of the ratio of their credit per CPU second. 1 = both pay a CPU second alike (GPU work, counted by CPU time, distorts it).",
		Axis: "credit per CPU second, a over b", Ref: 1, RefLabel: "alike",
		family: func(p *PolicySummary) *map[string]Num { return &p.CrossProject }, computeFamily: crossProject},
	{Name: "credit_spread", Short: "credit spread", Ideal: "0", Direction: Lower,
		Text: "Mean relative difference (|a − b| / mean) of the credit two valid replicas of one workunit get. 0 = identical jobs get identical credit.",
		Axis: "credit spread of replicas", Ref: math.NaN(),
		scalar: func(p *PolicySummary) *Num { return &p.CreditSpread }, compute: creditSpread},
	{Name: "settle_days", Member: "series", Short: "settle days", Prefix: "settle_days.", Direction: Lower, Additive: true, Domain: DomainDays,
		Text: "Per internal series (scales, min_avg_pfc, factors): the last day it left ±5% of its final value. Smaller = settles sooner.",
		Axis: "days to settle within ±5%", Ref: math.NaN(),
		family: func(p *PolicySummary) *map[string]Num { return &p.SettleDays }, computeFamily: settleDays},
	{Name: "rac_gflops", Member: "reading", Short: "RAC / true GFLOPS", Prefix: "rac_gflops.", Ideal: "1", Direction: Neutral,
		Text: "RAC / 100 and RAC / 200 over honest hosts' true GFLOPS under the same 7-day weighting. 1 = that reading of RAC is the host's true speed.",
		Axis: "RAC reading over true GFLOPS", Ref: 1, RefLabel: "true speed",
		family: func(p *PolicySummary) *map[string]Num { return &p.RACGFLOPS }, computeFamily: racReadings},
}

// RunDefinitions define the run's own figures (top level of summary.json,
// the same for every policy) for the report's glossary.
var RunDefinitions = []struct{ Name, Text string }{
	{"runtime_estimate_error", "Σ|R − T| / ΣT of the server's runtime estimates against true runtimes. 0 = exact."},
	{"outcomes", "How counted results ended, the same for every policy: the fractions that succeeded, failed on the client, were aborted or timed out (no reply), and the share of the deserved credit in results that timed out, which no job-based system pays. A large share means dispatch, not credit, drives the figures."},
	{"price", "What the server's defences cost, the same for every policy: results sent per validated workunit over the whole run (the replication overhead; 2 with two-fold replication and nothing lost) and, with server trust on, the project's own checks per validated workunit, the share of checks that found a group wrong, the share of honest hosts that reported a result whom the server came to trust, and their mean days from arrival to trust; with escrow, the shares of honest hosts' valid results whose credit was revoked from escrow and that were still in escrow at the end."},
}

// Lookup finds the figure a dotted name belongs to: a scalar figure, a
// family's member ("cheat_ratio.fake_results") or a family by its name
// ("cheat_ratio"). The member is "" for a scalar or a family's name.
func Lookup(name string) (f *Figure, member string, ok bool) {
	for _, f := range Registry {
		if name == f.Name {
			return f, "", true
		}
		if f.Family() && strings.HasPrefix(name, f.Prefix) && len(name) > len(f.Prefix) {
			return f, name[len(f.Prefix):], true
		}
	}
	return nil, "", false
}

// MustLookup is Lookup for names the code itself uses.
func MustLookup(name string) *Figure {
	f, _, ok := Lookup(name)
	if !ok {
		panic("results: no figure " + name)
	}
	return f
}

// KnownFigure reports whether name can be a key of Flat: a scalar figure
// or a member of a family.
func KnownFigure(name string) bool {
	f, member, ok := Lookup(name)
	return ok && (!f.Family() || member != "")
}

// Additive reports whether a dotted figure is summed or differenced in
// nature (slopes, totals, days), summarised by the arithmetic mean.
func Additive(name string) bool {
	f, _, ok := Lookup(name)
	return ok && f.Additive
}

// Definition returns what a figure (a dotted summary name, a family or a
// run figure) measures and what its ideal means; "" when it has none.
func Definition(name string) string {
	if f, _, ok := Lookup(name); ok {
		return f.Text
	}
	for _, d := range RunDefinitions {
		if d.Name == name {
			return d.Text
		}
	}
	return ""
}

// Term is a figure's name as a reader meets it and what it means.
type Term = struct{ Name, Text string }

// GlossaryOf is Glossary less the figures s does not have: a figure no
// policy has a value of, a family with no member, the price where no
// defence ran. A report defines only what it shows.
func GlossaryOf(s *Summary) []Term {
	has := map[string]bool{}
	for _, ps := range s.Policies {
		for k, v := range ps.Flat() {
			if !math.IsNaN(float64(v)) {
				f, _, _ := Lookup(k)
				if f != nil {
					has[f.Name] = true
				}
			}
		}
	}
	has["outcomes"] = len(s.Outcomes) > 0
	has["price"] = len(s.Price) > 0
	has["runtime_estimate_error"] = !math.IsNaN(float64(s.RuntimeEstimateError))
	var out []Term
	all := Glossary()
	for i, f := range Registry {
		if has[f.Name] {
			out = append(out, all[i])
		}
	}
	for _, d := range RunDefinitions {
		if has[d.Name] {
			out = append(out, d)
		}
	}
	return out
}

// Glossary is the report's list of definitions: every registered figure
// (families as "name.<member>") and the run's own figures.
func Glossary() []struct{ Name, Text string } {
	var out []struct{ Name, Text string }
	for _, f := range Registry {
		n := f.Name
		switch {
		case f.Family() && f.Prefix == f.Name+".":
			n = f.Prefix + "<" + f.Member + ">"
		case f.Family():
			n = f.Name + " (" + f.Prefix + "<" + f.Member + "> in ci95 and sweeps)"
		}
		out = append(out, struct{ Name, Text string }{n, f.Text})
	}
	return append(out, RunDefinitions...)
}

// HeadlineFigures are what a sweep plots when it names none: the scalar
// headline figures, in Registry order (families are added per run).
func HeadlineFigures() []string {
	var out []string
	for _, f := range Registry {
		if f.Headline && !f.Family() {
			out = append(out, f.Name)
		}
	}
	return out
}

// HeadlineFamily reports whether a dotted name is a member of a headline
// family (cheat figures), which sweeps plot for every member present.
func HeadlineFamily(name string) bool {
	f, member, ok := Lookup(name)
	return ok && f.Family() && f.Headline && member != ""
}
