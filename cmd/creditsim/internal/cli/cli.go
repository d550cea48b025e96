package cli

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/signal"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"text/tabwriter"
	"time"

	_ "github.com/creditsim/creditsim/policy/all" // every credit system

	"github.com/creditsim/creditsim/cmd/creditsim/internal/replay"
	"github.com/creditsim/creditsim/cmd/creditsim/internal/runner"
	"github.com/creditsim/creditsim/internal/suggest"
	"github.com/creditsim/creditsim/policy"
	"github.com/creditsim/creditsim/results"
	"github.com/creditsim/creditsim/scenarios"
	"github.com/spf13/cobra"
	"golang.org/x/term"
)

// Exit statuses.
const (
	ExitOK    = 0
	ExitRun   = 1
	ExitInput = 2
)

// exitError carries an exit status; its message, if any, has been
// printed already.
type exitError struct{ code int }

func (e *exitError) Error() string { return "exit " + strconv.Itoa(e.code) }

// fail prints a command's error and returns the exit status as an error.
func fail(cmd *cobra.Command, code int, format string, a ...any) error {
	fmt.Fprintf(cmd.ErrOrStderr(), "creditsim %s: %s\n", cmd.Name(), replay.RedactSecrets(fmt.Sprintf(format, a...)))
	return &exitError{code}
}

// policyList splits a --policies value into its names, refusing an
// empty name and a name given twice (which would give two columns of
// one policy).
func policyList(pols string) ([]string, error) {
	var out []string
	seen := map[string]bool{}
	for _, p := range strings.Split(pols, ",") {
		p = strings.TrimSpace(p)
		switch {
		case p == "":
			return nil, fmt.Errorf("flag --policies: %q: an empty name", pols)
		case seen[p]:
			return nil, fmt.Errorf("flag --policies: %q: %s is named twice", pols, p)
		}
		seen[p] = true
		out = append(out, p)
	}
	return out, nil
}

// failPlain prints an error that already names its file, line and field.
func failPlain(cmd *cobra.Command, code int, err error) error {
	fmt.Fprintln(cmd.ErrOrStderr(), replay.RedactSecrets(err.Error()))
	return &exitError{code}
}

// HandleSignals makes SIGINT and SIGTERM stop the process cleanly:
// temporary output folders are removed and the exit status is 128 plus
// the signal's number (130, 143), as shells report.
func HandleSignals() {
	c := make(chan os.Signal, 1)
	signal.Notify(c, os.Interrupt, syscall.SIGTERM)
	go func() {
		sig := <-c
		results.RemovePending()
		fmt.Fprintf(os.Stderr, "\ncreditsim: %v: stopped; nothing half-written is left\n", sig)
		code := 130
		if sig == syscall.SIGTERM {
			code = 143
		}
		os.Exit(code)
	}()
}

// Main runs the command line and returns the exit status.
func Main(args []string, stdout, stderr io.Writer) int {
	root := newRoot(args, stdout, stderr)
	root.SetArgs(args)
	root.SetFlagErrorFunc(flagError)
	cmd, err := root.ExecuteC()
	if err == nil {
		return ExitOK
	}
	var ee *exitError
	if errors.As(err, &ee) {
		return ee.code
	}
	// cobra's own errors: an unknown command or flag, a bad flag value,
	// the wrong number of arguments.
	name := "creditsim"
	if cmd != nil && cmd != root {
		name += " " + cmd.Name()
	}
	fmt.Fprintf(stderr, "%s: %v\n", name, err)
	fmt.Fprintf(stderr, "Run '%s --help' for usage.\n", name)
	return ExitInput
}

var badFlagRE = regexp.MustCompile(`^invalid argument "(.*)" for "(.*)" flag: strconv\.Parse(\w+): `)

// flagError words a flag value pflag could not parse as the other input
// errors are: the flag, the text given, what it must be.
func flagError(_ *cobra.Command, err error) error {
	m := badFlagRE.FindStringSubmatch(err.Error())
	if m == nil {
		return err
	}
	flag, _, _ := strings.Cut(m[2], ", ") // "-j, --jobs": as the other flag errors, -j
	want := map[string]string{"Uint": "a whole number from 0 to 18446744073709551615", "Int": "a whole number",
		"Float": "a number", "Bool": "true or false"}[m[3]]
	if want == "" {
		return err
	}
	return fmt.Errorf("flag %s: %q: must be %s", flag, m[1], want)
}

