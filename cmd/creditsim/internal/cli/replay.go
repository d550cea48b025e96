package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/creditsim/creditsim/cmd/creditsim/internal/projectdb"
	"github.com/creditsim/creditsim/cmd/creditsim/internal/replay"
	"github.com/creditsim/creditsim/cmd/creditsim/internal/runner"
	"github.com/creditsim/creditsim/policy"
	"github.com/creditsim/creditsim/results"
)

// readReplayInput reads a replay's input: a database (file is a DSN;
// since, until and app select from it) or a file. It returns the input
// and the name its messages use; on failure it has printed the error.
func readReplayInput(cmd *cobra.Command, file, since, until, app string, quiet bool) (*replay.Input, string, error) {
	if !projectdb.IsDSN(file) {
		if since != "" || until != "" || app != "" {
			return nil, "", fail(cmd, ExitInput, "--since, --until and --app select from a database; %s is a file", file)
		}
		in, err := readReplayFile(cmd, file, quiet)
		return in, file, err
	}
	var q projectdb.Query
	for _, d := range []struct {
		flag, text string
		t          *time.Time
	}{{"since", since, &q.Since}, {"until", until, &q.Until}} {
		if d.text == "" {
			continue
		}
		var err error
		if *d.t, err = parseDate(d.text); err != nil {
			return nil, "", fail(cmd, ExitInput, "flag --%s: %q: want a date (2026-10-01) or a time (2026-10-01T12:00:00Z)", d.flag, d.text)
		}
	}
	if since != "" && until != "" && !q.Since.Before(q.Until) {
		return nil, "", fail(cmd, ExitInput, "flag --since: %q is not before --until %q: no result could match", since, until)
	}
	q.App = app
	in, err := projectdb.Read(file, q)
	if err != nil {
		return nil, "", failPlain(cmd, ExitInput, err)
	}
	return in, "database", nil
}

// readReplayFile reads a replay file (a regular file), with its progress
// shown on a terminal unless quiet.
func readReplayFile(cmd *cobra.Command, file string, quiet bool) (*replay.Input, error) {
	fi, err := os.Stat(file)
	switch {
	case err != nil:
		return nil, fail(cmd, ExitInput, "%v", err)
	case !fi.Mode().IsRegular():
		return nil, fail(cmd, ExitInput, "%s: not a regular file", file)
	}
	f, err := os.Open(file)
	if err != nil {
		return nil, fail(cmd, ExitInput, "%v", err)
	}
	defer f.Close()
	var r io.Reader = f
	if show := phaseLine(cmd, "replay", quiet); show != nil {
		r = &readProgress{r: f, size: fi.Size(), show: func(x float64) { show("reading "+file, x) }}
		defer show("", -1)
	}
	in, err := replay.Read(file, r)
	if err != nil {
		return nil, failPlain(cmd, ExitInput, err)
	}
	return in, nil
}

// replayPolicies picks the policies to replay: those named (each must be
// one the input can feed), else every standard one it can feed, with why
// the others cannot run. Names and specs come sorted by name.
func replayPolicies(cmd *cobra.Command, in *replay.Input, file, pols string) (names []string, specs []policy.Spec, notRun map[string]string, err error) {
	var wanted []policy.Spec
	if pols != "" {
		list, err := policyList(pols)
		if err != nil {
			return nil, nil, nil, fail(cmd, ExitInput, "%v", err)
		}
		for _, p := range list {
			wanted = append(wanted, policy.Spec{Name: p})
		}
	} else {
		for _, n := range policy.Standard() {
			wanted = append(wanted, policy.Spec{Name: n})
		}
	}
	notRun = map[string]string{}
	for _, sp := range wanted {
		k, opts, err := policy.Resolve(sp)
		if err != nil {
			return nil, nil, nil, fail(cmd, ExitInput, "flag --policies: %v", err)
		}
		if ok, why := replay.Supported(k, opts, in); !ok {
			if pols != "" {
				return nil, nil, nil, fail(cmd, ExitInput, "%s cannot run on %s: %s", sp.Name, file, why)
			}
			notRun[sp.Name] = why
			continue
		}
		names, specs = append(names, sp.Name), append(specs, sp)
	}
	sort.Strings(names)
	sort.Slice(specs, func(a, b int) bool { return specs[a].Name < specs[b].Name })
	if len(names) == 0 {
		var why []string
		for _, n := range results.SortedKeys(notRun) {
			why = append(why, "  "+n+": "+notRun[n])
		}
		return nil, nil, nil, fail(cmd, ExitInput, "%s: no policy can run on this input (its columns: %s); what each lacks:\n%s",
			file, strings.Join(results.SortedKeys(in.Has), ", "), strings.Join(why, "\n"))
	}
	return names, specs, notRun, nil
}

