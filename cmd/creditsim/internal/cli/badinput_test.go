package cli

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/creditsim/creditsim/results"
)

// TestBadScenarios runs every file in testdata/bad through "creditsim
// run". Each file's first line says which one-line error it must get:
// exit status 2, the file, line, field and value named, no panic, and no
// output folder left behind. validate must give the same answer.
func TestBadScenarios(t *testing.T) {
	badInputs(t, "testdata/bad", 100, "run", "validate")
}

// TestBadSweeps does the same for sweep files in testdata/badsweep.
func TestBadSweeps(t *testing.T) {
	badInputs(t, "testdata/badsweep", 15, "sweep", "")
}

// TestBadReplays does the same for replay inputs in testdata/badreplay:
// CSV and TSV files, credit_test_data and traces, each with the one-line
// error naming file, line, column, field and value that it must get.
func TestBadReplays(t *testing.T) {
	badInputs(t, "testdata/badreplay", 150, "replay", "")
}

func badInputs(t *testing.T, dir string, atLeast int, command, again string) {
	t.Parallel()
	files, _ := filepath.Glob(filepath.Join(dir, "*"))
	if len(files) < atLeast {
		t.Fatalf("only %d bad inputs in %s, want at least %d", len(files), dir, atLeast)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			fh, err := os.Open(f)
			if err != nil {
				t.Fatal(err)
			}
			first, _ := bufio.NewReader(fh).ReadString('\n')
			fh.Close()
			want, ok := strings.CutPrefix(strings.TrimSpace(first), "# want: ")
			if !ok {
				t.Fatal("no '# want:' line")
			}
			out := filepath.Join(t.TempDir(), "out")
			var stdout, stderr bytes.Buffer
			code := Main([]string{command, f, "-o", out}, &stdout, &stderr)
			if code != ExitInput {
				t.Errorf("exit %d, want %d; stderr: %s", code, ExitInput, stderr.String())
			}
			msg := strings.TrimRight(stderr.String(), "\n")
			if strings.Count(msg, "\n") != 0 {
				t.Errorf("want one line, got:\n%s", msg)
			}
			if !regexp.MustCompile(want).MatchString(msg) {
				t.Errorf("error\n  %s\ndoes not match\n  %s", msg, want)
			}
			if !strings.HasPrefix(msg, f) {
				t.Errorf("error does not start with the file name: %s", msg)
			}
			if _, err := os.Stat(out); err == nil {
				t.Error("output folder was created")
			}
			if again == "" {
				return
			}
			stderr.Reset()
			if code := Main([]string{again, f}, &stdout, &stderr); code != ExitInput || strings.TrimRight(stderr.String(), "\n") != msg {
				t.Errorf("%s: exit %d, %q", again, code, stderr.String())
			}
		})
	}
}

// TestSecondRunRefused: a run to a place another run is writing is
// refused at its start with exit 2, and writes nothing there.
func TestSecondRunRefused(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	unlock, err := results.LockPlace(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	for _, args := range [][]string{
		{"run", "--quick", "-o", dir},
		{"ablate", "--policy", "v3pfc-boinc", "--set", "hosts.initial=20", "-o", dir},
	} {
		var stdout, stderr bytes.Buffer
		if code := Main(args, &stdout, &stderr); code != ExitInput || !strings.Contains(stderr.String(), "another creditsim run is writing "+dir) {
			t.Errorf("%v: exit %d, %q; want 2 and the place named", args, code, stderr.String())
		}
		if _, err := os.Stat(dir); !os.IsNotExist(err) {
			t.Errorf("%v: %s exists", args, dir)
		}
	}
}