func newRoot(args []string, stdout, stderr io.Writer) *cobra.Command {
	root := &cobra.Command{
		Use:           "creditsim",
		Short:         "creditsim simulates BOINC's credit systems side by side",
		Long:          rootLong,
		SilenceErrors: true,
		SilenceUsage:  true,
		RunE:          rootRun,
	}
	// Before the completion command, which takes its writer when made.
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.SuggestionsMinimumDistance = 2
	root.AddCommand(newRun(args), newReplay(), newValidate(), newScenarios(), newPolicies(), newSweep(), newMerge(), newAttack(), newAblate(args), newVerdict(), newFit(), newAdvise(args), &cobra.Command{
		Use:   "version",
		Short: "print the tool's version and revision",
		Args:  cobra.NoArgs,
		Run: func(cmd *cobra.Command, args []string) {
			fmt.Fprintf(cmd.OutOrStdout(), "%s (revision %s)\n", runner.Version, runner.Revision())
		},
	})
	// --version prints what the version command prints.
	root.Version = runner.Version + " (revision " + runner.Revision() + ")"
	root.SetVersionTemplate("{{.Version}}\n")
	root.Flags().BoolP("version", "v", false, "print the version and revision")
	// cobra's completion and help commands print usage and exit 0 for a
	// shell or a topic they do not know: exit 2, as for any bad input.
	root.InitDefaultCompletionCmd()
	if c, _, err := root.Find([]string{"completion"}); err == nil && c != root {
		c.Short = "print a shell's completion script (bash, fish, powershell, zsh)"
		c.Args = cobra.NoArgs
		c.RunE = func(cmd *cobra.Command, args []string) error {
			return fail(cmd, ExitInput, "name a shell: bash, fish, powershell or zsh")
		}
	}
	root.SetHelpCommand(&cobra.Command{
		Use:   "help [command]",
		Short: "print a command's usage",
		RunE:  func(cmd *cobra.Command, args []string) error { return help(root, cmd, args) },
	})
	return root
}

// rootRun is creditsim with no command or an unknown one: usage (or the
// nearest command's name) and exit 2, so nothing runs by surprise.
func rootRun(cmd *cobra.Command, args []string) error {
	if len(args) > 0 {
		msg := fmt.Sprintf("unknown command %q for %q", args[0], cmd.Name())
		if s := cmd.SuggestionsFor(args[0]); len(s) > 0 {
			msg += "\n\nDid you mean this?\n\t" + strings.Join(s, "\n\t")
		}
		fmt.Fprintf(cmd.ErrOrStderr(), "creditsim: %s\nRun 'creditsim --help' for usage.\n", msg)
		return &exitError{ExitInput}
	}
	cmd.SetOut(cmd.ErrOrStderr())
	cmd.Usage()
	return &exitError{ExitInput}
}

// help is creditsim help: a command's usage, or for a topic it does not
// know, exit 2 with the nearest command's name.
func help(root, cmd *cobra.Command, args []string) error {
	c, rest, err := root.Find(args)
	if err != nil || c == nil || len(rest) > 0 {
		hint := ""
		if len(args) > 0 {
			if s := root.SuggestionsFor(args[len(args)-1]); len(s) > 0 {
				hint = "; did you mean " + strings.Join(s, " or ") + "?"
			}
		}
		return fail(cmd, ExitInput, "unknown help topic %q%s (creditsim --help lists the commands)", strings.Join(args, " "), hint)
	}
	return c.Help()
}

// jobsFlag checks -j: at least 1 when given (0 means all cores).
func jobsFlag(cmd *cobra.Command, j int) error {
	if cmd.Flags().Changed("jobs") && j < 1 {
		return fail(cmd, ExitInput, "flag -j: %d: must be at least 1 (leave it out to use all cores)", j)
	}
	return nil
}

// lockPlace takes the lock of the output place dir for the command's
// run (results.LockPlace): a second run to the same place is refused at
// its start (exit 2). Shards of one sweep or attack share their folder
// by design and do not take it.
func lockPlace(cmd *cobra.Command, dir string) (unlock func(), err error) {
	if err := results.CheckRoom(dir, results.MinRoom); err != nil {
		return nil, fail(cmd, ExitInput, "%v", err)
	}
	unlock, err = results.LockPlace(dir)
	if err != nil {
		if errors.Is(err, results.ErrOutputExists) {
			return nil, fail(cmd, ExitInput, "%v", err)
		}
		return nil, fail(cmd, ExitRun, "%v", err)
	}
	return unlock, nil
}