// readProgress reports the share of a file read.
type readProgress struct {
	r    io.Reader
	size int64
	n    int64
	show func(float64)
}

func (p *readProgress) Read(b []byte) (int, error) {
	n, err := p.r.Read(b)
	p.n += int64(n)
	if p.size > 0 {
		p.show(float64(p.n) / float64(p.size))
	}
	return n, err
}

// phaseLine returns, on a terminal and unless quiet, a function that keeps
// one line up to date ("replay: reading f.csv, 45%, 20s elapsed"), at most
// once a percent; a share of NaN shows the phase alone, a negative one
// clears the line. Elsewhere it is nil.
func phaseLine(cmd *cobra.Command, name string, quiet bool) func(phase string, share float64) {
	w := cmd.ErrOrStderr()
	f, ok := w.(*os.File)
	if quiet || !ok || !term.IsTerminal(int(f.Fd())) {
		return nil
	}
	start := time.Now()
	last, lastPhase := -1, ""
	return func(phase string, x float64) {
		if x < 0 {
			fmt.Fprint(w, "\r\033[K")
			return
		}
		if math.IsNaN(x) { // a phase of unknown length
			fmt.Fprintf(w, "\r\033[K%s: %s, %s elapsed", name, phase, time.Since(start).Round(time.Second))
			return
		}
		pct := int(x * 100)
		if pct == last && phase == lastPhase {
			return
		}
		last, lastPhase = pct, phase
		fmt.Fprintf(w, "\r\033[K%s: %s, %d%%, %s elapsed", name, phase, pct, time.Since(start).Round(time.Second))
	}
}

// writeAll writes the files in name order and commits the folder.
func writeAll(od *results.OutDir, files map[string][]byte) error {
	for _, k := range results.SortedKeys(files) {
		if err := od.Write(k, files[k]); err != nil {
			return err
		}
	}
	return od.Commit()
}

// replayFlags are replay's flags.
type replayFlags struct {
	out, pols         string
	since, until, app string
	limits            []string
	force, quiet      bool
}

func newReplay() *cobra.Command {
	var fl replayFlags
	cmd := &cobra.Command{
		Use:     "replay FILE|DSN",
		Short:   "feed a project's recorded results to every credit system",
		Long:    replayLong,
		Example: replayExample,
		Args:    cobra.ExactArgs(1),
		RunE:    func(cmd *cobra.Command, args []string) error { return fl.run(cmd, args) },
	}
	f := cmd.Flags()
	f.StringVarP(&fl.out, "out", "o", "", "output folder (default ./out/replay-<file>)")
	f.StringVar(&fl.pols, "policies", "", "policy instances to run, comma-separated (default: every standard one the input can feed)")
	f.BoolVar(&fl.force, "force", false, forceHelp)
	f.BoolVarP(&fl.quiet, "quiet", "q", false, "print nothing but errors")
	f.StringVar(&fl.since, "since", "", "database: results received from this date or time on")
	f.StringVar(&fl.until, "until", "", "database: results received before this date or time")
	f.StringVar(&fl.app, "app", "", "database: results of this app (name or ID)")
	addLimitFlag(cmd, &fl.limits)
	return cmd
}

