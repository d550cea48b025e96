package replay

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
)

// Database is the input form of a live project database (package
// projectdb reads it).
const Database Form = "database"

// secret matches the password of a user:password@ part anywhere: up to
// the last "@" of its word, as the driver reads a password that holds
// one.
var secret = regexp.MustCompile(`([^\s:/@'"(]+):(\S*)@`)

// RedactSecrets hides every password written as user:password@ in s,
// whether s parsed as a DSN or not: for every message creditsim prints.
func RedactSecrets(s string) string { return secret.ReplaceAllString(s, "$1:xxx@") }

// Rows builds an Input from a source of named columns other than a
// file (a database query), each field checked as a file's would be.
type Rows struct {
	in   *Input
	cols []*Column
}

// NewRows starts an input of form from the source name (for messages)
// with the columns names; a name replay does not know is read as absent.
func NewRows(name string, form Form, names []string) *Rows {
	b := &Rows{in: &Input{File: name, Form: form, Has: map[string]bool{}}, cols: make([]*Column, len(names))}
	for i, n := range names {
		b.cols[i] = column(n)
		b.in.Has[n] = true
	}
	return b
}

// Add reads one result: fields[i] is the text of column i, absent
// where present[i] is false (SQL's NULL).
func (b *Rows) Add(fields []string, present []bool) error {
	row := newRow()
	for i, c := range b.cols {
		if !present[i] || c == nil {
			continue
		}
		if reason := setField(&row, c, fields[i]); reason != "" {
			return &Error{File: b.in.File, Line: len(b.in.Rows) + 1, Field: c.Name, Value: fields[i],
				Reason: reason + fmt.Sprintf(" (result %d)", row.ResultID)}
		}
	}
	b.in.Rows = append(b.in.Rows, row)
	return nil
}

// Input is what was added.
func (b *Rows) Input() *Input { return b.in }

// wholeText writes a bound of whole numbers as digits up to 1e15
// (2147483648, not 2.147483648e+09), beyond as %g (9.2e+18).
func wholeText(v float64) string {
	if math.Abs(v) < 1e15 {
		return strconv.FormatFloat(v, 'f', -1, 64)
	}
	return fmt.Sprintf("%g", v)
}

// setField stores the text s of column c in r; it returns why it cannot.
func setField(r *Row, c *Column, s string) string {
	s = strings.TrimSpace(s)
	if c.text != nil {
		if err := c.text(r, s); err != nil {
			return err.Error()
		}
		return ""
	}
	if s == "" || s == "NULL" || s == `\N` {
		return "" // absent: zero (NaN for credits)
	}
	v, err := strconv.ParseFloat(s, 64)
	switch {
	case err != nil || math.IsNaN(v) || math.IsInf(v, 0):
		return "not a finite number"
	case c.whole && (v != math.Trunc(v) || v < c.lo || v > c.hi):
		return fmt.Sprintf("want a whole number from %s to %s", wholeText(c.lo), wholeText(c.hi))
	case c.ranged && (v < c.lo || v > c.hi):
		if c.hi == MaxSpan {
			return fmt.Sprintf("want %.0f to %.0f seconds (20 years, the longest a replay covers)", c.lo, c.hi)
		}
		if c.hi == math.MaxFloat64 {
			return fmt.Sprintf("want a number of at least %g", c.lo)
		}
		return fmt.Sprintf("want a number from %g to %g", c.lo, c.hi)
	}
	c.set(r, v)
	return ""
}
