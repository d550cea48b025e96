package results

import (
	"fmt"
	"math"
	"strings"
)

// Scorecard answers the two questions the tool exists for, per policy
// instance: which system is fair (host spread, device and project
// neutrality), and which resists cheaters, judged against the honest
// twin by one bound (the worst gain over the agent kinds present, the
// worst account's gain, and the harm done to honest accounts), then
// calibration (honest G/D).
type Scorecard struct {
	Rows []ScoreRow
	// Best[c] is the row index with the best value of column c (-1: none).
	Best [NumScoreColumns]int
	// Verdict is a few sentences written from the figures; the first
	// Short of them are the answer in brief (the fairest system and the
	// least cheatable), the rest say each behaviour's outcome.
	Verdict []string
	Short   int
	// Replications is how many replications the figures come from.
	Replications int
	// Shown are the columns some row has a value in, in order; the
	// others are said once in NotMeasured ("cheat resistance: not
	// measured: no cheaters in this world") instead of a column of
	// dashes.
	Shown       []int
	NotMeasured []string
}

// Score columns, in the scorecard's order.
const (
	ColHostCV = iota
	ColDevice
	ColProject
	ColGain
	ColAccountGain
	ColHarm
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
	{"cheat resistance", "worst gain over the honest twin", "worst gain", "gain"},
	{"cheat resistance", "worst account's gain", "account gain", "worst_account_gain"},
	{"cheat resistance", "harm to honest accounts", "harm", "harm"},
	{"calibration", "honest G/D", "honest G/D", "honest_ratio"},
}

// ScoreRow is one policy instance's scorecard row. Values are NaN where
// the figure is undefined (one project, no GPU, no agents or no twin).
type ScoreRow struct {
	Policy   string
	Scale    float64 // the policy's Cobblestones per GFLOPS-day
	Values   [NumScoreColumns]float64
	GainKind string // the kind behind the worst gain
	Flag     [NumScoreColumns]bool
	// AccountNoise is what the worst account's gain reaches by chance
	// (account_gain_noise): at or below it, the account gain is not
	// flagged.
	AccountNoise float64
}

// Holds is the one judgement of the bound that every printer uses (the
// terminal, report.html, sweep, verdict, README): a system holds the
// bound when every behaviour's gain over the honest twin is at most
// CheatBound and so is its worst account's gain, unless that is no more
// than what honest accounts reach by chance at its rank
// (account_gain_noise). Measured is false where no gain is defined (no
// cheaters, or no twin). Harm is judged apart (Flag[ColHarm]).
func (r *ScoreRow) Holds() (holds, measured bool) {
	if math.IsNaN(r.Values[ColGain]) {
		return false, false
	}
	return !r.Flag[ColGain] && !r.Flag[ColAccountGain], true
}

// Breach says why a row fails the bound ("worst gain 5.4, forged_output"
// or "worst account's gain 1.45, above its noise 1.21"); "" when it
// holds or is not measured.
func (r *ScoreRow) Breach() string {
	if ok, measured := r.Holds(); ok || !measured {
		return ""
	}
	var why []string
	if r.Flag[ColGain] {
		why = append(why, fmt.Sprintf("worst gain %s, %s", FormatScore(r.Values[ColGain]), r.GainKind))
	}
	if r.Flag[ColAccountGain] {
		w := fmt.Sprintf("worst account's gain %s", FormatScore(r.Values[ColAccountGain]))
		if Defined(r.AccountNoise) {
			w += fmt.Sprintf(", above the %s honest accounts reach by chance", FormatScore(r.AccountNoise))
		}
		why = append(why, w)
	}
	return strings.Join(why, "; ")
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
				r.Values[c], r.GainKind = worstCheat(*f.family(ps))
			} else {
				r.Values[c] = float64(flat[col.Figure])
			}
			r.Flag[c] = f.Flagged(r.Values[c])
		}
		// An account's gain that honest accounts reach by chance at its
		// rank is the twin's job-level noise, not gain.
		r.AccountNoise = float64(ps.AccountGainNoise)
		if Defined(r.AccountNoise) && r.Values[ColAccountGain] <= r.AccountNoise {
			r.Flag[ColAccountGain] = false
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
	sc.Shown, sc.NotMeasured = sc.measured(s)
	return sc
}

