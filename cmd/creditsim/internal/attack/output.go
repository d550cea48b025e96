package attack

import (
	"bytes"
	"fmt"
	"html/template"
	"math"
	"strings"

	"github.com/creditsim/creditsim/results"
	"github.com/creditsim/creditsim/results/plot"
)

// Bound is the CreditNew design page's limit: no behaviour should earn
// more than 1.1 times what honest work earns.
const Bound = 1.1

// HarmFloor is results.HarmFloor: honest accounts keep at least 95% of
// their twin's credit.
const HarmFloor = results.HarmFloor

// Score is how far a behaviour breaks the two bounds, in units of each
// (1 = at the bound): the larger of ln gain / ln Bound and, where honest
// accounts lose, ln harm / ln HarmFloor; and which figure that is
// ("gain" or "harm"). An unbounded gain scores +Inf; a gain of 0 (or
// none) with no harm scores -Inf.
func Score(gain, harm float64) (float64, string) {
	g := math.Inf(-1)
	if gain > 0 {
		g = math.Log(gain) / math.Log(Bound)
	}
	if harm > 0 && harm < 1 {
		if h := math.Log(harm) / math.Log(HarmFloor); h > g {
			return h, "harm"
		}
	}
	return g, "gain"
}

// Write writes the attack's outputs into dir (an existing folder replaced
// as r allows, never a folder in protect), all or nothing: attack.json, for each
// policy attack-<policy>.yaml (the scenario that reproduces its worst
// case with creditsim run) and attack-<policy>.png (its search), and
// attack.html.
func Write(rep *Report, dir string, r results.Replace, protect ...string) error {
	out, err := results.NewOutDir(dir, r, protect...)
	if err != nil {
		return err
	}
	write := func(name string, b []byte) {
		if err == nil {
			err = out.Write(name, b)
		}
	}
	js, jerr := results.JSON(rep)
	if jerr != nil {
		err = jerr
	}
	write("attack.json", js)
	for i := range rep.Worst {
		w := &rep.Worst[i]
		write("attack-"+w.Policy+".yaml", w.Scenario)
		png, perr := searchPlot(rep, w)
		if perr != nil && err == nil {
			err = perr
		}
		write("attack-"+w.Policy+".png", png)
	}
	if rep.Scan != nil {
		png, perr := scanPlot(rep)
		if perr != nil && err == nil {
			err = perr
		}
		write("attack-shares.png", png)
	}
	html, herr := page(rep)
	if herr != nil && err == nil {
		err = herr
	}
	write("attack.html", html)
	if err != nil {
		out.Abort()
		return err
	}
	if err := out.Commit(); err != nil {
		out.Abort()
		return err
	}
	return nil
}

// searchPlot draws the search's runs against w's policy, with its
// confirmed worst case and the bound.
func searchPlot(rep *Report, w *Worst) ([]byte, error) {
	var pts []plot.AttackPoint
	skipped := 0
	for _, ev := range rep.Evaluations {
		if ev.Skipped != "" {
			skipped++
		}
		v, ok := ev.Values[w.Policy]
		if !ok {
			continue
		}
		pts = append(pts, plot.AttackPoint{Run: ev.Index, Value: float64(v), Space: ev.Space, Library: ev.Phase == "library"})
	}
	title := fmt.Sprintf("%s: attack search on %s", w.Policy, rep.Scenario)
	if skipped > 0 {
		title += fmt.Sprintf(" (%d too costly, not run)", skipped)
	}
	if _, fig := Score(float64(w.Confirmed.Mean), float64(w.Harm.Mean)); fig == "harm" {
		// The worst is the one that harms honest accounts most; the plot
		// shows every run's gain, its own included.
		title += fmt.Sprintf("\nworst by harm: honest accounts keep %.3g [%.3g, %.3g]", float64(w.Harm.Mean), float64(w.Harm.Low), float64(w.Harm.High))
	}
	return plot.AttackSearch(title, "gain over the honest twin (1 = gained nothing), log scale", Bound, pts,
		float64(w.Confirmed.Mean), float64(w.Confirmed.Low), float64(w.Confirmed.High))
}

