package tables

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"

	"github.com/creditsim/creditsim/internal/inputlimit"
)

// Error is a bad input (a table file, a replay input): the file, line and column (1-based; 0 unknown),
// the field and the text written.
type Error struct {
	File         string
	Line, Column int
	Field, Value string
	Reason       string
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d", e.Line)
		if e.Column > 0 {
			fmt.Fprintf(&b, ":%d", e.Column)
		}
	}
	b.WriteString(": ")
	if e.Field != "" {
		b.WriteString(e.Field + ": ")
	}
	if e.Value != "" || e.Field != "" {
		v := e.Value
		if len(v) > maxShown {
			// A binary file's "column name": enough to recognise it.
			v = strings.ToValidUTF8(v[:maxShown], "") + "..."
		}
		b.WriteString(strconv.Quote(v) + ": ")
	}
	b.WriteString(e.Reason)
	return b.String()
}

// maxShown is the most of a value an error message shows.
const maxShown = 80

// Writer writes one table's rows in `mysql --batch`'s form.
type Writer struct {
	c    *codec
	b    *bufio.Writer
	line []byte
}

// NewWriter writes table's header line to w and returns a writer of its
// rows. Precondition: table is one of Names.
func NewWriter(w io.Writer, table string) *Writer {
	c := codecs[table]
	tw := &Writer{c: c, b: bufio.NewWriterSize(w, 1<<16)}
	tw.b.WriteString(strings.Join(c.names, "\t") + "\n")
	return tw
}

// Write writes one row. Precondition: row points to the table's row type.
func (w *Writer) Write(row any) error {
	v := reflect.ValueOf(row).Elem()
	line := w.line[:0]
	for k := range w.c.names {
		if k > 0 {
			line = append(line, '\t')
		}
		start := len(line)
		var null bool
		line, null = w.c.appendValue(line, v, k)
		switch {
		case null:
			line = append(line, `\N`...)
		case v.Field(w.c.fields[k]).Kind() == reflect.String:
			line = append(line[:start], escape(string(line[start:]))...)
		}
	}
	w.line = append(line, '\n')
	_, err := w.b.Write(w.line)
	return err
}

// Flush writes what is buffered.
func (w *Writer) Flush() error { return w.b.Flush() }

