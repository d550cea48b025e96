package cli

import (
	"fmt"
	"io"
	"os"
	"runtime"
	"time"

	"github.com/creditsim/creditsim/cmd/creditsim/internal/runner"
	"github.com/creditsim/creditsim/results"
	"github.com/creditsim/creditsim/results/plot"
	"github.com/spf13/cobra"
	"golang.org/x/term"
)

func newVerdict() *cobra.Command {
	var workers int
	var png string
	cmd := &cobra.Command{
		Use:   "verdict",
		Short: "run every built-in world and print which credit system to use",
		Long:  verdictLong,
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := jobsFlag(cmd, workers); err != nil {
				return err
			}
			if workers <= 0 {
				workers = runtime.GOMAXPROCS(0)
			}
			var v *results.Verdict
			var err error
			withSteps(cmd, "verdict", func(progress runner.Progress) {
				v, err = runner.LibraryVerdict(workers, progress)
			})
			if err != nil {
				return fail(cmd, ExitRun, "%v", err)
			}
			if png != "" {
				b, err := plot.VerdictPNG(v)
				if err == nil {
					err = results.WriteFileAtomic(png, b)
				}
				if err != nil {
					return fail(cmd, ExitRun, "--png %s: %v", png, err)
				}
			}
			fmt.Fprint(cmd.OutOrStdout(), runner.VerdictText(v))
			return nil
		},
	}
	cmd.Flags().IntVarP(&workers, "jobs", "j", 0, "worlds run in parallel (default: all cores)")
	cmd.Flags().StringVar(&png, "png", "", "also draw the table as a picture into this PNG file")
	return cmd
}

// withSteps runs run with a progress line on a terminal (stepProgress),
// cleared when run returns.
func withSteps(cmd *cobra.Command, name string, run func(runner.Progress)) {
	stderr := cmd.ErrOrStderr()
	progress := stepProgress(stderr, name)
	run(progress)
	if progress != nil {
		fmt.Fprint(stderr, "\r\033[K")
	}
}

// stepProgress returns a runner.Progress that keeps one line on a
// terminal up to date ("name: 3/11 done, last: cheaters, 12s"), or nil
// when w is not a terminal.
func stepProgress(w io.Writer, name string) runner.Progress {
	f, ok := w.(*os.File)
	if !ok || !term.IsTerminal(int(f.Fd())) {
		return nil
	}
	start := time.Now()
	return func(step string, done, total int) {
		fmt.Fprintf(w, "\r\033[K%s: %d/%d done (last %s), %s elapsed", name, done, total, step, time.Since(start).Round(time.Second))
	}
}

// verdictLong is the long text of creditsim verdict's help.
const verdictLong = `Run every built-in scenario as its file has it, at 300 hosts (fewer if
it has fewer) and one replication, with the honest twin where it has
cheaters, and print one table: per credit system its fairness (host
spread, device and project neutrality), the largest gain a behaviour of
those worlds makes over its honest twin, the harm to honest accounts,
each at its worst over the worlds and named by the world it comes from,
what the system needs from a project, and when to use it. It is the
table README shows. About 45 s on 2 cores.`