// measured returns the columns some row has a value in, and a sentence
// for each group of the others saying why it is not measured.
func (sc *Scorecard) measured(s *Summary) ([]int, []string) {
	var shown []int
	missing := map[int]bool{}
	for c := 0; c < NumScoreColumns; c++ {
		any := false
		for _, r := range sc.Rows {
			if !math.IsNaN(r.Values[c]) {
				any = true
			}
		}
		if any || len(sc.Rows) == 0 {
			shown = append(shown, c)
		} else {
			missing[c] = true
		}
	}
	var notes []string
	if missing[ColDevice] {
		notes = append(notes, "device neutrality: not measured: no app has both CPU and GPU results counted in this world")
	}
	if missing[ColProject] {
		notes = append(notes, "project neutrality: not measured: one project in this world")
	}
	if missing[ColGain] || missing[ColAccountGain] || missing[ColHarm] {
		why := "no cheaters in this world"
		switch s.Twin {
		case "skipped (--no-twin)":
			why = "the honest twins were skipped (--no-twin)"
		case "ran":
			why = "no behaviour's gain could be computed"
		}
		notes = append(notes, "cheat resistance (gain, worst account's gain, harm): not measured: "+why)
	}
	if missing[ColHostCV] {
		notes = append(notes, "host spread: not measured: no honest host with 10 counted results")
	}
	return shown, notes
}

// Defined reports whether x is a value: not NaN (undefined) and not
// -Inf. +Inf is a value: an unbounded gain (UnboundedWord), which is
// past every bound.
func Defined(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, -1) }

// WorstGain is the largest gain of a cheating kind in m
// (failed_benchmark, a fault, apart) and its kind; NaN and "" for none.
func WorstGain(m map[string]Num) (float64, string) { return worstCheat(m) }

// worstCheat is the largest gain of a cheating kind (failed_benchmark, a
// fault, apart) and its kind.
func worstCheat(m map[string]Num) (float64, string) {
	v, kind := math.NaN(), ""
	for _, k := range SortedKeys(m) {
		if k == "failed_benchmark" {
			continue
		}
		if x := float64(m[k]); Defined(x) && (math.IsNaN(v) || x > v) {
			v, kind = x, k
		}
	}
	return v, kind
}

// distance is how far a value is from its column's ideal (+Inf when
// undefined).
func distance(c int, x float64) float64 { return MustLookup(ScoreColumns[c].Figure).Distance(x) }

// fairnessColumns are the columns fairness is judged by.
var fairnessColumns = []int{ColHostCV, ColDevice, ColProject}

// fairness is a row's worst distance over the fairness columns it has,
// and that column.
func fairness(r *ScoreRow) (float64, int) {
	d, col := math.Inf(-1), -1
	for _, c := range fairnessColumns {
		if Defined(r.Values[c]) {
			if x := distance(c, r.Values[c]); x > d {
				d, col = x, c
			}
		}
	}
	return d, col
}

// tie reports whether rows a and b tie on column c: each one's value
// lies in the other's 95% interval, or, without intervals (one or two
// replications), they are within 1% of each other.
func tie(s *Summary, a, b *ScoreRow, c int) bool {
	x, y := a.Values[c], b.Values[c]
	if !Defined(x) || !Defined(y) {
		return false
	}
	fig := ScoreColumns[c].Figure
	ca, okA := s.Policies[a.Policy].CI95[fig]
	cb, okB := s.Policies[b.Policy].CI95[fig]
	if !okA || !okB {
		return math.Abs(x-y) <= 0.01*max(math.Abs(x), math.Abs(y))
	}
	in := func(v float64, ci [2]Num) bool { return v >= float64(ci[0]) && v <= float64(ci[1]) }
	return in(x, cb) && in(y, ca)
}

