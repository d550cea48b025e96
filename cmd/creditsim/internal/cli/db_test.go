package cli_test

import (
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/creditsim/creditsim/cmd/creditsim/internal/cli"
	"github.com/creditsim/creditsim/cmd/creditsim/internal/projectdb"
	"github.com/creditsim/creditsim/cmd/creditsim/internal/replay"
	"github.com/creditsim/creditsim/cmd/creditsim/internal/runner"
	"github.com/creditsim/creditsim/internal/mariadbtest"
	"github.com/creditsim/creditsim/policy"
	"github.com/creditsim/creditsim/scenarios"
)

// startMariaDB starts a private MariaDB server (package mariadbtest)
// and returns a DSN for its boinc database, which holds the columns
// replay reads.
func startMariaDB(t *testing.T) string {
	t.Helper()
	dsn, db := mariadbtest.Start(t)
	// The columns replay reads, under BOINC's names (db/schema.sql).
	for _, q := range []string{
		"CREATE DATABASE boinc",
		`CREATE TABLE boinc.result (id BIGINT PRIMARY KEY, workunitid BIGINT, appid BIGINT, app_version_id BIGINT, hostid BIGINT, userid BIGINT, teamid BIGINT,
			server_state BIGINT, outcome BIGINT, validate_state BIGINT, sent_time BIGINT, received_time BIGINT, elapsed_time DOUBLE, cpu_time DOUBLE,
			flops_estimate DOUBLE, runtime_outlier TINYINT, claimed_credit DOUBLE, granted_credit DOUBLE)`,
		"CREATE TABLE boinc.workunit (id BIGINT PRIMARY KEY, appid BIGINT, rsc_fpops_est DOUBLE, rsc_fpops_bound DOUBLE, canonical_credit DOUBLE)",
		"CREATE TABLE boinc.host (id BIGINT PRIMARY KEY, userid BIGINT, p_ncpus BIGINT, p_fpops DOUBLE, p_iops DOUBLE, p_ngpus BIGINT, p_gpu_fpops DOUBLE)",
		"CREATE TABLE boinc.app (id BIGINT PRIMARY KEY, name VARCHAR(254))",
		"CREATE TABLE boinc.app_version (id BIGINT PRIMARY KEY, appid BIGINT, plan_class VARCHAR(254))",
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	return dsn + "boinc"
}

// TestDatabase loads a trace's results into BOINC's tables and replays
// them from the database and from the same rows in a CSV file: the same
// credit, result by result; --since and --app select.
func TestDatabase(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a database server: runs without -short")
	}
	dsn := startMariaDB(t)
	s, err := scenarios.Open("gpu-mix", []string{"replications=1", "hosts.initial=40", "duration=10d", "warmup=2d"})
	if err != nil {
		t.Fatal(err)
	}
	trace := filepath.Join(t.TempDir(), "trace.csv")
	if _, err := runner.Run(s, runner.Options{Trace: trace}); err != nil {
		t.Fatal(err)
	}
	f, _ := os.Open(trace)
	tr, err := replay.Read(trace, f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("mysql", dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	gpu := map[int64]bool{}
	for _, v := range tr.Header.World.Versions {
		gpu[int64(v.ID)] = v.Resource.IsGPU()
	}
	outcome := map[policy.Outcome]int{policy.Success: 1, policy.ClientError: 3, policy.Aborted: 3, policy.NoReply: 4}
	var csv strings.Builder
	csv.WriteString("result_id,workunit_id,app_id,app_version_id,host_id,user_id,team_id,sent_time,received_time,outcome,validate_state," +
		"elapsed_time,cpu_time,flops_estimate,runtime_outlier,rsc_fpops_est,rsc_fpops_bound,p_ncpus,p_fpops,p_iops,p_ngpus,p_gpu_fpops,plan_class,claimed_credit,granted_credit\n")
	tx, _ := db.Begin()
	seenWU, seenHost := map[int64]bool{}, map[int64]bool{}
	n := 0
	for _, r := range tr.Rows {
		if r.SentTime <= 0 || r.ReceivedTime <= 0 {
			continue // never reported: not over
		}
		// Times in whole seconds, as the database keeps them.
		sent, recv := int64(r.SentTime)+1, int64(r.ReceivedTime)+1
		pc := ""
		if gpu[r.VersionID] {
			pc = "cuda"
		}
		granted := r.Credit["v3pfc-boinc"]
		mustExec(t, tx, "INSERT INTO result VALUES (?,?,?,?,?,?,?,5,?,?,?,?,?,?,?,?,0,?)", r.ResultID, r.WorkunitID, r.AppID, r.VersionID, r.HostID,
			r.UserID, r.TeamID, outcome[r.Outcome], int(r.ValidateState), sent, recv, r.ElapsedTime, r.CPUTime, r.FlopsEstimate, b2i(r.RuntimeOutlier), granted)
		if !seenWU[r.WorkunitID] {
			seenWU[r.WorkunitID] = true
			mustExec(t, tx, "INSERT INTO workunit VALUES (?,?,?,?,?)", r.WorkunitID, r.AppID, r.RscFpopsEst, r.RscFpopsBound, granted)
		}
		if !seenHost[r.HostID] {
			seenHost[r.HostID] = true
			mustExec(t, tx, "INSERT INTO host VALUES (?,?,?,?,?,?,?)", r.HostID, r.UserID, r.NCPUs, r.PFpops, r.PIops, r.NGPUs, r.GPUFpops)
		}
		fmt.Fprintf(&csv, "%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%v,%v,%v,%d,%v,%v,%d,%v,%v,%d,%v,%s,0,%v\n", r.ResultID, r.WorkunitID, r.AppID,
			r.VersionID, r.HostID, r.UserID, r.TeamID, sent, recv, outcome[r.Outcome], int(r.ValidateState), r.ElapsedTime, r.CPUTime,
			r.FlopsEstimate, b2i(r.RuntimeOutlier), r.RscFpopsEst, r.RscFpopsBound, r.NCPUs, r.PFpops, r.PIops, r.NGPUs, r.GPUFpops, pc, granted)
		n++
	}
	mustExec(t, tx, "INSERT INTO app VALUES (0, 'science')")
	for _, v := range tr.Header.World.Versions {
		pc := ""
		if gpu[int64(v.ID)] {
			pc = "cuda"
		}
		mustExec(t, tx, "INSERT INTO app_version VALUES (?,?,?)", v.ID, v.AppID, pc)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	fromDB, err := projectdb.Read(dsn, projectdb.Query{})
	if err != nil {
		t.Fatal(err)
	}
	fromCSV, err := replay.Read("rows.csv", strings.NewReader(csv.String()))
	if err != nil {
		t.Fatal(err)
	}
	if len(fromDB.Rows) != n || len(fromCSV.Rows) != n {
		t.Fatalf("%d rows from the database, %d from the CSV, %d inserted", len(fromDB.Rows), len(fromCSV.Rows), n)
	}
	names := []string{"v3pfc-boinc", "credit-from-runtime", "v1peak"}
	specs := []policy.Spec{{Name: names[0]}, {Name: names[1]}, {Name: names[2]}}
	a, err := replay.Run(fromDB, names, specs)
	if err != nil {
		t.Fatal(err)
	}
	b, err := replay.Run(fromCSV, names, specs)
	if err != nil {
		t.Fatal(err)
	}
	differ, granted := 0, 0
	for i := range a.Credit {
		for p := range names {
			if a.Credit[i][p] != b.Credit[i][p] {
				differ++
			}
			if a.Credit[i][p] > 0 {
				granted++
			}
		}
	}
	if differ > 0 || granted < 100 {
		t.Errorf("%d of %d credits differ between the database and the CSV", differ, granted)
	}
	// The window and the app select.
	mid := time.Unix(int64(tr.Rows[len(tr.Rows)/2].ReceivedTime), 0)
	later, err := projectdb.Read(dsn, projectdb.Query{Since: mid, App: "science"})
	if err != nil {
		t.Fatal(err)
	}
	if !(len(later.Rows) > 0 && len(later.Rows) < n) {
		t.Errorf("--since kept %d of %d", len(later.Rows), n)
	}
	// An app the project does not have is named with the ones it has,
	// whatever its characters (a name latin1 cannot hold once gave
	// MySQL's "Illegal mix of collations").
	for _, app := range []string{"nosuch", "ñandú", "科学", "x' OR 1=1 --"} {
		_, err := projectdb.Read(dsn, projectdb.Query{App: app})
		if err == nil || !strings.Contains(err.Error(), "no app has that name (the project's apps: science") || strings.Contains(err.Error(), "collation") {
			t.Errorf("--app %q: %v", app, err)
		}
	}
	if in, err := projectdb.Read(dsn, projectdb.Query{App: "SCIENCE"}); err != nil || len(in.Rows) != n {
		t.Errorf("--app SCIENCE matches science as MySQL's default collation does: %v", err)
	}
	// The command line, as a user runs it.
	out := filepath.Join(t.TempDir(), "rep")
	var stdout, stderr strings.Builder
	if code := cli.Main([]string{"replay", dsn, "--since", mid.UTC().Format(time.RFC3339), "--app", "science", "-o", out}, &stdout, &stderr); code != 0 {
		t.Fatalf("replay from the database: exit %d\n%s", code, stderr.String())
	}
	if !strings.Contains(stdout.String(), "(database)") || !strings.Contains(stdout.String(), "over granted_credit") {
		t.Errorf("replay printed:\n%s", stdout.String())
	}
	if _, err := os.Stat(filepath.Join(out, "replay-versions.png")); err != nil {
		t.Error(err)
	}
	stderr.Reset()
	if code := cli.Main([]string{"replay", dsn, "--since", "last week", "-o", out + "2"}, &stdout, &stderr); code != 2 || !strings.Contains(stderr.String(), `flag --since: "last week"`) {
		t.Errorf("a bad --since: exit %d, %s", code, stderr.String())
	}
	if got := projectdb.Redact("u:secret@tcp(db:3306)/boinc"); strings.Contains(got, "secret") {
		t.Errorf("Redact kept the password: %s", got)
	}
}

func mustExec(t *testing.T, tx *sql.Tx, q string, args ...any) {
	t.Helper()
	if _, err := tx.Exec(q, args...); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
