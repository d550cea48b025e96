package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/creditsim/creditsim/cmd/creditsim/internal/fit"
	"github.com/creditsim/creditsim/cmd/creditsim/internal/projectdb"
	"github.com/creditsim/creditsim/cmd/creditsim/internal/statsdump"
	"github.com/creditsim/creditsim/cmd/creditsim/internal/tables"
	"github.com/creditsim/creditsim/results"
	"github.com/creditsim/creditsim/scenarios"
)

// fitFlags are fit's flags.
type fitFlags struct {
	out, name, since, until string
	config, family          string
	apps, countsFlops       []string
	limits                  []string
	force, strict           bool
	// prov is the fit's provenance as JSON (fit.Provenance), written
	// beside the scenario.
	prov []byte
}

func newFit() *cobra.Command {
	var fl fitFlags
	cmd := &cobra.Command{
		Use:   "fit SOURCE",
		Short: "make a scenario from a project's own data (its database, table exports or statistics export)",
		Long: `Fit a scenario to a project's own data. SOURCE is one of:

  - its database: a MySQL/MariaDB DSN as replay reads it (read-only);
  - a folder of its tables, as mysql --batch prints a SELECT (host.tsv,
    result.tsv, workunit.tsv, app.tsv, app_version.tsv, platform.tsv; user,
    team and host_app_version where present; .csv and .gz too), with
    BOINC's column names;
  - its public statistics export: host.gz (or host.xml) as BOINC's db_dump
    writes it with <detail/>, or a folder holding it.

From the tables: hosts present and arriving, their lifetime, CPUs,
benchmarks, platforms, GPUs and speeds, availability, error and invalid
rates, apps, job sizes, bounds, replication, versions, their efficiency and
CPU use. From a statistics export: the hosts only. What the source cannot
tell comes from the built-in baseline, and the scenario's header says which
is which. The server's options come from --config (the project's
config.xml). The scenario is an ordinary one: validate, run, sweep or
attack it.`,
		Example: `  creditsim fit host.gz -o my-project.yaml
  creditsim fit /var/www/stats --since 2026-01-01 --until 2026-04-01 --name my-project
  creditsim fit 'boincadm:secret@tcp(db:3306)/myproject' --config config.xml --counts-flops all -o mine.yaml
  creditsim run baseline --quick --export-tables out/tables && creditsim fit out/tables -o refit.yaml`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error { return fl.run(cmd, args[0]) },
	}
	f := cmd.Flags()
	f.StringVarP(&fl.out, "out", "o", "", "scenario file to write (default: print it)")
	f.StringVar(&fl.name, "name", "fitted", "the scenario's name")
	f.StringVar(&fl.since, "since", "", "start of the window fitted, YYYY-MM-DD (default: 90 days before its end)")
	f.StringVar(&fl.until, "until", "", "end of the window, YYYY-MM-DD (default: the export's last contact)")
	f.BoolVar(&fl.force, "force", false, "replace an existing scenario file")
	f.StringVar(&fl.family, "family", "empirical", "how the hosts' benchmarks are written: empirical (quantile classes) or lognormal (a fitted family)")
	f.StringVar(&fl.config, "config", "", "the project's config.xml: the server's options (tables and databases)")
	f.StringSliceVar(&fl.apps, "app", nil, "fit only these apps, by name (tables and databases)")
	f.StringSliceVar(&fl.countsFlops, "counts-flops", nil, "the apps that count their FLOPs, by name, or all (BOINC's tables do not say)")
	addLimitFlag(cmd, &fl.limits)
	f.BoolVar(&fl.strict, "strict", false, strictHelp)
	return cmd
}

