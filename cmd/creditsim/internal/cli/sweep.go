package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/creditsim/creditsim/cmd/creditsim/internal/runner"
	"github.com/creditsim/creditsim/cmd/creditsim/internal/sweep"
	"github.com/creditsim/creditsim/results"
	"github.com/creditsim/creditsim/scenarios"
	"github.com/spf13/cobra"
)

// sweepFlags are sweep's flags.
type sweepFlags struct {
	out, shard           string
	jobs, shardCount     int
	resume, force, quiet bool
	maxResults           float64
}

func newSweep() *cobra.Command {
	var fl sweepFlags
	cmd := &cobra.Command{
		Use:     "sweep SWEEP.yaml",
		Short:   "run a parameter sweep",
		Long:    sweepLong,
		Example: sweepExample,
		Args:    cobra.ExactArgs(1),
		RunE:    func(cmd *cobra.Command, args []string) error { return fl.run(cmd, args) },
	}
	f := cmd.Flags()
	f.StringVarP(&fl.out, "out", "o", "", "output folder (default ./out/sweep-<name>)")
	f.IntVarP(&fl.jobs, "jobs", "j", 0, "cores (default: all)")
	f.StringVar(&fl.shard, "shard", "", "run shard i of n (1 <= i <= n); without it, read SLURM_ARRAY_TASK_ID/_MIN/_COUNT, or Kubernetes' JOB_COMPLETION_INDEX with --shard-count N or CREDITSIM_SHARD_COUNT")
	f.IntVar(&fl.shardCount, "shard-count", 0, "shards, with a Kubernetes completion index")
	f.BoolVar(&fl.resume, "resume", false, "skip points already done")
	f.BoolVar(&fl.force, "force", false, "start over (a shard reruns its own points)")
	f.BoolVarP(&fl.quiet, "quiet", "q", false, "print nothing but errors")
	f.Float64Var(&fl.maxResults, "max-results", scenarios.DefaultMaxResults, "refuse a point estimated to send more results than this")
	return cmd
}

// run is creditsim sweep: check the flags and the sweep's points, lock the
// output place unless sharded, run the points, print.
func (fl *sweepFlags) run(cmd *cobra.Command, args []string) error {
	if err := jobsFlag(cmd, fl.jobs); err != nil {
		return err
	}
	if !(fl.maxResults > 0) {
		return fail(cmd, ExitInput, "flag --max-results: %g: must be above 0", fl.maxResults)
	}
	if cmd.Flags().Changed("shard-count") && fl.shardCount < 1 {
		return fail(cmd, ExitInput, "flag --shard-count: %d: must be at least 1", fl.shardCount)
	}
	stdout, stderr := cmd.OutOrStdout(), cmd.ErrOrStderr()
	i, n, err := shardOf(fl.shard, fl.shardCount, os.Getenv)
	if err != nil {
		return fail(cmd, ExitInput, "%v", err)
	}
	sw, err := fl.load(cmd, args[0])
	if err != nil {
		return err
	}
	dir := fl.out
	if dir == "" {
		dir = filepath.Join("out", "sweep-"+sw.Spec.Name)
	}
	if n == 0 {
		unlock, err := lockPlace(cmd, dir)
		if err != nil {
			return err
		}
		defer unlock()
	}
	opts := sweep.Options{Out: dir, Jobs: fl.jobs, Shard: i, Shards: n, Resume: fl.resume, Force: fl.force,
		Protect: []string{args[0], sw.BasePath()}}
	if !fl.quiet {
		opts.Log = stderr
		what := fmt.Sprintf("%d points", len(sw.Points))
		if n > 0 {
			what += fmt.Sprintf(", shard %d of %d", i, n)
		}
		fmt.Fprintf(stderr, "sweep %s: %s x %d replications -> %s\n", sw.Spec.Name, what, sw.Points[0].Scenario.Replications, dir)
	}
	oc, err := sweep.Run(sw, opts)
	if err != nil {
		return failSweep(cmd, err)
	}
	if !fl.quiet {
		printSweep(stdout, sw, oc, dir, i, n)
	}
	return nil
}

// load reads the sweep file and checks every point's size.
func (fl *sweepFlags) load(cmd *cobra.Command, file string) (*sweep.Sweep, error) {
	sw, err := sweep.Load(file)
	if err != nil {
		return nil, failPlain(cmd, ExitInput, err)
	}
	for _, pt := range sw.Points {
		if err := pt.Scenario.CheckScale(fl.maxResults); err != nil {
			return nil, fail(cmd, ExitInput, "point %s: %v", pt.ID(), err)
		}
	}
	return sw, nil
}

// printSweep says what a sweep run did; a finished sweep shows the
// scorecard of each figure at its worst point.
func printSweep(stdout io.Writer, sw *sweep.Sweep, oc *sweep.Outcome, dir string, i, n int) {
	fmt.Fprintf(stdout, "sweep %s: ran %d points, skipped %d done; %d results in %.1f s (%.0f results/s)\n",
		sw.Spec.Name, oc.Ran, oc.Skipped, oc.Results, oc.Wall.Seconds(), float64(oc.Results)/oc.Wall.Seconds())
	if !oc.Final {
		fmt.Fprintf(stdout, "shard %d/%d done in %s; when every shard is done: creditsim merge %s\n", i, n, dir, dir)
		return
	}
	if sums, names, err := sweep.Summaries(dir); err == nil && len(sums) > 0 {
		fmt.Fprintf(stdout, "\nOver the sweep's %d points, each figure at its worst point:\n", len(sums))
		fmt.Fprint(stdout, results.NewScorecard(results.WorstSummary(sums, names), names).Text())
		fmt.Fprintln(stdout)
	}
	fmt.Fprintf(stdout, "wrote %s (sweep.csv, sweep.json, plots, points/)\n", dir)
}