// escape writes s as `mysql --batch` does: backslash, tab, newline,
// carriage return and NUL escaped.
func escape(s string) string {
	if !strings.ContainsAny(s, "\\\t\n\r\x00") {
		return s
	}
	return strings.NewReplacer(`\`, `\\`, "\t", `\t`, "\n", `\n`, "\r", `\r`, "\x00", `\0`).Replace(s)
}

// unescape reverses escape; NULL (\N) is "".
func unescape(s string) string {
	if s == `\N` {
		return ""
	}
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 == len(s) {
			b.WriteByte(s[i])
			continue
		}
		i++
		switch s[i] {
		case 't':
			b.WriteByte('\t')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case '0':
			b.WriteByte(0)
		default:
			b.WriteByte(s[i])
		}
	}
	return b.String()
}

// Reader reads one table's rows from a file.
type Reader struct {
	file   string
	c      *codec
	cols   []int // the codec column of each file column; -1: ignored
	has    map[string]bool
	tsv    *bufio.Reader
	csv    *csv.Reader
	line   int
	fields []string
	close  func() error
	limits inputlimit.Limits
}

// shownNames lists a header's first names, quoted (a file's bytes are
// not a terminal's commands), and how many more there are.
func shownNames(head []string) string {
	var b strings.Builder
	for i, h := range head {
		if i == 12 || b.Len() > maxShown {
			fmt.Fprintf(&b, " and %d more", len(head)-i)
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		if len(h) > maxShown/2 {
			h = strings.ToValidUTF8(h[:maxShown/2], "") + "..."
		}
		b.WriteString(strconv.Quote(h))
	}
	return b.String()
}

// suffixes are the file names a table is looked for under, in order.
var suffixes = []string{".tsv", ".tsv.gz", ".csv", ".csv.gz", ".txt", ".txt.gz"}

// Find returns the file of table in dir ("" if there is none). Two
// files for one table (host.tsv beside host.csv.gz, say) are an error:
// which holds the project's rows is not for creditsim to guess.
func Find(dir, table string) (string, error) {
	var found []string
	for _, s := range suffixes {
		p := filepath.Join(dir, table+s)
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() {
			found = append(found, p)
		}
	}
	switch len(found) {
	case 0:
		return "", nil
	case 1:
		return found[0], nil
	}
	return "", &Error{File: found[0], Reason: fmt.Sprintf("two files for the %s table (%s): keep the one that holds the rows", table, strings.Join(found, ", "))}
}

// Open opens path as a file of table: tab-separated (as `mysql --batch`
// prints a SELECT) unless its name ends in .csv or .csv.gz; gzip-
// compressed if it starts with gzip's magic number. Its first line names
// the columns.
func Open(path, table string) (*Reader, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	lim := inputlimit.Current()
	in, closeZ, _, err := inputlimit.Open(path, f, lim)
	if err != nil {
		f.Close()
		return nil, &Error{File: path, Reason: err.Error()}
	}
	r := &Reader{file: path, c: codecs[table], has: map[string]bool{}, limits: lim,
		close: func() error { closeZ(); return f.Close() }}
	br := bufio.NewReaderSize(in, 1<<16)
	if bom, _ := br.Peek(3); string(bom) == "\ufeff" {
		br.Discard(3)
	}
	name := strings.TrimSuffix(path, ".gz")
	if strings.HasSuffix(name, ".csv") {
		r.csv = csv.NewReader(br)
		r.csv.ReuseRecord = true
	} else {
		r.tsv = br
	}
	head, err := r.record()
	if err == io.EOF {
		err = &Error{File: path, Reason: "empty: no header line naming the columns"}
	}
	if err == nil {
		err = r.header(head)
	}
	if err != nil {
		r.close()
		return nil, err
	}
	return r, nil
}

// header maps the file's columns to the table's.
func (r *Reader) header(head []string) error {
	if err := r.limits.CheckColumns(r.file, len(head)); err != nil {
		return err
	}
	for _, h := range head {
		h = strings.ToLower(strings.TrimSpace(h))
		// A SELECT with a table prefix (host.id) names the column.
		if i := strings.LastIndexByte(h, '.'); i >= 0 {
			h = h[i+1:]
		}
		k, ok := r.c.byName[h]
		if !ok || r.has[h] {
			k = -1
		}
		r.has[h] = true
		r.cols = append(r.cols, k)
	}
	if k, why := r.c.missing(r.has); k != "" {
		return &Error{File: r.file, Line: 1, Reason: fmt.Sprintf("no column %s (%s; the header names %s)", k, why, shownNames(head))}
	}
	return nil
}

// Has reports whether the file has the column.
func (r *Reader) Has(col string) bool { return r.has[col] }

// Close closes the file.
func (r *Reader) Close() error { return r.close() }

// record reads the next line's fields.
func (r *Reader) record() ([]string, error) {
	r.line++
	if r.csv != nil {
		rec, err := r.csv.Read()
		var pe *csv.ParseError
		if errors.As(err, &pe) {
			return nil, &Error{File: r.file, Line: pe.Line, Column: pe.Column, Reason: pe.Err.Error()}
		}
		if errors.Is(err, inputlimit.ErrLimit) {
			return nil, err
		}
		if err != nil && err != io.EOF {
			return nil, &Error{File: r.file, Line: r.line, Reason: err.Error()}
		}
		if err == nil {
			r.line, _ = r.csv.FieldPos(0)
		}
		return rec, err
	}
	line, err := r.tsv.ReadString('\n')
	if errors.Is(err, inputlimit.ErrLimit) {
		return nil, err // it names the file and line
	}
	if err != nil && err != io.EOF {
		return nil, &Error{File: r.file, Line: r.line, Reason: err.Error()}
	}
	if line == "" && err == io.EOF {
		return nil, io.EOF
	}
	line = strings.TrimSuffix(strings.TrimSuffix(line, "\n"), "\r")
	r.fields = r.fields[:0]
	for f := range strings.SplitSeq(line, "\t") {
		r.fields = append(r.fields, unescape(f))
	}
	return r.fields, nil
}

// Next reads the next row into row (a pointer to the table's row type);
// false at the end of the file.
func (r *Reader) Next(row any) (bool, error) {
	for {
		rec, err := r.record()
		if err == io.EOF {
			return false, nil
		}
		if err != nil {
			return false, err
		}
		if len(rec) == 1 && strings.TrimSpace(rec[0]) == "" {
			continue // a blank line
		}
		if len(rec) != len(r.cols) {
			return false, &Error{File: r.file, Line: r.line, Reason: fmt.Sprintf("%d fields, but the header names %d columns", len(rec), len(r.cols))}
		}
		v := reflect.ValueOf(row).Elem()
		v.SetZero()
		if err := r.c.decode(v, r.cols, rec); err != nil {
			err.File, err.Line = r.file, r.line
			return false, err
		}
		return true, nil
	}
}

// decode sets v's fields from a record whose column i is codec column
// cols[i] (-1: ignored).
func (c *codec) decode(v reflect.Value, cols []int, rec []string) *Error {
	for i, k := range cols {
		if k < 0 {
			continue
		}
		if err := c.setValue(v, k, strings.TrimSpace(rec[i])); err != nil {
			return &Error{Column: i + 1, Field: c.table + "." + c.names[k], Value: rec[i], Reason: err.Error()}
		}
	}
	return nil
}

// WriteSQL writes schema.sql and load.sql into dir: the tables with
// creditsim's columns (BOINC's names and types), and the statements
// that load each table's file, run from dir:
//
//	mysql boinc < schema.sql && mysql --local-infile=1 boinc < load.sql
func WriteSQL(dir string, write func(path string, data []byte) error) error {
	var schema, load bytes.Buffer
	schema.WriteString("-- The columns of BOINC's tables that creditsim writes (db/schema.sql's names and types).\n")
	load.WriteString("-- Load the files of this folder: mysql --local-infile=1 DATABASE < load.sql, run in this folder.\n")
	for _, t := range Names {
		schema.WriteString(CreateTable(t) + "\n")
		load.WriteString(LoadData(t, t+".tsv") + "\n")
	}
	if err := write(filepath.Join(dir, "schema.sql"), schema.Bytes()); err != nil {
		return err
	}
	return write(filepath.Join(dir, "load.sql"), load.Bytes())
}

// CreateTable is the CREATE TABLE statement of table with creditsim's
// columns.
func CreateTable(table string) string {
	c := codecs[table]
	var cols []string
	for k, n := range c.names {
		typ := "double"
		switch c.typ.Field(c.fields[k]).Type.Kind() {
		case reflect.Int64:
			typ = "bigint"
		case reflect.String:
			typ = "text"
		}
		cols = append(cols, fmt.Sprintf("  `%s` %s", n, typ))
	}
	key := "`" + strings.Join(c.key, "`, `") + "`"
	return fmt.Sprintf("CREATE TABLE `%s` (\n%s,\n  PRIMARY KEY (%s)\n);", table, strings.Join(cols, ",\n"), key)
}

// LoadData is the statement that loads file (as WriteDir writes it)
// into table.
func LoadData(table, file string) string {
	return fmt.Sprintf("LOAD DATA LOCAL INFILE '%s' INTO TABLE `%s` CHARACTER SET utf8mb4 IGNORE 1 LINES (`%s`);",
		strings.ReplaceAll(file, "'", "''"), table, strings.Join(codecs[table].names, "`, `"))
}
