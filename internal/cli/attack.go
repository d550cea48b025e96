package cli

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/creditsim/creditsim/internal/attack"
	"github.com/creditsim/creditsim/internal/runner"
	"github.com/creditsim/creditsim/results"
	"github.com/creditsim/creditsim/scenarios"
)

func newAttack() *cobra.Command {
	var (
		out, pols             string
		sets                  []string
		budget, confirm, jobs int
		force, quiet          bool
		maxResults, maxCost   float64
	)
	cmd := &cobra.Command{
		Use:   "attack [FILE|NAME]",
		Short: "search for the worst cheat each policy allows",
		Long: `Search, for each credit policy of a scenario, the behaviour a cheater can
choose (agent kind, share of accounts, inflation factor, work fraction,
threshold, claim) that earns most over honest work: every kind at the
scenario's own settings, a quasi-random design over each kind's
parameters, then Nelder-Mead for each policy. Candidates run on the
scenario's seed (common random numbers); each policy's worst case is then
run again on fresh seeds. --budget counts the search's simulated runs.
Writes attack.json, attack-<policy>.yaml (reproduces the worst case with
creditsim run), attack-<policy>.png and attack.html.`,
		Example: `  creditsim attack cheaters
  creditsim attack cherry-picker --budget 60 -o out/attack-cp
  creditsim attack my.yaml --policies v3pfc-boinc,v1peak`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := jobsFlag(cmd, jobs); err != nil {
				return err
			}
			if cmd.Flags().Changed("budget") && budget < 1 {
				return fail(cmd, ExitInput, "flag --budget: %d: must be at least 1", budget)
			}
			if cmd.Flags().Changed("max-cost") && !(maxCost >= 1) {
				return fail(cmd, ExitInput, "flag --max-cost: %g: must be at least 1 (times the scenario's own results)", maxCost)
			}
			if cmd.Flags().Changed("confirm") && confirm < 3 {
				return fail(cmd, ExitInput, "flag --confirm: %d: the worst case is confirmed on at least 3 replications", confirm)
			}
			arg := ""
			if len(args) == 1 {
				arg = args[0]
			}
			s, err := openScenario(cmd, arg, sets, maxResults)
			if err != nil {
				return err
			}
			dir := out
			if dir == "" {
				dir = filepath.Join("out", "attack-"+s.Name)
			}
			protect := inputFiles(arg)
			if err := results.CheckOutDir(dir, force, protect...); err != nil {
				return fail(cmd, ExitInput, "%v", err)
			}
			opts := attack.Options{Scenario: arg, Sets: sets, Budget: budget, Confirm: confirm, Jobs: jobs, MaxCost: maxCost}
			if pols != "" {
				for _, p := range strings.Split(pols, ",") {
					opts.Policies = append(opts.Policies, strings.TrimSpace(p))
				}
			}
			if !quiet {
				opts.Log = cmd.ErrOrStderr()
			}
			rep, err := attack.Run(opts)
			if err != nil {
				var in *attack.InputError
				if errors.As(err, &in) {
					return fail(cmd, ExitInput, "%v", err)
				}
				return fail(cmd, ExitRun, "%v", err)
			}
			if err := attack.Write(rep, dir, force, protect...); err != nil {
				if errors.Is(err, runner.ErrOutputExists) {
					return fail(cmd, ExitInput, "%v", err)
				}
				return fail(cmd, ExitRun, "%v", err)
			}
			if !quiet {
				w := cmd.OutOrStdout()
				fmt.Fprint(w, attack.Table(rep))
				fmt.Fprintf(w, "\nwrote %s (attack.json, attack.html, a YAML and a plot per policy)\n", dir)
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVarP(&out, "out", "o", "", "output folder (default ./out/attack-<scenario>)")
	f.StringVar(&pols, "policies", "", "search only against these policy instances, comma-separated (default: the scenario's)")
	f.StringArrayVar(&sets, "set", nil, "override a scenario field, path=value; repeatable")
	f.IntVar(&budget, "budget", attack.DefaultBudget, "simulated runs of the search (the confirmation runs are extra)")
	f.Float64Var(&maxCost, "max-cost", attack.DefaultMaxCost, "do not run a candidate estimated to send more than this many times the scenario's own results (at least 1)")
	f.IntVar(&confirm, "confirm", 3, "replications on fresh seeds confirming each worst case (at least 3)")
	f.IntVarP(&jobs, "jobs", "j", 0, "runs in parallel (default: all cores)")
	f.BoolVar(&force, "force", false, "replace an existing output folder")
	f.BoolVarP(&quiet, "quiet", "q", false, "print nothing but errors")
	f.Float64Var(&maxResults, "max-results", scenarios.DefaultMaxResults, "refuse a scenario estimated to send more results than this per run")
	return cmd
}
