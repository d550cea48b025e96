package sweep

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzParse parses arbitrary sweep files: no panic, every error with a
// message, and what it accepts has points within the bound. Seeds: the
// example sweeps and the bad corpus of the CLI tests.
func FuzzParse(f *testing.F) {
	for _, glob := range []string{"../../../../scenarios/sweeps/*.yaml", "../cli/testdata/badsweep/*.yaml"} {
		files, _ := filepath.Glob(glob)
		for _, file := range files {
			if b, err := os.ReadFile(file); err == nil {
				f.Add(b)
			}
		}
	}
	for _, s := range []string{
		"base: baseline\nparameters:\n  - path: hosts.initial\n    range: {from: 0, to: 0.5, step: 1e-300}\n",
		"base: baseline\nparameters:\n  - path: hosts.initial\n    range: {from: 0, to: 0.5, step: .nan}\n",
		"base: /dev/zero\nparameters:\n  - path: hosts.initial\n    values: [1]\n",
		"base: baseline\nseed: -5\nparameters:\n  - path: hosts.initial\n    values: [1]\n",
		"base: baseline\nparamters: []\n",
		"base: baseline\ncombine: zip\nparameters:\n  - path: hosts.initial\n    values: [1, 2]\n  - path: duration\n    values: [20d]\n",
	} {
		f.Add([]byte(s))
	}
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		sw, err := Parse(filepath.Join(dir, "fuzz.yaml"), data)
		if err != nil {
			if err.Error() == "" {
				t.Fatal("an error without a message")
			}
			return
		}
		if len(sw.Points) == 0 || len(sw.Points) > maxPoints {
			t.Fatalf("accepted with %d points", len(sw.Points))
		}
	})
}
