package results

import (
	"fmt"
	"math"
	"strings"
)

// World is one world's summary, named as the verdict cites it. Cheats
// says whether some of its hosts cheat (an agent kind other than
// failed_benchmark, a fault).
type World struct {
	Name    string
	Summary *Summary
	Cheats  bool
}

// Verdict is the answer over several worlds (the built-in library): per
// policy, each scorecard figure at its worst (WorstSummary's rule) over
// the worlds where it is defined, the world it comes from, and what the
// policy needs from a project. Fairness is judged in the worlds where no
// host cheats, and cheating in the others: a neutrality pools every
// account's results, so a cheater's claim would read as unfairness.
type Verdict struct {
	// Card is the scorecard of the worst figures; its rows are in the
	// policies' order.
	Card *Scorecard
	// From[i][c] is the world row i's column c comes from ("" when
	// undefined everywhere).
	From [][NumScoreColumns]string
	// Needs[i] is what row i's policy needs from a project ("" for
	// nothing more), UseWhen[i] its one line of advice.
	Needs, UseWhen []string
	// Lines are the sentences written from the figures.
	Lines []string
	// Worlds is how many worlds were folded, CheatWorlds how many of
	// them have cheaters; Hosts and Replications the size they ran at.
	Worlds, CheatWorlds, Hosts, Replications int
}

// VerdictColumns are the scorecard columns the verdict's table shows:
// fairness, then cheating. Account gain and honest G/D are in the
// picture; calibration is no reason to choose a system.
var VerdictColumns = []int{ColHostCV, ColDevice, ColProject, ColGain, ColHarm}

// NewVerdict folds the worlds' summaries into the verdict for the named
// policies (rows in names' order); useWhen maps a policy to its advice.
// Precondition: every world ran with the same replication count.
func NewVerdict(worlds []World, names []string, useWhen func(string) string, hosts int) *Verdict {
	var fair, cheat []World
	var fairSums, cheatSums []*Summary
	for _, w := range worlds {
		if w.Cheats {
			cheat, cheatSums = append(cheat, w), append(cheatSums, w.Summary)
		} else {
			fair, fairSums = append(fair, w), append(fairSums, w.Summary)
		}
	}
	ws := WorstSummary(fairSums, names)
	wc := WorstSummary(cheatSums, names)
	for _, n := range names {
		p, c := ws.Policies[n], wc.Policies[n]
		p.Gain, p.WorstAccountGain, p.AccountGainNoise, p.Harm = c.Gain, c.WorstAccountGain, c.AccountGainNoise, c.Harm
		p.CheatRatio, p.CheatCreditPerDay, p.WorstAccountRatio = c.CheatRatio, c.CheatCreditPerDay, c.WorstAccountRatio
		p.Oracle = oracleIn(cheat, n)
	}
	ws.Twin = "ran"
	v := &Verdict{Card: NewScorecard(ws, names), Worlds: len(worlds), CheatWorlds: len(cheat), Hosts: hosts, Replications: ws.Replications}
	v.Card.Verdict = nil // the scorecard's sentences speak of one world
	for _, r := range v.Card.Rows {
		var from [NumScoreColumns]string
		for c := 0; c < NumScoreColumns; c++ {
			in := fair
			if c == ColGain || c == ColAccountGain || c == ColHarm {
				in = cheat
			}
			from[c] = worldOf(in, r.Policy, c, r.Values[c], r.GainKind)
		}
		v.From = append(v.From, from)
		v.Needs = append(v.Needs, ws.Policies[r.Policy].Requires)
		v.UseWhen = append(v.UseWhen, useWhen(r.Policy))
	}
	v.Lines = v.sentences(ws)
	return v
}

// oracleIn is policy n's oracle label over the worlds with cheaters: it
// stays only if none of them has the behaviour that falsifies it.
func oracleIn(cheat []World, n string) string {
	label := ""
	for i, w := range cheat {
		o := w.Summary.Policies[n]
		if o == nil {
			continue
		}
		if i == 0 || label != "" {
			label = o.Oracle
		}
		if o.Oracle == "" {
			break
		}
	}
	return label
}

