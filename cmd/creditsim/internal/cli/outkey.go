package cli

import (
	"slices"
	"strings"

	"github.com/creditsim/creditsim/results"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// placeOnly are the flags that say where and how a command writes, not
// what: they do not enter an output folder's key, so the same command
// run again with other cores, quietly, to another trace file, or
// sharded and joined (--shard, --from: the same bytes as unsharded)
// replaces its own folder and writes the same marker.
var placeOnly = map[string]bool{
	"out": true, "force": true, "jobs": true, "quiet": true, "max-results": true,
	"trace": true, "export-stats": true, "export-tables": true,
	"shard": true, "shard-count": true, "from": true, "resume": true, "limit": true,
}

// outputKey is the key of the folder cmd writes (results.Replace): the
// command, its arguments and every flag given that decides what the
// folder holds, as a command line ("creditsim run baseline --quick").
// Flags come in their names' order and a repeated flag's values sorted,
// so the order they were typed in does not matter.
func outputKey(cmd *cobra.Command, args []string) string {
	parts := []string{cmd.CommandPath()}
	parts = append(parts, args...)
	cmd.Flags().Visit(func(f *pflag.Flag) {
		if placeOnly[f.Name] {
			return
		}
		if f.Value.Type() == "bool" {
			if f.Value.String() == "true" {
				parts = append(parts, "--"+f.Name)
			} else {
				parts = append(parts, "--"+f.Name+"=false")
			}
			return
		}
		if sv, ok := f.Value.(pflag.SliceValue); ok {
			// Sorted: --set a --set b and --set b --set a are one run.
			for _, v := range slices.Sorted(slices.Values(sv.GetSlice())) {
				parts = append(parts, "--"+f.Name+"="+quoteArg(v))
			}
			return
		}
		parts = append(parts, "--"+f.Name+"="+quoteArg(f.Value.String()))
	})
	return strings.Join(parts, " ")
}

// quoteArg quotes v for a shell when it holds more than a plain word.
func quoteArg(v string) string {
	if v != "" && strings.Trim(v, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.,/=:@+%") == "" {
		return v
	}
	return "'" + strings.ReplaceAll(v, "'", `'\''`) + "'"
}

// replaceRule is the output rule for cmd's folder: --force, or the same
// command and options.
func replaceRule(cmd *cobra.Command, args []string, force bool) results.Replace {
	return results.Replace{Force: force, Key: outputKey(cmd, args)}
}

// forceHelp is --force's help for the commands that write a folder.
const forceHelp = "replace an existing output folder that this command with these same options did not write (one it wrote is replaced without --force)"
