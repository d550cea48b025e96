package results

import (
	"bytes"
	"encoding/json"
	"math"
	"slices"
	"sort"
	"strconv"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"
)

// Num is a float written with 12 significant digits; see package doc.
type Num float64

// UnboundedWord is how every output writes a figure that has no finite
// value although it is defined: a gain where the honest twin paid the
// group nothing and the run paid it something (+Inf in memory). It is
// never NaN or Inf in a file, and never left out as if undefined.
const UnboundedWord = "unbounded"

// MarshalJSON writes 12 significant digits, "unbounded" for +Inf, or
// null for NaN and -Inf.
func (x Num) MarshalJSON() ([]byte, error) {
	f := float64(x)
	if math.IsInf(f, 1) {
		return []byte(`"` + UnboundedWord + `"`), nil
	}
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return []byte("null"), nil
	}
	return []byte(FormatFloat(f)), nil
}

// FormatFloat writes f with 12 significant digits, as every output does;
// +Inf as UnboundedWord.
func FormatFloat(f float64) string {
	if f == 0 {
		return "0" // also folds -0
	}
	if math.IsInf(f, 1) {
		return UnboundedWord
	}
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return "" // undefined: an empty cell, never NaN or Inf in a file
	}
	return strconv.FormatFloat(f, 'g', 12, 64)
}

// Summary is summary.json (design section 8). Field names are stable.
type Summary struct {
	Tool                    string `json:"tool"`
	Scenario                string `json:"scenario"`
	ScenarioSHA256          string `json:"scenario_sha256"`
	Seed                    uint64 `json:"seed"`
	Replications            int    `json:"replications"`
	CobblestonePerGFLOPSDay Num    `json:"cobblestone_per_gflops_day"`
	SimulatedDays           Num    `json:"simulated_days"`
	WarmupDays              Num    `json:"warmup_days"`
	CountedFromDay          Num    `json:"counted_from_day"`
	CountedToDay            Num    `json:"counted_to_day"`
	Results                 int64  `json:"results"`
	CountedResults          int64  `json:"counted_results"`
	Events                  int64  `json:"events"`
	// RuntimeEstimateError is the server's runtime estimates' error,
	// Σ|R - T| / ΣT, averaged over replications (the same for every
	// policy: estimates are dispatch, not credit).
	RuntimeEstimateError Num `json:"runtime_estimate_error"`
	// Outcomes says how counted results ended, the same for every
	// policy: the fractions that ended in each outcome, and the share of
	// deserved credit in results that timed out (no_reply), which no
	// credit system pays; a large one means dispatch, not credit, drives
	// the figures. Means over replications.
	Outcomes map[string]Num `json:"outcomes"`
	// Warnings say why figures are missing or cannot be trusted: a world
	// that validated nothing, say.
	Warnings []string `json:"warnings,omitempty"`
	// Twin says whether each replication ran with its honest twin:
	// "ran", "none (no agents)" or "skipped (--no-twin)".
	Twin string `json:"twin"`
	// Regime holds the run's regime, the same for every policy (means
	// over replications): sent_share.<group>, validated_share.<group>,
	// agents_only_quorum_share, honest_invalid_share and, with a twin,
	// honest_invalid_share_twin.
	Regime map[string]Num `json:"regime"`
	// Price holds what the server's defences cost, the same for every
	// policy (means over replications): results_per_validated_workunit
	// (results sent over workunits validated, the whole run) and, with
	// server trust on, project_checks_per_validated_workunit (audits of
	// held results included), failed_check_share (checks that found a
	// group, or an audited result, wrong),
	// honest_trusted_share (honest hosts that reported a result and came
	// to be trusted) and honest_days_to_trust (their mean days from
	// arrival to trust); with escrow, honest_revoked_share and
	// honest_escrow_at_end_share (of honest hosts' valid results).
	Price map[string]Num `json:"price"`
	// PriceCI95 holds the 95% intervals over replications of Price's
	// figures, and of computed_per_validated_workunit (results sent plus
	// the project's own checks per validated workunit: the price
	// JobsPerValidatedWorkunit reads), where at least
	// MinIntervalReplications replications give one.
	PriceCI95 map[string][2]Num         `json:"price_ci95,omitempty"`
	Policies  map[string]*PolicySummary `json:"policies"`
}