// openScenario loads a scenario with its overrides and checks its size
// against maxResults; on failure it has printed the error (exit 2).
func openScenario(cmd *cobra.Command, arg string, over []string, maxResults float64) (*scenarios.Scenario, error) {
	s, err := scenarios.Open(arg, over)
	if err != nil {
		return nil, failPlain(cmd, ExitInput, err)
	}
	if err := s.CheckScale(maxResults); err != nil {
		return nil, fail(cmd, ExitInput, "%v", err)
	}
	return s, nil
}

// inputFiles is the scenario file among arg, if it is one: no output
// folder may replace it.
func inputFiles(arg string) []string {
	if fi, err := os.Stat(arg); arg != "" && err == nil && !fi.IsDir() {
		return []string{arg}
	}
	return nil
}

// runFlags are run's flags.
type runFlags struct {
	out, pols      string
	trace, stats   string
	tables         string
	seed           uint64
	reps, workers  int
	sets           []string
	force, noPlots bool
	quiet, quick   bool
	noTwin         bool
	maxResults     float64
}

func newRun(argv []string) *cobra.Command {
	var fl runFlags
	cmd := &cobra.Command{
		Use:     "run [FILE|NAME]",
		Short:   "run a scenario (default: the built-in baseline)",
		Long:    runLong,
		Example: runExample,
		Args:    cobra.MaximumNArgs(1),
		ValidArgsFunction: func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
			return scenarios.Names(), cobra.ShellCompDirectiveDefault
		},
		RunE: func(cmd *cobra.Command, args []string) error { return fl.run(cmd, args, argv) },
	}
	f := cmd.Flags()
	f.StringVarP(&fl.out, "out", "o", "", "output folder (default ./out/<scenario>, with --quick ./out/<scenario>-quick)")
	f.Uint64Var(&fl.seed, "seed", 0, "master seed")
	f.IntVar(&fl.reps, "replications", 0, "replications (seeds)")
	f.StringVar(&fl.pols, "policies", "", "policy instances to run, comma-separated (default: the scenario's)")
	f.StringArrayVar(&fl.sets, "set", nil, "override a scenario field, path=value; repeatable")
	f.BoolVar(&fl.force, "force", false, forceHelp)
	f.BoolVar(&fl.noPlots, "no-plots", false, "skip the PNG plots and report.html")
	f.IntVarP(&fl.workers, "jobs", "j", 0, "replications in parallel (default: all cores)")
	f.BoolVarP(&fl.quiet, "quiet", "q", false, "print nothing but errors")
	f.BoolVar(&fl.quick, "quick", false, "a first look: 300 hosts, one replication, into ./out/<scenario>-quick")
	f.Float64Var(&fl.maxResults, "max-results", scenarios.DefaultMaxResults, "refuse a run estimated to send more results than this")
	f.StringVar(&fl.trace, "trace", "", "write replication 1's results to this file in replay's CSV form (gzip-compressed if it ends in .gz)")
	f.BoolVar(&fl.noTwin, "no-twin", false, "skip the honest twins (no gain or harm figures; about half the time with agents)")
	f.StringVar(&fl.stats, "export-stats", "", "write replication 1's hosts into this folder as a project's statistics export (host.gz), which creditsim fit reads")
	f.StringVar(&fl.tables, "export-tables", "", "write replication 1's world and results into this folder as a project's database tables (mysql --batch files, schema.sql, load.sql), which creditsim fit reads")
	return cmd
}

