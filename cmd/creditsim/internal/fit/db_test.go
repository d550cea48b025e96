package fit_test

import (
	"bytes"
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-sql-driver/mysql"

	"github.com/creditsim/creditsim/cmd/creditsim/internal/cli"
	"github.com/creditsim/creditsim/cmd/creditsim/internal/fit"
	"github.com/creditsim/creditsim/cmd/creditsim/internal/projectdb"
	"github.com/creditsim/creditsim/cmd/creditsim/internal/runner"
	"github.com/creditsim/creditsim/cmd/creditsim/internal/tables"
	"github.com/creditsim/creditsim/internal/mariadbtest"
	"github.com/creditsim/creditsim/scenarios"
)

// TestTablesFromDatabase: a run's tables, loaded into a MariaDB server
// with the schema.sql and LOAD DATA statements run --export-tables
// writes, fit from the live database into the same scenario as from the
// files.
func TestTablesFromDatabase(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a database server: runs without -short")
	}
	root, db := mariadbtest.Start(t)
	s, err := scenarios.Open("gpu-mix", []string{"hosts.initial=40", "duration=12d", "warmup=2d", "replications=1", "policies=[v1peak]"})
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "tables")
	if _, err := runner.Run(s, runner.Options{NoPlots: true, ExportTables: dir}); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec("CREATE DATABASE boinc"); err != nil {
		t.Fatal(err)
	}
	boinc, err := sql.Open("mysql", root+"boinc")
	if err != nil {
		t.Fatal(err)
	}
	defer boinc.Close()
	for _, tb := range tables.Names {
		file := filepath.Join(dir, tb+".tsv")
		mysql.RegisterLocalFile(file) // LOAD DATA LOCAL reads only the files allowed
		for _, q := range []string{tables.CreateTable(tb), tables.LoadData(tb, file)} {
			if _, err := boinc.Exec(q); err != nil {
				t.Fatalf("%s: %v", q, err)
			}
		}
	}
	fromFiles, err := fit.FitTables(tables.Dir(dir), fit.TableOptions{})
	if err != nil {
		t.Fatal(err)
	}
	conn, closeAll, err := projectdb.OpenReadOnly("db", root+"boinc")
	if err != nil {
		t.Fatal(err)
	}
	defer closeAll()
	src := &tables.DB{Conn: conn, Label: "db"}
	var w fit.Window
	if err := fit.DBWindow(src, &w); err != nil {
		t.Fatal(err)
	}
	fromDB, err := fit.FitTables(src, fit.TableOptions{Window: w})
	if err != nil {
		t.Fatal(err)
	}
	a, err := fromFiles.Scenario("x", "source")
	if err != nil {
		t.Fatal(err)
	}
	b, err := fromDB.Scenario("x", "source")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a, b) {
		t.Errorf("the database's fit differs from the files':\n%s\n---\n%s", a, b)
	}
	if fromDB.Results == 0 || len(fromDB.Apps) != 1 || len(fromDB.Apps[0].Versions) != 6 {
		t.Errorf("from the database: %d results, %d apps", fromDB.Results, len(fromDB.Apps))
	}
	// From the command line, as a user runs it: the same world.
	out := filepath.Join(t.TempDir(), "db.yaml")
	var stdout, stderr bytes.Buffer
	if code := cli.Main([]string{"fit", root + "boinc", "-o", out, "--name", "x"}, &stdout, &stderr); code != 0 {
		t.Fatalf("creditsim fit DSN: exit %d: %s", code, stderr.String())
	}
	text, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	_, body, _ := strings.Cut(string(text), "\nname: x\n")
	_, want, _ := strings.Cut(string(a), "\nname: x\n")
	if body == "" || body != want {
		t.Errorf("creditsim fit DSN wrote another world than the files give:\n%s", text)
	}
	// The same tables replay: BOINC's schema, as replay reads it.
	stdout.Reset()
	stderr.Reset()
	if code := cli.Main([]string{"replay", root + "boinc", "-q", "-o", filepath.Join(t.TempDir(), "replay")}, &stdout, &stderr); code != 0 {
		t.Errorf("creditsim replay of the exported tables: exit %d: %s", code, stderr.String())
	}
}