// JobsPerValidatedWorkunit is the price a frontier puts against the worst
// gain: jobs computed per validated workunit, the results sent and the
// project's own checks (NaN without a price).
// JobsPerValidatedWorkunitCI95 is JobsPerValidatedWorkunit's 95%
// interval over replications (NaN, NaN where there is none).
func (s *Summary) JobsPerValidatedWorkunitCI95() (lo, hi float64) {
	if ci, ok := s.PriceCI95[ComputedPerValidated]; ok {
		return float64(ci[0]), float64(ci[1])
	}
	return math.NaN(), math.NaN()
}

// ComputedPerValidated names, in PriceCI95, the interval of results sent
// plus the project's own checks per validated workunit.
const ComputedPerValidated = "computed_per_validated_workunit"

func (s *Summary) JobsPerValidatedWorkunit() float64 {
	x, ok := s.Price["results_per_validated_workunit"]
	if !ok {
		return math.NaN()
	}
	cost := float64(x)
	if c, ok := s.Price["project_checks_per_validated_workunit"]; ok {
		cost += float64(c)
	}
	return cost
}

// PolicySummary holds one policy instance's figures, each the mean over
// replications (geometric for ratio figures; null where undefined), with
// 95% intervals in CI95.
type PolicySummary struct {
	Scale                 Num `json:"scale"`
	DeviceNeutrality      Num `json:"device_neutrality"`
	HostNeutralityCV      Num `json:"host_neutrality_cv"`
	HostNeutralityRange   Num `json:"host_neutrality_range"`
	HostGDEfficiencySlope Num `json:"host_gd_efficiency_slope"`
	ProjectNeutrality     Num `json:"project_neutrality"`
	HonestRatio           Num `json:"honest_ratio"`
	// Gain, WorstGain, WorstAccountGain, AccountGainNoise and Harm compare
	// the run with its honest twin (null without one).
	Gain                 map[string]Num `json:"gain"`
	WorstGain            Num            `json:"worst_gain"`
	WorstAccountGain     Num            `json:"worst_account_gain"`
	AccountGainNoise     Num            `json:"account_gain_noise"`
	Harm                 Num            `json:"harm"`
	CheatRatio           map[string]Num `json:"cheat_ratio"`
	CheatCreditPerDay    map[string]Num `json:"cheat_credit_per_day"`
	FailedBenchmarkRatio Num            `json:"failed_benchmark_ratio"`
	WorstAccountRatio    Num            `json:"worst_account_ratio"`
	TotalCredit          Num            `json:"total_credit"`
	// DeviceNeutralityByPlanClass is device neutrality per GPU plan class
	// (or GPU type when the class is unnamed).
	DeviceNeutralityByPlanClass map[string]Num `json:"device_neutrality_by_plan_class"`
	// CrossProject is the community's statistic per pair of projects
	// "a/b": the mean over hosts with results in both of the ratio of
	// their credit per CPU second.
	CrossProject map[string]Num `json:"cross_project"`
	// CreditSpread is the mean relative spread (max - min over mean) of
	// the credit granted to the valid replicas of one workunit.
	CreditSpread Num `json:"credit_spread"`
	// SettleDays is, per internal series (scales, factors), the last day
	// it left the band of ±5% around its final value.
	SettleDays map[string]Num `json:"settle_days"`
	// RACGFLOPS is, for readings "100" and "200", the mean over honest
	// hosts of RAC/reading against their true GFLOPS under the same
	// 7-day weighting (1 = RAC/reading reads true speed).
	RACGFLOPS map[string]Num `json:"rac_gflops"`
	// CI95 holds each figure's 95% interval over replications (geometric
	// for ratio figures, see AggregateFigures; none with fewer than
	// MinIntervalReplications), CI95LowCut and CI95HighCut the figures
	// whose arithmetic interval was cut to the figure's range, and
	// PerReplication each figure's value in each replication.
	// Requires is what a project must have for the policy to work ("the
	// app counts FLOPs"); Oracle, what of the model's truth it reads that
	// no behaviour can yet falsify, as a real project's input could be
	// (policy.Kind's fields of those names).
	Requires       string            `json:"requires,omitempty"`
	Oracle         string            `json:"oracle,omitempty"`
	CI95           map[string][2]Num `json:"ci95"`
	CI95LowCut     []string          `json:"ci95_low_cut,omitempty"`
	CI95HighCut    []string          `json:"ci95_high_cut,omitempty"`
	PerReplication map[string][]Num  `json:"per_replication"`
}

