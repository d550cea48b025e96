package results

import (
	"bytes"
	"html/template"
	"math"
	"strconv"
	"strings"
)

// Definitions say, one line per figure, what it measures and what 1
// means; the report and README use them.
var Definitions = []struct{ Name, Text string }{
	{"honest_ratio", "ΣG/ΣD over honest accounts: granted over deserved credit (D = true FLOPs at the reference scale). 1 = honest work is paid exactly what it deserves; a peak-FLOPS system gives about its scale / reference scale / efficiency."},
	{"device_neutrality", "G/D of GPU results over G/D of CPU results, pooled over apps with both kinds. 1 = a FLOP is paid the same on either device."},
	{"host_neutrality_cv", "Coefficient of variation of per-host G/D over honest hosts with at least 10 counted results. 0 = every host is paid alike per FLOP."},
	{"host_neutrality_range", "95th over 5th percentile of per-host G/D over honest hosts. 1 = no spread."},
	{"host_gd_efficiency_slope", "Slope of per-host G/D against host efficiency. 0 = efficiency does not change pay per FLOP."},
	{"project_neutrality", "Largest over smallest per-project G/D. 1 = every project pays a FLOP alike."},
	{"cheat_ratio.<kind>", "An agent kind's G/D over honest accounts' G/D on the same devices. 1 = the behaviour gained nothing; the CreditNew design page's bound is 1.1."},
	{"cheat_credit_per_day.<kind>", "For kinds that do no real work: their credit per host-day over an honest host's. 0 = cheating earned nothing."},
	{"failed_benchmark_ratio", "G/D of hosts whose benchmark failed (reported 1e9). 1 = they are paid as deserved."},
	{"worst_account_ratio", "The largest account G/D over the honest G/D, over accounts with at least 10 counted results. 1 = no account gains."},
	{"total_credit", "Credit granted to counted results."},
	{"device_neutrality_by_plan_class", "Device neutrality per GPU plan class (or GPU type when unnamed), against the CPU versions of the same apps. 1 = neutral."},
	{"cross_project", "The community's cross-project statistic per pair of projects: the mean over hosts with CPU time in both of the ratio of their credit per CPU second. 1 = both pay a CPU second alike (GPU work, counted by CPU time, distorts it)."},
	{"credit_spread", "Mean relative difference (|a − b| / mean) of the credit two valid replicas of one workunit get. 0 = identical jobs get identical credit."},
	{"settle_days", "Per internal series (scales, min_avg_pfc, factors): the last day it left ±5% of its final value. Smaller = settles sooner."},
	{"rac_gflops", "RAC / 100 and RAC / 200 over honest hosts' true GFLOPS under the same 7-day weighting. 1 = that reading of RAC is the host's true speed."},
	{"runtime_estimate_error", "Σ|R − T| / ΣT of the server's runtime estimates against true runtimes. 0 = exact."},
	{"outcomes", "How counted results ended, the same for every policy: the fractions that succeeded, failed on the client, were aborted or timed out (no reply), and the share of the deserved credit in results that timed out, which no job-based system pays. A large share means dispatch, not credit, drives the figures."},
}

type scoreCell struct {
	Text  string
	Best  bool
	Class string
}

type scoreHTMLRow struct {
	Policy string
	Cells  []scoreCell
}

type reportRow struct {
	Name                                                     string
	Scale, Honest, Device, HostCV, HostRange, Project, Worst string
	Total                                                    string
}

type reportData struct {
	S           *Summary
	Score       *Scorecard
	ScoreHead   [NumScoreColumns]struct{ Group, Name, Ideal string }
	ScoreRows   []scoreHTMLRow
	Outcomes    []struct{ Name, Value string }
	Description string
	Rows        []reportRow
	Defs        []struct{ Name, Text string }
	Plots       []Plot
	Scenario    string
}

func cell(n Num, ci [2]Num, ok bool) string {
	x := float64(n)
	if math.IsNaN(x) {
		return "–"
	}
	s := strconv.FormatFloat(x, 'g', 4, 64)
	if ok && !math.IsNaN(float64(ci[0])) {
		s += " [" + strconv.FormatFloat(float64(ci[0]), 'g', 3, 64) + ", " + strconv.FormatFloat(float64(ci[1]), 'g', 3, 64) + "]"
	}
	return s
}

