package replay

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"html/template"
	"math"
	"sort"
	"strconv"

	"github.com/creditsim/creditsim/policy"
	"github.com/creditsim/creditsim/results"
	"github.com/creditsim/creditsim/results/plot"
)

// Group is the credit of a set of results (a host, a user, an app, an
// app version): its count, CPU and elapsed hours, what the project
// claimed and granted, and each policy's total.
type Group struct {
	ID              int64
	Label           string
	Results         int
	CPUHours        float64
	ElapsedHours    float64
	Claimed         float64 // NaN when the input has no claims
	Granted         float64 // NaN when the input has no granted credit
	Credit          []float64
	RAC, GrantedRAC []float64 // hosts and users: per policy, at the end
}

// Summary is replay.json.
type Summary struct {
	Tool      string `json:"tool"`
	Input     string `json:"input"`
	Form      Form   `json:"form"`
	Results   int    `json:"results"`
	Validated int    `json:"validated_results"`
	// Compared is what policies are compared with: "granted_credit",
	// "claimed_credit" or "" (neither in the input).
	Compared string                    `json:"compared_with"`
	Policies map[string]*PolicySummary `json:"policies"`
	// NotRun says why each standard policy the input cannot feed is left
	// out; Absent names the figures a replay cannot give, and why.
	NotRun map[string]string `json:"not_run"`
	Absent []string          `json:"absent_figures"`
}

// PolicySummary is one policy's totals.
type PolicySummary struct {
	TotalCredit results.Num            `json:"total_credit"`
	VsCompared  results.Num            `json:"ratio_to_compared"`
	ByApp       map[string]results.Num `json:"total_by_app"`
	PerCPUHour  results.Num            `json:"credit_per_cpu_hour"`
	PerElapsed  results.Num            `json:"credit_per_elapsed_hour"`
}

// AbsentFigures are the figures of a run a replay cannot give: each needs
// the deserved credit (true FLOPs), which no project records.
var AbsentFigures = []string{"honest_ratio", "device_neutrality", "host_neutrality_cv", "host_neutrality_range",
	"project_neutrality", "cheat_ratio", "worst_account_ratio", "rac_gflops"}

// Outputs are a replay's files, by name.
type Outputs map[string][]byte

// Write makes a replay's outputs: per-result, per-version, per-app,
// per-host and per-user tables, replay.json (tool names the program in
// it), plots and report.html.
func Write(in *Input, o *Outcome, notRun map[string]string, tool string) (Outputs, error) {
	out := Outputs{}
	cmp := compared(in)
	out["replay-results.csv"] = resultsCSV(in, o)
	groupsOf := groups(in, o, cmp)
	for _, name := range []string{"versions", "apps"} {
		out["replay-"+name+".csv"] = groupCSV(groupsOf[name], o.Policies, false)
	}
	endRAC(in, o, groupsOf)
	for _, name := range []string{"hosts", "users"} {
		out["replay-"+name+".csv"] = groupCSV(groupsOf[name], o.Policies, true)
	}
	s := summary(in, o, groupsOf["apps"], cmp, notRun, tool)
	j, err := results.JSON(s)
	if err != nil {
		return nil, err
	}
	out["replay.json"] = j
	plots, err := replayPlots(o, groupsOf, cmp)
	if err != nil {
		return nil, err
	}
	for _, pl := range plots {
		out[pl.File] = pl.PNG
	}
	html, err := report(s, o.Policies, plots)
	if err != nil {
		return nil, err
	}
	out["report.html"] = html
	return out, nil
}

// compared is the column each policy's credit is compared with: the
// credit the project granted, else claimed, else "" (none).
func compared(in *Input) string {
	switch {
	case in.Has["granted_credit"]:
		return "granted_credit"
	case in.Has["claimed_credit"]:
		return "claimed_credit"
	}
	return ""
}