// run is creditsim fit: read the source, fit, write the scenario.
func (fl *fitFlags) run(cmd *cobra.Command, source string) error {
	if err := applyLimits(cmd, fl.limits); err != nil {
		return err
	}
	if p := scenarios.FileNameProblem(fl.name); p != "" {
		return fail(cmd, ExitInput, "flag --name: %q: %s", fl.name, p)
	}
	w, err := fl.window(cmd)
	if err != nil {
		return err
	}
	if !slices.Contains(fit.Families, fl.family) {
		return fail(cmd, ExitInput, "flag --family: %q: want %s", fl.family, strings.Join(fit.Families, " or "))
	}
	text, what, err := fl.fit(cmd, source, w)
	if err != nil {
		return err
	}
	return fl.write(cmd, text, what)
}

// fit fits source into a scenario: its text and a line saying what it
// was fitted from. Errors are cobra errors with their exit codes.
func (fl *fitFlags) fit(cmd *cobra.Command, source string, w fit.Window) ([]byte, string, error) {
	switch kind, err := sourceKind(source); {
	case err != nil:
		return nil, "", fail(cmd, ExitInput, "%v", err)
	case kind == "stats":
		return fl.fitStats(cmd, source, w)
	default:
		return fl.fitTables(cmd, source, kind, w)
	}
}

// fitStats fits a statistics export.
func (fl *fitFlags) fitStats(cmd *cobra.Command, source string, w fit.Window) ([]byte, string, error) {
	if fl.config != "" || len(fl.apps) > 0 || len(fl.countsFlops) > 0 {
		return nil, "", fail(cmd, ExitInput, "%s is a statistics export, which has hosts only: --config, --app and --counts-flops need a project's tables or database", source)
	}
	path, err := statsFile(source)
	if err != nil {
		return nil, "", fail(cmd, ExitInput, "%v", err)
	}
	hosts, err := statsdump.Read(path)
	if err != nil {
		return nil, "", fail(cmd, ExitInput, "%v", err)
	}
	f, err := fit.FitHosts(hosts, w)
	if err != nil {
		return nil, "", fail(cmd, ExitInput, "%s: %v", path, err)
	}
	// The export's user table, beside its host table, says the teams.
	for _, n := range []string{"user.gz", "user.xml"} {
		up := filepath.Join(filepath.Dir(path), n)
		if _, err := os.Stat(up); err != nil {
			continue
		}
		users, err := statsdump.ReadUsers(up)
		if err != nil {
			return nil, "", fail(cmd, ExitInput, "%v", err)
		}
		team := map[int]int{}
		for _, u := range users {
			team[u.ID] = u.TeamID
		}
		f.FitTeams(team, up)
		break
	}
	f.Family = fl.family
	if err := fl.unidentified(cmd, f.Unidentified); err != nil {
		return nil, "", err
	}
	text, err := f.Scenario(fl.name, path)
	if err == nil {
		fl.prov, err = provenanceJSON(f.Provenance(path))
	}
	if err != nil {
		return nil, "", fail(cmd, ExitRun, "%v", err)
	}
	return text, fmt.Sprintf("%d hosts present and %.3g arriving a day, fitted from %d hosts of %s", f.Initial, f.ArrivalsPerDay, f.Rows, path), nil
}