var reportTmpl = template.Must(template.New("report").Parse(`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<title>creditsim: {{.S.Scenario}}</title>
<style>
body{font-family:sans-serif;max-width:70em;margin:2em auto;padding:0 1em;color:#222}
table{border-collapse:collapse}td,th{border:1px solid #bbb;padding:.3em .6em;text-align:right}
th{background:#eee}td:first-child,th:first-child{text-align:left}
figure{margin:2em 0}img{max-width:100%;border:1px solid #ddd}figcaption{color:#444}
pre{background:#f6f6f6;padding:1em;overflow:auto}dt{font-family:monospace;margin-top:.5em}
td.bad{color:#b00020}th[colspan]{text-align:center}
</style></head><body>
<h1>creditsim report: {{.S.Scenario}}</h1>
<p>{{.Description}}</p>
<p>{{.S.Replications}} replication(s), seed {{.S.Seed}}, {{.S.SimulatedDays}} simulated days, results counted from day {{.S.CountedFromDay}};
{{.S.CountedResults}} of {{.S.Results}} results counted. D is credited at {{.S.CobblestonePerGFLOPSDay}} Cobblestones per GFLOPS-day.
Values are means over replications with 95% intervals in brackets.</p>
<section id="scorecard">
<h2>Scorecard</h2>
<p>Which system is fair, which resists cheaters. Fairness is read from the spread between honest hosts and from device and project neutrality; cheat resistance from cheat ratios against the CreditNew design's bound of 1.1. <b>Bold</b>: the best value of its column; <span class="bad">red</span>: a neutrality outside [1/1.1, 1.1], a cheat ratio above 1.1, or, for behaviours that do no work, more than a tenth of an honest host's credit per day.</p>
<table><tr><th rowspan="2">policy</th><th colspan="3">fairness</th><th colspan="3">cheat resistance</th><th>calibration</th></tr>
<tr>{{range .ScoreHead}}<th>{{.Name}}<br><small>ideal {{.Ideal}}</small></th>{{end}}</tr>
{{range .ScoreRows}}<tr><td>{{.Policy}}</td>{{range .Cells}}<td{{if .Class}} class="{{.Class}}"{{end}}>{{if .Best}}<b>{{.Text}}</b>{{else}}{{.Text}}{{end}}</td>{{end}}</tr>
{{end}}</table>
<ul>{{range .Score.Verdict}}<li>{{.}}</li>{{end}}</ul>
</section>
<h2>Headline figures</h2>
<table><tr><th>policy</th><th>scale</th><th>honest G/D</th><th>device</th><th>host CV</th><th>host p95/p5</th><th>project</th><th>worst account</th><th>total credit</th></tr>
{{range .Rows}}<tr><td>{{.Name}}</td><td>{{.Scale}}</td><td>{{.Honest}}</td><td>{{.Device}}</td><td>{{.HostCV}}</td><td>{{.HostRange}}</td><td>{{.Project}}</td><td>{{.Worst}}</td><td>{{.Total}}</td></tr>
{{end}}</table>
<h2>How results ended</h2>
<p>The same for every policy (see <code>outcomes</code> below).</p>
<table><tr>{{range .Outcomes}}<th>{{.Name}}</th>{{end}}</tr><tr>{{range .Outcomes}}<td>{{.Value}}</td>{{end}}</tr></table>
<h2>What each figure means</h2>
<dl>{{range .Defs}}<dt>{{.Name}}</dt><dd>{{.Text}}</dd>{{end}}</dl>
<h2>Plots</h2>
{{range .Plots}}<figure><img src="{{.File}}" alt="{{.Title}}"><figcaption><b>{{.Title}}.</b> {{.Caption}}</figcaption></figure>
{{end}}
<h2>Scenario as run</h2>
<p>SHA-256 {{.S.ScenarioSHA256}}, {{.S.Tool}}.</p>
<pre>{{.Scenario}}</pre>
</body></html>
`))

