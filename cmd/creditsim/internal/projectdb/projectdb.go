package projectdb

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/creditsim/creditsim/cmd/creditsim/internal/replay"
	"github.com/go-sql-driver/mysql"
)

// Query selects the results a replay reads from a database: received
// in [Since, Until) (zero: no bound) and of one app (name or ID; "" for
// all).
type Query struct {
	Since, Until time.Time
	App          string
}

// resultQuery is the SELECT docs/replay.md shows: over-state results that were sent,
// with their workunit's estimate and bound, their host's benchmarks and
// their version's plan class.
const resultQuery = `SELECT r.id AS result_id, r.workunitid AS workunit_id, r.appid AS app_id,
  r.app_version_id, r.hostid AS host_id, r.userid AS user_id, r.teamid AS team_id,
  r.sent_time, r.received_time, r.outcome, r.validate_state,
  r.elapsed_time, r.cpu_time, r.flops_estimate, r.runtime_outlier,
  w.rsc_fpops_est, w.rsc_fpops_bound,
  h.p_ncpus, h.p_fpops, h.p_iops, h.p_ngpus, h.p_gpu_fpops,
  COALESCE(av.plan_class, '') AS plan_class,
  r.claimed_credit, r.granted_credit
FROM result r
JOIN workunit w ON w.id = r.workunitid
JOIN host h ON h.id = r.hostid
JOIN app a ON a.id = r.appid
LEFT JOIN app_version av ON av.id = r.app_version_id
WHERE r.server_state = 5 AND r.sent_time > 0`

// IsDSN reports whether arg names a database (a MySQL/MariaDB DSN such as
// user:password@tcp(host:3306)/boinc, user@unix(/run/mysqld.sock)/boinc
// or user:password@/boinc, all forms the driver accepts) rather than a
// file: a mysql:// address, or a user part before an "@" and a
// "/database" after it that the driver parses.
func IsDSN(arg string) bool {
	if strings.HasPrefix(arg, "mysql://") {
		return true
	}
	at := strings.LastIndex(arg, "@")
	if at <= 0 || !strings.Contains(arg[at:], "/") {
		return false
	}
	_, err := mysql.ParseDSN(arg)
	return err == nil
}

// Redact hides a DSN's password, for messages and outputs.
func Redact(dsn string) string {
	cfg, err := mysql.ParseDSN(strings.TrimPrefix(dsn, "mysql://"))
	if err != nil {
		return "database"
	}
	if cfg.Passwd != "" {
		cfg.Passwd = "xxx"
	}
	return cfg.FormatDSN()
}

// Default time-outs of a database replay (a DSN's timeout, readTimeout
// and writeTimeout override them).
const (
	ConnectTimeout = 10 * time.Second
	ReadTimeout    = 5 * time.Minute
)

// Read reads a project's results from its database, read-only.
func Read(dsn string, q Query) (*replay.Input, error) {
	name := Redact(dsn)
	conn, closeAll, err := OpenReadOnly(name, dsn)
	if err != nil {
		return nil, err
	}
	defer closeAll()
	if q.App != "" {
		if q.App, err = appID(conn, name, q.App); err != nil {
			return nil, err
		}
	}
	query, args := dbQuery(q)
	rows, err := conn.QueryContext(context.Background(), query, args...)
	if err != nil {
		return nil, &replay.Error{File: name, Reason: "query: " + err.Error()}
	}
	defer rows.Close()
	return scanRows(name, rows)
}

