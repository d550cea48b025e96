package cli

import (
	"bytes"
	"os"
	"regexp"
	"testing"
)

// TestHelpAndFlagErrors runs Main in-process on help requests, mistyped
// names and bad flag values: the exit status, what stdout and stderr
// must match, and that nothing is written to the working folder. (The
// script tests exec the binary for what needs a process: exit codes
// through os.Exit, signals, files.)
func TestHelpAndFlagErrors(t *testing.T) {
	t.Chdir(t.TempDir())
	for _, c := range []struct {
		args         []string
		code         int
		stdout       []string // regexps stdout must match
		stderr       []string // regexps stderr must match
		stdoutSilent bool
	}{
		// No arguments: usage on stderr, exit 2; nothing runs.
		{nil, ExitInput, nil, []string{`Usage:`, `creditsim \[command\]`}, true},
		// help CMD and CMD -h/--help print that command's usage.
		{[]string{"help", "run"}, ExitOK, []string{`Run a scenario file or a built-in scenario`,
			`(?m)^Usage:\n  creditsim run \[FILE\|NAME\] \[flags\]`, `--replications int`}, nil, false},
		{[]string{"run", "--help"}, ExitOK, []string{`--quick`}, nil, false},
		{[]string{"validate", "-h"}, ExitOK, []string{`creditsim validate FILE\|NAME`}, nil, false},
		{[]string{"scenarios", "--help"}, ExitOK, []string{`--figures`}, nil, false},
		{[]string{"sweep", "--help"}, ExitOK, []string{`--shard string`}, nil, false},
		{[]string{"merge", "--help"}, ExitOK, []string{`creditsim merge DIR`}, nil, false},
		{[]string{"verdict", "--help"}, ExitOK, []string{`creditsim verdict \[flags\]`, `--png string`}, nil, false},
		// A mistyped command, scenario or policy gets the nearest name.
		{[]string{"rn"}, ExitInput, nil, []string{`unknown command "rn" for "creditsim"`, `Did you mean this\?\n\s+run`}, false},
		{[]string{"run", "cheeters"}, ExitInput, nil, []string{`did you mean cheaters\?`}, false},
		{[]string{"run", "baseline", "--policies", "v1peek", "-o", "out"}, ExitInput, nil, []string{`did you mean v1peak\?`}, false},
		{[]string{"scenarios", "baselin"}, ExitInput, nil, []string{`did you mean baseline\?`}, false},
		{[]string{"policies", "v3pfc-boinx"}, ExitInput, nil, []string{`did you mean v3pfc-boinc\?`}, false},
		// policies NAME lists that one.
		{[]string{"policies", "v1peak"}, ExitOK, []string{`^v1peak: first credit system`}, nil, false},
		// Flag errors name the flag and the text given.
		{[]string{"run", "--seed", "abc"}, ExitInput, nil, []string{`flag --seed: "abc": must be a whole number from 0 to 18446744073709551615`}, false},
		{[]string{"run", "--seed", "18446744073709551616"}, ExitInput, nil, []string{`flag --seed: "18446744073709551616": must be a whole number from 0 to 18446744073709551615`}, false},
		{[]string{"run", "-j", "x"}, ExitInput, nil, []string{`flag -j: "x": must be a whole number`}, false},
		{[]string{"run", "-j", "0"}, ExitInput, nil, []string{`flag -j: 0: must be at least 1`}, false},
		{[]string{"run", "-j", "-1"}, ExitInput, nil, []string{`flag -j: -1: must be at least 1`}, false},
		{[]string{"run", "--replications", "0"}, ExitInput, nil, []string{`flag --replications: 0: must be at least 1`}, false},
		{[]string{"sweep", "x.yaml", "--shard-count", "0"}, ExitInput, nil, []string{`flag --shard-count: 0: must be at least 1`}, false},
		{[]string{"validate"}, ExitInput, nil, []string{`accepts 1 arg\(s\), received 0`}, false},
		{[]string{"run", "--max-results", "-1"}, ExitInput, nil, []string{`flag --max-results: -1: must be above 0`}, false},
		// verdict takes no arguments and checks -j before running anything.
		{[]string{"verdict", "baseline"}, ExitInput, nil, []string{`unknown command "baseline"|accepts 0 arg`}, false},
		{[]string{"verdict", "-j", "0"}, ExitInput, nil, []string{`flag -j: 0: must be at least 1`}, false},
		{[]string{"verdict", "--kind", "cpu,nosuch"}, ExitInput, nil, []string{`flag --kind: "nosuch" is not a kind of project \(want cpu, sizes, gpu, vm\)`}, false},
		{[]string{"verdict", "--budget", "30"}, ExitInput, nil, []string{`flag --budget sizes the attacks of --search; give both`}, false},
		{[]string{"verdict", "--search", "--budget", "0"}, ExitInput, nil, []string{`flag --budget: 0: must be 1 to`}, false},
		{[]string{"verdict", "--systems", "--kind", "gpu"}, ExitInput, nil, []string{`flag --kind: not with --systems`}, false},
		{[]string{"verdict", "--search", "--budget", "3", "--kind", "sizes"}, ExitInput, nil, []string{`sizes: --budget 3: at least \d+ runs, one per kind`}, false},
		// Shell completion scripts come from the command itself; an
		// unknown shell or help topic is bad input.
		{[]string{"completion", "bash"}, ExitOK, []string{`bash completion`}, nil, false},
		{[]string{"completion", "tcsh"}, ExitInput, nil, []string{`unknown command "tcsh"`}, false},
		{[]string{"completion"}, ExitInput, nil, []string{`name a shell: bash, fish, powershell or zsh`}, false},
		{[]string{"help", "nope"}, ExitInput, nil, []string{`unknown help topic "nope"`}, false},
		{[]string{"help", "runn"}, ExitInput, nil, []string{`unknown help topic "runn"; did you mean run\?`}, false},
	} {
		var stdout, stderr bytes.Buffer
		code := Main(c.args, &stdout, &stderr)
		if code != c.code {
			t.Errorf("%q: exit %d, want %d; stderr: %s", c.args, code, c.code, stderr.String())
		}
		for _, re := range c.stdout {
			if !regexp.MustCompile("(?m)" + re).MatchString(stdout.String()) {
				t.Errorf("%q: stdout does not match %s:\n%s", c.args, re, stdout.String())
			}
		}
		for _, re := range c.stderr {
			if !regexp.MustCompile("(?m)" + re).MatchString(stderr.String()) {
				t.Errorf("%q: stderr does not match %s:\n%s", c.args, re, stderr.String())
			}
		}
		if c.stdoutSilent && stdout.Len() > 0 {
			t.Errorf("%q: wrote to stdout: %s", c.args, stdout.String())
		}
		if c.code == ExitOK && stderr.Len() > 0 {
			t.Errorf("%q: wrote to stderr: %s", c.args, stderr.String())
		}
		if entries, _ := os.ReadDir("."); len(entries) > 0 {
			t.Fatalf("%q: wrote %s in the working folder", c.args, entries[0].Name())
		}
	}
}
