package cli

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/creditsim/creditsim/cmd/creditsim/internal/fit"
	"github.com/creditsim/creditsim/cmd/creditsim/internal/replay"
	"github.com/creditsim/creditsim/cmd/creditsim/internal/statsdump"
	"github.com/creditsim/creditsim/results"
	"github.com/creditsim/creditsim/scenarios"
)

// fitFlags are fit's flags.
type fitFlags struct {
	out, name, since, until string
	force                   bool
}

func newFit() *cobra.Command {
	var fl fitFlags
	cmd := &cobra.Command{
		Use:   "fit SOURCE",
		Short: "make a scenario from a project's own data (its statistics export)",
		Long: `Fit a scenario's host population to a project's public statistics export:
SOURCE is host.gz (or host.xml) as BOINC's db_dump writes it with <detail/>,
or a folder holding it. Fitted: hosts present and arriving, their lifetime,
CPUs, benchmarks, platforms, GPUs and hosts per user. What the export cannot
tell (apps, job sizes, replication, availability, error rates, GPU speeds)
comes from the built-in baseline; the scenario's header says which is which.
The scenario is an ordinary one: validate, run, sweep or attack it.

A project's database or table exports: not yet (replay reads them).`,
		Example: `  creditsim fit host.gz -o my-project.yaml
  creditsim fit /var/www/stats --since 2026-01-01 --until 2026-04-01 --name my-project
  creditsim run baseline --quick --export-stats out/stats && creditsim fit out/stats -o refit.yaml`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error { return fl.run(cmd, args[0]) },
	}
	f := cmd.Flags()
	f.StringVarP(&fl.out, "out", "o", "", "scenario file to write (default: print it)")
	f.StringVar(&fl.name, "name", "fitted", "the scenario's name")
	f.StringVar(&fl.since, "since", "", "start of the window fitted, YYYY-MM-DD (default: 90 days before its end)")
	f.StringVar(&fl.until, "until", "", "end of the window, YYYY-MM-DD (default: the export's last contact)")
	f.BoolVar(&fl.force, "force", false, "replace an existing scenario file")
	return cmd
}

// run is creditsim fit: read the export, fit, write the scenario.
func (fl *fitFlags) run(cmd *cobra.Command, source string) error {
	if p := scenarios.FileNameProblem(fl.name); p != "" {
		return fail(cmd, ExitInput, "flag --name: %q: %s", fl.name, p)
	}
	w, err := fl.window(cmd)
	if err != nil {
		return err
	}
	path, err := statsFile(source)
	if err != nil {
		return fail(cmd, ExitInput, "%v", err)
	}
	hosts, err := statsdump.Read(path)
	if err != nil {
		return fail(cmd, ExitInput, "%v", err)
	}
	f, err := fit.FitHosts(hosts, w)
	if err != nil {
		return fail(cmd, ExitInput, "%s: %v", path, err)
	}
	return fl.write(cmd, f, path)
}

// window reads --since and --until.
func (fl *fitFlags) window(cmd *cobra.Command) (fit.Window, error) {
	var w fit.Window
	for _, d := range []struct {
		flag, v string
		t       *float64
	}{{"since", fl.since, &w.From}, {"until", fl.until, &w.To}} {
		if d.v == "" {
			continue
		}
		t, err := parseDate(d.v)
		if err != nil {
			return w, fail(cmd, ExitInput, "flag --%s: %q: want a date (2026-10-01) or a time (2026-10-01T12:00:00Z)", d.flag, d.v)
		}
		*d.t = float64(t.Unix())
	}
	if w.From != 0 && w.To != 0 && !(w.From < w.To) {
		return w, fail(cmd, ExitInput, "flag --since: %q is not before --until %q", fl.since, fl.until)
	}
	return w, nil
}

// write writes the fitted scenario to --out, or prints it.
func (fl *fitFlags) write(cmd *cobra.Command, f *fit.Hosts, path string) error {
	text, err := f.Scenario(fl.name, path)
	if err != nil {
		return fail(cmd, ExitRun, "%v", err)
	}
	if fl.out == "" {
		_, err = cmd.OutOrStdout().Write(text)
		return err
	}
	if _, err := os.Stat(fl.out); err == nil && !fl.force {
		return fail(cmd, ExitInput, "%s exists: give --force to replace it", fl.out)
	}
	if err := results.WriteFileAtomic(fl.out, text); err != nil {
		return fail(cmd, ExitRun, "%v", err)
	}
	fmt.Fprintf(cmd.OutOrStdout(), "wrote %s: %d hosts present and %.3g arriving a day, fitted from %d hosts of %s\n",
		fl.out, f.Initial, f.ArrivalsPerDay, f.Rows, path)
	return nil
}

// statsFile finds the host table of a statistics export: the file
// given, or host.gz or host.xml in the folder given.
func statsFile(source string) (string, error) {
	st, err := os.Stat(source)
	if err != nil {
		if replay.IsDSN(source) {
			return "", fmt.Errorf("%s: fit reads a statistics export today; a database is not yet supported (replay reads one)", replay.Redact(source))
		}
		return "", err
	}
	if !st.IsDir() {
		return source, nil
	}
	for _, n := range []string{"host.gz", "host.xml"} {
		if _, err := os.Stat(filepath.Join(source, n)); err == nil {
			return filepath.Join(source, n), nil
		}
	}
	return "", fmt.Errorf("%s: no host.gz or host.xml in the folder (a statistics export's host table)", source)
}