// run is creditsim run: check the flags, open the scenario with its
// overrides, lock the output place, run with progress, print.
func (fl *runFlags) run(cmd *cobra.Command, args, argv []string) error {
	if err := jobsFlag(cmd, fl.workers); err != nil {
		return err
	}
	if !(fl.maxResults > 0) {
		return fail(cmd, ExitInput, "flag --max-results: %g: must be above 0", fl.maxResults)
	}
	arg := ""
	if len(args) == 1 {
		arg = args[0]
	}
	over, err := runOverrides(cmd, fl.quick, fl.sets, fl.seed, fl.reps, fl.pols)
	if err != nil {
		return err
	}
	s, err := openScenario(cmd, arg, over, fl.maxResults)
	if err != nil {
		return err
	}
	dir := fl.out
	if dir == "" {
		dir = filepath.Join("out", s.Name)
		if fl.quick {
			// A first look never takes the place of a full run.
			dir += "-quick"
		}
	}
	unlock, err := lockPlace(cmd, dir)
	if err != nil {
		return err
	}
	defer unlock()
	opts := runner.Options{Out: dir, Force: fl.force, Key: outputKey(cmd, []string{cmp.Or(arg, "baseline")}), Workers: fl.workers, NoPlots: fl.noPlots, Trace: fl.trace, ExportStats: fl.stats, ExportTables: fl.tables,
		CommandLine: append([]string{"creditsim"}, argv...), Protect: inputFiles(arg), NoTwin: fl.noTwin}
	oc, err := runWithProgress(cmd, s, opts, fl.quiet)
	if err != nil {
		if errors.Is(err, runner.ErrOutputExists) {
			return fail(cmd, ExitInput, "%v", err) // usage: the folder is refused, nothing ran
		}
		return fail(cmd, ExitRun, "%v", err)
	}
	if !fl.quiet {
		printRun(cmd.OutOrStdout(), oc, dir)
	}
	return nil
}

// runOverrides turns run's flags into scenario overrides, in the order
// they apply: --quick's small world, each --set, then --seed,
// --replications and --policies.
func runOverrides(cmd *cobra.Command, quick bool, sets []string, seed uint64, reps int, pols string) ([]string, error) {
	over := []string{}
	if quick {
		// A first look: a small world, one replication.
		over = append(over, "hosts.initial=300", "replications=1")
	}
	over = append(over, sets...)
	if cmd.Flags().Changed("seed") {
		over = append(over, fmt.Sprintf("seed=%d", seed))
	}
	if cmd.Flags().Changed("replications") {
		if reps < 1 {
			return nil, fail(cmd, ExitInput, "flag --replications: %d: must be at least 1", reps)
		}
		over = append(over, fmt.Sprintf("replications=%d", reps))
	}
	if pols != "" {
		names, err := policyList(pols)
		if err != nil {
			return nil, fail(cmd, ExitInput, "%v", err)
		}
		var specs []string
		for _, p := range names {
			specs = append(specs, strconv.Quote(p))
		}
		over = append(over, "policies=["+strings.Join(specs, ",")+"]")
	}
	return over, nil
}

// runWithProgress runs s, with a progress line on a terminal unless
// quiet, cleared at the end.
func runWithProgress(cmd *cobra.Command, s *scenarios.Scenario, opts runner.Options, quiet bool) (*runner.Outcome, error) {
	stderr := cmd.ErrOrStderr()
	if f, ok := stderr.(*os.File); ok && !quiet && term.IsTerminal(int(f.Fd())) {
		opts.Progress = progressLine(stderr, s.Name)
	}
	oc, err := runner.Run(s, opts)
	if opts.Progress != nil {
		fmt.Fprint(stderr, "\r\033[K")
	}
	return oc, err
}

// progressLine shows, on a terminal, the replications done of the total,
// the share of simulated time done, the time elapsed and an estimate of
// the time left.
func progressLine(w io.Writer, name string) func(float64, int, int) {
	start := time.Now()
	last := -1
	return func(x float64, done, total int) {
		pct := int(x * 100)
		if pct == last {
			return
		}
		last = pct
		el := time.Since(start)
		left := "?"
		if x > 0.02 {
			left = (time.Duration(float64(el)/x) - el).Round(time.Second).String()
		}
		fmt.Fprintf(w, "\r\033[K%s: %d/%d replications, %3d%%, %s elapsed, about %s left",
			name, done, total, pct, el.Round(time.Second), left)
	}
}

// printRun prints a run's headline and scorecard and where it wrote.
func printRun(w io.Writer, oc *runner.Outcome, dir string) {
	printHeadline(w, oc)
	fmt.Fprintf(w, "\nwrote %s (%d results, %.1f s, %.0f results/s)\n", dir, oc.Summary.Results,
		oc.Wall.Seconds(), float64(oc.Summary.Results)/oc.Wall.Seconds())
}