// fitTables fits a folder of table files or a database.
func (fl *fitFlags) fitTables(cmd *cobra.Command, source, kind string, w fit.Window) ([]byte, string, error) {
	opt := fit.TableOptions{Window: w, CountsFlops: fl.countsFlops, Apps: fl.apps}
	if fl.config != "" {
		sets, notes, err := fit.ReadConfig(fl.config)
		if err != nil {
			return nil, "", fail(cmd, ExitInput, "flag --config: %v", err)
		}
		opt.Server, opt.ServerNotes = sets, notes
	}
	var src tables.Source = tables.Dir(source)
	name := source
	if kind == "db" {
		name = projectdb.Redact(source)
		conn, closeAll, err := projectdb.OpenReadOnly(name, source)
		if err != nil {
			return nil, "", fail(cmd, ExitInput, "%v", err)
		}
		defer closeAll()
		db := &tables.DB{Conn: conn, Label: name}
		if err := fit.DBWindow(db, &opt.Window); err != nil {
			return nil, "", fail(cmd, ExitInput, "%v", err)
		}
		src = db
	}
	p, err := fit.FitTables(src, opt)
	if err != nil {
		return nil, "", fail(cmd, ExitInput, "%v", err)
	}
	p.Family = fl.family
	if err := fl.unidentified(cmd, p.Unidentified()); err != nil {
		return nil, "", err
	}
	text, err := p.Scenario(fl.name, name)
	if err == nil {
		fl.prov, err = provenanceJSON(p.Provenance(name))
	}
	if err != nil {
		return nil, "", fail(cmd, ExitRun, "%v", err)
	}
	return text, fmt.Sprintf("%d hosts present and %.3g arriving a day, %d apps, fitted from %d hosts and %d results of %s",
		p.Initial, p.ArrivalsPerDay, len(p.Apps), p.Rows, p.Results, name), nil
}

// strictHelp is --strict's help.
const strictHelp = "refuse (exit 2) a fit with anything not identified from the data, rather than write the baseline's value with a warning"

// unidentified prints what the fit could not identify as warnings, or
// with --strict refuses the fit.
func (fl *fitFlags) unidentified(cmd *cobra.Command, un []string) error {
	if fl.strict && len(un) > 0 {
		return fail(cmd, ExitInput, "--strict: the data do not identify:\n  - %s", strings.Join(un, "\n  - "))
	}
	for _, w := range un {
		fmt.Fprintln(cmd.ErrOrStderr(), cmd.CommandPath()+": warning: "+w)
	}
	return nil
}

// sourceKind tells a database (db), a folder of table files (tables)
// and a statistics export (stats) apart.
func sourceKind(source string) (string, error) {
	st, err := os.Stat(source)
	if err != nil {
		if projectdb.IsDSN(source) {
			return "db", nil
		}
		return "", err
	}
	if st.IsDir() {
		host, err := tables.Find(source, "host")
		if err != nil {
			return "", err
		}
		if host != "" {
			return "tables", nil
		}
	}
	return "stats", nil
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

// provenanceJSON is the fit's provenance as written beside the scenario.
func provenanceJSON(pv fit.Provenance) ([]byte, error) {
	b, err := json.MarshalIndent(pv, "", "  ")
	return append(b, '\n'), err
}

// provenancePath is where the provenance of the scenario at out goes:
// world.yaml's in world.provenance.json.
func provenancePath(out string) string {
	return strings.TrimSuffix(out, filepath.Ext(out)) + ".provenance.json"
}

// write writes the fitted scenario to --out and its provenance beside
// it, or prints the scenario (whose header holds the same).
func (fl *fitFlags) write(cmd *cobra.Command, text []byte, what string) error {
	if fl.out == "" {
		_, err := cmd.OutOrStdout().Write(text)
		return err
	}
	prov := provenancePath(fl.out)
	for _, f := range []string{fl.out, prov} {
		if _, err := os.Stat(f); err == nil && !fl.force {
			return fail(cmd, ExitInput, "%s exists: give --force to replace it", f)
		}
	}
	if err := results.WriteFileAtomic(prov, fl.prov); err != nil {
		return fail(cmd, ExitRun, "%v", err)
	}
	if err := results.WriteFileAtomic(fl.out, text); err != nil {
		return fail(cmd, ExitRun, "%v", err)
	}
	fmt.Fprintf(cmd.OutOrStdout(), "wrote %s: %s (where each value came from: %s)\n", fl.out, what, prov)
	return nil
}

// statsFile finds the host table of a statistics export: the file
// given, or host.gz or host.xml in the folder given.
func statsFile(source string) (string, error) {
	st, err := os.Stat(source)
	if err != nil {
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
	return "", fmt.Errorf("%s: no host.gz or host.xml in the folder (a statistics export's host table), nor host.tsv or host.csv (a table export)", source)
}
