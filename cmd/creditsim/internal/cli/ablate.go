package cli

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/creditsim/creditsim/cmd/creditsim/internal/ablate"
	"github.com/creditsim/creditsim/cmd/creditsim/internal/runner"
	"github.com/creditsim/creditsim/results"
	"github.com/creditsim/creditsim/scenarios"
)

// ablateFlags are ablate's flags.
type ablateFlags struct {
	out, name             string
	sets                  []string
	reps, workers         int
	force, quiet, noPlots bool
	server                bool
	maxResults            float64
}

func newAblate(argv []string) *cobra.Command {
	var fl ablateFlags
	cmd := &cobra.Command{
		Use:     "ablate [FILE|NAME] --policy NAME | --server",
		Short:   "switch a credit system's mechanisms, or the server's defences, off one at a time",
		Long:    ablateLong,
		Example: ablateExample,
		Args:    cobra.MaximumNArgs(1),
		RunE:    func(cmd *cobra.Command, args []string) error { return fl.run(cmd, args, argv) },
	}
	f := cmd.Flags()
	f.StringVar(&fl.name, "policy", "", "the policy instance to ablate (of the scenario, or a registered preset)")
	f.BoolVar(&fl.server, "server", false, "ablate the scenario's server defences (server.trust), a run per configuration")
	f.StringVarP(&fl.out, "out", "o", "", "output folder (default ./out/ablate-<scenario>-<policy>)")
	f.IntVar(&fl.reps, "replications", 0, "replications (seeds)")
	f.StringArrayVar(&fl.sets, "set", nil, "override a scenario field, path=value; repeatable")
	f.BoolVar(&fl.force, "force", false, forceHelp)
	f.BoolVar(&fl.noPlots, "no-plots", false, "skip the PNG plots and report.html")
	f.IntVarP(&fl.workers, "jobs", "j", 0, "replications in parallel (default: all cores)")
	f.BoolVarP(&fl.quiet, "quiet", "q", false, "print nothing but errors")
	f.Float64Var(&fl.maxResults, "max-results", scenarios.DefaultMaxResults, "refuse a run estimated to send more results than this")
	return cmd
}

// run is creditsim ablate: check the flags, open the scenario, lock the
// output place, run the ablation, print.
func (fl *ablateFlags) run(cmd *cobra.Command, args, argv []string) error {
	if err := jobsFlag(cmd, fl.workers); err != nil {
		return err
	}
	arg := ""
	if len(args) == 1 {
		arg = args[0]
	}
	switch {
	case fl.server && fl.name != "":
		return fail(cmd, ExitInput, "flags --server and --policy: ablate the server's defences or a policy's mechanisms, one at a time")
	case fl.server:
		return fl.runServer(cmd, arg, argv)
	case fl.name == "":
		return fail(cmd, ExitInput, "flag --policy: the policy instance to ablate is required (e.g. --policy v3pfc-boinc), or --server for the server's defences")
	}
	s, plan, err := ablatePlan(cmd, arg, fl.sets, fl.reps, fl.name, fl.maxResults)
	if err != nil {
		return err
	}
	dir := fl.out
	if dir == "" {
		dir = filepath.Join("out", "ablate-"+s.Name+"-"+fl.name)
	}
	unlock, err := lockPlace(cmd, dir)
	if err != nil {
		return err
	}
	defer unlock()
	opts := runner.Options{Out: dir, Force: fl.force, Key: outputKey(cmd, args), Workers: fl.workers, NoPlots: fl.noPlots,
		CommandLine: append([]string{"creditsim"}, argv...),
		Extra: func(sum *results.Summary, _ []string) (map[string][]byte, error) {
			b, err := plan.CSV(sum)
			return map[string][]byte{"ablation.csv": b}, err
		}, Protect: inputFiles(arg)}
	oc, err := runWithProgress(cmd, s, opts, fl.quiet)
	if err != nil {
		if errors.Is(err, runner.ErrOutputExists) {
			return fail(cmd, ExitInput, "%v", err)
		}
		return fail(cmd, ExitRun, "%v", err)
	}
	if !fl.quiet {
		printAblation(cmd.OutOrStdout(), fl.name, s.Name, plan, oc, dir)
	}
	return nil
}

// ablatePlan opens the scenario with its overrides (--set, then
// --replications), plans the ablation of the instance name, and opens
// the scenario again with the plan's instances.
func ablatePlan(cmd *cobra.Command, arg string, sets []string, reps int, name string, maxResults float64) (*scenarios.Scenario, *ablate.Plan, error) {
	over := append([]string(nil), sets...)
	if cmd.Flags().Changed("replications") {
		if reps < 1 {
			return nil, nil, fail(cmd, ExitInput, "flag --replications: %d: must be at least 1", reps)
		}
		over = append(over, fmt.Sprintf("replications=%d", reps))
	}
	s, err := scenarios.Open(arg, over)
	if err != nil {
		return nil, nil, failPlain(cmd, ExitInput, err)
	}
	plan, err := ablate.New(s, name)
	if err != nil {
		return nil, nil, fail(cmd, ExitInput, "%v", err)
	}
	if s, err = openScenario(cmd, arg, append(over, plan.Override), maxResults); err != nil {
		return nil, nil, err
	}
	return s, plan, nil
}

// printAblation prints an ablation's scorecard: the instance, then a row
// per mechanism switched off.
func printAblation(w io.Writer, name, scenario string, plan *ablate.Plan, oc *runner.Outcome, dir string) {
	fmt.Fprintf(w, "Ablation of %s on %s: each row below the first has one mechanism off (%s), on the same results.\n\n",
		name, scenario, strings.Join(plan.Mechanisms, ", "))
	fmt.Fprint(w, results.NewScorecard(oc.Summary, plan.Names()).Text())
	fmt.Fprintf(w, "\nwrote %s (ablation.csv: each figure and its change without each mechanism)\n", dir)
}

// ablateLong is the long text of creditsim ablate's help.
const ablateLong = `Run a scenario with a policy instance as configured and, side by side on
the same simulated results, one copy per mechanism it has on with that
mechanism switched off (version and host normalisation, the host scale
cap, the send-time peak, the sanity check, max_granted_credit, the
failed-benchmark substitution, and the guards it has on). Writes the
run's outputs (the scorecard plot shows every variant) and ablation.csv:
each scorecard figure and its change without each mechanism.

With --server, it ablates the server's defences (server.trust) instead:
a server option changes dispatch and validation, so each configuration
is a run of its own on the same seeds: as configured, each defence off
in turn, and server trust off altogether. It prints each policy's worst
gain and harm under each configuration with the configuration's price,
and writes ablation.csv (a row per configuration and policy) and each
configuration's summary.`

// ablateExample is the example text of creditsim ablate's help.
const ablateExample = `  creditsim ablate cheaters --policy v3pfc-boinc
  creditsim ablate cherry-picker --policy v3pfc-design-v29-probation
  creditsim ablate my-trusted.yaml --server`