// Aggregate is a figure over replications.
type Aggregate struct {
	Mean    float64 // NaN if no replication defines it; +Inf if one is unbounded
	Low, Hi float64 // NaN with fewer than MinIntervalReplications values
	// N is how many replications gave a value (unbounded ones included),
	// Unbounded how many of them gave +Inf: then Mean and Hi are +Inf and
	// Low is the finite values' low end (NaN with fewer than
	// MinIntervalReplications of them).
	N, Unbounded int
	// Geometric: Mean and the interval were taken on the logarithms.
	// LowCut, HighCut: an arithmetic interval's bound was cut to the
	// figure's range (at 0; at the days simulated or at 1).
	Geometric, LowCut, HighCut bool
}

// MinIntervalReplications is the fewest replications a 95% interval is
// given from: from two values it rests on one degree of freedom (t =
// 12.7) and says next to nothing.
const MinIntervalReplications = 3

// AggregateFigures combines per-replication figures, as DESIGN section 10
// says, amended: a ratio figure (not Additive) whose values are all
// positive by the geometric mean with the interval exp(m ± t(0.975, n-1)
// s/√n) of the logarithms, which cannot go below 0; any other by the
// arithmetic mean ± t(0.975, n-1) s/√n, cut to the figure's range (its
// Range in a run of days simulated days) and marked where cut. No
// interval with fewer than MinIntervalReplications values; NaN and -Inf
// are not values, +Inf (an unbounded gain) makes the mean unbounded.
func AggregateFigures(reps []Figures, days float64) map[string]Aggregate {
	return aggregate(reps, func(k string) (bool, float64, float64) {
		f, _, ok := Lookup(k)
		if !ok {
			return true, 0, math.Inf(1)
		}
		lo, hi := f.Range(days)
		return !f.Additive, lo, hi
	})
}

// AggregateArithmetic combines per-replication figures by the arithmetic
// mean (fractions and errors that may be 0), with no range.
func AggregateArithmetic(reps []Figures) map[string]Aggregate {
	return aggregate(reps, func(string) (bool, float64, float64) { return false, math.Inf(-1), math.Inf(1) })
}

// aggregate combines each figure k of reps, a ratio or not and within
// [lo, hi] as kind(k) says.
func aggregate(reps []Figures, kind func(k string) (ratio bool, lo, hi float64)) map[string]Aggregate {
	keys := map[string]bool{}
	for _, f := range reps {
		for k := range f {
			keys[k] = true
		}
	}
	out := map[string]Aggregate{}
	for k := range keys {
		var v []float64
		for _, f := range reps {
			if x, ok := f[k]; ok && !math.IsNaN(x) && !math.IsInf(x, -1) {
				v = append(v, x)
			}
		}
		ratio, lo, hi := kind(k)
		out[k] = aggregateUnbounded(v, ratio, lo, hi)
	}
	return out
}

// aggregateUnbounded is aggregateValues over v's finite values, made
// unbounded (Mean and Hi +Inf) if any value is +Inf.
func aggregateUnbounded(v []float64, ratio bool, lo, hi float64) Aggregate {
	finite := slices.DeleteFunc(slices.Clone(v), func(x float64) bool { return math.IsInf(x, 1) })
	a := aggregateValues(finite, ratio, lo, hi)
	if len(finite) < len(v) {
		a.N, a.Unbounded = len(v), len(v)-len(finite)
		a.Mean, a.Hi, a.HighCut = math.Inf(1), math.Inf(1), false
	}
	return a
}

