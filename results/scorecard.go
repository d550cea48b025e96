package results

import (
	"fmt"
	"math"
	"sort"
	"strings"
)

// Scorecard answers the two questions the tool exists for, per policy
// instance: which system is fair (host spread, device and project
// neutrality), and which resists cheaters (the worst cheat ratio over
// the agent kinds present, the worst credit per host-day of kinds that
// do no work, the worst account), then calibration (honest G/D).
type Scorecard struct {
	Rows []ScoreRow
	// Best[c] is the row index with the best value of column c (-1: none).
	Best [NumScoreColumns]int
	// Verdict is a few sentences written from the figures.
	Verdict []string
	// Replications is how many replications the figures come from.
	Replications int
}

// Score columns, in the scorecard's order.
const (
	ColHostCV = iota
	ColDevice
	ColProject
	ColCheat
	ColPerDay
	ColWorstAccount
	ColHonest
	NumScoreColumns
)

// ScoreColumn is a scorecard column: its group, its heading, its short
// name (terminal, picture) and the registered figure it shows (for a
// family, its worst member).
type ScoreColumn struct {
	Group, Name, Short, Figure string
}

// Ideal is the column's ideal value as people read it.
func (c ScoreColumn) Ideal() string {
	if f := MustLookup(c.Figure); f.Ideal != "" {
		return f.Ideal
	}
	return "scale-dependent"
}

// ScoreColumns are the scorecard's columns.
var ScoreColumns = [NumScoreColumns]ScoreColumn{
	{"fairness", "host spread (CV)", "host CV", "host_neutrality_cv"},
	{"fairness", "device neutrality", "device", "device_neutrality"},
	{"fairness", "project neutrality", "project", "project_neutrality"},
	{"cheat resistance", "worst cheat ratio", "worst cheat", "cheat_ratio"},
	{"cheat resistance", "worst credit per host-day without work", "per day (no work)", "cheat_credit_per_day"},
	{"cheat resistance", "worst account", "worst account", "worst_account_ratio"},
	{"calibration", "honest G/D", "honest G/D", "honest_ratio"},
}

// ScoreRow is one policy instance's scorecard row. Values are NaN where
// the figure is undefined (one project, no GPU, no such agent).
type ScoreRow struct {
	Policy                string
	Scale                 float64 // the policy's Cobblestones per GFLOPS-day
	Values                [NumScoreColumns]float64
	CheatKind, PerDayKind string // the kinds behind the worst figures
	Flag                  [NumScoreColumns]bool
}

// NewScorecard builds the scorecard of a summary, rows in names' order.
func NewScorecard(s *Summary, names []string) *Scorecard {
	sc := &Scorecard{Replications: s.Replications}
	for _, n := range names {
		ps := s.Policies[n]
		r := ScoreRow{Policy: n, Scale: float64(ps.Scale)}
		flat := ps.Flat()
		for c, col := range ScoreColumns {
			f := MustLookup(col.Figure)
			if f.Family() {
				var kind string
				r.Values[c], kind = worst(*f.family(ps))
				switch c {
				case ColCheat:
					r.CheatKind = kind
				case ColPerDay:
					r.PerDayKind = kind
				}
			} else {
				r.Values[c] = float64(flat[col.Figure])
			}
			r.Flag[c] = f.Flagged(r.Values[c])
		}
		sc.Rows = append(sc.Rows, r)
	}
	for c := 0; c < NumScoreColumns; c++ {
		sc.Best[c] = -1
		if c == ColHonest {
			continue // calibration: no best
		}
		bestDist := math.Inf(1)
		for i, r := range sc.Rows {
			if d := distance(c, r.Values[c]); d < bestDist {
				sc.Best[c], bestDist = i, d
			}
		}
	}
	sc.Verdict = sc.verdict(s)
	return sc
}

