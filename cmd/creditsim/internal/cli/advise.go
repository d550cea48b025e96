package cli

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/creditsim/creditsim/cmd/creditsim/internal/attack"
	"github.com/creditsim/creditsim/cmd/creditsim/internal/fit"
	"github.com/creditsim/creditsim/cmd/creditsim/internal/runner"
	"github.com/creditsim/creditsim/cmd/creditsim/internal/stock"
	"github.com/creditsim/creditsim/results"
	"github.com/creditsim/creditsim/scenarios"
)

// adviseLong is the long text of creditsim advise's help.
const adviseLong = `Advise a project from its own data, in one command. SOURCE is what fit
reads (a MySQL/MariaDB DSN, a folder of table exports, a statistics
export). advise

  1. fits the project's world as fit does (fitted.yaml in the output,
     fitted.provenance.json beside it);
  2. puts the standard threat model in it (threats.yaml in the output;
     --threats FILE for your own, --threats-file FILE writes the standard
     one to edit);
  3. runs the project as it runs now (its replication and quotas from the
     data and --config, its credit option from the validator's flags in
     --config; CreditNew if none) and every stock BOINC configuration the
     verdict tries, every credit option side by side, each replication
     with its honest twin; fixed credit only where job sizes are known,
     post-assigned credit only with --measures-work;
  4. searches (attack) at --budget runs for the worst behaviour against
     the current configuration and the recommended one;
  5. prints and writes advice.md, advice.json and report.html: the current
     configuration's fairness, worst gain and harm with 95% intervals, the
     recommended one with the config.xml lines and app settings that set
     it, its price, what the data could not tell, and how sure each figure
     is.

--quick trades certainty for time: 200 hosts, one replication (no
intervals), no attack.`

// adviseFlags are advise's flags: fit's, and the search's.
type adviseFlags struct {
	fitFlags
	threats, threatsFile string
	sizes                string
	measures, quick      bool
	quiet                bool
	budget, hosts, reps  int
	workers              int
}

func newAdvise(argv []string) *cobra.Command {
	var fl adviseFlags
	cmd := &cobra.Command{
		Use:   "advise SOURCE",
		Short: "fit your project's world and say which BOINC configuration to set, against the standard threat model",
		Long:  adviseLong,
		Example: `  creditsim run gpu-mix --export-tables tables && creditsim advise tables
  creditsim advise 'boincadm:secret@tcp(db:3306)/myproject' --config config.xml --counts-flops all
  creditsim advise --threats-file my-threats.yaml   # then edit it, and:
  creditsim advise host.gz --threats my-threats.yaml --quick`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error { return fl.run(cmd, args, argv) },
	}
	f := cmd.Flags()
	f.StringVarP(&fl.out, "out", "o", "", "output folder (default ./out/advise-<name>)")
	f.StringVar(&fl.name, "name", "mine", "the fitted scenario's name")
	f.StringVar(&fl.since, "since", "", "start of the window fitted, YYYY-MM-DD (default: 90 days before its end)")
	f.StringVar(&fl.until, "until", "", "end of the window, YYYY-MM-DD")
	f.StringVar(&fl.config, "config", "", "the project's config.xml: the server's options and the validator's credit flags")
	f.StringSliceVar(&fl.apps, "app", nil, "advise for only these apps, by name")
	f.StringSliceVar(&fl.countsFlops, "counts-flops", nil, "the apps that count their FLOPs, by name, or all")
	f.BoolVar(&fl.force, "force", false, forceHelp)
	f.StringVar(&fl.threats, "threats", "", "a threat model file (default: the standard one)")
	f.StringVar(&fl.threatsFile, "threats-file", "", "write the standard threat model to this file, to edit and pass back with --threats, and stop")
	f.StringVar(&fl.sizes, "sizes", "auto", "are your jobs' sizes known when they are made (fixed credit is an option)? auto (from the fitted world), known or unknown")
	f.BoolVar(&fl.measures, "measures-work", false, "your validator measures the work in each output (post-assigned credit is an option)")
	f.BoolVar(&fl.quick, "quick", false, "a first answer: 200 hosts, one replication, no attack")
	f.IntVar(&fl.budget, "budget", attack.DefaultBudget, "runs of each attack search (0: none)")
	f.IntVar(&fl.hosts, "hosts", stock.DefaultHosts, "hosts of the world simulated (fewer if the project has fewer)")
	f.IntVar(&fl.reps, "replications", stock.DefaultReplications, "replications of each configuration (95% intervals need 3)")
	f.IntVarP(&fl.workers, "jobs", "j", 0, "runs at once (default: all cores)")
	f.BoolVarP(&fl.quiet, "quiet", "q", false, "print nothing but errors")
	addLimitFlag(cmd, &fl.limits)
	f.BoolVar(&fl.strict, "strict", false, strictHelp)
	return cmd
}