// Report returns report.html for a run: the headline table, the figure
// definitions, every plot (referenced by file name, beside it in the
// output folder) and the scenario as run.
func Report(s *Summary, names []string, description string, plots []Plot, scenario []byte) ([]byte, error) {
	d := reportData{S: s, Description: description, Defs: Definitions, Plots: plots, Scenario: string(scenario)}
	d.Score = NewScorecard(s, names)
	d.ScoreHead = ScoreColumns
	for i, r := range d.Score.Rows {
		row := scoreHTMLRow{Policy: r.Policy}
		for c := 0; c < NumScoreColumns; c++ {
			t := FormatScore(r.Values[c])
			if c == ColCheat && r.CheatKind != "" {
				t += " (" + r.CheatKind + ")"
			}
			if c == ColPerDay && r.PerDayKind != "" {
				t += " (" + r.PerDayKind + ")"
			}
			cl := ""
			if r.Flag[c] {
				cl = "bad"
			}
			row.Cells = append(row.Cells, scoreCell{Text: t, Best: d.Score.Best[c] == i, Class: cl})
		}
		d.ScoreRows = append(d.ScoreRows, row)
	}
	for _, o := range []struct{ key, name string }{{"success", "success"}, {"client_error", "client error"},
		{"aborted", "aborted"}, {"no_reply", "no reply (timed out)"}, {"no_reply_share_of_deserved", "deserved credit in timed-out results"}} {
		v := "–"
		if x, ok := s.Outcomes[o.key]; ok && !math.IsNaN(float64(x)) {
			v = strconv.FormatFloat(100*float64(x), 'f', 2, 64) + "%"
		}
		d.Outcomes = append(d.Outcomes, struct{ Name, Value string }{o.name, v})
	}
	for _, n := range names {
		ps := s.Policies[n]
		ci := func(k string) [2]Num { return ps.CI95[k] }
		_, has := ps.CI95["honest_ratio"]
		d.Rows = append(d.Rows, reportRow{
			Name: n, Scale: strconv.FormatFloat(float64(ps.Scale), 'g', -1, 64),
			Honest: cell(ps.HonestRatio, ci("honest_ratio"), has), Device: cell(ps.DeviceNeutrality, ci("device_neutrality"), has),
			HostCV: cell(ps.HostNeutralityCV, ci("host_neutrality_cv"), has), HostRange: cell(ps.HostNeutralityRange, ci("host_neutrality_range"), has),
			Project: cell(ps.ProjectNeutrality, ci("project_neutrality"), has), Worst: cell(ps.WorstAccountRatio, ci("worst_account_ratio"), has),
			Total: cell(ps.TotalCredit, ci("total_credit"), has),
		})
	}
	var b bytes.Buffer
	if err := reportTmpl.Execute(&b, d); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// Definition returns what a figure (a dotted summary name) measures and
// what 1 means, from Definitions; "" when it has none.
func Definition(fig string) string {
	for _, d := range Definitions {
		if d.Name == fig {
			return d.Text
		}
		if prefix, ok := strings.CutSuffix(d.Name, "<kind>"); ok && strings.HasPrefix(fig, prefix) {
			return d.Text
		}
	}
	if i := strings.IndexByte(fig, '.'); i > 0 {
		return Definition(fig[:i])
	}
	return ""
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
	Plots        []Plot
	Spec         string // sweep.resolved.yaml
}

// SweepReportRow is one point under one policy.
type SweepReportRow struct {
	Point   string
	Values  []string
	Policy  string
	Summary *PolicySummary
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
<p>{{.R.Points}} point(s) x {{.R.Replications}} replication(s), master seed {{.R.Seed}}. Values are means over replications
with 95% intervals in brackets; sweep.csv has every figure of every point.</p>
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
		R    *SweepReport
		Rows []sweepReportRow
	}{R: r}
	for _, row := range r.Rows {
		flat := row.Summary.Flat()
		out := sweepReportRow{Point: row.Point, Values: row.Values, Policy: row.Policy}
		for _, fig := range r.Figures {
			v, ok := flat[fig]
			if !ok {
				v = Num(math.NaN())
			}
			ci, has := row.Summary.CI95[fig]
			out.Cells = append(out.Cells, cell(v, ci, has))
		}
		d.Rows = append(d.Rows, out)
	}
	var b bytes.Buffer
	if err := sweepTmpl.Execute(&b, d); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
