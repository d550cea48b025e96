package results

import (
	"bytes"
	"encoding/json"
	"math"
	"sort"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"
)

// Num is a float written with 12 significant digits; see package doc.
type Num float64

// MarshalJSON writes 12 significant digits, or null for NaN and Inf.
func (x Num) MarshalJSON() ([]byte, error) {
	f := float64(x)
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return []byte("null"), nil
	}
	return []byte(FormatFloat(f)), nil
}

// FormatFloat writes f with 12 significant digits, as every output does.
func FormatFloat(f float64) string {
	if f == 0 {
		return "0" // also folds -0
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
	Outcomes map[string]Num            `json:"outcomes"`
	Policies map[string]*PolicySummary `json:"policies"`
}

// PolicySummary holds one policy instance's figures, each the mean over
// replications (null where undefined), with 95% intervals in CI95.
type PolicySummary struct {
	Scale                 Num            `json:"scale"`
	DeviceNeutrality      Num            `json:"device_neutrality"`
	HostNeutralityCV      Num            `json:"host_neutrality_cv"`
	HostNeutralityRange   Num            `json:"host_neutrality_range"`
	HostGDEfficiencySlope Num            `json:"host_gd_efficiency_slope"`
	ProjectNeutrality     Num            `json:"project_neutrality"`
	HonestRatio           Num            `json:"honest_ratio"`
	CheatRatio            map[string]Num `json:"cheat_ratio"`
	CheatCreditPerDay     map[string]Num `json:"cheat_credit_per_day"`
	FailedBenchmarkRatio  Num            `json:"failed_benchmark_ratio"`
	WorstAccountRatio     Num            `json:"worst_account_ratio"`
	TotalCredit           Num            `json:"total_credit"`
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
	RACGFLOPS map[string]Num    `json:"rac_gflops"`
	CI95      map[string][2]Num `json:"ci95"`
}

// Aggregate is a figure over replications.
type Aggregate struct {
	Mean    float64 // NaN if no replication defines it
	Low, Hi float64 // NaN with fewer than two values
	N       int
}

// AggregateFigures combines per-replication figures: the mean of the
// defined values, and mean ± t(0.975, n-1) s/√n.
func AggregateFigures(reps []Figures) map[string]Aggregate {
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
			if x, ok := f[k]; ok && !math.IsNaN(x) && !math.IsInf(x, 0) {
				v = append(v, x)
			}
		}
		a := Aggregate{Mean: math.NaN(), Low: math.NaN(), Hi: math.NaN(), N: len(v)}
		if len(v) > 0 {
			a.Mean = stat.Mean(v, nil)
		}
		if len(v) >= 2 {
			t := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(len(v) - 1)}.Quantile(0.975)
			h := t * stat.StdDev(v, nil) / math.Sqrt(float64(len(v)))
			a.Low, a.Hi = a.Mean-h, a.Mean+h
		}
		out[k] = a
	}
	return out
}

// NewPolicySummary fills a PolicySummary from aggregated figures.
func NewPolicySummary(scale float64, agg map[string]Aggregate) *PolicySummary {
	get := func(k string) Num {
		if a, ok := agg[k]; ok {
			return Num(a.Mean)
		}
		return Num(math.NaN())
	}
	ps := &PolicySummary{
		Scale:                       Num(scale),
		DeviceNeutrality:            get("device_neutrality"),
		HostNeutralityCV:            get("host_neutrality_cv"),
		HostNeutralityRange:         get("host_neutrality_range"),
		HostGDEfficiencySlope:       get("host_gd_efficiency_slope"),
		ProjectNeutrality:           get("project_neutrality"),
		HonestRatio:                 get("honest_ratio"),
		FailedBenchmarkRatio:        get("failed_benchmark_ratio"),
		WorstAccountRatio:           get("worst_account_ratio"),
		TotalCredit:                 get("total_credit"),
		CheatRatio:                  map[string]Num{},
		CheatCreditPerDay:           map[string]Num{},
		CI95:                        map[string][2]Num{},
		CreditSpread:                get("credit_spread"),
		DeviceNeutralityByPlanClass: map[string]Num{},
		CrossProject:                map[string]Num{},
		SettleDays:                  map[string]Num{},
		RACGFLOPS:                   map[string]Num{},
	}
	for k, a := range agg {
		if rest, ok := strings.CutPrefix(k, "cheat_ratio."); ok {
			ps.CheatRatio[rest] = Num(a.Mean)
		}
		if rest, ok := strings.CutPrefix(k, "cheat_credit_per_day."); ok {
			ps.CheatCreditPerDay[rest] = Num(a.Mean)
		}
		for prefix, m := range map[string]map[string]Num{"device_neutrality.": ps.DeviceNeutralityByPlanClass,
			"cross_project.": ps.CrossProject, "settle_days.": ps.SettleDays, "rac_gflops.": ps.RACGFLOPS} {
			if rest, ok := strings.CutPrefix(k, prefix); ok {
				m[rest] = Num(a.Mean)
			}
		}
		if !math.IsNaN(a.Low) {
			ps.CI95[k] = [2]Num{Num(a.Low), Num(a.Hi)}
		}
	}
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

// UnmarshalJSON reads a number, or null as NaN (undefined).
func (x *Num) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*x = Num(math.NaN())
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
	m := map[string]Num{
		"scale":                    p.Scale,
		"device_neutrality":        p.DeviceNeutrality,
		"host_neutrality_cv":       p.HostNeutralityCV,
		"host_neutrality_range":    p.HostNeutralityRange,
		"host_gd_efficiency_slope": p.HostGDEfficiencySlope,
		"project_neutrality":       p.ProjectNeutrality,
		"honest_ratio":             p.HonestRatio,
		"failed_benchmark_ratio":   p.FailedBenchmarkRatio,
		"worst_account_ratio":      p.WorstAccountRatio,
		"total_credit":             p.TotalCredit,
		"credit_spread":            p.CreditSpread,
	}
	for prefix, sub := range map[string]map[string]Num{"cheat_ratio.": p.CheatRatio, "cheat_credit_per_day.": p.CheatCreditPerDay,
		"device_neutrality.": p.DeviceNeutralityByPlanClass, "cross_project.": p.CrossProject,
		"settle_days.": p.SettleDays, "rac_gflops.": p.RACGFLOPS} {
		for k, v := range sub {
			m[prefix+k] = v
		}
	}
	return m
}

// figurePrefixes are the dotted families of Flat whose members depend on
// the run (agent kinds, plan classes, project pairs, series).
var figurePrefixes = []string{"cheat_ratio.", "cheat_credit_per_day.", "device_neutrality.", "cross_project.", "settle_days.", "rac_gflops."}

// KnownFigure reports whether name can be a key of Flat: a fixed figure,
// or a member of one of its families (cheat_ratio.<kind>, ...).
func KnownFigure(name string) bool {
	if _, ok := (&PolicySummary{}).Flat()[name]; ok {
		return true
	}
	for _, p := range figurePrefixes {
		if strings.HasPrefix(name, p) && len(name) > len(p) {
			return true
		}
	}
	return false
}
