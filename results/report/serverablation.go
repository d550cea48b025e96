package report

import (
	"bytes"
	"html/template"

	"github.com/creditsim/creditsim/results"
)

// ServerConfig is one server configuration of a server ablation, as its
// page shows it: its name, what the defence it switches off does ("" for
// the scenario's own), and its run's summary.
type ServerConfig struct {
	Name, Doc string
	Summary   *results.Summary
}

// ServerAblation renders ablation.html of creditsim ablate --server: the
// frontier (frontier.png beside it, when drawn), each configuration's
// price, and each policy's worst gain and harm under each.
func ServerAblation(scenario string, cfgs []ServerConfig, policies []string, frontier bool) ([]byte, error) {
	d := struct {
		Scenario  string
		Frontier  bool
		Configs   []configPrice
		PriceHead []string
		Rows      []reportRow
	}{Scenario: scenario, Frontier: frontier}
	d.PriceHead, d.Configs = priceTable(cfgs)
	for _, n := range policies {
		row := reportRow{Name: n}
		for _, c := range cfgs {
			ps := c.Summary.Policies[n]
			if ps == nil {
				row.Cells = append(row.Cells, "–")
				continue
			}
			row.Cells = append(row.Cells, results.FormatScore(float64(ps.WorstGain))+" / "+results.FormatScore(float64(ps.Harm)))
		}
		d.Rows = append(d.Rows, row)
	}
	var b bytes.Buffer
	if err := serverTmpl.Execute(&b, d); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

var serverTmpl = template.Must(template.New("server").Parse(`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<title>creditsim ablate --server: {{.Scenario}}</title>
<style>
body{font-family:sans-serif;max-width:80em;margin:2em auto;padding:0 1em;color:#222}
table{border-collapse:collapse;font-size:90%;margin:1em 0}td,th{border:1px solid #bbb;padding:.3em .6em;text-align:right}
th{background:#eee}td.k,th.k{text-align:left}
figure{margin:2em 0}img{max-width:100%;border:1px solid #ddd}figcaption{color:#444}
</style></head><body>
<h1>The server's defences on {{.Scenario}}: what each buys and what it costs</h1>
<p>A run per configuration, on the same seeds: the scenario's defences as
configured, then each switched off in turn, then none. Each policy's
<b>worst gain</b> is the largest credit per host-day a cheating behaviour
earned over the same hosts in the honest twin (1 = it gained nothing; the
design's bound is 1.1); <b>harm</b> is honest accounts' credit over theirs
in the twin (1 = unharmed). The <b>price</b> is what the project pays:
results sent and checks it computes per validated workunit, and what
honest hosts wait for or lose.</p>
{{if .Frontier}}<figure><img src="frontier.png" alt="each policy's worst gain against each configuration's price">
<figcaption><b>The frontier.</b> Each policy's worst gain (log scale; the
bottom edge holds 0.01 or less) against each configuration's price in jobs
computed per validated workunit: results sent plus the project's own
checks. A project chooses from the points below the dashed bound.</figcaption></figure>{{end}}
<h2>Worst gain / harm, per policy and configuration</h2>
<table><tr><th class="k">policy</th>{{range .Configs}}<th>{{.Name}}</th>{{end}}</tr>
{{range .Rows}}<tr><td class="k">{{.Name}}</td>{{range .Cells}}<td>{{.}}</td>{{end}}</tr>
{{end}}</table>
<p>–: undefined. Under a configuration where honest hosts were granted
nothing (escrow with no project checks: no host ever comes to be
trusted), neither figure has a denominator.</p>
<h2>The price of each configuration</h2>
<table><tr><th class="k">configuration</th><th class="k">the defence it switches off</th>{{range .PriceHead}}<th>{{.}}</th>{{end}}</tr>
{{range .Configs}}<tr><td class="k">{{.Name}}</td><td class="k">{{if .Doc}}{{.Doc}}{{else}}none: as configured{{end}}</td>{{range .Price}}<td>{{.Value}}</td>{{end}}</tr>
{{end}}</table>
<p>ablation.csv holds every figure under every configuration, and each
configuration's summary is beside it (summary-&lt;configuration&gt;.json).</p>
</body></html>
`))

// configPrice is a configuration's row of the price table.
type configPrice struct {
	Name, Doc string
	Price     []struct{ Name, Value string }
}

// priceTable sets every configuration's price under the same head: a
// figure a configuration lacks (no escrow, no trust) is "–".
func priceTable(cfgs []ServerConfig) (head []string, rows []configPrice) {
	all := map[string]results.Num{}
	for _, c := range cfgs {
		for k := range c.Summary.Price {
			all[k] = 0
		}
	}
	for _, p := range priceCells(all) {
		head = append(head, p.Name)
	}
	for _, c := range cfgs {
		has := map[string]string{}
		for _, p := range priceCells(c.Summary.Price) {
			has[p.Name] = p.Value
		}
		row := configPrice{Name: c.Name, Doc: c.Doc}
		for _, h := range head {
			v, ok := has[h]
			if !ok {
				v = "–"
			}
			row.Price = append(row.Price, struct{ Name, Value string }{h, v})
		}
		rows = append(rows, row)
	}
	return head, rows
}
