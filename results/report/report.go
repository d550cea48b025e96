package report

import (
	"bytes"
	"html/template"
	"math"
	"strconv"

	"github.com/creditsim/creditsim/results"
	"github.com/creditsim/creditsim/results/plot"
)

type scoreCell struct {
	Text  string
	Best  bool
	Class string
}

type scoreHTMLRow struct {
	Policy string
	Cells  []scoreCell
	Scale  string // Cobblestones per GFLOPS-day, as the terminal's scorecard has it
}

type reportRow struct {
	Name  string
	Cells []string
}

type reportData struct {
	S           *results.Summary
	Score       *results.Scorecard
	ScoreGroups []struct {
		Name string
		Span int
	}
	ScoreHead    []struct{ Name, Ideal string }
	TableHead    []string
	ScoreRows    []scoreHTMLRow
	Outcomes     []struct{ Name, Value string }
	Price        []struct{ Name, Value string }
	Description  string
	Rows         []reportRow
	Defs         []results.Term
	Summary      *plot.Plot    // the one picture of the answer (scorecard.png)
	Across       []plot.Plot   // figures that compare the systems
	Systems      []systemPlots // each system's own figures, collapsed
	Scenario     string
	MinReps      int
	Replications string // "one replication", "3 replications"
	// Brief and Details are the scorecard's verdict: the answer in
	// brief above its table, each behaviour's outcome below it.
	Brief, Details []string
}

// systemPlots are one system's own figures (dynamics, RAC).
type systemPlots struct {
	Policy string
	Plots  []plot.Plot
}

// cell writes a figure's value and interval: a ratio (not Additive)
// above results.Unbounded is "unbounded", as the scorecard has it, and
// so is a bound of its interval.
func cell(fig string, n results.Num, ci [2]results.Num, ok bool) string {
	ratio := !results.Additive(fig)
	format := func(x float64, digits int) string {
		if ratio && x > results.Unbounded {
			return "unbounded"
		}
		return strconv.FormatFloat(x, 'g', digits, 64)
	}
	x := float64(n)
	if math.IsNaN(x) {
		return "–"
	}
	s := format(x, 4)
	if ok && !math.IsNaN(float64(ci[0])) {
		s += " [" + format(float64(ci[0]), 3) + ", " + format(float64(ci[1]), 3) + "]"
	}
	return s
}

