package inputlimit

import (
	"bufio"
	"errors"
	"fmt"
	"github.com/klauspost/compress/gzip"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// Limits bound one input file. A zero field means no limit.
type Limits struct {
	// Bytes is the most a file may hold once decompressed.
	Bytes int64
	// Ratio is the most a compressed file may expand (decompressed over
	// compressed bytes), judged once it has expanded past RatioFloor: a
	// project's export gzips about 5 to 20 times; a file of one repeated
	// byte, thousands of times.
	Ratio float64
	// Line is the most bytes of one line.
	Line int
	// Columns is the most columns of a header.
	Columns int
	// Lines is the most lines of one file, blank ones included.
	Lines int64
}

// RatioFloor is how far a compressed file expands before its ratio is
// judged: small files compress as they like.
const RatioFloor = 64 << 20

// Default are the limits unless --limit raises them: well above a large
// project's export (a result table of 100 million rows is about 20 GB),
// well below what fills a 4 GB machine.
var Default = Limits{Bytes: 64 << 30, Ratio: 100, Line: 1 << 20, Columns: 1000, Lines: 2_000_000_000}

var (
	mu      sync.Mutex
	current = Default
)

// Current are the process's limits.
func Current() Limits {
	mu.Lock()
	defer mu.Unlock()
	return current
}

// Set makes l the process's limits (the command line does, from --limit,
// before it reads anything).
func Set(l Limits) {
	mu.Lock()
	defer mu.Unlock()
	current = l
}

// Parse applies "name=value" settings (--limit's values) to l: bytes
// and line take a size (64GiB, 1MiB, 1e9), ratio, columns and lines a
// number; 0 removes the limit.
func (l Limits) Parse(settings []string) (Limits, error) {
	for _, s := range settings {
		name, value, ok := strings.Cut(s, "=")
		if !ok {
			return l, fmt.Errorf("--limit %q: want name=value, name one of %s", s, strings.Join(Names(), ", "))
		}
		name = strings.TrimSpace(name)
		v, err := parseSize(strings.TrimSpace(value))
		if err != nil || v < 0 || math.IsInf(v, 0) || math.IsNaN(v) {
			return l, fmt.Errorf("--limit %s=%q: want a size or a number, at least 0 (0: no limit)", name, value)
		}
		switch name {
		case "bytes":
			l.Bytes = int64(min(v, math.MaxInt64/2))
		case "ratio":
			l.Ratio = v
		case "line":
			l.Line = int(min(v, math.MaxInt32))
		case "columns":
			l.Columns = int(min(v, math.MaxInt32))
		case "lines":
			l.Lines = int64(min(v, math.MaxInt64/2))
		default:
			return l, fmt.Errorf("--limit %s: no such limit; the limits are %s", name, strings.Join(Names(), ", "))
		}
	}
	return l, nil
}

// Names are the limits' names, as --limit takes them.
func Names() []string {
	n := []string{"bytes", "ratio", "line", "columns", "lines"}
	sort.Strings(n)
	return n
}

// String writes l as --limit's values.
func (l Limits) String() string {
	return fmt.Sprintf("bytes=%s,ratio=%g,line=%s,columns=%d,lines=%d", size(l.Bytes), l.Ratio, size(int64(l.Line)), l.Columns, l.Lines)
}

var units = []struct {
	suffix string
	scale  float64
}{{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}, {"TiB", 1 << 40}, {"kB", 1e3}, {"KB", 1e3}, {"MB", 1e6}, {"GB", 1e9}, {"TB", 1e12}, {"B", 1}}

func parseSize(s string) (float64, error) {
	for _, u := range units {
		if n, ok := strings.CutSuffix(s, u.suffix); ok {
			v, err := strconv.ParseFloat(strings.TrimSpace(n), 64)
			return v * u.scale, err
		}
	}
	return strconv.ParseFloat(s, 64)
}

// size writes n bytes in the largest binary unit that divides it.
func size(n int64) string {
	for _, u := range []struct {
		s string
		v int64
	}{{"TiB", 1 << 40}, {"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}} {
		if n >= u.v && n%u.v == 0 {
			return fmt.Sprintf("%d%s", n/u.v, u.s)
		}
	}
	return strconv.FormatInt(n, 10)
}

// words writes n bytes for a sentence: in a binary unit, or "n bytes".
func words(n int64) string {
	if s := size(n); strings.Trim(s, "0123456789") != "" {
		return s
	}
	return strconv.FormatInt(n, 10) + " bytes"
}

// Error is an input beyond a limit.
type Error struct {
	File  string
	Line  int64 // 1-based; 0 when the limit is not a line's
	Limit string
	What  string // what is beyond it
	Raise string // the --limit setting that would admit more
}

func (e *Error) Error() string {
	loc := e.File
	if e.Line > 0 {
		loc += ":" + strconv.FormatInt(e.Line, 10)
	}
	return fmt.Sprintf("%s: %s (the %s limit; --limit %s raises it)", loc, e.What, e.Limit, e.Raise)
}

// Open returns r, gunzipped if it starts with gzip's magic number, read
// under l: a read beyond a limit fails with an *Error naming file. The
// function returned closes the decompressor. compressed reports whether
// r was gzip's. An error from Open itself (a corrupt gzip header) does
// not name file: the caller's messages do.
func Open(file string, r io.Reader, l Limits) (rd io.Reader, closeZ func() error, compressed bool, err error) {
	raw := &counter{r: r}
	br := bufio.NewReaderSize(raw, 1<<16)
	lr := &reader{file: file, l: l}
	if magic, _ := br.Peek(2); len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		gz, err := gzip.NewReader(br)
		if err != nil {
			return nil, nil, true, fmt.Errorf("gzip: %v", err)
		}
		lr.r, lr.raw = &gzipErrors{gz}, raw
		return lr, gz.Close, true, nil
	}
	lr.r = br
	return lr, func() error { return nil }, false, nil
}

// counter counts the bytes read through it.
type counter struct {
	r io.Reader
	n int64
}

func (c *counter) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// gzipErrors says that a failed read of a compressed input failed in
// its compression (a truncated or corrupt file), not in its text.
type gzipErrors struct{ r io.Reader }

func (g *gzipErrors) Read(p []byte) (int, error) {
	n, err := g.r.Read(p)
	if err != nil && err != io.EOF {
		err = fmt.Errorf("gzip: %w", err)
	}
	return n, err
}

// reader enforces the limits on what it passes on.
type reader struct {
	file    string
	r       io.Reader
	raw     *counter // the compressed bytes, when compressed
	l       Limits
	n       int64 // bytes passed on
	lineLen int   // bytes of the current line so far
	lines   int64 // line ends passed
	err     error // the limit hit, returned from then on
}

// ErrLimit is what errors.Is finds in every *Error.
var ErrLimit = errors.New("input limit")

func (e *Error) Is(target error) bool { return target == ErrLimit }

func (r *reader) Read(p []byte) (int, error) {
	if r.err != nil {
		return 0, r.err
	}
	n, err := r.r.Read(p)
	for i, b := range p[:n] {
		if b == '\n' {
			r.lines++
			r.lineLen = 0
			if r.l.Lines > 0 && r.lines > r.l.Lines {
				r.err = &Error{File: r.file, Line: r.lines, Limit: "lines", What: fmt.Sprintf("more than %d lines", r.l.Lines), Raise: "lines=" + strconv.FormatInt(2*r.l.Lines, 10)}
				return i, r.err
			}
			continue
		}
		if r.lineLen++; r.l.Line > 0 && r.lineLen > r.l.Line {
			r.err = &Error{File: r.file, Line: r.lines + 1, Limit: "line", What: fmt.Sprintf("a line longer than %s (a binary file, or one without line ends?)", words(int64(r.l.Line))), Raise: "line=" + size(2*int64(r.l.Line))}
			return i, r.err
		}
	}
	r.n += int64(n)
	if r.l.Bytes > 0 && r.n > r.l.Bytes {
		r.err = &Error{File: r.file, Limit: "bytes", What: fmt.Sprintf("more than %s of text", words(r.l.Bytes)), Raise: "bytes=" + size(2*r.l.Bytes)}
		return n, r.err
	}
	if r.raw != nil && r.l.Ratio > 0 && r.n > RatioFloor && float64(r.n) > r.l.Ratio*float64(max(r.raw.n, 1)) {
		r.err = &Error{File: r.file, Limit: "ratio", What: fmt.Sprintf("%d compressed bytes expand to more than %s, over %g times (a compression bomb?)", r.raw.n, words(r.n), r.l.Ratio), Raise: fmt.Sprintf("ratio=%g", 10*r.l.Ratio)}
		return n, r.err
	}
	return n, err
}

// CheckColumns checks a header of n columns against l's limit.
func (l Limits) CheckColumns(file string, n int) error {
	if l.Columns > 0 && n > l.Columns {
		return &Error{File: file, Line: 1, Limit: "columns", What: fmt.Sprintf("a header of %d columns, more than %d", n, l.Columns), Raise: fmt.Sprintf("columns=%d", n)}
	}
	return nil
}
