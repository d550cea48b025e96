package replay

import (
	"bufio"

	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/creditsim/creditsim/cmd/creditsim/internal/tables"
	"github.com/creditsim/creditsim/internal/inputlimit"
	"github.com/creditsim/creditsim/internal/suggest"

	"github.com/creditsim/creditsim/policy"
)

// Form names an input form.
type Form string

// Input forms.
const (
	CreditTest Form = "credit_test_data"
	CSV        Form = "csv"
)

// Header is what a trace says besides its rows: the server's periods,
// the run's end and the world the policies were initialised with.
type Header struct {
	ValidatorPeriod float64       `json:"validator_period"`
	FeederPeriod    float64       `json:"feeder_period"`
	End             float64       `json:"end"`
	World           *policy.World `json:"world"`
	Policies        []string      `json:"policies"`
}

// headerPrefix starts a trace's header line.
const headerPrefix = "# creditsim-trace: "

// Input is a read replay input.
type Input struct {
	File    string
	Form    Form
	Rows    []Row
	Has     map[string]bool // the columns present
	Header  *Header         // a trace's; nil otherwise
	Credits []string        // a trace's truth columns: policies with credit.<name>
}

// Error is a bad input: the file, line and column (1-based; 0 unknown),
// the field and the text written (package tables' error, which a table
// file's reader gives too).
type Error = tables.Error

// Read reads either form, telling them apart by the first line that is
// not a comment: a header of named columns is the CSV form, ten numbers
// the credit_test_data form. Either may be gzip-compressed (run --trace
// FILE.gz writes it so), told by gzip's magic number.
func Read(file string, r io.Reader) (*Input, error) {
	lim := inputlimit.Current()
	r, closeZ, _, err := inputlimit.Open(file, r, lim)
	if err != nil {
		return nil, &Error{File: file, Reason: err.Error()}
	}
	defer closeZ()
	br := bufio.NewReaderSize(r, 1<<16)
	// A spreadsheet's UTF-8 byte-order mark is not part of the first
	// column's name.
	if bom, _ := br.Peek(3); string(bom) == "\ufeff" {
		br.Discard(3)
	}
	var head []string
	for {
		line, err := br.ReadString('\n')
		switch {
		case errors.Is(err, inputlimit.ErrLimit):
			return nil, err // it names the file and line
		case err != nil && err != io.EOF:
			return nil, &Error{File: file, Reason: err.Error()}
		case line == "" && err == io.EOF:
			return nil, &Error{File: file, Reason: "empty: no results"}
		case strings.Contains(strings.TrimRight(line, "\r\n"), "\r"):
			return nil, &Error{File: file, Line: len(head) + 1,
				Reason: "its lines end in a lone carriage return (CR, as classic Mac OS wrote them); save it with LF or CRLF line ends"}
		}
		head = append(head, line)
		t := strings.TrimSpace(line)
		if t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		rest := io.MultiReader(strings.NewReader(strings.Join(head, "")), br)
		// A header line names columns; credit_test_data's lines start
		// with a number (its result id).
		first := ""
		if f := strings.FieldsFunc(t, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' }); len(f) > 0 {
			first = f[0] // a line of separators only has none
		}
		if _, err := strconv.ParseFloat(first, 64); err != nil || strings.Contains(t, ",") {
			// mysql --batch writes tab-separated values.
			comma := ','
			if strings.Contains(t, "\t") && !strings.Contains(t, ",") {
				comma = '\t'
			}
			return readCSV(file, rest, comma)
		}
		return readCreditTest(file, rest)
	}
}

// creditTestFields are credit_test_data's fields, in order.
var creditTestFields = []string{"result_id", "workunit_id", "app_id", "host_id", "claimed_credit", "app_version_id",
	"elapsed_time", "flops_estimate", "cpu_time", "rsc_fpops_est"}

func readCreditTest(file string, r io.Reader) (*Input, error) {
	in := &Input{File: file, Form: CreditTest, Has: map[string]bool{}}
	for _, f := range creditTestFields {
		in.Has[f] = true
	}
	sc := bufio.NewScanner(r)
	// The input's line limit refuses a long line before the scanner's.
	sc.Buffer(make([]byte, 1<<16), max(2*inputlimit.Current().Line, 1<<30))
	line := 0
	seen := map[int64]int{} // result ID -> line
	for sc.Scan() {
		line++
		t := strings.TrimSpace(sc.Text())
		if t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		f := strings.Fields(t)
		if len(f) != len(creditTestFields) {
			return nil, &Error{File: file, Line: line, Reason: fmt.Sprintf("want %d whitespace-separated fields (%s), got %d",
				len(creditTestFields), strings.Join(creditTestFields, ", "), len(f))}
		}
		row := newRow()
		text, at := sc.Text(), 0
		for i, name := range creditTestFields {
			at += strings.Index(text[at:], f[i])
			if reason := setField(&row, column(name), f[i]); reason != "" {
				return nil, &Error{File: file, Line: line, Column: at + 1, Field: name, Value: f[i], Reason: reason}
			}
			at += len(f[i])
		}
		if first, ok := seen[row.ResultID]; ok {
			return nil, &Error{File: file, Line: line, Field: "result_id", Value: strconv.FormatInt(row.ResultID, 10),
				Reason: fmt.Sprintf("also on line %d: each result once", first)}
		}
		seen[row.ResultID] = line
		// credit_test_data holds valid results only.
		row.Outcome, row.ValidateState = policy.Success, policy.Valid
		row.Granted = math.NaN()
		in.Rows = append(in.Rows, row)
	}
	if err := sc.Err(); errors.Is(err, inputlimit.ErrLimit) {
		return nil, err
	} else if err != nil {
		return nil, &Error{File: file, Line: line + 1, Reason: err.Error()}
	}
	if len(in.Rows) == 0 {
		return nil, &Error{File: file, Reason: "no results"}
	}
	return in, nil
}

