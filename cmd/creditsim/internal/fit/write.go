package fit

import (
	"fmt"
	"math"
	"regexp"
	"strings"

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
// scenario's names, where the line starts with them) and how.
type Entry struct {
	Field string `json:"field,omitempty"`
	How   string `json:"how"`
}

// Provenance is the fit's provenance (the scenario's header).
func (p *Project) Provenance(source string) Provenance {
	p.Hosts.Notes[4] = p.Hosts.benchNote()
	return Provenance{Source: source,
		Fitted:        entries(append(append(append([]string(nil), p.Hosts.Notes...), p.tableNotes()...), p.opts.ServerNotes...)),
		Assumed:       entries(append(append(append([]string(nil), p.Hosts.Assumed...), p.Hosts.teamsAssumed()...), p.tableAssumed()...)),
		NotIdentified: entries(p.Unidentified())}
}

// Provenance is the hosts' fit's provenance (the scenario's header).
func (f *Hosts) Provenance(source string) Provenance {
	f.Notes[4] = f.benchNote()
	return Provenance{Source: source, Fitted: entries(f.Notes),
		Assumed:       entries(append(append([]string(nil), f.Assumed...), f.teamsAssumed()...)),
		NotIdentified: entries(f.Unidentified)}
}

// fieldPrefix is a note that starts with the fields it is about:
// "cores: ...", "whetstone_gflops and dhrystone_ratio: ...".
var fieldPrefix = regexp.MustCompile(`^([a-z_]+(?: (?:and|share,|share) [a-z_]+)*(?: [a-z_]+)*): `)

// entries are notes as provenance entries, each with the fields it
// starts with.
func entries(notes []string) []Entry {
	out := make([]Entry, 0, len(notes))
	for _, n := range notes {
		e := Entry{How: n}
		if m := fieldPrefix.FindStringSubmatch(n); m != nil && len(m[1]) <= 40 {
			e.Field = m[1]
		}
		out = append(out, e)
	}
	return out
}

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
		fmt.Sprintf("error_rate: client errors over results reported (%.3g; %d aborts and %d time-outs apart); invalid_rate: invalid over validated results (%.3g)",
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
			out = append(out, fmt.Sprintf("app %s: size_error's CV %.3g, the spread of rsc_fpops_est / (elapsed x flops_estimate) within each host and version, less the runtime noise of %g", a.Name, a.SizeErrorCV, runtimeNoise))
		}
		for _, v := range a.Versions {
			out = append(out, fmt.Sprintf("version %s: efficiency lognormal over %d hosts with %d or more valid results (mean of rsc_fpops_est / (elapsed x flops_estimate) per host, less the jobs' spread); %s",
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
