package cli

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/creditsim/creditsim/cmd/creditsim/internal/attack"
	"github.com/creditsim/creditsim/cmd/creditsim/internal/runner"
	"github.com/creditsim/creditsim/results"
	"github.com/creditsim/creditsim/scenarios"
)

// attackFlags are attack's flags.
type attackFlags struct {
	out, pols, shard      string
	shares                string
	shareList             []float64
	sets, from            []string
	budget, confirm, jobs int
	confirmTop            int
	force, quiet          bool
	maxResults, maxCost   float64
}

// check refuses flag values out of their range before anything runs.
func (a *attackFlags) check(cmd *cobra.Command) error {
	if err := jobsFlag(cmd, a.jobs); err != nil {
		return err
	}
	changed := cmd.Flags().Changed
	switch {
	case changed("budget") && (a.budget < 1 || a.budget > attack.MaxBudget):
		return fail(cmd, ExitInput, "flag --budget: %d: must be 1 to %d", a.budget, attack.MaxBudget)
	case changed("max-cost") && !(a.maxCost >= 1 && a.maxCost <= attack.MaxMaxCost):
		return fail(cmd, ExitInput, "flag --max-cost: %g: must be 1 to %g (times the scenario's own results)", a.maxCost, attack.MaxMaxCost)
	case !(a.maxResults > 0):
		return fail(cmd, ExitInput, "flag --max-results: %g: must be above 0", a.maxResults)
	case changed("confirm-top") && a.confirmTop < 1:
		return fail(cmd, ExitInput, "flag --confirm-top: %d: at least the most profitable candidate is confirmed", a.confirmTop)
	case changed("confirm") && (a.confirm < 3 || a.confirm > attack.MaxConfirm):
		return fail(cmd, ExitInput, "flag --confirm: %d: the worst case is confirmed on 3 to %d replications", a.confirm, attack.MaxConfirm)
	case a.shares != "" && (a.shard != "" || len(a.from) > 0):
		return fail(cmd, ExitInput, "--shares runs whole searches, one per share: not with --shard or --from")
	}
	if a.shares != "" {
		var err error
		if a.shareList, err = attack.ParseShares(a.shares); err == nil {
			err = attack.CheckShares(a.shareList)
		}
		if err != nil {
			return fail(cmd, ExitInput, "flag %v", err)
		}
	}
	return nil
}

// options are the search's options for the scenario arg.
func (a *attackFlags) options(cmd *cobra.Command, arg string) (attack.Options, error) {
	opts := attack.Options{Scenario: arg, Sets: a.sets, Budget: a.budget, Confirm: a.confirm, ConfirmTop: a.confirmTop, Jobs: a.jobs, MaxCost: a.maxCost}
	if a.pols != "" {
		names, err := policyList(a.pols)
		if err != nil {
			return opts, fail(cmd, ExitInput, "%v", err)
		}
		opts.Policies = names
	}
	if !a.quiet {
		opts.Log = cmd.ErrOrStderr()
	}
	return opts, nil
}

// failAttack prints an attack's error: exit 2 for bad input, else 1.
func failAttack(cmd *cobra.Command, err error) error {
	var in *attack.InputError
	if errors.As(err, &in) {
		return fail(cmd, ExitInput, "%v", err)
	}
	return fail(cmd, ExitRun, "%v", err)
}

