package stock

import (
	"fmt"
	"math"
	"strings"

	"github.com/creditsim/creditsim/results"
)

// format writes a figure with its interval: "1.04 [0.98, 1.1]".
func (f Fig) format() string {
	s := results.FormatScore(f.Mean)
	if s == "–" || math.IsNaN(f.Lo) || math.IsNaN(f.Hi) {
		return s
	}
	return s + " [" + results.FormatScore(f.Lo) + ", " + results.FormatScore(f.Hi) + "]"
}

// withInterval writes x in format f, with its 95% interval ci where
// there is one: "1.03 [1.02, 1.04]".
func withInterval(f string, x float64, ci [2]float64) string {
	s := fmt.Sprintf(f, x)
	if results.Defined(ci[0]) && results.Defined(ci[1]) {
		s += " [" + fmt.Sprintf(f, ci[0]) + ", " + fmt.Sprintf(f, ci[1]) + "]"
	}
	return s
}

// PriceText is the row's price, results computed per validated
// workunit, with its interval: "1.03 [1.02, 1.04]".
func (r *Row) PriceText() string { return withInterval("%.2f", r.Price, r.PriceCI) }

// gain is the row's worst gain with its behaviour and interval.
func (r *Row) gain() string {
	s := r.Figs[results.ColGain].format()
	if r.Score.GainKind != "" {
		s += " (" + r.Score.GainKind + ")"
	}
	return s
}

// price says what the row costs.
func (r *Row) price() string {
	s := r.PriceText() + " results per validated workunit"
	if results.Defined(r.DaysToPay) {
		s += ", " + withInterval("%.1f", r.DaysToPay, r.DaysCI) + " days before a new honest host is paid in full"
	}
	return s
}

// What names a row in words: its credit option and server ("fixed credit
// per job with jobs under adaptive replication").
func (r *Row) What() string { return r.Option.Label + " with jobs " + serverWords(r.Server) }

// serverWords is a server configuration as the end of "jobs ...".
func serverWords(s Server) string {
	switch {
	case strings.HasPrefix(s.Name, "sent once, daily quota"):
		return "sent once and a daily quota of " + fmt.Sprint(Quota) + " per CPU"
	case s.Name == "adaptive replication":
		return "under adaptive replication"
	case s.Name == Now.Name:
		return "sent as your project sends them now"
	}
	return s.Name
}

// Line is the answer in one line: "CPU apps: use X with jobs Y; a cheater
// gains at most G [lo, hi] (behaviour); honest accounts keep H; price P."
func (a *Answer) Line() string {
	b := a.Best
	if b == nil {
		return a.Subject.Says + ": no configuration could be judged."
	}
	use := "use " + b.What()
	for _, t := range a.Ties {
		if t.Price == b.Price {
			use += ", or (a tie) " + t.What()
		}
	}
	verdict := "a cheater gains at most " + b.gain()
	if a.NoneHolds {
		use = "no stock configuration holds the bound; the nearest: " + use
		verdict = "a behaviour gains up to " + b.gain()
		if b.Score.Flag[results.ColAccountGain] {
			verdict += ", one account " + b.Figs[results.ColAccountGain].format()
		}
	}
	line := fmt.Sprintf("%s: %s; %s; honest accounts keep %s of their credit; price %s",
		a.Subject.Says, use, verdict, b.Figs[results.ColHarm].format(), b.price())
	if n := b.Option.Needs; n != "" {
		line += "; needs " + n
	}
	return line + "."
}

// Markdown writes the answer's table: every row the project could choose
// or compare, best first, with its configuration.
func (a *Answer) Markdown() string {
	var b strings.Builder
	fmt.Fprintf(&b, "**%s** (the built-in world `%s`-like, %d hosts, %d replications with their honest twins; threats: %s).\n\n",
		a.Subject.Says, a.Subject.Name, a.Hosts, a.Reps, threatWords(a.Threats))
	b.WriteString("| credit option | jobs | host spread (CV) | device neutrality | project neutrality | worst gain | worst account's gain | honest accounts keep | results per validated workunit | holds |\n")
	b.WriteString("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n")
	for _, r := range a.ranked() {
		hold := "yes"
		switch {
		case r.Holds:
		case r.Score.Breach() != "":
			hold = "no: " + r.Score.Breach()
		default:
			hold = "no: harm " + results.FormatScore(r.Figs[results.ColHarm].Mean)
		}
		name := r.Option.Label
		if r == a.Best {
			name = "**" + name + "**"
		}
		if !r.Allowed && r.Option.Needs != "" {
			name += " (needs " + r.Option.Needs + ")"
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", name, r.Server.Name,
			r.Figs[results.ColHostCV].format(), r.Figs[results.ColDevice].format(), r.Figs[results.ColProject].format(),
			r.gain(), r.Figs[results.ColAccountGain].format(), r.Figs[results.ColHarm].format(), r.PriceText(), hold)
	}
	if a.Best != nil {
		b.WriteString("\nTo set it: " + strings.Join(append(append([]string(nil), a.Best.Server.Config...), a.Best.Option.Config), "; ") + ".\n")
	}
	return b.String()
}

// ranked are the stock rows, best first (the recommended one, then by
// the same rule).
func (a *Answer) ranked() []*Row {
	var out []*Row
	for i := range a.Rows {
		if a.Rows[i].Stock() {
			out = append(out, &a.Rows[i])
		}
	}
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && better(out[j], out[j-1]); j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

// threatWords names the threats and their shares.
func threatWords(ts []Threat) string {
	var out []string
	for _, t := range ts {
		out = append(out, t.Agent)
	}
	return strings.Join(out, ", ")
}
