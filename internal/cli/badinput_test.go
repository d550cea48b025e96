package cli

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
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

func badInputs(t *testing.T, dir string, atLeast int, command, again string) {
	t.Parallel()
	files, _ := filepath.Glob(filepath.Join(dir, "*.yaml"))
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