var reportTmpl = template.Must(template.New("report").Parse(`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<title>creditsim: {{.S.Scenario}}</title>
<style>
body{font-family:sans-serif;max-width:70em;margin:2em auto;padding:0 1em;color:#222;line-height:1.4}
table{border-collapse:collapse}td,th{border:1px solid #bbb;padding:.3em .6em;text-align:right}
th{background:#eee}td:first-child,th:first-child{text-align:left}
figure{margin:1.5em 0}img{max-width:100%;border:1px solid #ddd}figcaption{color:#444}
pre{background:#f6f6f6;padding:1em;overflow:auto}dt{font-family:monospace;margin-top:.5em}
td.bad,p.bad{color:#b00020}th[colspan]{text-align:center}
details{margin:.6em 0;border:1px solid #ddd;padding:.3em .8em}summary{cursor:pointer;font-weight:bold}
p.meta,p.note{color:#444}
</style></head><body>
<h1>creditsim report: {{.S.Scenario}}</h1>
<p>{{.Description}}</p>
<p class="meta">{{.Replications}}, seed {{.S.Seed}}, {{.S.SimulatedDays}} simulated days, results counted from day {{.S.CountedFromDay}};
{{.S.CountedResults}} of {{.S.Results}} results counted. D, the credit a result's work deserves, is its true FLOPs at {{.S.CobblestonePerGFLOPSDay}} Cobblestones per GFLOPS-day.
{{if ge .S.Replications .MinReps}}Values are means over replications with 95% intervals in brackets; an interval is cut to its figure's range (at 0, or at the days simulated) where the t-interval leaves it.{{else}}Values are means over replications. No 95% intervals: an interval needs at least {{.MinReps}} replications (from two, it rests on one degree of freedom and says next to nothing).{{end}}</p>
{{range .S.Warnings}}<p class="bad"><b>Warning:</b> {{.}}</p>
{{end}}<section id="answer">
<h2>The answer</h2>
<ul>{{range .Brief}}<li>{{.}}</li>{{end}}</ul>
<table><tr><th rowspan="2">policy</th>{{range .ScoreGroups}}<th colspan="{{.Span}}">{{.Name}}</th>{{end}}<th rowspan="2">scale<br><small>Cobblestones per GFLOPS-day</small></th></tr>
<tr>{{range .ScoreHead}}<th>{{.Name}}<br><small>ideal {{.Ideal}}</small></th>{{end}}</tr>
{{range .ScoreRows}}<tr><td>{{.Policy}}</td>{{range .Cells}}<td{{if .Class}} class="{{.Class}}"{{end}}>{{if .Best}}<b>{{.Text}}</b>{{else}}{{.Text}}{{end}}</td>{{end}}<td>{{.Scale}}</td></tr>
{{end}}</table>
{{range .Score.NotMeasured}}<p class="note">{{.}}.</p>
{{end}}<p class="note">Fairness is read from the spread between honest hosts and from device and project neutrality; cheat resistance from each behaviour's gain over the honest twin (the same world with every behaviour switched off) against the CreditNew design's bound of 1.1, the one bound for every kind, from the worst account's gain beyond what honest accounts reach by chance, and from the harm done to honest accounts. <b>Bold</b>: the best value of its column; <span class="bad">red</span>: a neutrality outside [1/1.1, 1.1], a harm outside [0.95, 1.1] (honest accounts lost more than 5%, or were paid more than 1.1 times), or a gain above 1.1.</p>
{{with .Summary}}<figure><img src="{{.File}}" alt="{{.Title}}"><figcaption><b>{{.Title}}.</b> {{.Caption}}</figcaption></figure>{{end}}
{{if .Details}}<h3>In detail</h3>
<ul>{{range .Details}}<li>{{.}}</li>{{end}}</ul>{{end}}
</section>
{{if .Across}}<section id="figures">
<h2>The figures behind it</h2>
{{range .Across}}<figure><img src="{{.File}}" alt="{{.Title}}"><figcaption><b>{{.Title}}.</b> {{.Caption}}</figcaption></figure>
{{end}}</section>{{end}}
{{if .Systems}}<section id="systems">
<h2>Each system over time</h2>
<p class="note">Replication 1, day by day: how each system's scales settle and what its sample hosts are paid. Open a system to see its plots.</p>
{{range .Systems}}<details><summary>{{.Policy}}</summary>
{{range .Plots}}<figure><img src="{{.File}}" alt="{{.Title}}" loading="lazy"><figcaption><b>{{.Title}}.</b> {{.Caption}}</figcaption></figure>
{{end}}</details>
{{end}}</section>{{end}}
<section id="tables">
<h2>Every figure, with its interval</h2>
<table><tr><th>policy</th>{{range .TableHead}}<th>{{.}}</th>{{end}}</tr>
{{range .Rows}}<tr><td>{{.Name}}</td>{{range .Cells}}<td>{{.}}</td>{{end}}</tr>
{{end}}</table>
<h3>How results ended</h3>
<p class="note">The same for every policy (see <code>outcomes</code> below).</p>
<table><tr>{{range .Outcomes}}<th>{{.Name}}</th>{{end}}</tr><tr>{{range .Outcomes}}<td>{{.Value}}</td>{{end}}</tr></table>
{{if .Price}}<h3>What the server's checks cost</h3>
<p class="note">The same for every policy (see <code>price</code> below).</p>
<table><tr>{{range .Price}}<th>{{.Name}}</th>{{end}}</tr><tr>{{range .Price}}<td>{{.Value}}</td>{{end}}</tr></table>{{end}}
</section>
<section id="definitions">
<h2>What each figure means</h2>
<p class="note">The figures this run produced; summary.json has them all.</p>
<dl>{{range .Defs}}<dt>{{.Name}}</dt><dd>{{.Text}}</dd>{{end}}</dl>
</section>
<details><summary>Scenario as run</summary>
<p>SHA-256 {{.S.ScenarioSHA256}}, {{.S.Tool}}.</p>
<pre>{{.Scenario}}</pre>
</details>
</body></html>
`))