var pageTmpl = template.Must(template.New("attack").Parse(`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>creditsim attack: {{.R.Scenario}}</title>
<style>body{font-family:sans-serif;max-width:1100px;margin:2em auto;line-height:1.4}
table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:4px 8px;text-align:left}
td{overflow-wrap:anywhere}td.n{text-align:right;font-variant-numeric:tabular-nums;overflow-wrap:normal}.over{color:#b00;font-weight:bold}img{max-width:100%}</style></head>
<body><h1>The worst cheat each policy allows: {{.R.Scenario}}</h1>
<p>For each credit policy, {{.R.Runs}} simulated runs searched the behaviours a cheater can choose
(every agent kind, the share of accounts it holds and its parameters) for the one that earns most
over honest work, on the scenario's seed {{.R.Seed}}: every candidate saw the same hosts, jobs and
draws (common random numbers), so differences are the behaviour's. The search starts from every
kind at the scenario's own settings (or the defaults), then a quasi-random design over each kind's
parameters, then pairs of kinds on one account (shown as kind+kind): the kinds most profitable for
each policy combined two by two, and the pairs most profitable in a screen of every pair. Pairs: {{.Screen}}. Then Nelder-Mead for each policy from its best candidates. Each policy's most
profitable candidates on the search seed, and its best fixed setting, were then run again on fresh
seeds ({{.Reps}} replications of seed {{.Seed1}}), and the one that earned most there is the worst case
below, with its 95% interval: the best of many candidates on one seed is biased upwards, so a lucky
draw is not taken for a weakness, nor does it hide one. The figure is the gain over the honest twin: the
cheating hosts' credit per host-day over the same hosts' credit per host-day in the same world with
every behaviour switched off (1: the behaviour gained nothing). The CreditNew design page's bound is
{{.Bound}}: no behaviour should earn more than {{.Bound}} times what the same hosts earn honestly.</p>
<table><tr><th>policy</th><th>worst behaviour found</th><th>figure</th><th>on fresh seeds (95%)</th><th>honest harm there</th>
<th>on the search seed</th><th>best fixed setting (kind)</th><th>reproduce</th></tr>
{{range .Rows}}<tr><td>{{.Policy}}</td><td>{{.Behaviour}}</td><td>{{.Figure}}</td>
<td class="n{{if .Over}} over{{end}}">{{.Confirmed}}</td><td class="n">{{.Harm}}</td><td class="n">{{.Search}}</td><td class="n">{{.Library}}</td>
<td><code>creditsim run attack-{{.Policy}}.yaml</code></td></tr>
{{end}}</table>
{{with .Scan}}<h2>Share scan</h2>
<p>The search again at each share of accounts, every candidate's share pinned there (the other parameters
searched as above), and each policy's worst case confirmed on fresh seeds. The last column is the
smallest share at which the confirmed worst gain is over {{$.Bound}}.</p>
<table><tr><th>policy</th>{{range .Shares}}<th>{{.}} of accounts</th>{{end}}<th>over {{$.Bound}} from</th></tr>
{{range .Rows}}<tr><td>{{.Policy}}</td>{{range .Gains}}<td class="n{{if .Over}} over{{end}}">{{.Text}}</td>{{end}}<td class="n">{{.From}}</td></tr>
{{end}}</table><img src="attack-shares.png" alt="worst gain against the share of accounts">
{{end}}{{range .Rows}}<h2>{{.Policy}}</h2><p>Worst: {{.Behaviour}}.</p><img src="attack-{{.Policy}}.png" alt="search for {{.Policy}}">
{{end}}</body></html>
`))

type pageRow struct {
	Policy, Behaviour, Figure, Confirmed, Harm, Search, Library string
	Over                                                        bool
}

func page(rep *Report) ([]byte, error) {
	num := short
	var rows []pageRow
	reps, seed := 0, uint64(0)
	for _, w := range rep.Worst {
		c := w.Confirmed
		ci := num(c.Mean)
		if !math.IsNaN(float64(c.Low)) {
			ci += " [" + num(c.Low) + ", " + num(c.High) + "]"
		}
		reps, seed = c.Replications, c.Seed
		rows = append(rows, pageRow{Policy: w.Policy, Behaviour: w.Behaviour.String(), Figure: w.Figure, Confirmed: ci, Harm: num(w.Harm.Mean),
			Search: num(w.Search), Library: library(w), Over: w.Breaks != ""})
	}
	var b bytes.Buffer
	err := pageTmpl.Execute(&b, map[string]any{"R": rep, "Rows": rows, "Reps": reps, "Seed1": seed, "Bound": Bound,
		"Scan": scanPage(rep), "Screen": rep.Screen.String()})
	return b.Bytes(), err
}