// resultsCSV is replay-results.csv: each result with the project's
// credit and every policy's.
func resultsCSV(in *Input, o *Outcome) []byte {
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	head := []string{"result_id", "workunit_id", "host_id", "user_id", "app_id", "app_version_id", "validate_state", "claimed_credit", "granted_credit"}
	head = append(head, o.Policies...)
	w.Write(head)
	f := func(x float64) string {
		if math.IsNaN(x) {
			return ""
		}
		return results.FormatFloat(x)
	}
	for i := range in.Rows {
		r := &in.Rows[i]
		rec := []string{strconv.FormatInt(r.ResultID, 10), strconv.FormatInt(r.WorkunitID, 10), strconv.FormatInt(r.HostID, 10),
			strconv.FormatInt(r.UserID, 10), strconv.FormatInt(r.AppID, 10), strconv.FormatInt(r.VersionID, 10),
			[]string{"init", "valid", "invalid"}[r.ValidateState], f(r.Claimed), f(r.Granted)}
		for p := range o.Policies {
			rec = append(rec, f(o.Credit[i][p]))
		}
		w.Write(rec)
	}
	w.Flush()
	return b.Bytes()
}

// groups sums the results by app version, app, host and user (each list
// in ID order); hosts and users get room for their RAC.
func groups(in *Input, o *Outcome, cmp string) map[string][]*Group {
	np := len(o.Policies)
	type keyed struct {
		name string
		key  func(i int) (int64, string)
		rac  bool
	}
	groupsOf := map[string][]*Group{}
	for _, k := range []keyed{
		{"versions", func(i int) (int64, string) {
			r := &in.Rows[i]
			label := "version " + strconv.FormatInt(r.VersionID, 10)
			if r.PlanClass != "" {
				label += " (" + r.PlanClass + ")"
			}
			return r.VersionID, label
		}, false},
		{"apps", func(i int) (int64, string) { return in.Rows[i].AppID, "app " + strconv.FormatInt(in.Rows[i].AppID, 10) }, false},
		{"hosts", func(i int) (int64, string) { return in.Rows[i].HostID, "" }, true},
		{"users", func(i int) (int64, string) { return in.Rows[i].UserID, "" }, true},
	} {
		byID := map[int64]*Group{}
		var list []*Group
		for i := range in.Rows {
			id, label := k.key(i)
			g := byID[id]
			if g == nil {
				g = newGroup(in, id, label, np, cmp)
				byID[id] = g
				list = append(list, g)
			}
			g.add(&in.Rows[i], o.Credit[i])
		}
		sort.Slice(list, func(a, b int) bool { return list[a].ID < list[b].ID })
		if k.rac {
			for _, g := range list {
				g.RAC = make([]float64, np)
			}
		}
		groupsOf[k.name] = list
	}
	return groupsOf
}

// newGroup is an empty group; its granted and claimed sums are NaN
// where the input has no such column (granted also without cmp).
func newGroup(in *Input, id int64, label string, policies int, cmp string) *Group {
	g := &Group{ID: id, Label: label, Credit: make([]float64, policies)}
	if cmp == "" || !in.Has["granted_credit"] {
		g.Granted = math.NaN()
	}
	if !in.Has["claimed_credit"] {
		g.Claimed = math.NaN()
	}
	return g
}

// add counts row r, granted credit per policy by the replay, in g.
func (g *Group) add(r *Row, credit []float64) {
	g.Results++
	g.CPUHours += r.CPUTime / 3600
	g.ElapsedHours += r.ElapsedTime / 3600
	if !math.IsNaN(r.Claimed) {
		g.Claimed += r.Claimed
	}
	if !math.IsNaN(r.Granted) {
		g.Granted += r.Granted
	}
	for p := range g.Credit {
		g.Credit[p] += credit[p]
	}
}

// endRAC sets each host's and user's RAC at the end of the replay.
func endRAC(in *Input, o *Outcome, groupsOf map[string][]*Group) {
	for _, pair := range []struct {
		name  string
		racs  [][]policy.RAC
		dense []int
	}{{"hosts", o.rac, o.host}, {"users", o.userRAC, o.user}} {
		byID := map[int64]*Group{}
		for _, g := range groupsOf[pair.name] {
			byID[g.ID] = g
		}
		seen := map[int]bool{}
		for i := range in.Rows {
			d := pair.dense[i]
			if seen[d] {
				continue
			}
			seen[d] = true
			id := in.Rows[i].HostID
			if pair.name == "users" {
				id = in.Rows[i].UserID
			}
			g := byID[id]
			for p := range o.Policies {
				g.RAC[p] = pair.racs[p][d].Decayed(o.End, policy.CreditHalfLife)
			}
		}
	}
}