// run is creditsim advise.
func (fl *adviseFlags) run(cmd *cobra.Command, args, argv []string) error {
	if fl.threatsFile != "" {
		return fl.writeThreats(cmd, args)
	}
	if err := fl.check(cmd, args); err != nil {
		return err
	}
	threats, err := stock.ReadThreats(fl.threats)
	if err != nil {
		return fail(cmd, ExitInput, "flag --threats: %v", err)
	}
	current, creditNote, err := fl.currentOption(cmd)
	if err != nil {
		return err
	}
	w, err := fl.window(cmd)
	if err != nil {
		return err
	}
	source := args[0]
	text, what, err := fl.fit(cmd, source, w)
	if err != nil {
		return err
	}
	fitted, err := scenarios.Load(fl.name+".yaml", text, nil)
	if err != nil {
		return fail(cmd, ExitRun, "the fitted scenario does not load: %v", err)
	}
	dir := cmp.Or(fl.out, filepath.Join("out", "advise-"+fl.name))
	rule, protect := replaceRule(cmd, args, fl.force), inputFiles(source)
	if err := results.CheckOutDir(dir, rule, protect...); err != nil {
		return fail(cmd, ExitInput, "%v", err)
	}
	unlock, err := lockPlace(cmd, dir)
	if err != nil {
		return err
	}
	defer unlock()
	start := time.Now()
	sizesKnown := fl.sizes == "known" || fl.sizes == "auto" && sizesKnownIn(fitted)
	adv := &advice{Source: source, Fitted: what, CreditNote: creditNote, SizesKnown: sizesKnown, Measures: fl.measures,
		NotIdentified: headerSection(text, "# Not identified"), Assumed: append(headerSection(text, "# Not in the"), creditNote),
		provenance: fl.prov}
	if err := fl.search(cmd, adv, text, current, threats); err != nil {
		return err
	}
	return fl.finish(cmd, adv, dir, rule, protect, text, threats, start)
}

// finish writes the output folder and prints the advice.
func (fl *adviseFlags) finish(cmd *cobra.Command, adv *advice, dir string, rule results.Replace, protect []string, text []byte, threats *stock.Threats, start time.Time) error {
	if err := adv.write(dir, rule, protect, text, threats); err != nil {
		if errorsIsOutput(err) {
			return fail(cmd, ExitInput, "%v", err)
		}
		return fail(cmd, ExitRun, "%v", err)
	}
	if !fl.quiet {
		fmt.Fprint(cmd.OutOrStdout(), adv.terminal())
		fmt.Fprintf(cmd.OutOrStdout(), "\nwrote %s (advice.md, advice.json, report.html, fitted.yaml, fitted.provenance.json, threats.yaml) in %s\n", dir, time.Since(start).Round(time.Second))
	}
	return nil
}

// writeThreats is --threats-file: the standard threat model, to edit.
func (fl *adviseFlags) writeThreats(cmd *cobra.Command, args []string) error {
	if len(args) > 0 {
		return fail(cmd, ExitInput, "flag --threats-file writes the standard threat model and stops: give no SOURCE")
	}
	if _, err := os.Stat(fl.threatsFile); err == nil && !fl.force {
		return fail(cmd, ExitInput, "%s exists: give --force to replace it", fl.threatsFile)
	}
	if err := results.WriteFileAtomic(fl.threatsFile, stock.StandardThreats()); err != nil {
		return fail(cmd, ExitRun, "%v", err)
	}
	if !fl.quiet {
		fmt.Fprintf(cmd.OutOrStdout(), "wrote %s: the standard threat model; edit it and pass it back with --threats %s\n", fl.threatsFile, fl.threatsFile)
	}
	return nil
}