func (sc *Scorecard) verdict(s *Summary) []string {
	if len(sc.Rows) == 0 {
		return nil
	}
	out := []string{sc.fairestLine(s)}
	if least := sc.cheatSummary("here", func(i int) string {
		r := sc.Rows[i]
		return fmt.Sprintf("%s (worst gain %s, %s)", r.Policy, FormatScore(r.Values[ColGain]), r.GainKind)
	}); least != "" {
		out = append(out, least)
	}
	sc.Short = len(out)
	out = append(out, sc.kindLines(s)...)
	for _, row := range sc.Rows {
		if o := s.Policies[row.Policy].Oracle; o != "" {
			out = append(out, fmt.Sprintf("%s is an oracle here: %s.", row.Policy, o))
		}
	}
	out = append(out, "Honest G/D is calibration, not accuracy: it reflects each system's Cobblestone scale and the assumed host efficiency.")
	if sc.Replications < MinIntervalReplications {
		reps := "One replication"
		if sc.Replications != 1 {
			reps = fmt.Sprintf("%d replications", sc.Replications)
		}
		out = append(out, fmt.Sprintf("%s: no 95%% intervals (they need at least %d); run more for firm conclusions.",
			reps, MinIntervalReplications))
	}
	return out
}

// fairestLine names the fairest system by its worst fairness figure, the
// systems that tie with it (their figures on its deciding column within
// each other's intervals, or 1% without intervals), and what each needs.
func (sc *Scorecard) fairestLine(s *Summary) string {
	best := fairestRow(sc.Rows)
	r := &sc.Rows[best]
	if _, c := fairness(r); c < 0 {
		return "Fairest: none named: no system has a defined fairness figure in this world."
	}
	var parts []string
	for _, c := range fairnessColumns {
		if Defined(r.Values[c]) {
			parts = append(parts, ScoreColumns[c].Name+" "+FormatScore(r.Values[c]))
		}
	}
	fairest := []string{r.Policy}
	if _, c := fairness(r); c >= 0 {
		for i := range sc.Rows {
			if i != best && tie(s, r, &sc.Rows[i], c) {
				fairest = append(fairest, sc.Rows[i].Policy)
			}
		}
	}
	line := fmt.Sprintf("Fairest: %s (%s), judged by its worst fairness figure", r.Policy, strings.Join(parts, ", "))
	if len(fairest) > 1 {
		line = fmt.Sprintf("Fairest: %s tie (%s for %s; each within the other's 95%% interval, or 1%% without one), judged by the worst fairness figure",
			andList(fairest), strings.Join(parts, ", "), r.Policy)
	}
	for _, p := range fairest {
		if n := s.Policies[p].Requires; n != "" {
			line += "; " + p + " needs " + n
		}
	}
	return line + sc.fairestCaveats(fairest, s, "here") + "."
}

// fairestCaveats is what the fairest line must say in the same
// sentence about the systems it names: which fail the bound (and why),
// which are oracles, and then the fairest system that holds the bound,
// if another does.
func (sc *Scorecard) fairestCaveats(fairest []string, s *Summary, where string) string {
	named := map[string]bool{}
	out := ""
	for _, p := range fairest {
		named[p] = true
		r := sc.row(p)
		if r == nil {
			continue
		}
		if b := r.Breach(); b != "" {
			out += fmt.Sprintf("; %s fails the 1.1 bound %s (%s)", p, where, b)
		}
		if o := s.Policies[p].Oracle; o != "" {
			out += fmt.Sprintf("; %s is an oracle %s", p, where)
		}
	}
	if out == "" {
		return ""
	}
	// The fairest system that holds the bound and is no oracle.
	best, bd := -1, math.Inf(1)
	for i := range sc.Rows {
		r := &sc.Rows[i]
		if ok, _ := r.Holds(); !ok || named[r.Policy] || s.Policies[r.Policy].Oracle != "" {
			continue
		}
		if d, c := fairness(r); c >= 0 && d < bd {
			best, bd = i, d
		}
	}
	if best >= 0 {
		r := &sc.Rows[best]
		_, c := fairness(r)
		out += fmt.Sprintf("; the fairest that holds it: %s (%s %s)", r.Policy, ScoreColumns[c].Name, FormatScore(r.Values[c]))
		if n := s.Policies[r.Policy].Requires; n != "" {
			out += ", which needs " + n
		}
	}
	return out
}