func printHeadline(w io.Writer, oc *runner.Outcome) {
	s := oc.Summary
	reps := "one replication"
	if s.Replications != 1 {
		reps = fmt.Sprintf("%d replications", s.Replications)
	}
	fmt.Fprintf(w, "%s: %s, seed %d, %g days (%g warm-up), D at %g credits/GFLOPS-day\n\n",
		s.Scenario, reps, s.Seed, float64(s.SimulatedDays), float64(s.WarmupDays), float64(s.CobblestonePerGFLOPSDay))
	// Warnings come first: they say why figures below are missing.
	for _, warn := range s.Warnings {
		fmt.Fprintf(w, "warning: %s\n\n", warn)
	}
	fmt.Fprint(w, results.NewScorecard(s, oc.Policies).Text())
	if line := trustLine(s.Price); line != "" {
		fmt.Fprintf(w, "\n%s\n", line)
	}
}

// trustLine says what server trust cost, when it was on: "" otherwise.
func trustLine(p map[string]results.Num) string {
	checks, ok := p["project_checks_per_validated_workunit"]
	if !ok {
		return ""
	}
	return fmt.Sprintf("Server trust: %s results sent and %s project checks per validated workunit; %s of honest hosts trusted, after %s days on average.",
		results.FormatScore(float64(p["results_per_validated_workunit"])), results.FormatScore(float64(checks)),
		percent(p["honest_trusted_share"]), results.FormatScore(float64(p["honest_days_to_trust"])))
}

// percent formats a share as a percentage, "–" when undefined.
func percent(x results.Num) string {
	if math.IsNaN(float64(x)) {
		return "–"
	}
	return strconv.FormatFloat(100*float64(x), 'f', 1, 64) + "%"
}

func newValidate() *cobra.Command {
	var sets []string
	var quiet bool
	cmd := &cobra.Command{
		Use:   "validate FILE|NAME",
		Short: "check a scenario and print it resolved",
		Long:  "Check a scenario file or built-in, with overrides, and print it with every default filled in.",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			s, err := scenarios.Open(args[0], sets)
			if err != nil {
				return failPlain(cmd, ExitInput, err)
			}
			if quiet {
				return nil
			}
			b, sum, err := scenarios.Resolved(s)
			if err != nil {
				return fail(cmd, ExitRun, "%v", err)
			}
			fmt.Fprintf(cmd.OutOrStdout(), "# %s is valid; resolved (sha256 %s):\n%s", args[0], sum, b)
			return nil
		},
	}
	cmd.Flags().StringArrayVar(&sets, "set", nil, "override a scenario field, path=value; repeatable")
	cmd.Flags().BoolVarP(&quiet, "quiet", "q", false, "print nothing but errors")
	return cmd
}

func newScenarios() *cobra.Command {
	var figures bool
	var workers int
	cmd := &cobra.Command{
		Use:   "scenarios [NAME...]",
		Short: "list built-in scenarios, print them, or check their claims",
		Long:  scenariosLong,
		ValidArgsFunction: func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
			return scenarios.Names(), cobra.ShellCompDirectiveNoFileComp
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := jobsFlag(cmd, workers); err != nil {
				return err
			}
			for _, n := range args {
				if _, ok := scenarios.Builtin(n); !ok {
					return fail(cmd, ExitInput, "no built-in scenario %q%s (built-ins: %s)", n,
						suggest.DidYouMean(n, scenarios.Names()), strings.Join(scenarios.Names(), ", "))
				}
			}
			stdout := cmd.OutOrStdout()
			if figures {
				return scenarioFigures(cmd, args, workers)
			}
			if len(args) == 0 {
				tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
				for _, n := range scenarios.Names() {
					fmt.Fprintf(tw, "%s\t%s\n", n, scenarios.Summary(n))
				}
				tw.Flush()
				return nil
			}
			for _, n := range args {
				b, _ := scenarios.Builtin(n)
				stdout.Write(b)
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&figures, "figures", false, "run the built-ins at 300 hosts and print their claims and figures")
	cmd.Flags().IntVarP(&workers, "jobs", "j", 0, "runs in parallel (default: all cores)")
	return cmd
}

// scenarioFigures runs the named built-ins (all without names) at the
// claim size and prints the Markdown table of their claims; exit 1 if a
// claim fails.
func scenarioFigures(cmd *cobra.Command, names []string, workers int) error {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	var rs []runner.ClaimResult
	var err error
	if len(names) == 0 {
		withSteps(cmd, "scenarios --figures", func(progress runner.Progress) {
			rs, err = runner.CheckLibrary(workers, progress)
		})
	} else {
		for _, n := range names {
			var r []runner.ClaimResult
			if r, err = runner.CheckClaims(n, workers); err != nil {
				break
			}
			rs = append(rs, r...)
		}
	}
	if err != nil {
		return fail(cmd, ExitRun, "%v", err)
	}
	fmt.Fprint(cmd.OutOrStdout(), runner.ClaimsTable(rs))
	for _, r := range rs {
		if !r.Holds {
			return fail(cmd, ExitRun, "%s: claim %q does not hold: %s %s = %s", r.Scenario, r.Claim.Text, r.Claim.Policy, r.Claim.Figure, runner.FormatClaimValue(r.Value))
		}
	}
	return nil
}

func newPolicies() *cobra.Command {
	return &cobra.Command{
		Use:   "policies [NAME...]",
		Short: "list credit policies, presets and their options",
		Long:  "List every policy kind and preset with its options and defaults, or only the named ones.",
		ValidArgsFunction: func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
			return policy.Names(), cobra.ShellCompDirectiveNoFileComp
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			want := map[string]bool{}
			for _, n := range args {
				known := false
				for _, k := range policy.Names() {
					known = known || k == n
				}
				if !known {
					return fail(cmd, ExitInput, "unknown policy %q%s (known: %s)", n, suggest.DidYouMean(n, policy.Names()), strings.Join(policy.Names(), ", "))
				}
				want[n] = true
			}
			printPolicies(cmd.OutOrStdout(), want)
			return nil
		},
	}
}