// Report returns report.html for a run: the answer (the scorecard, its
// sentences and its picture) first, then the figures that compare the
// systems, each system's own plots collapsed, every figure with its
// interval, the definitions of the figures the run produced, and the
// scenario as run. Plots are referenced by file name, beside it in the
// output folder.
func Report(s *results.Summary, names []string, description string, plots []plot.Plot, scenario []byte) ([]byte, error) {
	d := reportData{S: s, Description: description, Defs: results.GlossaryOf(s), Scenario: string(scenario),
		MinReps: results.MinIntervalReplications, Replications: "one replication"}
	if s.Replications != 1 {
		d.Replications = strconv.Itoa(s.Replications) + " replications"
	}
	bySystem := map[string]int{}
	for i := range plots {
		switch p := plots[i]; {
		case p.File == "scorecard.png":
			d.Summary = &plots[i]
		case p.Policy != "":
			k, ok := bySystem[p.Policy]
			if !ok {
				k = len(d.Systems)
				bySystem[p.Policy] = k
				d.Systems = append(d.Systems, systemPlots{Policy: p.Policy})
			}
			d.Systems[k].Plots = append(d.Systems[k].Plots, p)
		default:
			d.Across = append(d.Across, p)
		}
	}
	d.Score = results.NewScorecard(s, names)
	d.Brief, d.Details = d.Score.Verdict[:d.Score.Short], d.Score.Verdict[d.Score.Short:]
	d.scorecard()
	d.tables(s, names)
	var b bytes.Buffer
	if err := reportTmpl.Execute(&b, d); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// scorecard fills the scorecard's groups, heads and rows: the columns
// measured, a gain with its behaviour, an account's gain with what
// chance gives.
func (d *reportData) scorecard() {
	for _, c := range d.Score.Shown {
		col := results.ScoreColumns[c]
		d.ScoreHead = append(d.ScoreHead, struct{ Name, Ideal string }{col.Name, col.Ideal()})
		if n := len(d.ScoreGroups); n > 0 && d.ScoreGroups[n-1].Name == col.Group {
			d.ScoreGroups[n-1].Span++
		} else {
			d.ScoreGroups = append(d.ScoreGroups, struct {
				Name string
				Span int
			}{col.Group, 1})
		}
	}
	for i, r := range d.Score.Rows {
		row := scoreHTMLRow{Policy: r.Policy, Scale: results.FormatScore(r.Scale)}
		for _, c := range d.Score.Shown {
			t := results.FormatScore(r.Values[c])
			if c == results.ColGain && r.GainKind != "" {
				t += " (" + r.GainKind + ")"
			}
			if c == results.ColAccountGain && results.Defined(r.AccountNoise) && results.Defined(r.Values[c]) {
				t += " (chance " + results.FormatScore(r.AccountNoise) + ")"
			}
			cl := ""
			if r.Flag[c] {
				cl = "bad"
			}
			row.Cells = append(row.Cells, scoreCell{Text: t, Best: d.Score.Best[c] == i, Class: cl})
		}
		d.ScoreRows = append(d.ScoreRows, row)
	}
}

// tables fills the outcomes, the price and the headline table of every
// figure with its interval.
func (d *reportData) tables(s *results.Summary, names []string) {
	var table []*results.Figure
	for _, f := range results.Registry {
		if f.Table {
			table = append(table, f)
			d.TableHead = append(d.TableHead, f.Short)
		}
	}
	for _, o := range []struct{ key, name string }{{"success", "success"}, {"client_error", "client error"},
		{"aborted", "aborted"}, {"no_reply", "no reply (timed out)"}, {"no_reply_share_of_deserved", "deserved credit in timed-out results"}} {
		v := "–"
		if x, ok := s.Outcomes[o.key]; ok && !math.IsNaN(float64(x)) {
			v = strconv.FormatFloat(100*float64(x), 'f', 2, 64) + "%"
		}
		d.Outcomes = append(d.Outcomes, struct{ Name, Value string }{o.name, v})
	}
	d.Price = priceCells(s.Price)
	for _, n := range names {
		ps := s.Policies[n]
		flat := ps.Flat()
		row := reportRow{Name: n}
		for _, f := range table {
			if f.Name == "scale" {
				row.Cells = append(row.Cells, strconv.FormatFloat(float64(ps.Scale), 'g', -1, 64))
				continue
			}
			ci, has := ps.CI95[f.Name]
			row.Cells = append(row.Cells, cell(f.Name, flat[f.Name], ci, has))
		}
		d.Rows = append(d.Rows, row)
	}
}

// SweepReport is what sweep.html shows.
type SweepReport struct {
	Name         string
	Parameters   []string
	Points       int
	Replications int
	Seed         uint64
	Figures      []string // the table's columns, dotted summary names
	Rows         []SweepReportRow
	Plots        []plot.Plot
	Spec         string // sweep.resolved.yaml
}

// SweepReportRow is one point under one policy.
type SweepReportRow struct {
	Point   string
	Values  []string
	Policy  string
	Summary *results.PolicySummary
}

type sweepReportRow struct {
	Point  string
	Values []string
	Policy string
	Cells  []string
}

var sweepTmpl = template.Must(template.New("sweep").Parse(`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<title>creditsim sweep: {{.R.Name}}</title>
<style>
body{font-family:sans-serif;max-width:80em;margin:2em auto;padding:0 1em;color:#222}
table{border-collapse:collapse;font-size:90%}td,th{border:1px solid #bbb;padding:.3em .6em;text-align:right}
th{background:#eee}td.k,th.k{text-align:left}
figure{margin:2em 0}img{max-width:100%;border:1px solid #ddd}figcaption{color:#444}
pre{background:#f6f6f6;padding:1em;overflow:auto}
</style></head><body>
<h1>creditsim sweep: {{.R.Name}}</h1>
<p>{{.R.Points}} point(s) x {{.R.Replications}} replication(s), master seed {{.R.Seed}}. Values are means over replications{{if ge .R.Replications .MinReps}}
with 95% intervals in brackets{{else}} (no 95% intervals: they need at least {{.MinReps}} replications){{end}}; sweep.csv has every figure of every point.</p>
<h2>Plots</h2>
{{range .R.Plots}}<figure><img src="{{.File}}" alt="{{.Title}}"><figcaption><b>{{.Title}}.</b> {{.Caption}}</figcaption></figure>
{{end}}
<h2>Figures per point</h2>
<table><tr><th class="k">point</th>{{range .R.Parameters}}<th class="k">{{.}}</th>{{end}}<th class="k">policy</th>{{range .R.Figures}}<th>{{.}}</th>{{end}}</tr>
{{range .Rows}}<tr><td class="k">{{.Point}}</td>{{range .Values}}<td class="k">{{.}}</td>{{end}}<td class="k">{{.Policy}}</td>{{range .Cells}}<td>{{.}}</td>{{end}}</tr>
{{end}}</table>
<h2>Sweep as run</h2>
<pre>{{.R.Spec}}</pre>
</body></html>
`))

// HTML renders sweep.html; the plots are referenced by file name, beside
// it in the sweep's folder.
func (r *SweepReport) HTML() ([]byte, error) {
	d := struct {
		R       *SweepReport
		Rows    []sweepReportRow
		MinReps int
	}{R: r, MinReps: results.MinIntervalReplications}
	for _, row := range r.Rows {
		flat := row.Summary.Flat()
		out := sweepReportRow{Point: row.Point, Values: row.Values, Policy: row.Policy}
		for _, fig := range r.Figures {
			v, ok := flat[fig]
			if !ok {
				v = results.Num(math.NaN())
			}
			ci, has := row.Summary.CI95[fig]
			out.Cells = append(out.Cells, cell(fig, v, ci, has))
		}
		d.Rows = append(d.Rows, out)
	}
	var b bytes.Buffer
	if err := sweepTmpl.Execute(&b, d); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// priceCells labels the run's price figures (Summary.Price) in a fixed
// order, shares as percentages; absent ones are left out.
func priceCells(price map[string]results.Num) []struct{ Name, Value string } {
	var out []struct{ Name, Value string }
	for _, o := range []struct {
		key, name string
		percent   bool
	}{{"results_per_validated_workunit", "results sent per validated workunit", false},
		{"project_checks_per_validated_workunit", "project checks per validated workunit", false},
		{"failed_check_share", "checks that found a group wrong", true},
		{"honest_trusted_share", "honest hosts the server came to trust", true},
		{"honest_days_to_trust", "days until an honest host is trusted", false},
		{"honest_revoked_share", "honest valid results whose escrowed credit was revoked", true},
		{"honest_escrow_at_end_share", "honest valid results still in escrow at the end", true}} {
		x, ok := price[o.key]
		if !ok {
			continue
		}
		v := "–"
		switch {
		case math.IsNaN(float64(x)):
		case o.percent:
			v = strconv.FormatFloat(100*float64(x), 'f', 1, 64) + "%"
		default:
			v = strconv.FormatFloat(float64(x), 'f', 3, 64)
		}
		out = append(out, struct{ Name, Value string }{o.name, v})
	}
	return out
}
