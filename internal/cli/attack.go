package cli

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/creditsim/creditsim/internal/attack"
	"github.com/creditsim/creditsim/internal/runner"
	"github.com/creditsim/creditsim/results"
	"github.com/creditsim/creditsim/scenarios"
)

func newAttack() *cobra.Command {
	var (
		out, pols, shard      string
		sets, from            []string
		budget, confirm, jobs int
		confirmTop            int
		force, quiet          bool
		maxResults, maxCost   float64
	)
	cmd := &cobra.Command{
		Use:   "attack [FILE|NAME]",
		Short: "search for the worst cheat each policy allows",
		Long: `Search, for each credit policy of a scenario, the behaviour a cheater can
choose (agent kind, share of accounts, inflation factor, work fraction,
threshold, claim) that gains most over its honest twin. In order: every
kind at the scenario's own settings; a quasi-random design over each
kind's parameters; pairs of each policy's most profitable kinds combined
on one account; then Nelder-Mead for each policy. Candidates run on the
scenario's seed (common random numbers). Each policy's most profitable
candidates (--confirm-top) and its best fixed setting are then run again
on fresh seeds, and the worst there is reported.
--budget counts the search's simulated runs. Writes attack.json,
attack-<policy>.yaml (reproduces the worst case with creditsim run),
attack-<policy>.png and attack.html.

The first phase (the fixed settings and the design, the bulk of the
runs) can be spread over machines: --shard i/n (or a Slurm or Kubernetes
array index) runs a share of it into attack-shard-<i>-of-<n>.json; then
the same command with --from and the shards' folders does the rest and
writes what an unsharded attack writes.`,
		Example: `  creditsim attack cheaters
  creditsim attack cherry-picker --budget 60 -o out/attack-cp
  creditsim attack my.yaml --policies v3pfc-boinc,v1peak
  creditsim attack cheaters --shard 2/4 -o /shared/attack   # on each of 4 machines
  creditsim attack cheaters --from /shared/attack -o out/attack-cheaters`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := jobsFlag(cmd, jobs); err != nil {
				return err
			}
			if cmd.Flags().Changed("budget") && (budget < 1 || budget > attack.MaxBudget) {
				return fail(cmd, ExitInput, "flag --budget: %d: must be 1 to %d", budget, attack.MaxBudget)
			}
			if cmd.Flags().Changed("max-cost") && !(maxCost >= 1 && maxCost <= attack.MaxMaxCost) {
				return fail(cmd, ExitInput, "flag --max-cost: %g: must be 1 to %g (times the scenario's own results)", maxCost, attack.MaxMaxCost)
			}
			if !(maxResults > 0) {
				return fail(cmd, ExitInput, "flag --max-results: %g: must be above 0", maxResults)
			}
			if cmd.Flags().Changed("confirm-top") && confirmTop < 1 {
				return fail(cmd, ExitInput, "flag --confirm-top: %d: at least the most profitable candidate is confirmed", confirmTop)
			}
			if cmd.Flags().Changed("confirm") && (confirm < 3 || confirm > attack.MaxConfirm) {
				return fail(cmd, ExitInput, "flag --confirm: %d: the worst case is confirmed on 3 to %d replications", confirm, attack.MaxConfirm)
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
			k, n := 0, 0
			if len(from) == 0 {
				if k, n, err = shardOf(shard, 0, os.Getenv); err != nil {
					return fail(cmd, ExitInput, "%v", err)
				}
			} else if shard != "" {
				return fail(cmd, ExitInput, "--shard and --from: a shard runs its part of the first phase; --from joins the shards afterwards")
			}
			// The shards' folders are inputs of the join: never replaced.
			protect := append(inputFiles(arg), from...)
			if n == 0 {
				if err := results.CheckOutDir(dir, force, protect...); err != nil {
					return fail(cmd, ExitInput, "%v", err)
				}
				unlock, err := lockPlace(cmd, dir)
				if err != nil {
					return err
				}
				defer unlock()
			}
			opts := attack.Options{Scenario: arg, Sets: sets, Budget: budget, Confirm: confirm, ConfirmTop: confirmTop, Jobs: jobs, MaxCost: maxCost}
			if pols != "" {
				names, err := policyList(pols)
				if err != nil {
					return fail(cmd, ExitInput, "%v", err)
				}
				opts.Policies = names
			}
			if !quiet {
				opts.Log = cmd.ErrOrStderr()
			}
			failAttack := func(err error) error {
				var in *attack.InputError
				if errors.As(err, &in) {
					return fail(cmd, ExitInput, "%v", err)
				}
				return fail(cmd, ExitRun, "%v", err)
			}
			if n > 0 {
				if fi, err := os.Stat(dir); err == nil && !fi.IsDir() {
					return fail(cmd, ExitInput, "%s exists and is not a folder: a shard writes its file into a folder", dir)
				}
				sh, err := attack.RunShard(opts, k, n)
				if err != nil {
					return failAttack(err)
				}
				path, err := attack.WriteShard(sh, dir)
				if err != nil {
					return fail(cmd, ExitRun, "%v", err)
				}
				if !quiet {
					fmt.Fprintf(cmd.OutOrStdout(), "shard %d/%d done: wrote %s; when every shard is done, run the same attack with --from %s\n", k, n, path, dir)
				}
				return nil
			}
			if len(from) > 0 {
				if opts.From, err = attack.ReadShards(from); err != nil {
					return failAttack(err)
				}
			}
			rep, err := attack.Run(opts)
			if err != nil {
				return failAttack(err)
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
	f.StringVar(&shard, "shard", "", "run shard i of n of the first phase (1 <= i <= n); without it, read SLURM_ARRAY_TASK_ID/_MIN/_COUNT, or Kubernetes' JOB_COMPLETION_INDEX with CREDITSIM_SHARD_COUNT")
	f.StringArrayVar(&from, "from", nil, "take the first phase from the shard files in this folder; repeatable")
	f.IntVar(&budget, "budget", attack.DefaultBudget, "simulated runs of the search (the confirmation runs are extra)")
	f.Float64Var(&maxCost, "max-cost", attack.DefaultMaxCost, "do not run a candidate estimated to send more than this many times the scenario's own results (at least 1)")
	f.IntVar(&confirm, "confirm", 3, "replications on fresh seeds confirming each worst case (at least 3)")
	f.IntVar(&confirmTop, "confirm-top", attack.DefaultConfirmTop, "confirm each policy's this many most profitable candidates (and its best fixed setting) on fresh seeds; the worst there is reported")
	f.IntVarP(&jobs, "jobs", "j", 0, "runs in parallel (default: all cores)")
	f.BoolVar(&force, "force", false, "replace an existing output folder")
	f.BoolVarP(&quiet, "quiet", "q", false, "print nothing but errors")
	f.Float64Var(&maxResults, "max-results", scenarios.DefaultMaxResults, "refuse a scenario estimated to send more results than this per run")
	return cmd
}
