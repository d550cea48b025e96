package cli

import (
	"fmt"
	"io"
	"os"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/creditsim/creditsim/cmd/creditsim/internal/attack"
	"github.com/creditsim/creditsim/cmd/creditsim/internal/runner"
	"github.com/creditsim/creditsim/cmd/creditsim/internal/stock"
	"github.com/creditsim/creditsim/results"
	"github.com/creditsim/creditsim/results/plot"
	"github.com/spf13/cobra"
	"golang.org/x/term"
)

// verdictFlags are verdict's flags.
type verdictFlags struct {
	workers, hosts, reps int
	png, threats, kinds  string
	all, systems, search bool
	budget               int
}

func newVerdict() *cobra.Command {
	var fl verdictFlags
	cmd := &cobra.Command{
		Use:   "verdict",
		Short: "which BOINC server configuration and credit option to use, kind of project by kind",
		Long:  verdictLong,
		Args:  cobra.NoArgs,
		RunE:  func(cmd *cobra.Command, args []string) error { return fl.run(cmd) },
	}
	f := cmd.Flags()
	f.IntVarP(&fl.workers, "jobs", "j", 0, "runs at once (default: all cores)")
	f.IntVar(&fl.hosts, "hosts", stock.DefaultHosts, "hosts of each world (fewer if it has fewer)")
	f.IntVar(&fl.reps, "replications", stock.DefaultReplications, "replications of each configuration (95% intervals need 3)")
	f.StringVar(&fl.threats, "threats", "", "a threat model file instead of the standard one (creditsim advise --threats-file writes it)")
	f.StringVar(&fl.kinds, "kind", "", "only these kinds of project, comma-separated ("+strings.Join(stock.KindNames(), ", ")+"): a verdict or search can be spread over machines a kind each")
	f.BoolVar(&fl.all, "all", false, "list every configuration of every kind, best first")
	f.BoolVar(&fl.systems, "systems", false, "instead: every credit system at its worst over the built-in worlds as their files set them (one replication)")
	f.StringVar(&fl.png, "png", "", "with --systems, also draw its table as a picture into this PNG file")
	f.BoolVar(&fl.search, "search", false, "also search (attack) for the worst behaviour against each kind's recommended configuration: long")
	f.IntVar(&fl.budget, "budget", attack.DefaultBudget, "with --search, the runs of each attack")
	return cmd
}

// run is creditsim verdict.
func (fl *verdictFlags) run(cmd *cobra.Command) error {
	if err := jobsFlag(cmd, fl.workers); err != nil {
		return err
	}
	if fl.workers <= 0 {
		fl.workers = runtime.GOMAXPROCS(0)
	}
	if fl.systems {
		for _, name := range []string{"kind", "search", "budget", "all", "threats", "hosts", "replications"} {
			if cmd.Flags().Changed(name) {
				return fail(cmd, ExitInput, "flag --%s: not with --systems, which runs the built-in worlds as their files set them", name)
			}
		}
		return verdictSystems(cmd, fl.workers, fl.png)
	}
	kinds, err := fl.check(cmd)
	if err != nil {
		return err
	}
	st := stock.Settings{Hosts: fl.hosts, Replications: fl.reps, Jobs: fl.workers}
	if fl.threats != "" {
		t, err := stock.ReadThreats(fl.threats)
		if err != nil {
			return fail(cmd, ExitInput, "flag --threats: %v", err)
		}
		st.Threats = t
	}
	var v *stock.Verdict
	withSteps(cmd, "verdict", func(progress runner.Progress) {
		if progress != nil {
			st.Progress = func(what string, done, total int) { progress(what, done, total) }
		}
		v, err = stock.RunVerdictOf(kinds, st)
	})
	if err != nil {
		return fail(cmd, ExitRun, "%v", err)
	}
	if fl.all {
		fmt.Fprint(cmd.OutOrStdout(), v.All())
		return nil
	}
	fmt.Fprint(cmd.OutOrStdout(), v.Markdown())
	if fl.search {
		return fl.searchAll(cmd, v)
	}
	return nil
}

// check checks verdict's flags, and returns the kinds --kind names.
func (fl *verdictFlags) check(cmd *cobra.Command) ([]stock.Kind, error) {
	switch {
	case fl.png != "":
		return nil, fail(cmd, ExitInput, "flag --png draws the --systems table; give both")
	case fl.hosts < 10:
		return nil, fail(cmd, ExitInput, "flag --hosts: %d: must be at least 10", fl.hosts)
	case fl.reps < 1:
		return nil, fail(cmd, ExitInput, "flag --replications: %d: must be at least 1", fl.reps)
	case fl.budget < 1 || fl.budget > attack.MaxBudget:
		return nil, fail(cmd, ExitInput, "flag --budget: %d: must be 1 to %d", fl.budget, attack.MaxBudget)
	case cmd.Flags().Changed("budget") && !fl.search:
		return nil, fail(cmd, ExitInput, "flag --budget sizes the attacks of --search; give both")
	}
	kinds, err := stock.KindsNamed(fl.kinds)
	if err != nil {
		return nil, fail(cmd, ExitInput, "flag --kind: %v", err)
	}
	if fl.search {
		// Refused now, not after the verdict's minutes: each kind's
		// world leaves its own number of kinds to search.
		for _, k := range kinds {
			opts := attack.Options{Scenario: k.World, Sets: append(append([]string(nil), k.Sets...), "hosts.agents=[]"), Budget: fl.budget}
			if err := attack.Check(opts); err != nil {
				return nil, fail(cmd, ExitInput, "%s: %v", k.Name, err)
			}
		}
	}
	return kinds, nil
}

