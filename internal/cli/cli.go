// Package cli is creditsim's command line: flags, wiring and exit codes,
// with no simulation logic. It is a package (not only package main) so
// that script tests can run the real command in-process.
package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/creditsim/creditsim/internal/runner"
	"github.com/creditsim/creditsim/policy"
	_ "github.com/creditsim/creditsim/policy/sciunited" // registers sciunited
	_ "github.com/creditsim/creditsim/policy/v1peak"    // registers v1peak
	_ "github.com/creditsim/creditsim/policy/v2actual"  // registers v2actual
	_ "github.com/creditsim/creditsim/policy/v3pfc"     // registers v3pfc and its presets
	"github.com/creditsim/creditsim/results"
	"github.com/creditsim/creditsim/scenarios"
	"golang.org/x/term"
)

// Exit statuses.
const (
	ExitOK    = 0
	ExitRun   = 1
	ExitInput = 2
)

const usage = `creditsim simulates BOINC's credit systems side by side.

Usage:
  creditsim run [FILE|NAME] [flags]   run a scenario (default: the built-in baseline)
  creditsim sweep SWEEP.yaml [flags]  run a parameter sweep
  creditsim merge DIR... [-o OUT]     join a sharded sweep's folders
  creditsim validate FILE|NAME        check a scenario and print it resolved
  creditsim scenarios [NAME...]       list built-in scenarios, or print them
  creditsim scenarios --figures [NAME...]
                                      run built-ins at 300 hosts and print their
                                      claims, bounds and figures as a table
  creditsim policies                  list credit policies, presets and options
  creditsim version

Run flags (before or after the scenario):
  -o, --out DIR          output folder (default ./out/<scenario>)
  --seed N               master seed
  --replications N       replications (seeds)
  --policies a,b         policy instances to run (default: the scenario's)
  --set path=value       override a scenario field; repeatable
  --force                replace an existing output folder
  --no-plots             skip the PNG plots and report.html
  -j N                   replications in parallel (default: all cores)
  -q, --quiet            print nothing but errors

Sweep flags:
  -o, --out DIR          output folder (default ./out/sweep-<name>)
  -j N                   cores (default: all)
  --shard i/n            run shard i of n (1 <= i <= n); without it, read
                         SLURM_ARRAY_TASK_ID/_MIN/_COUNT, or Kubernetes'
                         JOB_COMPLETION_INDEX with --shard-count N or
                         CREDITSIM_SHARD_COUNT
  --resume               skip points already done
  --force                start over (a shard reruns its own points)
  -q, --quiet            print nothing but errors
`

type setFlags []string

func (s *setFlags) String() string     { return strings.Join(*s, " ") }
func (s *setFlags) Set(v string) error { *s = append(*s, v); return nil }

// Main runs the command line and returns the exit status.
func Main(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		args = []string{"run"}
	}
	switch args[0] {
	case "run":
		return cmdRun(args[1:], stdout, stderr)
	case "validate":
		return cmdValidate(args[1:], stdout, stderr)
	case "sweep":
		return cmdSweep(args[1:], stdout, stderr)
	case "merge":
		return cmdMerge(args[1:], stdout, stderr)
	case "scenarios":
		return cmdScenarios(args[1:], stdout, stderr)
	case "policies":
		return cmdPolicies(stdout)
	case "version", "--version":
		fmt.Fprintln(stdout, runner.Version)
		return ExitOK
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return ExitOK
	}
	fmt.Fprintf(stderr, "creditsim: unknown command %q\n\n%s", args[0], usage)
	return ExitInput
}

// parseInterleaved parses flags that may come before or after the
// positional arguments.
func parseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}

func cmdRun(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	var sets setFlags
	out := fs.String("o", "", "")
	fs.StringVar(out, "out", "", "")
	seed := fs.String("seed", "", "")
	reps := fs.String("replications", "", "")
	pols := fs.String("policies", "", "")
	force := fs.Bool("force", false, "")
	noPlots := fs.Bool("no-plots", false, "")
	workers := fs.Int("j", 0, "")
	quiet := fs.Bool("q", false, "")
	fs.BoolVar(quiet, "quiet", false, "")
	fs.Var(&sets, "set", "")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		fmt.Fprintf(stderr, "creditsim run: %v\n\n%s", err, usage)
		return ExitInput
	}
	if len(pos) > 1 {
		fmt.Fprintf(stderr, "creditsim run: one scenario at a time (got %s)\n", strings.Join(pos, ", "))
		return ExitInput
	}
	arg := ""
	if len(pos) == 1 {
		arg = pos[0]
	}
	if *seed != "" {
		sets = append(sets, "seed="+*seed)
	}
	if *reps != "" {
		sets = append(sets, "replications="+*reps)
	}
	if *pols != "" {
		var specs []string
		for _, p := range strings.Split(*pols, ",") {
			specs = append(specs, strconv.Quote(strings.TrimSpace(p)))
		}
		sets = append(sets, "policies=["+strings.Join(specs, ",")+"]")
	}
	s, err := scenarios.Open(arg, sets)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return ExitInput
	}
	dir := *out
	if dir == "" {
		dir = filepath.Join("out", s.Name)
	}
	opts := runner.Options{Out: dir, Force: *force, Workers: *workers, NoPlots: *noPlots}
	if f, ok := stderr.(*os.File); ok && !*quiet && term.IsTerminal(int(f.Fd())) {
		last := -1
		opts.Progress = func(x float64) {
			if pct := int(x * 100); pct != last {
				last = pct
				fmt.Fprintf(stderr, "\r%s: %3d%%", s.Name, pct)
			}
		}
	}
	oc, err := runner.Run(s, opts)
	if opts.Progress != nil {
		fmt.Fprint(stderr, "\r\033[K")
	}
	if err != nil {
		fmt.Fprintf(stderr, "creditsim run: %v\n", err)
		if errors.Is(err, runner.ErrOutputExists) {
			return ExitInput // usage: the folder is refused, nothing ran
		}
		return ExitRun
	}
	if !*quiet {
		printHeadline(stdout, oc)
		fmt.Fprintf(stdout, "\nwrote %s (%d results, %.1f s, %.0f results/s)\n", dir, oc.Summary.Results,
			oc.Wall.Seconds(), float64(oc.Summary.Results)/oc.Wall.Seconds())
	}
	return ExitOK
}

