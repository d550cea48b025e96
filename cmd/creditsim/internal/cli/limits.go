package cli

import (
	"github.com/creditsim/creditsim/internal/inputlimit"
	"github.com/spf13/cobra"
)

// limitHelp is --limit's help, with the defaults.
var limitHelp = "raise (or, with 0, lift) a limit on each input file, name=value; repeatable. Limits: " +
	inputlimit.Default.String() + " (bytes: decompressed; ratio: how far a compressed file may expand; line: one line's bytes; columns: a header's; lines: a file's)"

// addLimitFlag adds --limit to a command that reads a project's files.
func addLimitFlag(cmd *cobra.Command, dst *[]string) {
	cmd.Flags().StringArrayVar(dst, "limit", nil, limitHelp)
}

// applyLimits sets the process's input limits from --limit; a bad value
// is bad input (exit 2).
func applyLimits(cmd *cobra.Command, settings []string) error {
	l, err := inputlimit.Default.Parse(settings)
	if err != nil {
		return fail(cmd, ExitInput, "%v", err)
	}
	inputlimit.Set(l)
	return nil
}