func aggregateValues(v []float64, ratio bool, lo, hi float64) Aggregate {
	a := Aggregate{Mean: math.NaN(), Low: math.NaN(), Hi: math.NaN(), N: len(v)}
	if len(v) == 0 {
		return a
	}
	positive := true
	for _, x := range v {
		positive = positive && x > 0
	}
	interval := len(v) >= MinIntervalReplications
	if ratio && positive {
		logs := make([]float64, len(v))
		for i, x := range v {
			logs[i] = math.Log(x)
		}
		m, h := meanHalfWidth(logs)
		a.Mean, a.Geometric = math.Exp(m), true
		if len(v) == 1 {
			a.Mean = v[0] // exactly, not exp(log x)
		}
		if interval {
			a.Low, a.Hi = math.Exp(m-h), math.Exp(m+h)
		}
		return a
	}
	m, h := meanHalfWidth(v)
	a.Mean = m
	if interval {
		a.Low, a.Hi = m-h, m+h
		if a.Low < lo {
			a.Low, a.LowCut = lo, true
		}
		if a.Hi > hi {
			a.Hi, a.HighCut = hi, true
		}
	}
	return a
}

// meanHalfWidth returns the mean and t(0.975, n-1) s/√n of v, computed
// on v scaled by its largest magnitude so that huge values do not
// overflow; the half-width is NaN for fewer than two values.
func meanHalfWidth(v []float64) (mean, half float64) {
	big := 0.0
	for _, x := range v {
		big = max(big, math.Abs(x))
	}
	if big == 0 {
		return 0, 0
	}
	w := make([]float64, len(v))
	for i, x := range v {
		w[i] = x / big
	}
	mean = stat.Mean(w, nil) * big
	if len(v) < 2 {
		return mean, math.NaN()
	}
	t := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(len(v) - 1)}.Quantile(0.975)
	return mean, t * stat.StdDev(w, nil) / math.Sqrt(float64(len(v))) * big
}

// NewPolicySummary fills a PolicySummary from each replication's figures
// in a run of days simulated days: aggregated as AggregateFigures does,
// and each replication's values.
func NewPolicySummary(scale, days float64, reps []Figures) *PolicySummary {
	agg := AggregateFigures(reps, days)
	ps := &PolicySummary{CI95: map[string][2]Num{}, PerReplication: map[string][]Num{}}
	for _, f := range Registry {
		switch {
		case f.Family():
			*f.family(ps) = map[string]Num{}
		case f.Name == "scale":
			ps.Scale = Num(scale)
		default:
			*f.scalar(ps) = Num(math.NaN())
		}
	}
	for k, a := range agg {
		f, member, ok := Lookup(k)
		switch {
		case !ok:
			continue
		case f.Family():
			(*f.family(ps))[member] = Num(a.Mean)
		default:
			*f.scalar(ps) = Num(a.Mean)
		}
		if !math.IsNaN(a.Low) {
			ps.CI95[k] = [2]Num{Num(a.Low), Num(a.Hi)}
			if a.LowCut {
				ps.CI95LowCut = append(ps.CI95LowCut, k)
			}
			if a.HighCut {
				ps.CI95HighCut = append(ps.CI95HighCut, k)
			}
		}
		per := make([]Num, len(reps))
		for r, f := range reps {
			per[r] = Num(math.NaN())
			if x, ok := f[k]; ok {
				per[r] = Num(x)
			}
		}
		ps.PerReplication[k] = per
	}
	sort.Strings(ps.CI95LowCut)
	sort.Strings(ps.CI95HighCut)
	return ps
}

// JSON encodes v with sorted keys and a trailing newline.
func JSON(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// SortedKeys returns m's keys in order.
func SortedKeys[V any](m map[string]V) []string {
	k := make([]string, 0, len(m))
	for x := range m {
		k = append(k, x)
	}
	sort.Strings(k)
	return k
}

// UnmarshalJSON reads a number, null as NaN (undefined) or "unbounded"
// as +Inf.
func (x *Num) UnmarshalJSON(b []byte) error {
	switch string(b) {
	case "null":
		*x = Num(math.NaN())
		return nil
	case `"` + UnboundedWord + `"`:
		*x = Num(math.Inf(1))
		return nil
	}
	f, err := strconv.ParseFloat(string(b), 64)
	if err != nil {
		return err
	}
	*x = Num(f)
	return nil
}

// Flat returns every figure of the policy under its dotted name, the
// names ci95 uses ("honest_ratio", "cheat_ratio.fake_results"); an
// undefined figure is NaN.
func (p *PolicySummary) Flat() map[string]Num {
	m := map[string]Num{}
	for _, f := range Registry {
		if !f.Family() {
			m[f.Name] = *f.scalar(p)
			continue
		}
		for k, v := range *f.family(p) {
			m[f.Prefix+k] = v
		}
	}
	return m
}