// check applies --limit, checks advise's flags and source, and sets
// --quick's sizes.
func (fl *adviseFlags) check(cmd *cobra.Command, args []string) error {
	if err := applyLimits(cmd, fl.limits); err != nil {
		return err
	}
	if len(args) == 0 {
		return fail(cmd, ExitInput, "advise needs a SOURCE: a database DSN, a folder of table exports or a statistics export (see creditsim advise -h)")
	}
	if err := jobsFlag(cmd, fl.workers); err != nil {
		return err
	}
	if fl.workers <= 0 {
		fl.workers = runtime.GOMAXPROCS(0)
	}
	switch {
	case fl.sizes != "auto" && fl.sizes != "known" && fl.sizes != "unknown":
		return fail(cmd, ExitInput, "flag --sizes: %q: want auto, known or unknown", fl.sizes)
	case fl.budget < 0 || fl.budget > attack.MaxBudget:
		return fail(cmd, ExitInput, "flag --budget: %d: want 0 to %d", fl.budget, attack.MaxBudget)
	case fl.hosts < 10:
		return fail(cmd, ExitInput, "flag --hosts: %d: must be at least 10", fl.hosts)
	case fl.reps < 1:
		return fail(cmd, ExitInput, "flag --replications: %d: must be at least 1", fl.reps)
	}
	if p := scenarios.FileNameProblem(fl.name); p != "" {
		return fail(cmd, ExitInput, "flag --name: %q: %s", fl.name, p)
	}
	if fl.quick {
		fl.hosts, fl.reps, fl.budget = min(fl.hosts, 200), 1, 0
	}
	return nil
}

// currentOption is the credit option the project runs now (a stock
// Option's Policy), from its validator's flags in --config, and a note
// saying where it came from.
func (fl *adviseFlags) currentOption(cmd *cobra.Command) (string, string, error) {
	if fl.config == "" {
		return "creditnew", "the validator's credit flags: none given (--config), so BOINC's default, CreditNew", nil
	}
	cf, err := fit.ReadCreditFlags(fl.config)
	if err != nil {
		return "", "", fail(cmd, ExitInput, "flag --config: %v", err)
	}
	current := cf.Option
	if cf.Capped && (cf.Option == "creditnew" || cf.Option == "post-assigned") {
		current += "-cap"
	}
	if !cf.Found {
		return current, fmt.Sprintf("no validator command in %s's <daemons>, so BOINC's default, CreditNew", fl.config), nil
	}
	return current, fmt.Sprintf("the validator's credit flags from %s: %s", fl.config, current), nil
}

// search runs the stock search on the fitted world and, with a budget,
// the attacks, into adv.
func (fl *adviseFlags) search(cmd *cobra.Command, adv *advice, text []byte, current string, threats *stock.Threats) error {
	subj := stock.Subject{Name: fl.name, Says: "your project (" + fl.name + ")", SizesKnown: adv.SizesKnown, Measures: fl.measures, Current: current,
		Open: func(sets []string) (*scenarios.Scenario, error) { return scenarios.Load(fl.name+".yaml", text, sets) }}
	st := stock.Settings{Hosts: fl.hosts, Replications: fl.reps, Threats: threats, Jobs: fl.workers}
	var err error
	withSteps(cmd, "advise", func(progress runner.Progress) {
		if progress != nil {
			st.Progress = func(w string, d, t int) { progress(w, d, t) }
		}
		adv.Answer, err = stock.Search(subj, st)
	})
	if err != nil {
		return fail(cmd, ExitRun, "%v", err)
	}
	if fl.budget > 0 {
		withSteps(cmd, "advise: attack", func(runner.Progress) {
			adv.Attacks, err = adviseAttacks(text, fl.name, adv.Answer, fl.hosts, fl.budget, fl.workers)
		})
		if err != nil {
			return fail(cmd, ExitRun, "attack: %v", err)
		}
	}
	return nil
}

// sizesKnownIn says whether a fitted world's jobs' sizes are known when
// they are made: every app's true size within about 20% of its estimate
// (its size error's spread) and no size class the project cannot tell.
func sizesKnownIn(s *scenarios.Scenario) bool {
	for _, p := range s.Projects {
		for _, a := range p.Apps {
			if a.SizeError.CV > 0.2 {
				return false
			}
			for _, c := range a.SizeClasses {
				if !c.Estimated && c.Factor != 1 {
					return false
				}
			}
		}
	}
	return true
}

