package stock

import (
	"fmt"
	"strings"

	"github.com/creditsim/creditsim/results"
)

// Verdict is the answer for every kind of project (Kinds).
type Verdict struct {
	Kinds   []Kind // the kinds answered for, in Answers' order
	Answers []*Answer
	Hosts   int // the hosts each world is capped at
	Reps    int
	Threats *Threats
}

// RunVerdict searches every kind of project (Kinds).
func RunVerdict(st Settings) (*Verdict, error) { return RunVerdictOf(Kinds, st) }

// RunVerdictOf searches the given kinds of project.
func RunVerdictOf(kinds []Kind, st Settings) (*Verdict, error) {
	if st.Threats == nil {
		var err error
		if st.Threats, err = ReadThreats(""); err != nil {
			return nil, err
		}
	}
	var subjects []Subject
	for _, k := range kinds {
		subjects = append(subjects, k.Subject())
	}
	as, err := SearchAll(subjects, st)
	if err != nil {
		return nil, err
	}
	v := &Verdict{Kinds: kinds, Answers: as, Hosts: st.Hosts, Reps: st.Replications, Threats: st.Threats}
	if v.Hosts <= 0 {
		v.Hosts = DefaultHosts
	}
	if v.Reps <= 0 {
		v.Reps = DefaultReplications
	}
	return v, nil
}

// Markdown is what `creditsim verdict` prints and README shows: how the
// worlds ran, the answer in one line per kind, the stock configurations
// behind it, and what creditsim's own designs add.
func (v *Verdict) Markdown() string {
	var b strings.Builder
	fmt.Fprintf(&b, "Printed by `creditsim verdict`. Each kind of project is a built-in world (%d hosts, %d replications with their honest twins) with the standard threat model: every cheating behaviour on 1 or 2%% of the accounts. "+
		"Every configuration of BOINC's server as it ships that the search tries (jobs sent once, with or without a daily quota of %d per CPU; adaptive replication; twice) runs with every credit option side by side. "+
		"Figures are means with their 95%% intervals; a gain is a behaviour's credit per day over the same hosts' in the honest twin (bound 1.1), \"keep\" honest accounts' credit over theirs. "+
		"A configuration holds the bound when every gain, and the worst account's beyond chance, is at most 1.1 and honest accounts keep at least 95%%; `creditsim verdict --all` and docs/verdict.md have every configuration and how the verdict decides.\n\n",
		v.Hosts, v.Reps, Quota)
	b.WriteString(v.inShort() + "\n\n")
	b.WriteString("**The answer, kind by kind (BOINC's server as it ships):**\n\n")
	for _, a := range v.Answers {
		b.WriteString("* " + a.Line() + "\n")
	}
	b.WriteString("\n**Stock BOINC: to set the recommended configuration:**\n\n")
	for _, a := range v.Answers {
		if a.Best == nil {
			continue
		}
		fmt.Fprintf(&b, "* %s: %s.\n", a.Subject.Says, strings.Join(append(append([]string(nil), a.Best.Server.Config...), a.Best.Option.Config), "; "))
	}
	b.WriteString("\n**Beyond BOINC: creditsim's own designs, not in BOINC (each needs a change to BOINC's server code):**\n\n")
	for _, a := range v.Answers {
		if l := a.BeyondLine(); l != "" {
			b.WriteString("* " + l + "\n")
		}
	}
	return b.String()
}

// All is `creditsim verdict --all`: the threat model, the configurations
// behind each answer side by side, then every configuration of every
// kind, best first.
func (v *Verdict) All() string {
	var b strings.Builder
	fmt.Fprintf(&b, "The threat model: %s; each share is of the accounts, and a behaviour whose app is missing is left out.\n\n", v.threatList())
	b.WriteString("For each kind, the recommended configuration, the best where jobs are sent once, and what post-assigned credit gives a project whose validator measures each output's work:\n\n")
	b.WriteString("| kind | credit option | jobs | host spread (CV) | device neutrality | project neutrality | worst gain | worst account's gain | honest accounts keep | results per validated workunit | holds the bound |\n")
	b.WriteString("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n")
	for _, a := range v.Answers {
		for _, r := range a.shown() {
			b.WriteString(tableRow(a.Subject.Name, r, r == a.Best))
		}
	}
	b.WriteString("\nEvery configuration, kind by kind:\n\n")
	for _, a := range v.Answers {
		b.WriteString(a.Markdown() + "\n")
	}
	return b.String()
}

// threatList names the standard threats in words.
func (v *Verdict) threatList() string {
	var out []string
	for _, t := range v.Threats.Threats {
		s := t.Agent
		if t.When != "" {
			s += " where the app has " + whens[t.When]
		}
		out = append(out, s)
	}
	return strings.Join(out, ", ")
}

// shown are the rows the verdict's table shows for a: the recommended
// one and its ties, the best where jobs are sent once, and the best
// post-assigned row.
func (a *Answer) shown() []*Row {
	var out []*Row
	add := func(r *Row) {
		if r == nil {
			return
		}
		for _, o := range out {
			if o == r {
				return
			}
		}
		out = append(out, r)
	}
	add(a.Best)
	for _, t := range a.Ties {
		add(t)
	}
	add(a.BestOnce)
	var post *Row
	for i := range a.Rows {
		r := &a.Rows[i]
		if r.Stock() && r.Option.Measures && (post == nil || better(r, post)) {
			post = r
		}
	}
	add(post)
	return out
}

