package fit

import (
	"bytes"
	"database/sql"
	"path/filepath"
	"testing"

	"github.com/go-sql-driver/mysql"

	"github.com/creditsim/creditsim/cmd/creditsim/internal/replay"
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
	fromFiles, err := FitTables(tables.Dir(dir), TableOptions{})
	if err != nil {
		t.Fatal(err)
	}
	conn, closeAll, err := replay.OpenReadOnly("db", root+"boinc")
	if err != nil {
		t.Fatal(err)
	}
	defer closeAll()
	src := &tables.DB{Conn: conn, Label: "db"}
	var w Window
	if err := DBWindow(src, &w); err != nil {
		t.Fatal(err)
	}
	fromDB, err := FitTables(src, TableOptions{Window: w})
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
}