func fmtNum(x results.Num) string {
	b, _ := x.MarshalJSON()
	if string(b) == "null" {
		return "-"
	}
	f, _ := strconv.ParseFloat(string(b), 64)
	return strconv.FormatFloat(f, 'g', 4, 64)
}

func printHeadline(w io.Writer, oc *runner.Outcome) {
	s := oc.Summary
	fmt.Fprintf(w, "%s: %d replication(s), seed %d, %g days (%g warm-up), D at %g credits/GFLOPS-day\n\n",
		s.Scenario, s.Replications, s.Seed, float64(s.SimulatedDays), float64(s.WarmupDays), float64(s.CobblestonePerGFLOPSDay))
	fmt.Fprint(w, results.NewScorecard(s, oc.Policies).Text())
}

func cmdValidate(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("validate", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	var sets setFlags
	fs.Var(&sets, "set", "")
	quiet := fs.Bool("q", false, "")
	pos, err := parseInterleaved(fs, args)
	if err != nil || len(pos) != 1 {
		fmt.Fprintf(stderr, "creditsim validate: give one scenario file or name\n\n%s", usage)
		return ExitInput
	}
	s, err := scenarios.Open(pos[0], sets)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return ExitInput
	}
	if *quiet {
		return ExitOK
	}
	b, sum, err := scenarios.Resolved(s)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return ExitRun
	}
	fmt.Fprintf(stdout, "# %s is valid; resolved (sha256 %s):\n%s", pos[0], sum, b)
	return ExitOK
}

func cmdScenarios(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("scenarios", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	figures := fs.Bool("figures", false, "")
	workers := fs.Int("j", 0, "")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		fmt.Fprintf(stderr, "creditsim scenarios: %v\n\n%s", err, usage)
		return ExitInput
	}
	for _, n := range pos {
		if _, ok := scenarios.Builtin(n); !ok {
			fmt.Fprintf(stderr, "creditsim scenarios: no built-in scenario %q (built-ins: %s)\n", n, strings.Join(scenarios.Names(), ", "))
			return ExitInput
		}
	}
	if *figures {
		return scenarioFigures(pos, *workers, stdout, stderr)
	}
	if len(pos) == 0 {
		tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
		for _, n := range scenarios.Names() {
			fmt.Fprintf(tw, "%s\t%s\n", n, scenarios.Summary(n))
		}
		tw.Flush()
		return ExitOK
	}
	for _, n := range pos {
		b, _ := scenarios.Builtin(n)
		stdout.Write(b)
	}
	return ExitOK
}

// scenarioFigures runs the named built-ins (all without names) at the
// claim size and prints the Markdown table of their claims; exit 1 if a
// claim fails.
func scenarioFigures(names []string, workers int, stdout, stderr io.Writer) int {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	var rs []runner.ClaimResult
	var err error
	if len(names) == 0 {
		rs, err = runner.CheckLibrary(workers)
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
		fmt.Fprintf(stderr, "creditsim scenarios: %v\n", err)
		return ExitRun
	}
	fmt.Fprint(stdout, runner.ClaimsTable(rs))
	for _, r := range rs {
		if !r.Holds {
			fmt.Fprintf(stderr, "creditsim scenarios: %s: claim %q does not hold: %s %s = %s\n", r.Scenario, r.Claim.Text, r.Claim.Policy, r.Claim.Figure, runner.FormatClaimValue(r.Value))
			return ExitRun
		}
	}
	return ExitOK
}

func cmdPolicies(stdout io.Writer) int {
	for _, k := range policy.Kinds() {
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
	}
	for _, p := range policy.Presets() {
		fmt.Fprintf(stdout, "%s: preset of %s: %s\n", p.Name, p.Kind, p.Doc)
		for _, k := range results.SortedKeys(p.Options) {
			fmt.Fprintf(stdout, "    %s = %s\n", k, p.Options[k])
		}
	}
	return ExitOK
}