// worldOf is the first world whose figure for policy and column c is x
// (WorstSummary picks values, so one matches exactly).
func worldOf(worlds []World, policy string, c int, x float64, kind string) string {
	if !Defined(x) && !math.IsInf(x, 0) {
		return ""
	}
	for _, w := range worlds {
		ps := w.Summary.Policies[policy]
		if ps == nil {
			continue
		}
		var y float64
		if c == ColGain {
			y = float64(ps.Gain[kind])
		} else {
			y = float64(ps.Flat()[ScoreColumns[c].Figure])
		}
		if y == x {
			return w.Name
		}
	}
	return ""
}

// sentences write the verdict's conclusions: the fairest system, which
// systems hold the bound, the least cheatable, and each one's price.
func (v *Verdict) sentences(ws *Summary) []string {
	sc := v.Card
	if len(sc.Rows) == 0 {
		return nil
	}
	var out []string
	best := fairestRow(sc.Rows)
	var fairest []string
	bd, _ := fairness(&sc.Rows[best])
	for i := range sc.Rows {
		if d, _ := fairness(&sc.Rows[i]); d <= bd*1.01 {
			fairest = append(fairest, sc.Rows[i].Policy)
		}
	}
	r := &sc.Rows[best]
	var parts []string
	for _, c := range fairnessColumns {
		if Defined(r.Values[c]) {
			parts = append(parts, fmt.Sprintf("%s %s (%s)", ScoreColumns[c].Name, FormatScore(r.Values[c]), v.From[best][c]))
		}
	}
	line := fmt.Sprintf("Fairest: %s, whose worst fairness figures over the worlds where no host cheats are %s", andList(fairest), strings.Join(parts, ", "))
	for _, p := range fairest {
		if n := ws.Policies[p].Requires; n != "" {
			line += "; " + p + " needs " + n
		}
	}
	out = append(out, line+sc.fairestCaveats(fairest, ws, "in the worlds with cheaters")+".")
	if line := sc.cheatSummary("of the worlds", func(i int) string {
		r := sc.Rows[i]
		return fmt.Sprintf("%s (%s %s in %s)", r.Policy, FormatScore(r.Values[ColGain]), r.GainKind, v.From[i][ColGain])
	}); line != "" {
		out = append(out, line)
	}
	for _, row := range sc.Rows {
		if o := ws.Policies[row.Policy].Oracle; o != "" {
			out = append(out, fmt.Sprintf("%s is an oracle in these worlds: %s.", row.Policy, o))
		}
	}
	out = append(out, "A gain here is what a behaviour as the built-in worlds set it earns; `creditsim attack` searches every behaviour's settings and finds larger ones.")
	if v.Replications < MinIntervalReplications {
		out = append(out, "Too few replications per world for 95% intervals; `creditsim run NAME` gives a world's with them.")
	}
	return out
}

// Markdown writes the verdict as a Markdown table, one row per policy,
// then its sentences: the table README embeds.
func (v *Verdict) Markdown() string {
	var b strings.Builder
	head := []string{"system"}
	for _, c := range VerdictColumns {
		head = append(head, ScoreColumns[c].Name)
	}
	head = append(head, "needs", "use when")
	rows := [][]string{head}
	sep := make([]string, len(head))
	for i := range sep {
		sep[i] = "---"
	}
	rows = append(rows, sep)
	for i, r := range v.Card.Rows {
		row := []string{"`" + r.Policy + "`"}
		for _, c := range VerdictColumns {
			s := FormatScore(r.Values[c])
			if c == ColGain && r.GainKind != "" {
				s += " " + r.GainKind
			}
			if w := v.From[i][c]; w != "" {
				s += " (" + w + ")"
			}
			if r.Flag[c] {
				s += " !"
			}
			row = append(row, s)
		}
		need := v.Needs[i]
		if need == "" {
			need = "nothing more"
		}
		row = append(row, need, v.UseWhen[i])
		rows = append(rows, row)
	}
	for _, row := range rows {
		b.WriteString("| " + strings.Join(row, " | ") + " |\n")
	}
	b.WriteString("\n")
	for _, l := range v.Lines {
		b.WriteString(l + "\n")
	}
	return b.String()
}