func readCSV(file string, r io.Reader, comma rune) (*Input, error) {
	cr := &csvReader{in: &Input{File: file, Form: CSV, Has: map[string]bool{}}, seen: map[int64]int{}}
	cr.r = csv.NewReader(&blankComments{br: bufio.NewReaderSize(r, 1<<16), seen: func(line int, text string) {
		cr.comments = append(cr.comments, text)
		cr.commentLines = append(cr.commentLines, line)
	}})
	cr.r.Comma = comma
	cr.r.FieldsPerRecord = -1
	cr.r.ReuseRecord = true
	in := cr.in
	header := true
	for {
		rec, err := cr.r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, readError(file, err)
		}
		line, _ := cr.r.FieldPos(0)
		if err := cr.traceHeader(); err != nil {
			return nil, err
		}
		if header {
			header = false
			if err := inputlimit.Current().CheckColumns(file, len(rec)); err != nil {
				return nil, err
			}
			if err := cr.header(rec, line); err != nil {
				return nil, err
			}
			continue
		}
		if err := cr.row(rec, line); err != nil {
			return nil, err
		}
	}
	if err := cr.finish(header); err != nil {
		return nil, err
	}
	return in, nil
}

// readError names the file, and the line and column where csv knows them,
// of an error reading a record. FieldPos is defined only for a record read
// whole: a record that starts with a bad quote has none. An input limit's
// error already names its file and the --limit that raises it.
func readError(file string, err error) error {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return &Error{File: file, Line: pe.Line, Column: pe.Column, Reason: pe.Err.Error()}
	}
	if errors.Is(err, inputlimit.ErrLimit) {
		return err
	}
	return &Error{File: file, Reason: err.Error()}
}

// finish checks what can be checked only at the end: a trace header in
// the comments after the last row, the times' span, that there was a
// header (stillHeader false) and rows.
func (cr *csvReader) finish(stillHeader bool) error {
	file := cr.in.File
	for k, t := range cr.comments {
		if strings.HasPrefix(t, headerPrefix) {
			return &Error{File: file, Line: cr.commentLines[k], Field: "trace header", Reason: "the trace header comes after rows: it must come first"}
		}
	}
	if err := cr.span.check(file, cr.in.Header); err != nil {
		return err
	}
	if stillHeader {
		return &Error{File: file, Reason: "no header line (result_id, workunit_id, ...)"}
	}
	if len(cr.in.Rows) == 0 {
		return &Error{File: file, Reason: "no results"}
	}
	return nil
}

// csvReader is the state of reading the CSV form.
type csvReader struct {
	in           *Input
	r            *csv.Reader
	comments     []string // comment lines since the last record, and their lines
	commentLines []int
	cols         []*Column     // per field, nil for a credit.<policy> column
	credit       []int         // per field, its index in in.Credits, -1 if not a credit column
	seen         map[int64]int // result ID -> line
	span         timeSpan
}

// traceHeader takes a trace header from the comments seen since the last
// record: one, before any row.
func (cr *csvReader) traceHeader() error {
	in, file := cr.in, cr.in.File
	for k, t := range cr.comments {
		h, ok := strings.CutPrefix(t, headerPrefix)
		if !ok {
			continue
		}
		line := cr.commentLines[k]
		switch {
		case in.Header != nil:
			return &Error{File: file, Line: line, Field: "trace header", Reason: "a second trace header: a trace has one, before its rows"}
		case len(in.Rows) > 0:
			return &Error{File: file, Line: line, Field: "trace header", Reason: "the trace header comes after rows: it must come first"}
		}
		in.Header = &Header{}
		if err := json.Unmarshal([]byte(h), in.Header); err != nil {
			return &Error{File: file, Line: line, Reason: "bad trace header: " + err.Error()}
		}
		if field, value, reason := in.Header.check(); reason != "" {
			return &Error{File: file, Line: line, Field: "trace header " + field, Value: value, Reason: reason}
		}
	}
	cr.comments, cr.commentLines = cr.comments[:0], cr.commentLines[:0]
	return nil
}