// run is creditsim replay: read the input (a file or a database), choose
// the policies it can feed, lock the output place, replay, write, print.
func (fl *replayFlags) run(cmd *cobra.Command, args []string) error {
	if err := applyLimits(cmd, fl.limits); err != nil {
		return err
	}
	in, file, err := readReplayInput(cmd, args[0], fl.since, fl.until, fl.app, fl.quiet)
	if err != nil {
		return err
	}
	names, specs, notRun, err := replayPolicies(cmd, in, file, fl.pols)
	if err != nil {
		return err
	}
	dir := fl.out
	if dir == "" {
		dir = filepath.Join("out", "replay-"+strings.TrimSuffix(filepath.Base(file), filepath.Ext(file)))
	}
	unlock, err := lockPlace(cmd, dir)
	if err != nil {
		return err
	}
	defer unlock()
	od, err := results.NewOutDir(dir, replaceRule(cmd, args, fl.force), file)
	if err != nil {
		return fail(cmd, ExitInput, "%v", err)
	}
	show := phaseLine(cmd, "replay", fl.quiet)
	if show != nil {
		defer show("", -1)
	}
	o, err := replayShown(in, names, specs, show)
	if err != nil {
		od.Abort()
		return fail(cmd, ExitRun, "%v", err)
	}
	outs, err := replay.Write(in, o, notRun, runner.Version)
	if err == nil {
		err = writeAll(od, outs)
	}
	if err != nil {
		od.Abort()
		if errors.Is(err, results.ErrOutputExists) {
			return fail(cmd, ExitInput, "%v", err)
		}
		return fail(cmd, ExitRun, "%v", err)
	}
	if !fl.quiet {
		printReplay(cmd, in, o, outs, notRun, dir)
	}
	return nil
}

// replayShown replays in, its progress shown by show (if not nil).
func replayShown(in *replay.Input, names []string, specs []policy.Spec, show func(string, float64)) (*replay.Outcome, error) {
	if show == nil {
		return replay.Run(in, names, specs)
	}
	phase := fmt.Sprintf("replaying %d results through %d policies", len(in.Rows), len(names))
	o, err := replay.RunProgress(in, names, specs, func(x float64) { show(phase, x) })
	show("writing tables and plots", math.NaN())
	return o, err
}

// parseDate reads 2026-10-01 (UTC) or an RFC 3339 time.
func parseDate(s string) (time.Time, error) {
	if t, err := time.Parse("2006-01-02", s); err == nil {
		return t, nil
	}
	return time.Parse(time.RFC3339, s)
}

func printReplay(cmd *cobra.Command, in *replay.Input, o *replay.Outcome, outs replay.Outputs, notRun map[string]string, dir string) {
	w := cmd.OutOrStdout()
	fmt.Fprintf(w, "replay %s: %d results (%s)\n", in.File, len(in.Rows), in.Form)
	var s struct {
		Compared string `json:"compared_with"`
		Policies map[string]struct {
			Total results.Num `json:"total_credit"`
			Ratio results.Num `json:"ratio_to_compared"`
		} `json:"policies"`
	}
	if err := json.Unmarshal(outs["replay.json"], &s); err != nil {
		return
	}
	cmp := s.Compared
	if cmp == "" {
		cmp = "(nothing to compare)"
	}
	fmt.Fprintf(w, "%-24s %14s  over %s\n", "policy", "total credit", cmp)
	for _, n := range o.Policies {
		p := s.Policies[n]
		// A total of credit is a sum, not a ratio: it is never "unbounded".
		total := "–"
		if results.Defined(float64(p.Total)) {
			total = fmt.Sprintf("%.3g", float64(p.Total))
		}
		fmt.Fprintf(w, "%-24s %14s  %s\n", n, total, results.FormatScore(float64(p.Ratio)))
	}
	for _, n := range results.SortedKeys(notRun) {
		fmt.Fprintf(w, "not run: %s (%s)\n", n, notRun[n])
	}
	fmt.Fprintf(w, "wrote %s\n", dir)
}

// replayLong is the long text of creditsim replay's help.
const replayLong = `Replay a project's results through every credit system the input can
feed, in the order the server handled them, and compare each with the
credit the project granted (or claimed). FILE is BOINC's credit_test_data
(what html/ops/credit_test.php writes) or a CSV with named columns (a
SELECT over the project's database, or creditsim run --trace); DSN is a
project's MySQL/MariaDB database, read-only
(user:password@tcp(host:3306)/boinc), with --since, --until and --app
selecting results by the time they were received and their app. Writes
per-result, per-version, per-app, per-host and per-user tables,
replay.json, plots and report.html to the output folder.`

// replayExample is the example text of creditsim replay's help.
const replayExample = `  creditsim replay credit_test_data
  creditsim replay results.csv --policies v3pfc-boinc,credit-from-runtime -o out/mine
  creditsim run --quick --trace trace.csv && creditsim replay trace.csv
  creditsim replay 'boinc:secret@tcp(db:3306)/boinc' --since 2026-10-01 --app einstein`