// summary is replay.json: the totals per policy against the compared
// column, per app, and per CPU and elapsed hour.
func summary(in *Input, o *Outcome, apps []*Group, cmp string, notRun map[string]string, tool string) *Summary {
	s := &Summary{Tool: tool, Input: in.File, Form: in.Form, Results: len(in.Rows), Compared: cmp,
		Policies: map[string]*PolicySummary{}, NotRun: notRun}
	if s.NotRun == nil {
		s.NotRun = map[string]string{}
	}
	for i := range in.Rows {
		if in.Rows[i].ValidateState == policy.Valid {
			s.Validated++
		}
	}
	for _, fig := range AbsentFigures {
		s.Absent = append(s.Absent, fig+": needs the deserved credit (the FLOPs really done), which no project records")
	}
	var total Group
	total.Credit = make([]float64, len(o.Policies))
	for _, g := range apps {
		total.Results += g.Results
		total.CPUHours += g.CPUHours
		total.ElapsedHours += g.ElapsedHours
		total.Claimed += g.Claimed
		total.Granted += g.Granted
		for p := range total.Credit {
			total.Credit[p] += g.Credit[p]
		}
	}
	ref := math.NaN()
	switch cmp {
	case "granted_credit":
		ref = total.Granted
	case "claimed_credit":
		ref = total.Claimed
	}
	for p, name := range o.Policies {
		ps := &PolicySummary{TotalCredit: results.Num(total.Credit[p]), VsCompared: results.Num(total.Credit[p] / ref),
			ByApp: map[string]results.Num{}, PerCPUHour: results.Num(total.Credit[p] / total.CPUHours),
			PerElapsed: results.Num(total.Credit[p] / total.ElapsedHours)}
		for _, g := range apps {
			ps.ByApp[strconv.FormatInt(g.ID, 10)] = results.Num(g.Credit[p])
		}
		s.Policies[name] = ps
	}
	return s
}

// replayPlots draws each policy's credit over the compared column per
// app version and per host (when there is one to compare with), and per
// CPU and elapsed hour by app version.
func replayPlots(o *Outcome, groupsOf map[string][]*Group, cmp string) ([]plot.Plot, error) {
	var plots []plot.Plot
	versions := groupsOf["versions"]
	labels := make([]string, len(versions))
	for i, g := range versions {
		labels[i] = g.Label
	}
	ratio := func(gs []*Group, p int) []float64 {
		v := make([]float64, len(gs))
		for i, g := range gs {
			v[i] = math.NaN()
			switch cmp {
			case "granted_credit":
				v[i] = g.Credit[p] / g.Granted
			case "claimed_credit":
				v[i] = g.Credit[p] / g.Claimed
			}
		}
		return v
	}
	perPolicy := func(of func(p int) []float64) [][]float64 {
		var vals [][]float64
		for p := range o.Policies {
			vals = append(vals, of(p))
		}
		return vals
	}
	add := func(file, title, caption string, png []byte, err error) error {
		if err != nil {
			return fmt.Errorf("%s: %w", file, err)
		}
		if png != nil {
			plots = append(plots, plot.Plot{File: file, Title: title, Caption: caption, PNG: png})
		}
		return nil
	}
	if cmp != "" {
		vals := perPolicy(func(p int) []float64 { return ratio(versions, p) })
		png, err := plot.GroupRatios("Credit per app version over the project's "+cmp, "policy credit / "+cmp, labels, o.Policies, vals, true)
		if err := add("replay-versions.png", "Per app version", "Each policy's total credit for an app version's results over what the project's "+cmp+" was for them: 1 = the policy would have paid the same.", png, err); err != nil {
			return nil, err
		}
		vals = perPolicy(func(p int) []float64 { return ratio(groupsOf["hosts"], p) })
		png, err = plot.RatioBoxes("Per host: policy credit over "+cmp, "policy credit / "+cmp, o.Policies, vals)
		if err := add("replay-hosts.png", "Per host", "The distribution over hosts of each policy's total credit over the project's "+cmp+" for the same results: a narrow box at 1 means the policy would pay every host as the project did.", png, err); err != nil {
			return nil, err
		}
	}
	for _, rate := range []struct {
		file, what string
		hours      func(g *Group) float64
	}{{"replay-cpu-hour.png", "CPU hour", func(g *Group) float64 { return g.CPUHours }},
		{"replay-elapsed-hour.png", "elapsed hour", func(g *Group) float64 { return g.ElapsedHours }}} {
		vals := perPolicy(func(p int) []float64 {
			v := make([]float64, len(versions))
			for i, g := range versions {
				v[i] = g.Credit[p] / rate.hours(g)
			}
			return v
		})
		png, err := plot.GroupRatios("Credit per "+rate.what+" by app version", "credit per "+rate.what, labels, o.Policies, vals, false)
		if err := add(rate.file, "Credit per "+rate.what, "What each policy pays per "+rate.what+" of each app version's results: a VM app whose CPUs idle is paid per elapsed hour by runtime and peak-FLOP credit.", png, err); err != nil {
			return nil, err
		}
	}
	return plots, nil
}