// header takes the header line's columns: known ones and a trace's
// credit.<policy> columns, each once, result_id and workunit_id among
// them.
func (cr *csvReader) header(rec []string, line int) error {
	in, file := cr.in, cr.in.File
	named := func(i int, name, reason string) error {
		_, col := cr.r.FieldPos(i)
		return &Error{File: file, Line: line, Column: col, Field: "header", Value: name, Reason: reason}
	}
	for i, name := range rec {
		name = strings.TrimSpace(name)
		if p, ok := strings.CutPrefix(name, creditPrefix); ok {
			if slices.Contains(in.Credits, p) {
				return named(i, name, "column named twice")
			}
			in.Credits = append(in.Credits, p)
			cr.credit = append(cr.credit, len(in.Credits)-1)
			cr.cols = append(cr.cols, nil)
			continue
		}
		cr.credit = append(cr.credit, -1)
		c := column(name)
		switch {
		case c == nil:
			return named(i, name, "unknown column"+suggest.DidYouMean(name, strings.Split(columnNames(), ", "))+" (known: "+columnNames()+", credit.<policy>)")
		case in.Has[name]:
			return named(i, name, "column named twice")
		}
		in.Has[name] = true
		cr.cols = append(cr.cols, c)
	}
	for _, need := range []string{"result_id", "workunit_id"} {
		if !in.Has[need] {
			return &Error{File: file, Line: line, Field: "header", Reason: "a replay needs the column " + need}
		}
	}
	return nil
}

// row reads one result and checks it: its fields, its times, its ID
// (each once) and, in a trace, its place in the trace's world.
func (cr *csvReader) row(rec []string, line int) error {
	in, file := cr.in, cr.in.File
	if len(rec) != len(cr.cols) {
		return &Error{File: file, Line: line, Reason: fmt.Sprintf("%d fields, the header has %d", len(rec), len(cr.cols))}
	}
	row := newRow()
	if len(in.Credits) > 0 {
		row.Credit = make(map[string]float64, len(in.Credits))
	}
	for i, s := range rec {
		_, col := cr.r.FieldPos(i)
		if c := cr.cols[i]; c != nil {
			if reason := setField(&row, c, s); reason != "" {
				return &Error{File: file, Line: line, Column: col, Field: c.Name, Value: strings.TrimSpace(s), Reason: reason}
			}
			continue
		}
		// A trace's credit.<policy> column.
		if s = strings.TrimSpace(s); s == "" {
			continue
		}
		name := in.Credits[cr.credit[i]]
		v, err := strconv.ParseFloat(s, 64)
		switch {
		case err != nil || math.IsNaN(v) || math.IsInf(v, 0):
			return &Error{File: file, Line: line, Column: col, Field: creditPrefix + name, Value: s, Reason: "not a finite number"}
		case v < 0:
			return &Error{File: file, Line: line, Column: col, Field: creditPrefix + name, Value: s, Reason: "want a number of at least 0"}
		}
		row.Credit[name] = v
	}
	if row.ReceivedTime > 0 && row.SentTime > 0 && row.ReceivedTime < row.SentTime {
		return &Error{File: file, Line: line, Field: "received_time", Value: strconv.FormatFloat(row.ReceivedTime, 'g', -1, 64),
			Reason: "before the result's sent_time, " + strconv.FormatFloat(row.SentTime, 'g', -1, 64)}
	}
	if first, ok := cr.seen[row.ResultID]; ok {
		return &Error{File: file, Line: line, Field: "result_id", Value: strconv.FormatInt(row.ResultID, 10),
			Reason: fmt.Sprintf("also on line %d: each result once", first)}
	}
	cr.seen[row.ResultID] = line
	if in.Header != nil {
		if field, value, reason := in.Header.checkRow(&row); reason != "" {
			return &Error{File: file, Line: line, Field: field, Value: value, Reason: reason}
		}
	}
	cr.span.add(&row, line)
	in.Rows = append(in.Rows, row)
	return nil
}

func columnNames() string {
	var s []string
	for _, c := range Columns {
		s = append(s, c.Name)
	}
	return strings.Join(s, ", ")
}

// blankComments passes a CSV through with each line starting with # made
// empty (csv skips empty lines and still counts them, so line numbers
// stay the file's), telling seen about it.
type blankComments struct {
	br   *bufio.Reader
	buf  []byte
	line int
	seen func(line int, text string)
}

func (b *blankComments) Read(p []byte) (int, error) {
	for len(b.buf) == 0 {
		line, err := b.br.ReadString('\n')
		if line == "" {
			return 0, err
		}
		b.line++
		if t := strings.TrimSpace(line); strings.HasPrefix(t, "#") {
			b.seen(b.line, t)
			line = "\n"
		}
		b.buf = append(b.buf, line...)
	}
	n := copy(p, b.buf)
	b.buf = b.buf[n:]
	return n, nil
}