// searchAll is --search: an attack on each kind's recommended
// configuration, printed after the verdict with the `creditsim attack`
// command that runs the same search alone (which --shard spreads over
// machines).
func (fl *verdictFlags) searchAll(cmd *cobra.Command, v *stock.Verdict) error {
	out := cmd.OutOrStdout()
	fmt.Fprintf(out, "\n**Searched** (`creditsim attack`, %d runs each, the worst confirmed on 3 seeds the search never saw), against each recommended configuration:\n\n", fl.budget)
	for i, a := range v.Answers {
		k, r := v.Kinds[i], a.Best
		if r == nil {
			continue
		}
		sets := k.AttackSets(r, a.Hosts)
		var rep *attack.Report
		var err error
		withSteps(cmd, "verdict --search: "+k.Name, func(runner.Progress) {
			rep, err = attack.Run(attack.Options{Scenario: k.World, Sets: sets, Budget: fl.budget, Confirm: 3, Jobs: fl.workers})
		})
		if err != nil {
			return fail(cmd, ExitRun, "%s: %v", k.Name, err)
		}
		for _, w := range rep.Worst {
			fmt.Fprintf(out, "* %s (%s): %s, %s %s, honest accounts keep %s.\n", a.Subject.Says, r.What(),
				w.Behaviour, w.Figure, intervalText(w.Confirmed), intervalText(w.Harm))
		}
		fmt.Fprintf(out, "  The same search alone: `%s`\n", attackCommand(k.World, sets, fl.budget))
	}
	return nil
}

// attackCommand is the `creditsim attack` command line of a search of
// world with sets at budget, quoted for a POSIX shell.
func attackCommand(world string, sets []string, budget int) string {
	parts := []string{"creditsim", "attack", world}
	for _, s := range sets {
		parts = append(parts, "--set", quoteArg(s))
	}
	return strings.Join(append(parts, "--budget", strconv.Itoa(budget)), " ")
}

// verdictSystems prints every credit system at its worst over the
// built-in worlds (runner.LibraryVerdict), and draws it with --png.
func verdictSystems(cmd *cobra.Command, workers int, png string) error {
	var v *results.Verdict
	var err error
	withSteps(cmd, "verdict --systems", func(progress runner.Progress) {
		v, err = runner.LibraryVerdict(workers, progress)
	})
	if err != nil {
		return fail(cmd, ExitRun, "%v", err)
	}
	if png != "" {
		b, err := plot.VerdictPNG(v)
		if err == nil {
			err = results.WriteFileAtomic(png, b)
		}
		if err != nil {
			return fail(cmd, ExitRun, "--png %s: %v", png, err)
		}
	}
	fmt.Fprint(cmd.OutOrStdout(), runner.VerdictText(v))
	return nil
}

// withSteps runs run with a progress line on a terminal (stepProgress),
// cleared when run returns.
func withSteps(cmd *cobra.Command, name string, run func(runner.Progress)) {
	stderr := cmd.ErrOrStderr()
	progress := stepProgress(stderr, name)
	run(progress)
	if progress != nil {
		fmt.Fprint(stderr, "\r\033[K")
	}
}

// stepProgress returns a runner.Progress that keeps one line on a
// terminal up to date ("name: 3/11 done, last: cheaters, 12s"), or nil
// when w is not a terminal.
func stepProgress(w io.Writer, name string) runner.Progress {
	f, ok := w.(*os.File)
	if !ok || !term.IsTerminal(int(f.Fd())) {
		return nil
	}
	start := time.Now()
	return func(step string, done, total int) {
		fmt.Fprintf(w, "\r\033[K%s: %d/%d done (last %s), %s elapsed", name, done, total, step, time.Since(start).Round(time.Second))
	}
}

// verdictLong is the long text of creditsim verdict's help.
const verdictLong = `Answer, for each kind of project (CPU apps whose jobs' sizes are known,
CPU apps whose jobs' sizes are not, apps with GPU versions, multi-threaded
VM apps beside other projects), which configuration of BOINC's server as
it ships to choose: each kind is a built-in world with the standard
threat model (every cheating behaviour on a share of the accounts), run
under each way to replicate jobs (sent once, with or without a tight
daily quota; adaptive replication; twice) with every credit option side
by side (CreditNew with and without a tight max_granted_credit, runtime
credit, fixed credit, post-assigned credit), 3 replications each with
their honest twins. It prints the answer in one line per kind with 95%
intervals, the configurations behind it with the lines to set them, and
what creditsim's own designs (the fourth credit system, the server's own
trust) would add. About 5 minutes on 2 cores with another job running
(2.3 alone); a progress line on a terminal.

--search also searches (creditsim attack) for the worst behaviour against
each kind's recommended configuration, and prints the attack command of
each search, which attack's --shard spreads over machines; --kind runs
only some kinds (one per machine, say).

--systems prints instead every credit system (the historic ones and the
design pages' included) at its worst over the built-in worlds as their
files set them, one replication each: what each system is, not what to
set.`
