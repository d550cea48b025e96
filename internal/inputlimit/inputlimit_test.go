package inputlimit

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"strings"
	"testing"
)

func gz(t *testing.T, data []byte) []byte {
	t.Helper()
	var b bytes.Buffer
	w, _ := gzip.NewWriterLevel(&b, gzip.BestCompression)
	if _, err := w.Write(data); err != nil {
		t.Fatal(err)
	}
	w.Close()
	return b.Bytes()
}

// gzMembers is n gzip members of data one after another, which a gzip
// reader reads as one stream: a large expansion compressed once.
func gzMembers(t *testing.T, data []byte, n int) []byte {
	t.Helper()
	return bytes.Repeat(gz(t, data), n)
}

// TestOpen: each limit refuses the input that passes it, naming the file,
// the line where it has one, the limit and the --limit setting that
// raises it; an input within every limit reads whole, compressed or not.
func TestOpen(t *testing.T) {
	small := Limits{Bytes: 1 << 20, Ratio: 100, Line: 100, Columns: 10, Lines: 50}
	for _, c := range []struct {
		name  string
		data  []byte
		l     Limits
		limit string
		line  int64
		raise string
	}{
		{name: "within", data: []byte(strings.Repeat("a\tb\n", 40)), l: small},
		{name: "within, gzip", data: gz(t, []byte(strings.Repeat("a\tb\n", 40))), l: small},
		{name: "long line", data: []byte("id\n1\n" + strings.Repeat("x", 101) + "\n"), l: small, limit: "line", line: 3, raise: "line=200"},
		{name: "NULs on one line, gzip", data: gz(t, make([]byte, 1<<20)), l: small, limit: "line", line: 1},
		{name: "too many lines", data: []byte(strings.Repeat("\n", 51)), l: small, limit: "lines", line: 51, raise: "lines=100"},
		{name: "too many bytes", data: []byte(strings.Repeat("abcdefg\n", 1<<17+1)), l: Limits{Bytes: 1 << 20}, limit: "bytes", raise: "bytes=2MiB"},
		{name: "bomb of newlines", data: gzMembers(t, bytes.Repeat([]byte{'\n'}, 1<<20), RatioFloor>>20+1), l: Limits{Ratio: 100}, limit: "ratio", raise: "ratio=1000"},
		{name: "no limits", data: gz(t, bytes.Repeat([]byte{'\n'}, 1<<20)), l: Limits{}},
	} {
		r, closeZ, _, err := Open("f.tsv", bytes.NewReader(c.data), c.l)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		_, err = io.Copy(io.Discard, r)
		closeZ()
		if c.limit == "" {
			if err != nil {
				t.Errorf("%s: %v; want the whole input", c.name, err)
			}
			continue
		}
		var e *Error
		if !errors.As(err, &e) || !errors.Is(err, ErrLimit) {
			t.Errorf("%s: %v; want the %s limit", c.name, err, c.limit)
			continue
		}
		if e.Limit != c.limit || e.File != "f.tsv" || (c.line != 0 && e.Line != c.line) || (c.raise != "" && e.Raise != c.raise) {
			t.Errorf("%s: %+v; want limit %s, line %d, raise %q", c.name, e, c.limit, c.line, c.raise)
		}
		if !strings.Contains(e.Error(), "--limit "+e.Raise) {
			t.Errorf("%s: %q names no --limit", c.name, e.Error())
		}
	}
}

// TestParse: --limit's values set each limit, sizes with units; a bad
// name or value is refused naming the limits.
func TestParse(t *testing.T) {
	l, err := Default.Parse([]string{"bytes=2GiB", "line=4MiB", "columns=5000", "lines=1e10", "ratio=0"})
	if err != nil {
		t.Fatal(err)
	}
	want := Limits{Bytes: 2 << 30, Line: 4 << 20, Columns: 5000, Lines: 1e10, Ratio: 0}
	if l != want {
		t.Errorf("got %+v; want %+v", l, want)
	}
	if got := l.String(); got != "bytes=2GiB,ratio=0,line=4MiB,columns=5000,lines=10000000000" {
		t.Errorf("String: %s", got)
	}
	for _, bad := range []string{"size=1", "bytes=-1", "line", "lines=many", "ratio=NaN", "bytes=Inf"} {
		if _, err := Default.Parse([]string{bad}); err == nil {
			t.Errorf("%s: accepted", bad)
		}
	}
	if err := Default.CheckColumns("h.tsv", 1001); err == nil || !strings.Contains(err.Error(), "h.tsv:1") {
		t.Errorf("1001 columns: %v", err)
	}
	if err := Default.CheckColumns("h.tsv", 1000); err != nil {
		t.Errorf("1000 columns: %v", err)
	}
}
