package fit

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/creditsim/creditsim/cmd/creditsim/internal/runner"
	"github.com/creditsim/creditsim/cmd/creditsim/internal/tables"
	"github.com/creditsim/creditsim/scenarios"
)

// TestEveryColumnMissing fits a table export with each column of each
// table taken out in turn (a partial SELECT): the fit either refuses,
// naming the file and the column, or fits; and then no fitted line of
// the provenance names the missing column as its source, and every
// field the whole export fitted is fitted still (from elsewhere) or
// said to be not identified, never silently the baseline's.
func TestEveryColumnMissing(t *testing.T) {
	if testing.Short() {
		t.Skip("a run and 150 fits; go test ./... runs it")
	}
	whole := smallExport(t)
	full := fitted(t, whole)
	if full.err != nil {
		t.Fatal(full.err)
	}
	files, _ := filepath.Glob(filepath.Join(whole, "*.tsv"))
	// A column name in several tables (userid, create_time) is the
	// missing one in a line only where the line names its table.
	tablesOf := map[string]int{}
	for _, f := range files {
		for _, col := range strings.Split(firstLine(t, f), "\t") {
			tablesOf[col]++
		}
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
		for i, col := range strings.Split(lines[0], "\t") {
			t.Run(filepath.Base(f)+"/"+col, func(t *testing.T) {
				dir := t.TempDir()
				copyExcept(t, whole, dir, filepath.Base(f))
				var b strings.Builder
				for _, l := range lines {
					fs := strings.Split(l, "\t")
					b.WriteString(strings.Join(append(fs[:i:i], fs[i+1:]...), "\t") + "\n")
				}
				if err := os.WriteFile(filepath.Join(dir, filepath.Base(f)), []byte(b.String()), 0o644); err != nil {
					t.Fatal(err)
				}
				got := fitted(t, dir)
				if got.err != nil {
					if msg := got.err.Error(); !strings.Contains(msg, filepath.Base(f)) || !strings.Contains(msg, col) {
						t.Errorf("refused without naming %s and %s: %v", filepath.Base(f), col, msg)
					}
					return
				}
				table := strings.TrimSuffix(filepath.Base(f), ".tsv")
				named := regexp.QuoteMeta(col)
				if tablesOf[col] > 1 {
					named = regexp.QuoteMeta(table + "." + col)
				}
				// Named as absent ("no os_name") is not named as a source.
				word := regexp.MustCompile(`(^|[^a-z_.])` + named + `($|[^a-z_])`)
				absent := regexp.MustCompile(`\bno ` + named + `($|[^a-z_])`)
				for _, e := range got.pv.Fitted {
					// What follows the fields the line is about.
					how := strings.TrimPrefix(e.How, e.Field+": ")
					if word.MatchString(absent.ReplaceAllString(how, "")) {
						t.Errorf("fitted from the missing column: %s", e.How)
					}
				}
				for _, e := range got.pv.NotIdentified {
					if e.Field != "" && len(e.Paths) == 0 {
						t.Errorf("not identified %q names no scenario key", e.Field)
					}
				}
				for field := range full.fields {
					if !got.fields[field] && !got.unknown(field) {
						t.Errorf("%s: fitted from the whole export, neither fitted nor said not identified without %s", field, col)
					}
				}
			})
		}
	}
}

// smallExport writes the tables of a small gpu-mix run (30 hosts, 10
// days) and returns their folder.
func smallExport(t *testing.T) string {
	t.Helper()
	s, err := scenarios.Open("gpu-mix", []string{"hosts.initial=30", "duration=10d", "warmup=2d", "replications=1"})
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "tables")
	if _, err := runner.Run(s, runner.Options{NoPlots: true, ExportTables: dir}); err != nil {
		t.Fatal(err)
	}
	return dir
}

// fit is what fitting a table export gave: its provenance, the fields
// it fitted, or its error.
type fit struct {
	pv     Provenance
	fields map[string]bool
	err    error
}

// unknown reports whether the fit says field is not identified.
func (f fit) unknown(field string) bool {
	for _, e := range f.pv.NotIdentified {
		if strings.HasPrefix(e.How, field) || strings.Contains(e.How, " "+field) {
			return true
		}
	}
	return false
}

func fitted(t *testing.T, dir string) fit {
	t.Helper()
	p, err := FitTables(tables.Dir(dir), TableOptions{})
	if err != nil {
		return fit{err: err}
	}
	f := fit{pv: p.Provenance(dir), fields: map[string]bool{}}
	for _, e := range f.pv.Fitted {
		for _, name := range strings.FieldsFunc(e.Field, func(r rune) bool { return r == ' ' || r == ',' }) {
			if name != "and" {
				f.fields[name] = true
			}
		}
	}
	return f
}

// copyExcept copies every file of from into to but skip.
func copyExcept(t *testing.T, from, to, skip string) {
	t.Helper()
	entries, err := os.ReadDir(from)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.Name() == skip || e.IsDir() {
			continue
		}
		data, err := os.ReadFile(filepath.Join(from, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(to, e.Name()), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func firstLine(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	head, _, _ := strings.Cut(string(data), "\n")
	return head
}