func groupCSV(gs []*Group, policies []string, rac bool) []byte {
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	head := []string{"id", "label", "results", "cpu_hours", "elapsed_hours", "claimed_credit", "granted_credit"}
	for _, p := range policies {
		head = append(head, p+".credit")
		if rac {
			head = append(head, p+".rac")
		}
	}
	w.Write(head)
	f := func(x float64) string {
		if math.IsNaN(x) {
			return ""
		}
		return results.FormatFloat(x)
	}
	for _, g := range gs {
		rec := []string{strconv.FormatInt(g.ID, 10), g.Label, strconv.Itoa(g.Results), f(g.CPUHours), f(g.ElapsedHours), f(g.Claimed), f(g.Granted)}
		for p := range policies {
			rec = append(rec, f(g.Credit[p]))
			if rac {
				r := math.NaN()
				if g.RAC != nil {
					r = g.RAC[p]
				}
				rec = append(rec, f(r))
			}
		}
		w.Write(rec)
	}
	w.Flush()
	return b.Bytes()
}

var reportTmpl = template.Must(template.New("replay").Parse(`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>creditsim replay: {{.S.Input}}</title>
<style>body{font-family:sans-serif;max-width:70em;margin:2em auto;padding:0 1em;color:#222}
table{border-collapse:collapse}td,th{border:1px solid #bbb;padding:.3em .6em;text-align:right}th{background:#eee}
td:first-child,th:first-child{text-align:left}figure{margin:2em 0}img{max-width:100%;border:1px solid #ddd}figcaption{color:#444}</style>
</head><body>
<h1>creditsim replay: {{.S.Input}}</h1>
<p>{{.S.Results}} results ({{.S.Form}} form), {{.S.Validated}} of them valid, fed to each credit system in the order the server handled them.
{{if .S.Compared}}Each system's credit is compared with the project's <code>{{.S.Compared}}</code>.{{else}}The input has neither claimed nor granted credit to compare with.{{end}}</p>
<section id="totals"><h2>Totals</h2>
<table><tr><th>policy</th><th>total credit</th><th>over {{if .S.Compared}}{{.S.Compared}}{{else}}–{{end}}</th><th>per CPU hour</th><th>per elapsed hour</th></tr>
{{range .Rows}}<tr><td>{{.Name}}</td><td>{{.Total}}</td><td>{{.Ratio}}</td><td>{{.CPU}}</td><td>{{.Elapsed}}</td></tr>
{{end}}</table></section>
{{if .S.NotRun}}<h2>Policies not run</h2><ul>{{range $k, $v := .S.NotRun}}<li><b>{{$k}}</b>: {{$v}}</li>{{end}}</ul>{{end}}
<h2>Figures a replay cannot give</h2><ul>{{range .S.Absent}}<li>{{.}}</li>{{end}}</ul>
<h2>Plots</h2>
{{range .Plots}}<figure><img src="{{.File}}" alt="{{.Title}}"><figcaption><b>{{.Title}}.</b> {{.Caption}}</figcaption></figure>
{{end}}
<p>The tables beside this page have every result (replay-results.csv) and the totals per app version, app, host and user, with recent average credit at the end for hosts and users.</p>
</body></html>
`))

func report(s *Summary, names []string, plots []plot.Plot) ([]byte, error) {
	type row struct{ Name, Total, Ratio, CPU, Elapsed string }
	d := struct {
		S     *Summary
		Rows  []row
		Plots []plot.Plot
	}{S: s, Plots: plots}
	g := func(x results.Num) string {
		if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
			return "–"
		}
		return strconv.FormatFloat(float64(x), 'g', 4, 64)
	}
	for _, n := range names {
		p := s.Policies[n]
		d.Rows = append(d.Rows, row{n, g(p.TotalCredit), g(p.VsCompared), g(p.PerCPUHour), g(p.PerElapsed)})
	}
	var b bytes.Buffer
	if err := reportTmpl.Execute(&b, d); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