// tableRow is one row of the verdict's stock table.
func tableRow(kind string, r *Row, best bool) string {
	name := r.Option.Label
	if best {
		name = "**" + name + "**"
	}
	if !r.Allowed && r.Option.Needs != "" {
		name += " (needs " + r.Option.Needs + ")"
	}
	return fmt.Sprintf("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", kind, name, r.Server.Name,
		r.Figs[results.ColHostCV].format(), r.Figs[results.ColDevice].format(), r.Figs[results.ColProject].format(),
		r.gain(), r.Figs[results.ColAccountGain].format(), r.Figs[results.ColHarm].format(), r.PriceText(), holdWords(r))
}

// holdWords says whether a row holds the bound, and if not why.
func holdWords(r *Row) string {
	switch {
	case r.Holds:
		return "yes"
	case r.Score.Breach() != "":
		return "no: " + r.Score.Breach()
	}
	return "no: honest accounts keep " + results.FormatScore(r.Figs[results.ColHarm].Mean)
}

// BeyondLine says what creditsim's designs buy over the recommended
// stock configuration: the fourth system on the same server, and the
// server's own trust, with their prices.
func (a *Answer) BeyondLine() string {
	best := a.Best
	if best == nil {
		return ""
	}
	var v4, trusted, trustedV4 *Row
	for _, r := range a.Beyond {
		switch {
		case r.Option.Beyond && !r.Server.Beyond:
			v4 = r
		case r.Server.Beyond && r.Option.Beyond:
			trustedV4 = r
		case r.Server.Beyond:
			trusted = r
		}
	}
	var parts []string
	if v4 != nil {
		parts = append(parts, fmt.Sprintf("the fourth system (v4trust) on the same server gains at most %s, honest accounts keep %s (%s)",
			v4.gain(), v4.Figs[results.ColHarm].format(), holdsOrNot(v4)))
	}
	if trusted != nil {
		p := fmt.Sprintf("with creditsim's server trust and jobs replicated twice, %s gains at most %s, keep %s (%s)",
			trusted.Option.Label, trusted.Figs[results.ColGain].format(), trusted.Figs[results.ColHarm].format(), holdsOrNot(trusted))
		if trustedV4 != nil {
			p += fmt.Sprintf(", the fourth system %s, keep %s (%s)", trustedV4.Figs[results.ColGain].format(), trustedV4.Figs[results.ColHarm].format(), holdsOrNot(trustedV4))
		}
		p += fmt.Sprintf(", for %s (the recommended: %s)", trusted.price(), best.PriceText())
		parts = append(parts, p)
	}
	if len(parts) == 0 {
		return ""
	}
	return a.Subject.Says + ": " + strings.Join(parts, "; ") + "."
}

// holdsOrNot is "holds the bound" or "fails it".
func holdsOrNot(r *Row) string {
	if r.Holds {
		return "holds the bound"
	}
	return "fails it"
}

// inShort is the verdict in two sentences, counted from the answers:
// for how many kinds a stock configuration holds the bound (and which
// behaviour breaks the others' recommended configurations most often),
// and for how many creditsim's server trust with the fourth system does.
func (v *Verdict) inShort() string {
	var stock, beyond []string
	breakers := map[string]int{}
	for _, a := range v.Answers {
		if a.Best != nil && a.Best.Holds {
			stock = append(stock, a.Subject.Name)
		} else if a.Best != nil && a.Best.Score.GainKind != "" && a.Best.Score.Flag[results.ColGain] {
			breakers[a.Best.Score.GainKind]++
		}
		for _, r := range a.Beyond {
			if r.Server.Beyond && r.Option.Beyond && r.Holds {
				beyond = append(beyond, a.Subject.Name)
			}
		}
	}
	n := len(v.Answers)
	out := fmt.Sprintf("**In short:** a configuration of BOINC as it ships holds the bound for %d of the %d kinds of project%s", len(stock), n, listIn(stock))
	if top, k := mostOf(breakers); top != "" {
		out += fmt.Sprintf("; where it does not, %s is what breaks the nearest one most often (%d of %d)", top, k, n-len(stock))
	}
	out += fmt.Sprintf(". Beyond BOINC, creditsim's server trust with the fourth system holds it for %d of %d%s", len(beyond), n, listIn(beyond))
	out += " within the threat model; past it (more than a third of the accounts inflating, claims deflated, colluding fakes beside churning identities) it stops: `creditsim sweep scenarios/sweeps/v4trust-limits.yaml` measures where, and `creditsim attack defended` finds the worst case beyond it."
	return out
}

// listIn is " (a, b)" for a non-empty list.
func listIn(xs []string) string {
	if len(xs) == 0 {
		return ""
	}
	return " (" + strings.Join(xs, ", ") + ")"
}

// mostOf is the key with the largest count (the first by name of equals).
func mostOf(m map[string]int) (string, int) {
	best, n := "", 0
	for _, k := range results.SortedKeys(m) {
		if m[k] > n {
			best, n = k, m[k]
		}
	}
	return best, n
}