// attackShard runs shard k of n of the first phase into dir.
func attackShard(cmd *cobra.Command, opts attack.Options, k, n int, dir string, quiet bool) error {
	if fi, err := os.Stat(dir); err == nil && !fi.IsDir() {
		return fail(cmd, ExitInput, "%s exists and is not a folder: a shard writes its file into a folder", dir)
	}
	opts.TwinDirs, opts.TwinOut = []string{dir}, dir // the shards share the honest twins through their folder
	sh, err := attack.RunShard(opts, k, n)
	if err != nil {
		return failAttack(cmd, err)
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

// attackWhole runs the search (its first phase from a.from's shards, if
// given) and writes its folder.
func attackWhole(cmd *cobra.Command, opts attack.Options, a *attackFlags, dir string, protect []string) error {
	if len(a.from) > 0 {
		var err error
		if opts.From, err = attack.ReadShards(a.from); err != nil {
			return failAttack(cmd, err)
		}
		opts.TwinDirs = a.from // the twins the shards simulated
	}
	if len(a.shareList) > 0 {
		opts.ShareTwins() // the scan's searches and this one
	}
	rep, err := attack.Run(opts)
	if err != nil {
		return failAttack(cmd, err)
	}
	if len(a.shareList) > 0 {
		if rep.Scan, err = attack.RunScan(opts, a.shareList); err != nil {
			return failAttack(cmd, err)
		}
	}
	if err := attack.Write(rep, dir, replaceRule(cmd, cmd.Flags().Args(), a.force), protect...); err != nil {
		if errors.Is(err, runner.ErrOutputExists) {
			return fail(cmd, ExitInput, "%v", err)
		}
		return fail(cmd, ExitRun, "%v", err)
	}
	if !a.quiet {
		w := cmd.OutOrStdout()
		fmt.Fprint(w, attack.Table(rep))
		what := "attack.json, attack.html, a YAML and a plot per policy"
		if rep.Scan != nil {
			fmt.Fprint(w, attack.ScanTable(rep.Scan, rep.Policies))
			what += ", attack-shares.png"
		}
		fmt.Fprintf(w, "\nwrote %s (%s)\n", dir, what)
	}
	return nil
}

func newAttack() *cobra.Command {
	var a attackFlags
	cmd := &cobra.Command{
		Use:     "attack [FILE|NAME]",
		Short:   "search for the worst cheat each policy allows",
		Long:    attackLong,
		Example: attackExample,
		Args:    cobra.MaximumNArgs(1),
		RunE:    func(cmd *cobra.Command, args []string) error { return a.run(cmd, args) },
	}
	f := cmd.Flags()
	f.StringVarP(&a.out, "out", "o", "", "output folder (default ./out/attack-<scenario>)")
	f.StringVar(&a.pols, "policies", "", "search only against these policy instances, comma-separated (default: the scenario's)")
	f.StringArrayVar(&a.sets, "set", nil, "override a scenario field, path=value; repeatable")
	f.StringVar(&a.shard, "shard", "", "run shard i of n of the first phase (1 <= i <= n); without it, read SLURM_ARRAY_TASK_ID/_MIN/_COUNT, or Kubernetes' JOB_COMPLETION_INDEX with CREDITSIM_SHARD_COUNT")
	f.StringArrayVar(&a.from, "from", nil, "take the first phase from the shard files in this folder; repeatable")
	f.IntVar(&a.budget, "budget", attack.DefaultBudget, "simulated runs of the search (the confirmation runs are extra)")
	f.StringVar(&a.shares, "shares", "", "also scan the share of accounts that cheat: the search again at each share, comma-separated (e.g. 0.01,0.03,0.1,0.25); each costs a whole search")
	f.Float64Var(&a.maxCost, "max-cost", attack.DefaultMaxCost, "do not run a candidate estimated to send more than this many times the scenario's own results (at least 1)")
	f.IntVar(&a.confirm, "confirm", 3, "replications on fresh seeds confirming each worst case (at least 3)")
	f.IntVar(&a.confirmTop, "confirm-top", attack.DefaultConfirmTop, "confirm each policy's this many most profitable candidates (and its best fixed setting) on fresh seeds; the worst there is reported")
	f.IntVarP(&a.jobs, "jobs", "j", 0, "runs in parallel (default: all cores)")
	f.BoolVar(&a.force, "force", false, forceHelp)
	f.BoolVarP(&a.quiet, "quiet", "q", false, "print nothing but errors")
	f.Float64Var(&a.maxResults, "max-results", scenarios.DefaultMaxResults, "refuse a scenario estimated to send more results than this per run")
	return cmd
}

// run is creditsim attack: check the flags, open the scenario, then run a
// shard of the first phase, or the whole search (joining shards --from).
func (a *attackFlags) run(cmd *cobra.Command, args []string) error {
	if err := a.check(cmd); err != nil {
		return err
	}
	arg := ""
	if len(args) == 1 {
		arg = args[0]
	}
	s, err := openScenario(cmd, arg, a.sets, a.maxResults)
	if err != nil {
		return err
	}
	dir := a.out
	if dir == "" {
		dir = filepath.Join("out", "attack-"+s.Name)
	}
	k, n := 0, 0
	if len(a.from) == 0 {
		if k, n, err = shardOf(a.shard, 0, os.Getenv); err != nil {
			return fail(cmd, ExitInput, "%v", err)
		}
	} else if a.shard != "" {
		return fail(cmd, ExitInput, "--shard and --from: a shard runs its part of the first phase; --from joins the shards afterwards")
	}
	// The shards' folders are inputs of the join: never replaced.
	protect := append(inputFiles(arg), a.from...)
	if n == 0 {
		if err := results.CheckOutDir(dir, replaceRule(cmd, cmd.Flags().Args(), a.force), protect...); err != nil {
			return fail(cmd, ExitInput, "%v", err)
		}
		unlock, err := lockPlace(cmd, dir)
		if err != nil {
			return err
		}
		defer unlock()
	}
	opts, err := a.options(cmd, arg)
	if err != nil {
		return err
	}
	if n > 0 {
		return attackShard(cmd, opts, k, n, dir, a.quiet)
	}
	return attackWhole(cmd, opts, a, dir, protect)
}

// attackLong is the long text of creditsim attack's help.
const attackLong = `Search, for each credit policy of a scenario, the behaviour a cheater can
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
writes what an unsharded attack writes.

--shares 0.01,0.03,0.1,0.25 then runs the search again at each share of
accounts (every candidate's share pinned there) and prints, per policy,
the confirmed worst gain at each share and the smallest share over the
1.1 bound; it adds attack-shares.png. Each share costs a whole search.`

// attackExample is the example text of creditsim attack's help.
const attackExample = `  creditsim attack cheaters
  creditsim attack cherry-picker --budget 60 -o out/attack-cp
  creditsim attack my.yaml --policies v3pfc-boinc,v1peak
  creditsim attack cheaters --shard 2/4 -o /shared/attack   # on each of 4 machines
  creditsim attack cheaters --from /shared/attack -o out/attack-cheaters`