// Defined reports whether x is a value: neither NaN nor infinite.
func Defined(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// worst is the largest value of a per-kind figure and its kind.
func worst(m map[string]Num) (float64, string) {
	v, kind := math.NaN(), ""
	for _, k := range SortedKeys(m) {
		if x := float64(m[k]); Defined(x) && (math.IsNaN(v) || x > v) {
			v, kind = x, k
		}
	}
	return v, kind
}

// distance is how far a value is from its column's ideal (+Inf when
// undefined).
func distance(c int, x float64) float64 { return MustLookup(ScoreColumns[c].Figure).Distance(x) }

// fairness is a row's worst distance over the fairness columns it has.
func fairness(r *ScoreRow) float64 {
	d := math.Inf(-1)
	for _, c := range []int{ColHostCV, ColDevice, ColProject} {
		if Defined(r.Values[c]) {
			d = max(d, distance(c, r.Values[c]))
		}
	}
	return d
}

func (sc *Scorecard) verdict(s *Summary) []string {
	var out []string
	if len(sc.Rows) == 0 {
		return nil
	}
	best := 0
	for i := range sc.Rows {
		if fairness(&sc.Rows[i]) < fairness(&sc.Rows[best]) {
			best = i
		}
	}
	r := &sc.Rows[best]
	var parts []string
	for _, c := range []int{ColHostCV, ColDevice, ColProject} {
		if Defined(r.Values[c]) {
			parts = append(parts, ScoreColumns[c].Name+" "+FormatScore(r.Values[c]))
		}
	}
	out = append(out, fmt.Sprintf("Fairest: %s (%s), judged by its worst fairness figure.", r.Policy, strings.Join(parts, ", ")))
	kinds := map[string]bool{}
	for _, p := range s.Policies {
		for k := range p.CheatRatio {
			kinds[k] = true
		}
		for k := range p.CheatCreditPerDay {
			kinds[k] = true
		}
	}
	var ks []string
	for k := range kinds {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	for _, k := range ks {
		var resist, fail []string
		for _, row := range sc.Rows {
			ps := s.Policies[row.Policy]
			x, perDay := float64(ps.CheatRatio[k]), false
			if v, ok := ps.CheatCreditPerDay[k]; ok {
				x, perDay = float64(v), true
			}
			if !Defined(x) {
				continue
			}
			label := fmt.Sprintf("%s %s", row.Policy, FormatScore(x))
			bound := CheatBound
			if perDay {
				label += " host-days"
				bound = PerDayBound
			}
			if x <= bound {
				resist = append(resist, label)
			} else {
				fail = append(fail, label)
			}
		}
		held := "the 1.1 bound"
		if _, ok := s.Policies[sc.Rows[0].Policy].CheatCreditPerDay[k]; ok {
			held = "a tenth of an honest host-day (it does no work)"
		}
		switch {
		case len(resist) == 0 && len(fail) == 0:
		case len(resist) == 0:
			out = append(out, fmt.Sprintf("%s: no system holds it to %s (%s).", k, held, strings.Join(fail, ", ")))
		case len(fail) == 0:
			out = append(out, fmt.Sprintf("%s: every system holds it to %s.", k, held))
		default:
			out = append(out, fmt.Sprintf("%s: held to %s by %s; not by %s.", k, held, names(resist), strings.Join(fail, ", ")))
		}
	}
	out = append(out, "Honest G/D is calibration, not accuracy: it reflects each system's Cobblestone scale and the assumed host efficiency.")
	if sc.Replications < MinIntervalReplications {
		out = append(out, fmt.Sprintf("%d replication(s): no 95%% intervals (they need at least %d); run more for firm conclusions.",
			sc.Replications, MinIntervalReplications))
	}
	return out
}

// names keeps the policy names of "name value" labels.
func names(labels []string) string {
	out := make([]string, len(labels))
	for i, l := range labels {
		out[i], _, _ = strings.Cut(l, " ")
	}
	return strings.Join(out, ", ")
}

// Unbounded is the value above which a scorecard figure (a ratio to an
// honest reference) says only that nothing bounded it: a one-time claim
// of 1e304 paid gives 1e286, whose digits mean nothing.
const Unbounded = 1e6

// FormatScore writes a scorecard value: 3 significant digits, "–" when
// undefined, "unbounded" above Unbounded.
func FormatScore(x float64) string {
	switch {
	case !Defined(x):
		return "–"
	case x > Unbounded:
		return "unbounded"
	}
	return fmt.Sprintf("%.3g", x)
}

// Text writes the scorecard for a terminal: best values marked *, values
// outside the bounds marked !.
func (sc *Scorecard) Text() string {
	var b strings.Builder
	b.WriteString("scorecard (* best in its column; ! a neutrality outside [1/1.1, 1.1], a cheat ratio above 1.1,\n")
	b.WriteString("or more than a tenth of an honest host-day per day earned without work)\n")
	head := []string{"policy"}
	for _, c := range ScoreColumns {
		head = append(head, c.Short)
	}
	head = append(head, "scale")
	rows := [][]string{head}
	for i, r := range sc.Rows {
		row := []string{r.Policy}
		for c := 0; c < NumScoreColumns; c++ {
			s := FormatScore(r.Values[c])
			if c == ColCheat && r.CheatKind != "" {
				s += " " + r.CheatKind
			}
			if c == ColPerDay && r.PerDayKind != "" {
				s += " " + r.PerDayKind
			}
			if sc.Best[c] == i {
				s += " *"
			}
			if r.Flag[c] {
				s += " !"
			}
			row = append(row, s)
		}
		row = append(row, FormatScore(r.Scale))
		rows = append(rows, row)
	}
	width := make([]int, len(head))
	for _, row := range rows {
		for c, s := range row {
			width[c] = max(width[c], len([]rune(s)))
		}
	}
	for _, row := range rows {
		for c, s := range row {
			b.WriteString(s)
			if c < len(row)-1 {
				b.WriteString(strings.Repeat(" ", width[c]-len([]rune(s))+2))
			}
		}
		b.WriteString("\n")
	}
	b.WriteString("\n")
	for _, v := range sc.Verdict {
		b.WriteString(v + "\n")
	}
	return b.String()
}

// WorstSummary folds several summaries (a sweep's points) into one whose
// figures are each at its worst over them: neutralities and spreads
// farthest from their ideal, cheat figures and the worst account at
// their largest, honest G/D at its largest. Its scorecard says how each
// policy fares anywhere in the sweep.
func WorstSummary(sums []*Summary, names []string) *Summary {
	out := &Summary{Policies: map[string]*PolicySummary{}}
	if len(sums) > 0 {
		out.Scenario, out.Replications = sums[0].Scenario, sums[0].Replications
	}
	for _, n := range names {
		w := &PolicySummary{CheatRatio: map[string]Num{}, CheatCreditPerDay: map[string]Num{}}
		first := true
		pick := func(dst *Num, v Num, c int) {
			if !Defined(float64(v)) {
				return
			}
			if !Defined(float64(*dst)) || distance(c, float64(v)) > distance(c, float64(*dst)) {
				*dst = v
			}
		}
		for _, s := range sums {
			ps := s.Policies[n]
			if ps == nil {
				continue
			}
			if first {
				w.Scale = ps.Scale
				w.HostNeutralityCV, w.DeviceNeutrality, w.ProjectNeutrality = Num(math.NaN()), Num(math.NaN()), Num(math.NaN())
				w.WorstAccountRatio, w.HonestRatio = Num(math.NaN()), Num(math.NaN())
				first = false
			}
			pick(&w.HostNeutralityCV, ps.HostNeutralityCV, ColHostCV)
			pick(&w.DeviceNeutrality, ps.DeviceNeutrality, ColDevice)
			pick(&w.ProjectNeutrality, ps.ProjectNeutrality, ColProject)
			pick(&w.WorstAccountRatio, ps.WorstAccountRatio, ColWorstAccount)
			if h := float64(ps.HonestRatio); Defined(h) && (!Defined(float64(w.HonestRatio)) || h > float64(w.HonestRatio)) {
				w.HonestRatio = ps.HonestRatio
			}
			for k, v := range ps.CheatRatio {
				if old, ok := w.CheatRatio[k]; !ok || Defined(float64(v)) && float64(v) > float64(old) {
					w.CheatRatio[k] = v
				}
			}
			for k, v := range ps.CheatCreditPerDay {
				if old, ok := w.CheatCreditPerDay[k]; !ok || Defined(float64(v)) && float64(v) > float64(old) {
					w.CheatCreditPerDay[k] = v
				}
			}
		}
		out.Policies[n] = w
	}
	return out
}
