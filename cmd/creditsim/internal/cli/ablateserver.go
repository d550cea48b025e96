package cli

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/creditsim/creditsim/cmd/creditsim/internal/ablate"
	"github.com/creditsim/creditsim/cmd/creditsim/internal/runner"
	"github.com/creditsim/creditsim/results"
	"github.com/creditsim/creditsim/results/report"
	"github.com/creditsim/creditsim/scenarios"
)

// runServer is creditsim ablate --server: a run per server configuration
// (the scenario's, then each defence off), one table.
func (fl *ablateFlags) runServer(cmd *cobra.Command, arg string, argv []string) error {
	over := append([]string(nil), fl.sets...)
	if cmd.Flags().Changed("replications") {
		if fl.reps < 1 {
			return fail(cmd, ExitInput, "flag --replications: %d: must be at least 1", fl.reps)
		}
		over = append(over, fmt.Sprintf("replications=%d", fl.reps))
	}
	s, err := openScenario(cmd, arg, over, fl.maxResults)
	if err != nil {
		return err
	}
	cfgs, err := ablate.ServerPlan(s)
	if err != nil {
		return fail(cmd, ExitInput, "%v", err)
	}
	worlds, err := fl.serverWorlds(cmd, arg, over, cfgs)
	if err != nil {
		return err
	}
	dir := fl.out
	if dir == "" {
		dir = filepath.Join("out", "ablate-"+s.Name+"-server")
	}
	unlock, err := lockPlace(cmd, dir)
	if err != nil {
		return err
	}
	defer unlock()
	sums := make([]*results.Summary, len(cfgs))
	for i, w := range worlds {
		if !fl.quiet {
			fmt.Fprintf(cmd.ErrOrStderr(), "ablate %s: configuration %d of %d, %s\n", s.Name, i+1, len(cfgs), cfgs[i].Name)
		}
		oc, err := runWithProgress(cmd, w, runner.Options{Workers: fl.workers, NoPlots: true,
			CommandLine: append([]string{"creditsim"}, argv...)}, fl.quiet)
		if err != nil {
			return fail(cmd, ExitRun, "%v", err)
		}
		sums[i] = oc.Summary
	}
	return fl.finishServer(cmd, s, dir, arg, cfgs, sums)
}

// serverWorlds opens the scenario once per server configuration.
func (fl *ablateFlags) serverWorlds(cmd *cobra.Command, arg string, over []string, cfgs []ablate.ServerConfig) ([]*scenarios.Scenario, error) {
	worlds := make([]*scenarios.Scenario, len(cfgs))
	for i, c := range cfgs {
		set := over
		if c.Option != "" {
			set = append(append([]string(nil), over...), c.Option)
		}
		var err error
		if worlds[i], err = openScenario(cmd, arg, set, fl.maxResults); err != nil {
			return nil, err
		}
	}
	return worlds, nil
}

// finishServer writes and prints a server ablation.
func (fl *ablateFlags) finishServer(cmd *cobra.Command, s *scenarios.Scenario, dir, arg string, cfgs []ablate.ServerConfig, sums []*results.Summary) error {
	names := policyOrder(s)
	var frontier []byte
	if !fl.noPlots {
		var err error
		if frontier, err = ablate.ServerFrontier(s.Name, cfgs, sums, names); err != nil {
			return fail(cmd, ExitRun, "%v", err)
		}
	}
	if err := writeServerAblation(dir, replaceRule(cmd, cmd.Flags().Args(), fl.force), arg, s.Name, cfgs, sums, names, frontier); err != nil {
		if errors.Is(err, runner.ErrOutputExists) {
			return fail(cmd, ExitInput, "%v", err)
		}
		return fail(cmd, ExitRun, "%v", err)
	}
	if !fl.quiet {
		printServerAblation(cmd.OutOrStdout(), s.Name, cfgs, sums, names, dir)
	}
	return nil
}