// printPolicies lists the kinds and presets, only those in want when it
// is not empty.
func printPolicies(stdout io.Writer, want map[string]bool) {
	show := func(n string) bool { return len(want) == 0 || want[n] }
	for _, k := range policy.Kinds() {
		if !show(k.Name) {
			continue
		}
		std := ""
		if k.Standard {
			std = " (runs by default)"
		}
		fmt.Fprintf(stdout, "%s: %s%s\n", k.Name, k.Doc, std)
		wn, wd := 0, 0
		for _, o := range k.Options {
			wn, wd = max(wn, len(o.Name)), max(wd, len(o.Default))
		}
		for _, o := range k.Options {
			fmt.Fprintf(stdout, "    %-*s  default %-*s  %s\n", wn, o.Name, wd, o.Default, o.Doc)
		}
		if len(k.Needs) > 0 {
			fmt.Fprintf(stdout, "    replay needs: %s\n", strings.Join(k.Needs, ", "))
		}
	}
	for _, p := range policy.Presets() {
		if !show(p.Name) {
			continue
		}
		fmt.Fprintf(stdout, "%s: preset of %s: %s\n", p.Name, p.Kind, p.Doc)
		for _, k := range results.SortedKeys(p.Options) {
			fmt.Fprintf(stdout, "    %s = %s\n", k, p.Options[k])
		}
		if k, opts, err := policy.Resolve(policy.Spec{Name: p.Name}); err == nil && k.NeedsWith != nil {
			if more := k.NeedsWith(opts); len(more) > 0 {
				fmt.Fprintf(stdout, "    replay also needs: %s\n", strings.Join(more, ", "))
			}
		}
	}
}

// rootLong is the long text of creditsim root's help.
const rootLong = `creditsim simulates BOINC's credit systems side by side on the same
simulated hosts and jobs, and reports how far granted credit is from the
credit the work deserved, per system: fairness between hosts, devices
and projects, and what cheating gains.

Start with 'creditsim run' (the built-in baseline scenario), or
'creditsim run --quick' for a first look in seconds.`

// runLong is the long text of creditsim run's help.
const runLong = `Run a scenario file or a built-in scenario (creditsim scenarios lists
them; default baseline). Writes summary.json, CSV tables, PNG plots and
report.html to the output folder, and prints the scorecard.`

// runExample is the example text of creditsim run's help.
const runExample = `  creditsim run
  creditsim run cheaters --replications 5 -o out/cheaters
  creditsim run my.yaml --set hosts.initial=500 --policies v1peak,v3pfc-boinc`

// scenariosLong is the long text of creditsim scenarios's help.
const scenariosLong = `Without names, list the built-in scenarios; with names, print them.
With --figures, run the named built-ins (all without names) at 300 hosts
and one replication and print their claims beside the figures the runs
gave, as the Markdown table docs/scenario-library.md embeds; exit 1 if a claim fails.`
