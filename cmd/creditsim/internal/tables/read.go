package tables

import (
	"context"
	"database/sql"
	"fmt"
	"reflect"
	"strings"
)

// Required are the tables a fit needs; the others are read where present.
var Required = []string{"host", "result", "workunit", "app", "app_version", "platform"}

// Source is a project's tables: a folder of files or a database.
type Source interface {
	// Read reads table's rows, calling row with each (a pointer to the
	// table's row type, reused between calls); it returns the columns
	// the source has, or nil if it has no such table.
	Read(table string, row func(any) error) (map[string]bool, error)
	// Name names the source in messages.
	Name() string
}

// Read reads every table of src but result, whose rows go to result as
// they are read (in the source's order), with the other tables read
// (result comes last). A row with no ID, or an ID already read, is
// left out and counted in the Set's Dropped.
func Read(src Source, result func(*Set, *Result) error) (*Set, error) {
	s := &Set{Has: map[string]map[string]bool{}, Dropped: map[string]Dropped{}}
	dests := map[string]func(any){
		"host":             func(r any) { s.Hosts = append(s.Hosts, *r.(*Host)) },
		"workunit":         func(r any) { s.Workunits = append(s.Workunits, *r.(*Workunit)) },
		"app":              func(r any) { s.Apps = append(s.Apps, *r.(*App)) },
		"app_version":      func(r any) { s.AppVersions = append(s.AppVersions, *r.(*AppVersion)) },
		"platform":         func(r any) { s.Platforms = append(s.Platforms, *r.(*Platform)) },
		"user":             func(r any) { s.Users = append(s.Users, *r.(*User)) },
		"team":             func(r any) { s.Teams = append(s.Teams, *r.(*Team)) },
		"host_app_version": func(r any) { s.HostAppVersions = append(s.HostAppVersions, *r.(*HostAppVersion)) },
	}
	for _, t := range Names {
		ids := newIdentities(t)
		add := func(r any) error {
			if ids.keep(r) {
				dests[t](r)
			}
			return nil
		}
		if t == "result" {
			add = func(r any) error {
				if !ids.keep(r) {
					return nil
				}
				return result(s, r.(*Result))
			}
		}
		has, err := src.Read(t, add)
		if err != nil {
			return nil, err
		}
		if ids.drop.Any() {
			s.Dropped[t] = ids.drop
		}
		if has == nil && isRequired(t) {
			return nil, fmt.Errorf("%s: no %s table (a fit needs %s)", src.Name(), t, strings.Join(Required, ", "))
		}
		s.Has[t] = has
	}
	return s, nil
}

func isRequired(t string) bool {
	for _, r := range Required {
		if r == t {
			return true
		}
	}
	return false
}

// Dir is a folder of table files (<table>.tsv, .csv, .txt, each maybe
// .gz).
type Dir string

// Name implements Source.
func (d Dir) Name() string { return string(d) }

// Read implements Source.
func (d Dir) Read(table string, row func(any) error) (map[string]bool, error) {
	path, err := Find(string(d), table)
	if path == "" || err != nil {
		return nil, err
	}
	r, err := Open(path, table)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	v := reflect.New(codecs[table].typ).Interface()
	for {
		ok, err := r.Next(v)
		if err != nil {
			return nil, err
		}
		if !ok {
			return r.has, nil
		}
		if err := row(v); err != nil {
			return nil, err
		}
	}
}

// DB is a project's database, read over conn: each table's columns that
// creditsim knows and the database has, results and workunits created
// in [Since, Until) (Unix seconds; 0: no bound).
type DB struct {
	Conn         *sql.Conn
	Label        string // the redacted DSN
	Since, Until int64
}

// Name implements Source.
func (d *DB) Name() string { return d.Label }

// Read implements Source.
func (d *DB) Read(table string, row func(any) error) (map[string]bool, error) {
	c := codecs[table]
	has, cols, sel, err := d.columns(table)
	if has == nil || err != nil {
		return nil, err
	}
	q, args := d.query(table, sel, has)
	rows, err := d.Conn.QueryContext(context.Background(), q, args...)
	if err != nil {
		return nil, fmt.Errorf("%s: %s: %v", d.Label, table, err)
	}
	defer rows.Close()
	raw := make([]sql.RawBytes, len(cols))
	ptrs := make([]any, len(cols))
	for i := range raw {
		ptrs[i] = &raw[i]
	}
	rec := make([]string, len(cols))
	v := reflect.New(c.typ)
	for n := 1; rows.Next(); n++ {
		if err := rows.Scan(ptrs...); err != nil {
			return nil, fmt.Errorf("%s: %s: %v", d.Label, table, err)
		}
		for i := range raw {
			rec[i] = string(raw[i])
		}
		v.Elem().SetZero()
		if e := c.decode(v.Elem(), cols, rec); e != nil {
			e.File, e.Reason, e.Column = d.Label+" "+table, fmt.Sprintf("row %d: %s", n, e.Reason), 0
			return nil, e
		}
		if err := row(v.Interface()); err != nil {
			return nil, err
		}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("%s: %s: %v", d.Label, table, err)
	}
	return has, nil
}

// columns are the columns of table that both creditsim and the database
// know: by name, as codec columns and as a SELECT list; has is nil if the
// database has no such table.
func (d *DB) columns(table string) (has map[string]bool, cols []int, sel []string, err error) {
	c := codecs[table]
	probe, err := d.Conn.QueryContext(context.Background(), "SELECT * FROM `"+table+"` LIMIT 0")
	if err != nil {
		if strings.Contains(err.Error(), "doesn't exist") {
			return nil, nil, nil, nil
		}
		return nil, nil, nil, fmt.Errorf("%s: %s: %v", d.Label, table, err)
	}
	names, err := probe.Columns()
	probe.Close()
	if err != nil {
		return nil, nil, nil, fmt.Errorf("%s: %s: %v", d.Label, table, err)
	}
	has = map[string]bool{}
	for _, n := range names {
		if k, ok := c.byName[strings.ToLower(n)]; ok {
			has[c.names[k]] = true
			cols = append(cols, k)
			sel = append(sel, "`"+n+"`")
		}
	}
	if k, why := c.missing(has); k != "" {
		return nil, nil, nil, fmt.Errorf("%s: table %s has no column %s (%s)", d.Label, table, k, why)
	}
	return has, cols, sel, nil
}

// query is the SELECT of table's columns sel in key order (as a table
// file lists them), results and workunits bounded to [Since, Until) by
// creation time.
func (d *DB) query(table string, sel []string, has map[string]bool) (string, []any) {
	q := "SELECT " + strings.Join(sel, ", ") + " FROM `" + table + "`"
	order := " ORDER BY `" + strings.Join(codecs[table].key, "`, `") + "`"
	if (table != "result" && table != "workunit") || !has["create_time"] {
		return q + order, nil
	}
	var where []string
	var args []any
	if d.Since != 0 {
		where, args = append(where, "create_time >= ?"), append(args, d.Since)
	}
	if d.Until != 0 {
		where, args = append(where, "create_time < ?"), append(args, d.Until)
	}
	if len(where) > 0 {
		q += " WHERE " + strings.Join(where, " AND ")
	}
	return q + order, args
}