// policyOrder is the scenario's policy instances in its order.
func policyOrder(s *scenarios.Scenario) []string {
	var out []string
	for _, p := range s.Policies {
		out = append(out, p.Name)
	}
	return out
}

// configFile names a configuration's summary file.
func configFile(c ablate.ServerConfig) string {
	return "summary-" + strings.ReplaceAll(c.Name, " ", "-") + ".json"
}

// writeServerAblation writes ablation.csv, ablation.html, frontier.png
// and each configuration's summary into dir, all or nothing.
func writeServerAblation(dir string, rule results.Replace, input, scenario string, cfgs []ablate.ServerConfig, sums []*results.Summary, names []string, frontier []byte) error {
	od, err := results.NewOutDir(dir, rule, inputFiles(input)...)
	if err != nil {
		return err
	}
	table, err := ablate.ServerCSV(cfgs, sums, names)
	if err == nil {
		err = od.Write("ablation.csv", table)
	}
	if err == nil && frontier != nil {
		err = od.Write("frontier.png", frontier)
	}
	if err == nil {
		pages := make([]report.ServerConfig, len(cfgs))
		for i, c := range cfgs {
			pages[i] = report.ServerConfig{Name: c.Name, Doc: c.Doc, Summary: sums[i]}
		}
		var page []byte
		if page, err = report.ServerAblation(scenario, pages, names, frontier != nil); err == nil {
			err = od.Write("ablation.html", page)
		}
	}
	for i, c := range cfgs {
		var b []byte
		if err == nil {
			b, err = results.JSON(sums[i])
		}
		if err == nil {
			err = od.Write(configFile(c), b)
		}
	}
	if err != nil {
		od.Abort()
		return err
	}
	return od.Commit()
}

// printServerAblation prints each policy's worst gain and harm under each
// configuration, then each configuration's price.
func printServerAblation(w io.Writer, scenario string, cfgs []ablate.ServerConfig, sums []*results.Summary, names []string, dir string) {
	fmt.Fprintf(w, "Server ablation on %s: worst gain over the honest twin / harm to honest accounts, per configuration (a run each, same seeds).\n\n", scenario)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	head := "policy"
	for _, c := range cfgs {
		head += "\t" + c.Name
	}
	fmt.Fprintln(tw, head)
	for _, n := range names {
		line := n
		for _, s := range sums {
			ps := s.Policies[n]
			line += "\t" + results.FormatScore(float64(ps.WorstGain)) + " / " + results.FormatScore(float64(ps.Harm))
		}
		fmt.Fprintln(tw, line)
	}
	tw.Flush()
	fmt.Fprintln(w)
	for i, c := range cfgs {
		p := sums[i].Price
		line := fmt.Sprintf("%s: %s results sent per validated workunit", c.Name, results.FormatScore(float64(p["results_per_validated_workunit"])))
		if x, ok := p["project_checks_per_validated_workunit"]; ok {
			line += fmt.Sprintf(", %s project checks per validated workunit, %s of honest hosts trusted after %s days",
				results.FormatScore(float64(x)), percent(p["honest_trusted_share"]), results.FormatScore(float64(p["honest_days_to_trust"])))
		}
		if undefinedHarm(sums[i], names) {
			line += " (–: honest hosts were granted nothing, so gain and harm are undefined; with escrow, no host came to be trusted)"
		}
		fmt.Fprintln(w, line)
	}
	fmt.Fprintf(w, "\nwrote %s (ablation.html: the frontier and these tables; ablation.csv: each figure under each configuration; frontier.png: each policy's worst gain against each configuration's price; each configuration's summary)\n", dir)
}

// undefinedHarm reports whether no policy has a defined harm in s.
func undefinedHarm(s *results.Summary, names []string) bool {
	for _, n := range names {
		if ps := s.Policies[n]; ps != nil && results.Defined(float64(ps.Harm)) {
			return false
		}
	}
	return true
}