// headerSection is the lines of a fitted scenario's header section that
// starts with prefix: its "#   - ..." items, without the marks.
func headerSection(text []byte, prefix string) []string {
	var out []string
	in := false
	for _, l := range strings.Split(string(text), "\n") {
		switch {
		case strings.HasPrefix(l, prefix):
			in = true
		case in && strings.HasPrefix(l, "#   - "):
			out = append(out, strings.TrimPrefix(l, "#   - "))
		case in:
			return out
		}
	}
	return out
}

// attackResult is one attack search against a configuration.
type attackResult struct {
	Configuration string         `json:"configuration"`
	Policy        string         `json:"policy"`
	Worst         []attack.Worst `json:"worst"`
}

// adviseAttacks searches the worst behaviour against the current
// configuration and the recommended one (once if they are the same).
func adviseAttacks(text []byte, name string, a *stock.Answer, hosts, budget, jobs int) ([]attackResult, error) {
	dir, err := os.MkdirTemp("", "creditsim-advise-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	file := filepath.Join(dir, name+".yaml")
	if err := os.WriteFile(file, text, 0o644); err != nil {
		return nil, err
	}
	var out []attackResult
	seen := map[*stock.Row]bool{}
	for _, r := range []*stock.Row{a.Current, a.Best} {
		if r == nil || seen[r] {
			continue
		}
		seen[r] = true
		sets := r.AttackSets()
		if s, err := scenarios.Load(file, text, nil); err == nil && s.Hosts.Initial > hosts {
			sets = append(sets, fmt.Sprintf("hosts.initial=%d", hosts))
		}
		rep, err := attack.Run(attack.Options{Scenario: file, Sets: sets, Budget: budget, Confirm: 3, Jobs: jobs})
		if err != nil {
			return nil, err
		}
		out = append(out, attackResult{Configuration: r.Option.Label + ", jobs " + r.Server.Name, Policy: r.Option.Policy, Worst: rep.Worst})
	}
	return out, nil
}

// advice is what advise writes.
type advice struct {
	Source, Fitted, CreditNote string
	SizesKnown, Measures       bool
	Answer                     *stock.Answer
	NotIdentified, Assumed     []string
	Attacks                    []attackResult
	// provenance is fitted.provenance.json: where each fitted value came
	// from (fit.Provenance).
	provenance []byte
}

// markdown is advice.md.
func (a *advice) markdown() string {
	var b strings.Builder
	ans := a.Answer
	fmt.Fprintf(&b, "# creditsim advise: %s\n\n", ans.Subject.Name)
	fmt.Fprintf(&b, "Fitted from %s: %s. Simulated with %d hosts, %d replication(s) of each configuration with their honest twins, under the threat model in threats.yaml. Figures are means with their 95%% intervals where there are 3 replications or more.\n\n",
		a.Source, a.Fitted, ans.Hosts, ans.Reps)
	b.WriteString("## The answer\n\n")
	b.WriteString(ans.Line() + "\n\n")
	if c := ans.Current; c != nil {
		fmt.Fprintf(&b, "As your project runs now (%s, jobs as sent now): %s.\n\n", c.Option.Label, rowWords(c))
	}
	if ans.Best != nil {
		b.WriteString("To set it:\n\n")
		for _, c := range append(append([]string(nil), ans.Best.Server.Config...), ans.Best.Option.Config) {
			b.WriteString("* " + c + "\n")
		}
		b.WriteString("\n")
	}
	if l := ans.BeyondLine(); l != "" {
		b.WriteString("Beyond BOINC (creditsim's designs, which need a change to BOINC's server): " + strings.TrimPrefix(l, ans.Subject.Says+": ") + "\n\n")
	}
	if len(a.Attacks) > 0 {
		b.WriteString("## The worst a search finds\n\n")
		for _, at := range a.Attacks {
			for _, w := range at.Worst {
				fmt.Fprintf(&b, "* %s: %s, %s %s on fresh seeds, honest accounts keep %s.\n", at.Configuration, w.Behaviour, w.Figure, intervalText(w.Confirmed), intervalText(w.Harm))
			}
		}
		b.WriteString("\n")
	}
	b.WriteString("## Every configuration\n\n" + ans.Markdown() + "\n")
	a.limits(&b)
	return b.String()
}

// limits writes what the data could not tell and how sure the figures are.
func (a *advice) limits(b *strings.Builder) {
	ans := a.Answer
	b.WriteString("## What the data could not tell\n\n")
	if len(a.NotIdentified) == 0 {
		b.WriteString("Nothing the fit flagged as not identified.\n")
	}
	for _, n := range a.NotIdentified {
		b.WriteString("* " + n + "\n")
	}
	b.WriteString("\nAssumed, not read from the data:\n\n")
	for _, n := range a.Assumed {
		b.WriteString("* " + n + "\n")
	}
	fmt.Fprintf(b, "* job sizes known when made (fixed credit an option): %v; the validator measures each output's work (post-assigned credit an option): %v\n", a.SizesKnown, a.Measures)
	b.WriteString("\n## How sure\n\n")
	if ans.Reps < results.MinIntervalReplications {
		fmt.Fprintf(b, "%d replication(s): no 95%% intervals; run without --quick for them.\n", ans.Reps)
	} else {
		b.WriteString("Each figure's 95% interval is over the replications; rows whose worst figures lie within each other's intervals are called a tie. A behaviour's gain on a few accounts is the noisiest figure: more hosts (--hosts) narrow it.\n")
	}
}

// rowWords says a row's worst gain, harm and price.
func rowWords(r *stock.Row) string {
	hold := "holds the bound"
	if !r.Holds {
		hold = "does not hold the bound"
	}
	return fmt.Sprintf("%s; a behaviour gains up to %s; honest accounts keep %s; host spread %s; %s results per validated workunit",
		hold, figText(r, results.ColGain), figText(r, results.ColHarm), figText(r, results.ColHostCV), r.PriceText())
}

// figText is a row's figure with its interval.
func figText(r *stock.Row, c int) string {
	f := r.Figs[c]
	s := results.FormatScore(f.Mean)
	if !math.IsNaN(f.Lo) && !math.IsNaN(f.Hi) && s != "–" {
		s += " [" + results.FormatScore(f.Lo) + ", " + results.FormatScore(f.Hi) + "]"
	}
	if c == results.ColGain && r.Score.GainKind != "" {
		s += " (" + r.Score.GainKind + ")"
	}
	return s
}

// intervalText writes an attack's interval: the mean, with its 95% interval
// where one exists, or that only one seed gave a figure.
func intervalText(iv attack.Interval) string {
	s := results.FormatScore(float64(iv.Mean))
	switch {
	case results.Defined(float64(iv.Low)) && results.Defined(float64(iv.High)):
		s += " [" + results.FormatScore(float64(iv.Low)) + ", " + results.FormatScore(float64(iv.High)) + "]"
	case results.Defined(float64(iv.Mean)) && iv.Replications == 1:
		s += " (one seed gave a figure: no interval)"
	}
	return s
}

// terminal is what advise prints: the answer, the current configuration,
// how to set the recommended one, and what the data could not tell.
func (a *advice) terminal() string {
	var b strings.Builder
	ans := a.Answer
	b.WriteString(ans.Line() + "\n")
	if c := ans.Current; c != nil {
		fmt.Fprintf(&b, "As it runs now (%s): %s.\n", c.Option.Label, rowWords(c))
	}
	if ans.Best != nil {
		b.WriteString("To set it: " + strings.Join(append(append([]string(nil), ans.Best.Server.Config...), ans.Best.Option.Config), "; ") + ".\n")
	}
	for _, at := range a.Attacks {
		for _, w := range at.Worst {
			fmt.Fprintf(&b, "Searched (%s): %s, %s %s, honest accounts keep %s.\n", at.Configuration, w.Behaviour, w.Figure, intervalText(w.Confirmed), intervalText(w.Harm))
		}
	}
	if len(a.NotIdentified) > 0 {
		b.WriteString("Not identified from the data: " + strings.Join(a.NotIdentified, "; ") + ".\n")
	}
	if len(a.Assumed) > 0 {
		b.WriteString("Not in the data, so assumed: " + strings.Join(a.Assumed, "; ") + ".\n")
	}
	return b.String()
}

// adviceJSON is advice.json.
type adviceJSON struct {
	Source        string         `json:"source"`
	Fitted        string         `json:"fitted"`
	Hosts         int            `json:"hosts"`
	Replications  int            `json:"replications"`
	Answer        string         `json:"answer"`
	Recommended   *rowJSON       `json:"recommended"`
	Current       *rowJSON       `json:"current,omitempty"`
	Ties          []*rowJSON     `json:"ties,omitempty"`
	Rows          []*rowJSON     `json:"configurations"`
	Attacks       []attackResult `json:"attacks,omitempty"`
	NotIdentified []string       `json:"not_identified"`
	Assumed       []string       `json:"assumed"`
}

// rowJSON is one configuration in advice.json.
type rowJSON struct {
	Option    string                    `json:"credit_option"`
	Jobs      string                    `json:"jobs"`
	Holds     bool                      `json:"holds_the_bound"`
	Figures   map[string][3]results.Num `json:"figures"` // mean, low, high
	WorstKind string                    `json:"worst_kind,omitempty"`
	Price     results.Num               `json:"results_per_validated_workunit"`
	Set       []string                  `json:"to_set"`
	Beyond    bool                      `json:"beyond_boinc"`
}

func toRowJSON(r *stock.Row) *rowJSON {
	if r == nil {
		return nil
	}
	j := &rowJSON{Option: r.Option.Label, Jobs: r.Server.Name, Holds: r.Holds, Figures: map[string][3]results.Num{}, WorstKind: r.Score.GainKind,
		Price: results.Num(r.Price), Set: append(append([]string(nil), r.Server.Config...), r.Option.Config), Beyond: !r.Stock()}
	for c, col := range results.ScoreColumns {
		f := r.Figs[c]
		j.Figures[col.Figure] = [3]results.Num{results.Num(f.Mean), results.Num(f.Lo), results.Num(f.Hi)}
	}
	return j
}

var adviceTmpl = template.Must(template.New("advice").Parse(`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>creditsim advise: {{.Name}}</title>
<style>body{font-family:sans-serif;max-width:70em;margin:2em auto;padding:0 1em;color:#222;line-height:1.4}
pre{white-space:pre-wrap;background:#f6f6f6;padding:1em}</style></head><body>
<h1>creditsim advise: {{.Name}}</h1>
<pre>{{.Text}}</pre>
</body></html>
`))

// write writes the output folder, all or nothing.
func (a *advice) write(dir string, rule results.Replace, protect []string, fitted []byte, threats *stock.Threats) error {
	od, err := results.NewOutDir(dir, rule, protect...)
	if err != nil {
		return err
	}
	md := a.markdown()
	j := adviceJSON{Source: a.Source, Fitted: a.Fitted, Hosts: a.Answer.Hosts, Replications: a.Answer.Reps, Answer: a.Answer.Line(),
		Recommended: toRowJSON(a.Answer.Best), Current: toRowJSON(a.Answer.Current), Attacks: a.Attacks, NotIdentified: a.NotIdentified, Assumed: a.Assumed}
	for _, t := range a.Answer.Ties {
		j.Ties = append(j.Ties, toRowJSON(t))
	}
	for i := range a.Answer.Rows {
		j.Rows = append(j.Rows, toRowJSON(&a.Answer.Rows[i]))
	}
	js, err := json.MarshalIndent(j, "", "  ")
	if err != nil {
		od.Abort()
		return err
	}
	var page bytes.Buffer
	if err := adviceTmpl.Execute(&page, struct{ Name, Text string }{a.Answer.Subject.Name, md}); err != nil {
		od.Abort()
		return err
	}
	for _, f := range []struct {
		name string
		b    []byte
	}{{"advice.md", []byte(md)}, {"advice.json", append(js, '\n')}, {"report.html", page.Bytes()}, {"fitted.yaml", fitted}, {"fitted.provenance.json", a.provenance}, {"threats.yaml", threats.Source}} {
		if err := od.Write(f.name, f.b); err != nil {
			od.Abort()
			return err
		}
	}
	return od.Commit()
}

// errorsIsOutput reports whether err is the output rule's refusal.
func errorsIsOutput(err error) bool { return errors.Is(err, runner.ErrOutputExists) }