func newMerge() *cobra.Command {
	var out string
	var force, quiet bool
	cmd := &cobra.Command{
		Use:   "merge DIR...",
		Short: "join a sharded sweep's folders",
		Long:  "Join the folders of a sharded sweep into the output an unsharded sweep writes (into the first folder unless -o).",
		Args:  cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, dirs []string) error {
			if err := sweep.Merge(dirs, out, force); err != nil {
				return failSweep(cmd, err)
			}
			if !quiet {
				o := out
				if o == "" {
					o = dirs[0]
				}
				fmt.Fprintf(cmd.OutOrStdout(), "merged %d folder(s) into %s\n", len(dirs), o)
			}
			return nil
		},
	}
	cmd.Flags().StringVarP(&out, "out", "o", "", "output folder (default: the first folder)")
	cmd.Flags().BoolVar(&force, "force", false, "replace an existing output folder")
	cmd.Flags().BoolVarP(&quiet, "quiet", "q", false, "print nothing but errors")
	return cmd
}

// shardOf returns the shard to run (0, 0: all): --shard i/n, else the
// array index a cluster engine sets (DESIGN section 10).
func shardOf(flagVal string, count int, env func(string) string) (int, int, error) {
	switch {
	case flagVal != "":
		return shardFromFlag(flagVal)
	case env("SLURM_ARRAY_TASK_ID") != "":
		return shardFromSlurm(env)
	case env("JOB_COMPLETION_INDEX") != "":
		return shardFromJob(count, env)
	case count != 0:
		return 0, 0, errors.New("--shard-count goes with JOB_COMPLETION_INDEX; use --shard i/n otherwise")
	}
	return 0, 0, nil
}

// shardFromFlag reads --shard i/n.
func shardFromFlag(flagVal string) (int, int, error) {
	a, b, ok := strings.Cut(flagVal, "/")
	if !ok {
		return 0, 0, fmt.Errorf("--shard %q: want i/n, e.g. 2/8", flagVal)
	}
	i, err := parseShardInt("--shard", a)
	if err != nil {
		return 0, 0, err
	}
	n, err := parseShardInt("--shard", b)
	if err != nil {
		return 0, 0, err
	}
	return checkShard("--shard "+flagVal, i, n)
}

// shardFromSlurm reads a Slurm array task: its ID less the array's
// first, of the array's count.
func shardFromSlurm(env func(string) string) (int, int, error) {
	t, err := parseShardInt("SLURM_ARRAY_TASK_ID", env("SLURM_ARRAY_TASK_ID"))
	if err != nil {
		return 0, 0, err
	}
	min := 0
	if m := env("SLURM_ARRAY_TASK_MIN"); m != "" {
		if min, err = parseShardInt("SLURM_ARRAY_TASK_MIN", m); err != nil {
			return 0, 0, err
		}
	}
	n, err := parseShardInt("SLURM_ARRAY_TASK_COUNT", env("SLURM_ARRAY_TASK_COUNT"))
	if err != nil {
		return 0, 0, err
	}
	return checkShard("SLURM_ARRAY_TASK_ID", t-min+1, n)
}

// shardFromJob reads a Kubernetes Job's completion index (from 0), of
// count shards (--shard-count, else CREDITSIM_SHARD_COUNT).
func shardFromJob(count int, env func(string) string) (int, int, error) {
	k, err := parseShardInt("JOB_COMPLETION_INDEX", env("JOB_COMPLETION_INDEX"))
	if err != nil {
		return 0, 0, err
	}
	n := count
	if n == 0 {
		c := env("CREDITSIM_SHARD_COUNT")
		if c == "" {
			return 0, 0, errors.New("JOB_COMPLETION_INDEX is set but not the shard count: pass --shard-count N (the Job's completions) or set CREDITSIM_SHARD_COUNT")
		}
		if n, err = parseShardInt("CREDITSIM_SHARD_COUNT", c); err != nil {
			return 0, 0, err
		}
	}
	return checkShard("JOB_COMPLETION_INDEX", k+1, n)
}

// parseShardInt reads an integer that name (a flag or a variable) gives.
func parseShardInt(name, s string) (int, error) {
	v, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil {
		return 0, fmt.Errorf("%s=%q is not an integer", name, s)
	}
	return v, nil
}

// checkShard accepts shard i of n from src when 1 <= i <= n.
func checkShard(src string, i, n int) (int, int, error) {
	if n < 1 || i < 1 || i > n {
		return 0, 0, fmt.Errorf("%s gives shard %d of %d; want 1 <= i <= n", src, i, n)
	}
	return i, n, nil
}

// failSweep prints a sweep or merge error: bad input (the sweep file, an
// output folder refused) exits 2, anything else 1.
func failSweep(cmd *cobra.Command, err error) error {
	if sweep.IsInput(err) || errors.Is(err, runner.ErrOutputExists) {
		return fail(cmd, ExitInput, "%v", err)
	}
	return fail(cmd, ExitRun, "%v", err)
}

// sweepLong is the long text of creditsim sweep's help.
const sweepLong = `Run a base scenario at many parameter values, each point with its
replications, points in parallel on all cores. With --shard i/n (or a
Slurm or Kubernetes array index), run a deterministic share; merge the
shards with creditsim merge.`

// sweepExample is the example text of creditsim sweep's help.
const sweepExample = `  creditsim sweep scenarios/sweeps/gpu-inflators.yaml
  creditsim sweep my-sweep.yaml --shard 2/8 -o /shared/out`