// OpenReadOnly connects to the database of dsn (named name in messages)
// with time-outs by default and a read-only session; closeAll closes the
// connection and its pool.
func OpenReadOnly(name, dsn string) (conn *sql.Conn, closeAll func(), err error) {
	cfg, err := mysql.ParseDSN(strings.TrimPrefix(dsn, "mysql://"))
	if err != nil {
		return nil, nil, &replay.Error{File: name, Reason: "not a DSN: " + err.Error() + " (want user:password@tcp(host:3306)/database)"}
	}
	// A server that accepts and then says nothing must not hang a
	// replay: connect, read and write time-outs by default, which the
	// DSN may set otherwise.
	if cfg.Timeout == 0 {
		cfg.Timeout = ConnectTimeout
	}
	if cfg.ReadTimeout == 0 {
		cfg.ReadTimeout = ReadTimeout
	}
	if cfg.WriteTimeout == 0 {
		cfg.WriteTimeout = ReadTimeout
	}
	connector, err := mysql.NewConnector(cfg)
	if err != nil {
		return nil, nil, &replay.Error{File: name, Reason: err.Error()}
	}
	db := sql.OpenDB(connector)
	// The handshake too: a server that accepts and says nothing (or
	// answers in another protocol) is given up after the connect
	// time-out, not after the read time-out.
	cctx, cancel := context.WithTimeout(context.Background(), cfg.Timeout)
	conn, err = db.Conn(cctx)
	cancel()
	if err != nil {
		db.Close()
		return nil, nil, &replay.Error{File: name, Reason: "cannot connect: " + err.Error()}
	}
	closeAll = func() {
		conn.Close()
		db.Close()
	}
	// Nothing a replay does may change the project's data.
	if _, err := conn.ExecContext(context.Background(), "SET SESSION TRANSACTION READ ONLY"); err != nil {
		closeAll()
		return nil, nil, &replay.Error{File: name, Reason: err.Error()}
	}
	return conn, closeAll, nil
}

// appID finds the app --app names (an ID, or a name matched exactly,
// else without regard to case as MySQL's default collation does) in the
// app table, in Go: a name the table's character set cannot hold would
// otherwise end in MySQL's "Illegal mix of collations". Not found, it
// says which apps there are.
func appID(conn *sql.Conn, name, app string) (string, error) {
	if _, err := strconv.ParseInt(app, 10, 64); err == nil {
		return app, nil
	}
	rows, err := conn.QueryContext(context.Background(), "SELECT id, name FROM app ORDER BY id")
	if err != nil {
		return "", &replay.Error{File: name, Reason: "query: " + err.Error()}
	}
	defer rows.Close()
	var names []string
	folded := ""
	for rows.Next() {
		var id int64
		var n string
		if err := rows.Scan(&id, &n); err != nil {
			return "", &replay.Error{File: name, Reason: "query: " + err.Error()}
		}
		if n == app {
			return strconv.FormatInt(id, 10), nil
		}
		if folded == "" && strings.EqualFold(n, app) {
			folded = strconv.FormatInt(id, 10)
		}
		names = append(names, n)
	}
	if err := rows.Err(); err != nil {
		return "", &replay.Error{File: name, Reason: "query: " + err.Error()}
	}
	if folded != "" {
		return folded, nil
	}
	return "", &replay.Error{File: name, Field: "--app", Value: app,
		Reason: fmt.Sprintf("no app has that name (the project's apps: %s)", strings.Join(names, ", "))}
}

// dbQuery is the results query with q's window on received_time and
// its app (by ID or name), as parameters, in result-ID order.
func dbQuery(q Query) (string, []any) {
	query, args := resultQuery, []any{}
	if !q.Since.IsZero() {
		query += " AND r.received_time >= ?"
		args = append(args, q.Since.Unix())
	}
	if !q.Until.IsZero() {
		query += " AND r.received_time < ?"
		args = append(args, q.Until.Unix())
	}
	if q.App != "" {
		if id, err := strconv.ParseInt(q.App, 10, 64); err == nil {
			query += " AND a.id = ?"
			args = append(args, id)
		} else {
			query += " AND a.name = ?"
			args = append(args, q.App)
		}
	}
	return query + " ORDER BY r.id", args
}

// scanRows reads the query's rows as replay rows, each field checked as
// a file's would be.
func scanRows(name string, rows *sql.Rows) (*replay.Input, error) {
	names, err := rows.Columns()
	if err != nil {
		return nil, &replay.Error{File: name, Reason: err.Error()}
	}
	b := replay.NewRows(name, replay.Database, names)
	vals := make([]sql.NullString, len(names))
	ptrs := make([]any, len(names))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	fields, present := make([]string, len(names)), make([]bool, len(names))
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return nil, &replay.Error{File: name, Line: len(b.Input().Rows) + 1, Reason: err.Error()}
		}
		for i, v := range vals {
			fields[i], present[i] = v.String, v.Valid
		}
		if err := b.Add(fields, present); err != nil {
			return nil, err
		}
	}
	if err := rows.Err(); err != nil {
		return nil, &replay.Error{File: name, Reason: err.Error()}
	}
	if len(b.Input().Rows) == 0 {
		return nil, &replay.Error{File: name, Reason: "no results match (server_state 5, sent, in the given window and app)"}
	}
	return b.Input(), nil
}