// scanCell is one figure of the share scan's table.
type scanCell struct {
	Text string
	Over bool
}

// scanPage is the share scan's table for the page, or nil without one.
func scanPage(rep *Report) any {
	if rep.Scan == nil {
		return nil
	}
	type row struct {
		Policy, From string
		Gains        []scanCell
	}
	var rows []row
	for _, p := range rep.Policies {
		r := row{Policy: p, From: "none of these"}
		if s, ok := rep.Scan.FirstOverBound[p]; ok {
			r.From = fmt.Sprintf("%g", s)
		}
		_, gains := rep.Scan.Gains(p)
		for _, g := range gains {
			r.Gains = append(r.Gains, scanCell{results.FormatScore(g), g > Bound})
		}
		rows = append(rows, r)
	}
	shares, _ := rep.Scan.Gains("")
	return map[string]any{"Shares": shares, "Rows": rows}
}

// scanPlot draws each policy's confirmed worst gain against the share of
// accounts, with its interval and the bound.
func scanPlot(rep *Report) ([]byte, error) {
	// Shares as percentages, evenly spaced: a scan's shares are few and
	// span decades.
	var xs []string
	for _, st := range rep.Scan.Steps {
		xs = append(xs, fmt.Sprintf("%g%%", 100*st.Share))
	}
	var series []plot.SweepSeries
	for _, p := range rep.Policies {
		s := plot.SweepSeries{Name: p}
		for _, st := range rep.Scan.Steps {
			m, lo, hi := math.NaN(), math.NaN(), math.NaN()
			for _, w := range st.Worst {
				if w.Policy == p {
					m, lo, hi = float64(w.Confirmed.Mean), float64(w.Confirmed.Low), float64(w.Confirmed.High)
				}
			}
			s.Mean, s.Lo, s.Hi = append(s.Mean, m), append(s.Lo, lo), append(s.Hi, hi)
		}
		series = append(series, s)
	}
	return plot.SweepLines(fmt.Sprintf("%s: the worst gain found at each share of accounts (confirmed, 95%% interval)", rep.Scenario),
		"share of accounts cheating (each a search of its own)", "worst_gain", xs, series)
}

// Table is the attack's result as text: per policy, the worst behaviour
// found, its figure on fresh seeds with the 95% interval, and whether it
// breaks the 1.1 bound.
func Table(rep *Report) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Worst behaviour found per policy, by its gain (bound %g) or honest accounts' harm (floor %g) (%d search runs on seed %d; confirmed on fresh seeds):\n",
		Bound, HarmFloor, rep.Runs, rep.Seed)
	for _, w := range rep.Worst {
		c := w.Confirmed
		mark := ""
		switch w.Breaks {
		case "gain":
			mark = fmt.Sprintf("  > %g", Bound)
		case "harm":
			mark = fmt.Sprintf("  harm < %g", HarmFloor)
		}
		fmt.Fprintf(&b, "  %-28s %s [%s, %s]%s, honest accounts' harm %s\n    %s (%s; best fixed setting %s)\n", w.Policy, short(c.Mean), short(c.Low), short(c.High), mark,
			short(w.Harm.Mean), w.Behaviour, w.Figure, library(w))
	}
	fmt.Fprintf(&b, "Pairs: %s.\n", rep.Screen)
	if len(rep.Worst) > 0 {
		// The fresh seeds picked the worst of the candidates, so they are
		// not fresh for it: a further check needs others.
		fmt.Fprintf(&b, "The worst was picked on the fresh seeds; to check one on seeds no step saw: creditsim run attack-<policy>.yaml --set seed=%d --replications 10\n",
			rep.Seed+2)
	}
	return b.String()
}

// short writes a figure for people: 4 digits, "unbounded" for +Inf.
func short(x results.Num) string {
	if math.IsInf(float64(x), 1) {
		return results.UnboundedWord
	}
	if !results.Defined(float64(x)) {
		return "undefined"
	}
	return fmt.Sprintf("%.4g", float64(x))
}

// library is the best of the fixed settings for w's policy by Score:
// its kind, gain and harm.
func library(w Worst) string {
	if w.LibrarySpace == "" {
		return "none gave a figure"
	}
	s := w.LibrarySpace + ": gain " + short(w.Library)
	if results.Defined(float64(w.LibraryHarm)) {
		s += ", harm " + short(w.LibraryHarm)
	}
	return s
}
