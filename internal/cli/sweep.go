package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/creditsim/creditsim/internal/runner"
	"github.com/creditsim/creditsim/internal/sweep"
)

func cmdSweep(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("sweep", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	out := fs.String("o", "", "")
	fs.StringVar(out, "out", "", "")
	jobs := fs.Int("j", 0, "")
	shard := fs.String("shard", "", "")
	shardCount := fs.Int("shard-count", 0, "")
	resume := fs.Bool("resume", false, "")
	force := fs.Bool("force", false, "")
	quiet := fs.Bool("q", false, "")
	fs.BoolVar(quiet, "quiet", false, "")
	pos, err := parseInterleaved(fs, args)
	if err != nil || len(pos) != 1 {
		if err == nil {
			err = errors.New("give one sweep file")
		}
		fmt.Fprintf(stderr, "creditsim sweep: %v\n\n%s", err, usage)
		return ExitInput
	}
	i, n, err := shardOf(*shard, *shardCount, os.Getenv)
	if err != nil {
		fmt.Fprintf(stderr, "creditsim sweep: %v\n", err)
		return ExitInput
	}
	sw, err := sweep.Load(pos[0])
	if err != nil {
		fmt.Fprintln(stderr, err)
		return ExitInput
	}
	dir := *out
	if dir == "" {
		dir = filepath.Join("out", "sweep-"+sw.Spec.Name)
	}
	opts := sweep.Options{Out: dir, Jobs: *jobs, Shard: i, Shards: n, Resume: *resume, Force: *force}
	if !*quiet {
		opts.Log = stderr
		what := fmt.Sprintf("%d points", len(sw.Points))
		if n > 0 {
			what += fmt.Sprintf(", shard %d of %d", i, n)
		}
		fmt.Fprintf(stderr, "sweep %s: %s x %d replications -> %s\n", sw.Spec.Name, what, sw.Points[0].Scenario.Replications, dir)
	}
	oc, err := sweep.Run(sw, opts)
	if err != nil {
		fmt.Fprintf(stderr, "creditsim sweep: %v\n", err)
		if sweep.IsInput(err) || errors.Is(err, runner.ErrOutputExists) {
			return ExitInput
		}
		return ExitRun
	}
	if !*quiet {
		fmt.Fprintf(stdout, "sweep %s: ran %d points, skipped %d done; %d results in %.1f s (%.0f results/s)\n",
			sw.Spec.Name, oc.Ran, oc.Skipped, oc.Results, oc.Wall.Seconds(), float64(oc.Results)/oc.Wall.Seconds())
		if oc.Final {
			fmt.Fprintf(stdout, "wrote %s (sweep.csv, sweep.json, plots, points/)\n", dir)
		} else {
			fmt.Fprintf(stdout, "shard %d/%d done in %s; when every shard is done: creditsim merge %s\n", i, n, dir, dir)
		}
	}
	return ExitOK
}

// shardOf returns the shard to run (0, 0: all): --shard i/n, else the
// array index a cluster engine sets (DESIGN section 10).
func shardOf(flagVal string, count int, env func(string) string) (int, int, error) {
	parse := func(name, s string) (int, error) {
		v, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil {
			return 0, fmt.Errorf("%s=%q is not an integer", name, s)
		}
		return v, nil
	}
	check := func(src string, i, n int) (int, int, error) {
		if n < 1 || i < 1 || i > n {
			return 0, 0, fmt.Errorf("%s gives shard %d of %d; want 1 <= i <= n", src, i, n)
		}
		return i, n, nil
	}
	if flagVal != "" {
		a, b, ok := strings.Cut(flagVal, "/")
		if !ok {
			return 0, 0, fmt.Errorf("--shard %q: want i/n, e.g. 2/8", flagVal)
		}
		i, err := parse("--shard", a)
		if err != nil {
			return 0, 0, err
		}
		n, err := parse("--shard", b)
		if err != nil {
			return 0, 0, err
		}
		return check("--shard "+flagVal, i, n)
	}
	if id := env("SLURM_ARRAY_TASK_ID"); id != "" {
		t, err := parse("SLURM_ARRAY_TASK_ID", id)
		if err != nil {
			return 0, 0, err
		}
		min := 0
		if m := env("SLURM_ARRAY_TASK_MIN"); m != "" {
			if min, err = parse("SLURM_ARRAY_TASK_MIN", m); err != nil {
				return 0, 0, err
			}
		}
		n, err := parse("SLURM_ARRAY_TASK_COUNT", env("SLURM_ARRAY_TASK_COUNT"))
		if err != nil {
			return 0, 0, err
		}
		return check("SLURM_ARRAY_TASK_ID", t-min+1, n)
	}
	if idx := env("JOB_COMPLETION_INDEX"); idx != "" {
		k, err := parse("JOB_COMPLETION_INDEX", idx)
		if err != nil {
			return 0, 0, err
		}
		n := count
		if n == 0 {
			c := env("CREDITSIM_SHARD_COUNT")
			if c == "" {
				return 0, 0, errors.New("JOB_COMPLETION_INDEX is set but not the shard count: pass --shard-count N (the Job's completions) or set CREDITSIM_SHARD_COUNT")
			}
			if n, err = parse("CREDITSIM_SHARD_COUNT", c); err != nil {
				return 0, 0, err
			}
		}
		return check("JOB_COMPLETION_INDEX", k+1, n)
	}
	if count != 0 {
		return 0, 0, errors.New("--shard-count goes with JOB_COMPLETION_INDEX; use --shard i/n otherwise")
	}
	return 0, 0, nil
}

func cmdMerge(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("merge", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	out := fs.String("o", "", "")
	fs.StringVar(out, "out", "", "")
	force := fs.Bool("force", false, "")
	quiet := fs.Bool("q", false, "")
	fs.BoolVar(quiet, "quiet", false, "")
	dirs, err := parseInterleaved(fs, args)
	if err != nil || len(dirs) == 0 {
		if err == nil {
			err = errors.New("give the sweep folders to merge")
		}
		fmt.Fprintf(stderr, "creditsim merge: %v\n\n%s", err, usage)
		return ExitInput
	}
	if err := sweep.Merge(dirs, *out, *force); err != nil {
		fmt.Fprintf(stderr, "creditsim merge: %v\n", err)
		if sweep.IsInput(err) || errors.Is(err, runner.ErrOutputExists) {
			return ExitInput
		}
		return ExitRun
	}
	if !*quiet {
		o := *out
		if o == "" {
			o = dirs[0]
		}
		fmt.Fprintf(stdout, "merged %d folder(s) into %s\n", len(dirs), o)
	}
	return ExitOK
}
