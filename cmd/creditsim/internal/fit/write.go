package fit

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"strings"

	"github.com/creditsim/creditsim/cmd/creditsim/internal/tables"

	"github.com/creditsim/creditsim/model/hosts"
	"github.com/creditsim/creditsim/model/param"
)

// Scenario is the fitted scenario: the baseline with the fitted hosts,
// availability, error rates, apps and server options, as YAML, its
// header naming the source, the window, each method and each
// assumption.
func (p *Project) Scenario(name, source string) ([]byte, error) {
	// The baseline's claims describe the baseline, not this world.
	sets := append([]string{"name=" + name, "claims=[]"}, p.Hosts.sets()...)
	sets = append(sets, p.sets(name)...)
	body, err := fittedYAML(sets)
	if err != nil {
		return nil, err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# %s: fitted by creditsim fit from %s (%d hosts, %d results sent in the window).\n", name, source, p.Rows, p.Results)
	pv := p.Provenance(source)
	writeSections(&b, pv, "tables")
	b.Write(body)
	return []byte(b.String()), nil
}

// Provenance is where each value of the fitted scenario came from: the
// fitted fields with the columns and rows, the assumed ones, and what the
// data could not identify (the scenario's header, machine-readable).
type Provenance struct {
	Source        string  `json:"source"`
	Fitted        []Entry `json:"fitted"`
	Assumed       []Entry `json:"assumed"`
	NotIdentified []Entry `json:"not_identified"`
}

// Entry is one line of the provenance: the fields it is about (the
// scenario's names, where the line starts with them), the scenario keys
// they set, the input columns the line names (read, or missing where
// not identified), the rows it counts, and
// how, in words.
type Entry struct {
	Field   string   `json:"field,omitempty"`
	Paths   []string `json:"paths,omitempty"`
	Columns []string `json:"columns,omitempty"`
	Rows    string   `json:"rows,omitempty"`
	How     string   `json:"how"`
}

// Provenance is the fit's provenance (the scenario's header).
func (p *Project) Provenance(source string) Provenance {
	p.Hosts.Notes[4] = p.Hosts.benchNote()
	return Provenance{Source: source,
		Fitted:        entries(append(append(append([]string(nil), p.Hosts.Notes...), p.tableNotes()...), p.opts.ServerNotes...), p.appPaths()),
		Assumed:       entries(append(append(append([]string(nil), p.Hosts.Assumed...), p.Hosts.teamsAssumed()...), p.tableAssumed()...), p.appPaths()),
		NotIdentified: entries(p.Unidentified(), p.appPaths())}
}

// Provenance is the hosts' fit's provenance (the scenario's header).
func (f *Hosts) Provenance(source string) Provenance {
	f.Notes[4] = f.benchNote()
	return Provenance{Source: source, Fitted: entries(f.Notes, nil),
		Assumed:       entries(append(append([]string(nil), f.Assumed...), f.teamsAssumed()...), nil),
		NotIdentified: entries(f.Unidentified, nil)}
}

// fieldPrefix is a note that starts with the fields it is about:
// "cores: ...", "whetstone_gflops and dhrystone_ratio: ...".
var fieldPrefix = regexp.MustCompile(`^([a-z_]+(?: (?:and|share,|share) [a-z_]+)*(?: [a-z_]+)*): `)

// entries are notes as provenance entries: the fields each starts with,
// their scenario keys (apps: "app NAME" and "version NAME" to theirs),
// the columns and the rows it names.
func entries(notes []string, apps map[string]string) []Entry {
	out := make([]Entry, 0, len(notes))
	for _, n := range notes {
		e := Entry{How: n}
		if m := fieldPrefix.FindStringSubmatch(n); m != nil && len(m[1]) <= 40 {
			e.Field = m[1]
		} else if m := appPrefix.FindStringSubmatch(n); m != nil {
			e.Field = m[1]
		}
		if e.Field != "" {
			e.Paths = scenarioPaths(e.Field, apps)
		}
		e.Columns = columnsIn(strings.TrimPrefix(n, e.Field+": "))
		if m := rowsIn.FindStringSubmatch(n); m != nil {
			e.Rows = m[1] + " " + m[2]
		}
		out = append(out, e)
	}
	return out
}

// appPrefix is a note about one app or version: "version win-cpu: ...".
var appPrefix = regexp.MustCompile(`^((?:app|version) [^:\s]+): `)

// hostPaths are the scenario keys of the hosts' fields a note names.
var hostPaths = map[string][]string{
	"arrivals_per_day": {"hosts.arrivals_per_day"}, "lifetime": {"hosts.lifetime"},
	"cores": {"hosts.cpu.cores"}, "whetstone_gflops": {"hosts.cpu.whetstone_gflops"}, "dhrystone_ratio": {"hosts.cpu.dhrystone_ratio"},
	"gpu share, vendors and count": {"hosts.gpu.share", "hosts.gpu.vendors", "hosts.gpu.count"},
	"gpu peak_ratio":               {"hosts.gpu.peak_ratio"}, "gpu count": {"hosts.gpu.count"},
	"platforms": {"hosts.platforms"}, "hosts_per_user": {"hosts.hosts_per_user"},
	"teams": {"hosts.teams"}, "team_share": {"hosts.team_share"},
	"error_rate": {"hosts.error_rate", "hosts.invalid_rate"}, "availability": {"hosts.availability"},
}

// scenarioPaths are the scenario keys of a note's fields.
func scenarioPaths(field string, apps map[string]string) []string {
	if p, ok := hostPaths[field]; ok {
		return p
	}
	if p, ok := apps[field]; ok {
		return []string{p}
	}
	var out []string
	for _, part := range strings.FieldsFunc(strings.ReplaceAll(field, " and ", ","), func(r rune) bool { return r == ',' }) {
		out = append(out, hostPaths[strings.TrimSpace(part)]...)
	}
	return out
}

// appPaths maps "app NAME" and "version NAME" to their scenario keys.
func (p *Project) appPaths() map[string]string {
	m := map[string]string{}
	for i, a := range p.Apps {
		m["app "+a.Name] = fmt.Sprintf("projects[0].apps[%d]", i)
		for j, v := range a.Versions {
			m["version "+v.Name] = fmt.Sprintf("projects[0].apps[%d].versions[%d]", i, j)
		}
	}
	return m
}

// columnWord is a column a note may name: table.column, or a column
// whose name is not an English word (it has an underscore or ends in
// "id").
var columnWord = regexp.MustCompile(`\b(?:(host|user|team|result|workunit|app|app_version|platform|host_app_version)\.([a-z_]+)|([a-z]+(?:_[a-z]+)+|[a-z]{2,}id))\b`)

// columnsIn are the input columns a note names, table-qualified where it
// says the table, each once in order.
func columnsIn(note string) []string {
	var out []string
	for _, m := range columnWord.FindAllStringSubmatch(note, -1) {
		c := m[3]
		if m[1] != "" {
			c = m[2]
		}
		if !knownColumn[c] {
			continue
		}
		if m[1] != "" {
			c = m[1] + "." + c
		}
		if !slices.Contains(out, c) {
			out = append(out, c)
		}
	}
	return out
}

// knownColumn are the columns of BOINC's tables and statistics export
// that fit reads.
var knownColumn = func() map[string]bool {
	m := map[string]bool{}
	for _, t := range tables.Names {
		for _, c := range tables.Columns(t) {
			m[c] = true
		}
	}
	for _, c := range []string{"p_fpops", "p_iops", "p_ncpus", "p_ngpus", "p_gpu_fpops", "create_time", "rpc_time", "os_name", "on_frac", "active_frac", "coprocs"} {
		m[c] = true
	}
	return m
}()

// rowsIn finds the rows a note counts: "64 hosts", "4636 workunits".
var rowsIn = regexp.MustCompile(`\b(\d+) ((?:GPU |valid )?(?:hosts|results|workunits|users))\b`)

// writeSections writes the header's sections of pv: fitted from the
// source (what, "tables" or "export"), assumed, not identified.
func writeSections(b *strings.Builder, pv Provenance, what string) {
	b.WriteString("# Fitted from the " + what + ":\n")
	for _, e := range pv.Fitted {
		b.WriteString("#   - " + e.How + "\n")
	}
	b.WriteString("# Not in the " + what + ", so assumed:\n")
	for _, e := range pv.Assumed {
		b.WriteString("#   - " + e.How + "\n")
	}
	var un []string
	for _, e := range pv.NotIdentified {
		un = append(un, e.How)
	}
	writeUnidentified(b, un)
}

// Unidentified is what the fit could not identify, hosts and tables:
// the header's "Not identified" (fit --strict refuses a fit with any).
func (p *Project) Unidentified() []string {
	return append(append([]string(nil), p.Hosts.Unidentified...), p.Warnings...)
}

// writeUnidentified writes the header's "Not identified" section.
func writeUnidentified(b *strings.Builder, un []string) {
	if len(un) == 0 {
		return
	}
	b.WriteString("# Not identified (read before trusting this world):\n")
	for _, n := range un {
		b.WriteString("#   - " + n + "\n")
	}
}

// sets are the --set overrides beyond the hosts'.
func (p *Project) sets(name string) []string {
	out := []string{
		fmt.Sprintf("hosts.error_rate=%g", round(p.ErrorRate)),
		fmt.Sprintf("hosts.invalid_rate=%g", round(p.InvalidRate)),
	}
	if p.OnFraction > 0 {
		// The baseline's on periods (fitted to SETI@home's hosts), the
		// off periods' mean set so that hosts are on OnFraction of the time.
		a := hosts.Default().Availability
		on := a.OnPeriod.MeanValue()
		off := on * (1 - p.OnFraction) / math.Max(p.OnFraction, 0.01)
		out = append(out, fmt.Sprintf("hosts.availability={model: weibull, on_period: {dist: weibull, shape: %g, scale: %s}, off_period: {dist: lognormal, mean: %s, cv: %g}}",
			a.OnPeriod.Shape, param.FormatDuration(float64(a.OnPeriod.Scale)), param.FormatDuration(round(off)), a.OffPeriod.CV))
	}
	var apps []string
	for _, a := range p.Apps {
		apps = append(apps, a.yaml())
	}
	out = append(out, "projects=[{name: "+name+", apps: ["+strings.Join(apps, ", ")+"]}]")
	return append(out, p.opts.Server...)
}

// yaml is the app in YAML's flow form.
func (a *appFit) yaml() string {
	f := []string{"name: " + quote(a.Name), fmt.Sprintf("weight: %g", a.Weight), fmt.Sprintf("rsc_fpops_est: %g", a.Est)}
	if a.SizeErrorCV > 0 {
		f = append(f, fmt.Sprintf("size_error: {dist: lognormal, mean: 1, cv: %g}", a.SizeErrorCV))
	}
	if len(a.Classes) > 0 {
		var cs []string
		for i, c := range a.Classes {
			cs = append(cs, fmt.Sprintf("{name: q%d, share: %g, factor: %g, estimated: true}", i+1, c.Share, c.Factor))
		}
		f = append(f, "size_classes: ["+strings.Join(cs, ", ")+"]")
	}
	if a.BoundFactor > 0 {
		f = append(f, fmt.Sprintf("bound_factor: %g", round(a.BoundFactor)))
	}
	if a.DelayBound > 0 {
		f = append(f, "delay_bound: "+param.FormatDuration(a.DelayBound))
	}
	for _, x := range []struct {
		k string
		v int
	}{{"min_quorum", a.MinQuorum}, {"target_nresults", a.TargetNResults}, {"max_error_results", a.MaxErrorResults}, {"max_total_results", a.MaxTotalResults}, {"max_success_results", a.MaxSuccessResults}} {
		if x.v > 0 {
			f = append(f, fmt.Sprintf("%s: %d", x.k, x.v))
		}
	}
	var vs []string
	for _, v := range a.Versions {
		vs = append(vs, v.yaml(a.CountsFlops))
	}
	f = append(f, "versions: ["+strings.Join(vs, ", ")+"]")
	return "{" + strings.Join(f, ", ") + "}"
}

// yaml is the version in YAML's flow form.
func (v *versionFit) yaml(counts bool) string {
	f := []string{"name: " + quote(v.Name), "resource: " + v.Resource}
	if v.Platform != "" {
		f = append(f, "platform: "+quote(v.Platform))
	}
	if v.PlanClass != "" {
		f = append(f, "plan_class: "+quote(v.PlanClass))
	}
	switch {
	case v.Resource != "cpu":
		f = append(f, "gpu_usage: 1")
	case v.MultiThread:
		f = append(f, "multi_thread: true")
	}
	f = append(f, fmt.Sprintf("cpu_usage: %g", v.CPUUsage), fmt.Sprintf("cpu_time_fraction: %g", v.CPUFrac),
		fmt.Sprintf("efficiency: {dist: lognormal, mean: %g, cv: %g, max: 1}", v.Eff.Mean, v.Eff.CV))
	if v.Anonymous {
		f = append(f, "anonymous: true", fmt.Sprintf("anonymous_share: %g", v.AnonymousShare))
	}
	if counts {
		f = append(f, "counts_flops: true")
	}
	return "{" + strings.Join(f, ", ") + "}"
}

// quote writes a name as a YAML string.
func quote(s string) string { return fmt.Sprintf("%q", s) }

// tableNotes say how the tables' part was fitted.
func (p *Project) tableNotes() []string {
	out := []string{
		fmt.Sprintf("error_rate: client errors over results reported (result.outcome: %.3g; %d aborts and %d time-outs apart); invalid_rate: invalid over validated results (result.validate_state: %.3g)",
			p.ErrorRate, p.Aborted, p.TimedOut, p.InvalidRate),
	}
	out = append(out, p.appNotes...)
	if p.OnFraction > 0 {
		out = append(out, fmt.Sprintf("availability: hosts on %.3g of the time (mean on_frac x active_frac of %d hosts present); the baseline's on periods, the off periods' mean set to match", p.OnFraction, p.OnHosts))
	}
	if len(p.Apps) > 1 {
		out = append(out, "apps: each weighted by its share of the workunits created in the window (apps of several projects, which a run's export names project.app, become apps of one project)")
	}
	for _, a := range p.Apps {
		out = append(out, a.jobsNote())
		if a.SizeErrorCV > 0 {
			out = append(out, fmt.Sprintf("app %s: size_error's CV %.3g, the spread of rsc_fpops_est / (elapsed_time x flops_estimate) within each host and version, less the runtime noise of %g", a.Name, a.SizeErrorCV, runtimeNoise))
		}
		for _, v := range a.Versions {
			out = append(out, fmt.Sprintf("version %s: efficiency lognormal over %d hosts with %d or more valid results (mean of rsc_fpops_est / (elapsed_time x flops_estimate) per host, less the jobs' spread); %s",
				v.Name, v.Hosts, minJobs, v.cpuNote()))
		}
	}
	return out
}

// tableAssumed says what the tables could not tell.
func (p *Project) tableAssumed() []string {
	out := []string{
		"a job's true size against its estimate: the fitted world's jobs average their estimate (rsc_fpops_est), so an efficiency measured from elapsed times is the version's; were the estimates off, the efficiencies would be off by as much",
		"how long hosts stay on and off (only the fraction on is in the tables): the baseline's periods",
		"results db_purge removed before the export are missing; so are workunits created before the window",
		"GPU versions use one GPU each (gpu_usage is in app_version's XML, not a column)",
	}
	if p.OnFraction == 0 {
		out = append(out, "availability: the host table has no on_frac; the baseline's")
	}
	any := false
	for _, a := range p.Apps {
		any = any || a.CountsFlops
	}
	if !any {
		out = append(out, "whether an app counts its FLOPs (the tables do not say; --counts-flops names those that do): none does")
	}
	if len(p.opts.Server) == 0 {
		out = append(out, "the server's options (quotas, jobs per reply, the one-result options) live in config.xml, not the tables; none was given (--config): creditsim's defaults")
	}
	return out
}