// row is the row of policy p, nil if none.
func (sc *Scorecard) row(p string) *ScoreRow {
	for i := range sc.Rows {
		if sc.Rows[i].Policy == p {
			return &sc.Rows[i]
		}
	}
	return nil
}

// kindLines say for each cheating kind present which systems hold it to
// the bound and which do not, with their gains.
func (sc *Scorecard) kindLines(s *Summary) []string {
	kinds := map[string]bool{}
	for _, p := range s.Policies {
		for k := range p.Gain {
			if k != "failed_benchmark" {
				kinds[k] = true
			}
		}
	}
	var out []string
	const held = "the 1.1 bound (gain over the honest twin)"
	for _, k := range SortedKeys(kinds) {
		var resist, fail []string
		for _, row := range sc.Rows {
			x := float64(s.Policies[row.Policy].Gain[k])
			if !Defined(x) {
				continue
			}
			label := fmt.Sprintf("%s %s", row.Policy, FormatScore(x))
			if x <= CheatBound {
				resist = append(resist, label)
			} else {
				fail = append(fail, label)
			}
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
	return out
}

// andList joins "a", "a and b", "a, b and c".
func andList(xs []string) string {
	if len(xs) < 2 {
		return strings.Join(xs, "")
	}
	return strings.Join(xs[:len(xs)-1], ", ") + " and " + xs[len(xs)-1]
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

// fairestRow is the index of the row whose worst fairness figure is
// nearest its ideal (the first of equals). Precondition: rows not empty.
func fairestRow(rows []ScoreRow) int {
	best := 0
	for i := range rows {
		a, _ := fairness(&rows[i])
		b, _ := fairness(&rows[best])
		if a < b {
			best = i
		}
	}
	return best
}

// cheatSummary says which systems hold every behaviour (of where: "here",
// "of the worlds") to the bound, or else which has the smallest worst
// gain, each named by label(i); "" when no row has a gain.
func (sc *Scorecard) cheatSummary(where string, label func(i int) string) string {
	var held, least []string
	lowest := math.Inf(1)
	for i, r := range sc.Rows {
		g := r.Values[ColGain]
		if math.IsNaN(g) {
			continue
		}
		if ok, _ := r.Holds(); ok {
			held = append(held, r.Policy)
		}
		switch {
		case g < lowest*0.99:
			lowest, least = g, []string{label(i)}
		case g <= lowest*1.01:
			least = append(least, label(i))
		}
	}
	switch {
	case len(least) == 0:
		return ""
	case len(held) > 0:
		return fmt.Sprintf("Every behaviour %s is held to the 1.1 bound (gain over the honest twin, and the worst account's beyond chance) by %s.", where, andList(held))
	}
	return fmt.Sprintf("No system holds every behaviour %s to the 1.1 bound (gain over the honest twin, and the worst account's beyond chance); the least cheatable: %s.", where, andList(least))
}

// Text writes the scorecard for a terminal: best values marked *, values
// outside the bounds marked !.
func (sc *Scorecard) Text() string {
	var b strings.Builder
	b.WriteString("scorecard (* best in its column; ! a neutrality outside [1/1.1, 1.1], a harm outside [0.95, 1.1],\n")
	b.WriteString("or a gain over the honest twin above 1.1, the one bound for every kind; an account's gain also\n")
	b.WriteString("above what honest accounts reach by chance at its rank, account_gain_noise)\n")
	head := []string{"policy"}
	for _, c := range sc.Shown {
		head = append(head, ScoreColumns[c].Short)
	}
	head = append(head, "scale")
	rows := [][]string{head}
	for i, r := range sc.Rows {
		row := []string{r.Policy}
		for _, c := range sc.Shown {
			s := FormatScore(r.Values[c])
			if c == ColGain && r.GainKind != "" {
				s += " " + r.GainKind
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
	writeColumns(&b, rows)
	for _, n := range sc.NotMeasured {
		b.WriteString(n + ".\n")
	}
	b.WriteString("\n")
	for _, v := range sc.Verdict {
		b.WriteString(v + "\n")
	}
	return b.String()
}

// writeColumns writes rows as aligned columns, two spaces apart.
func writeColumns(b *strings.Builder, rows [][]string) {
	var width []int
	for _, row := range rows {
		for c, s := range row {
			if c == len(width) {
				width = append(width, 0)
			}
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
}

// WorstSummary folds several summaries (a sweep's points) into one whose
// figures are each at its worst over them: neutralities and spreads
// farthest from their ideal, cheat figures and the worst account at
// their largest, honest G/D at its largest. Its scorecard says how each
// policy fares anywhere in the sweep.
func WorstSummary(sums []*Summary, names []string) *Summary {
	out := &Summary{Policies: map[string]*PolicySummary{}}
	if len(sums) > 0 {
		out.Scenario, out.Replications, out.Twin = sums[0].Scenario, sums[0].Replications, sums[0].Twin
	}
	for _, n := range names {
		w := &PolicySummary{CheatRatio: map[string]Num{}, CheatCreditPerDay: map[string]Num{}, Gain: map[string]Num{}}
		first := true
		for _, s := range sums {
			ps := s.Policies[n]
			if ps == nil {
				continue
			}
			if first {
				w.Scale = ps.Scale
				w.HostNeutralityCV, w.DeviceNeutrality, w.ProjectNeutrality = Num(math.NaN()), Num(math.NaN()), Num(math.NaN())
				w.WorstAccountRatio, w.HonestRatio = Num(math.NaN()), Num(math.NaN())
				w.WorstAccountGain, w.AccountGainNoise, w.Harm = Num(math.NaN()), Num(math.NaN()), Num(math.NaN())
				w.Requires, w.Oracle = ps.Requires, ps.Oracle
				first = false
			}
			w.takeWorst(ps)
		}
		out.Policies[n] = w
	}
	return out
}

// takeWorst keeps in w each figure of ps that is worse than w's: further
// from its ideal for a scorecard column, larger for the others.
func (w *PolicySummary) takeWorst(ps *PolicySummary) {
	pick := func(dst *Num, v Num, c int) {
		if Defined(float64(v)) && (!Defined(float64(*dst)) || distance(c, float64(v)) > distance(c, float64(*dst))) {
			*dst = v
		}
	}
	larger := func(dst *Num, v Num) {
		if Defined(float64(v)) && (!Defined(float64(*dst)) || v > *dst) {
			*dst = v
		}
	}
	largerEach := func(dst, src map[string]Num) {
		for k, v := range src {
			if old, ok := dst[k]; !ok || Defined(float64(v)) && v > old {
				dst[k] = v
			}
		}
	}
	pick(&w.HostNeutralityCV, ps.HostNeutralityCV, ColHostCV)
	pick(&w.DeviceNeutrality, ps.DeviceNeutrality, ColDevice)
	pick(&w.ProjectNeutrality, ps.ProjectNeutrality, ColProject)
	larger(&w.WorstAccountRatio, ps.WorstAccountRatio)
	old := w.WorstAccountGain
	if pick(&w.WorstAccountGain, ps.WorstAccountGain, ColAccountGain); w.WorstAccountGain != old {
		w.AccountGainNoise = ps.AccountGainNoise // the noise of the world the worst came from
	}
	pick(&w.Harm, ps.Harm, ColHarm)
	larger(&w.HonestRatio, ps.HonestRatio)
	largerEach(w.Gain, ps.Gain)
	largerEach(w.CheatRatio, ps.CheatRatio)
	largerEach(w.CheatCreditPerDay, ps.CheatCreditPerDay)
}
