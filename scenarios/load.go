package scenarios

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/creditsim/creditsim/model/hosts"
	"github.com/creditsim/creditsim/model/param"
	"go.yaml.in/yaml/v3"
)

// Error is one problem with a scenario. Line is 0 when the value came
// from a --set override.
type Error struct {
	File   string
	Line   int
	Field  string
	Value  string
	Reason string
	Set    string // the override that introduced the value, if any
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d", e.Line)
	}
	if e.Set != "" {
		set := e.Set
		if strings.ContainsAny(set, "\n\r") {
			set = strconv.Quote(set) // an error stays one line
		}
		fmt.Fprintf(&b, " (--set %s)", set)
	}
	b.WriteString(": ")
	if e.Field != "" {
		b.WriteString(e.Field)
		b.WriteString(": ")
	}
	if e.Value != "" {
		b.WriteString(e.Value)
		b.WriteString(": ")
	}
	b.WriteString(e.Reason)
	return b.String()
}

// Errors is every problem found, in file order; its Error is one line
// per problem.
type Errors []*Error

func (es Errors) Error() string {
	lines := make([]string, len(es))
	for i, e := range es {
		lines[i] = e.Error()
	}
	return strings.Join(lines, "\n")
}

// loader carries one file through parsing.
type loader struct {
	file  string
	lines map[string]int    // dotted path -> line of its key or value
	sets  map[string]string // dotted path -> the --set that wrote it
	errs  Errors
	// walking holds the anchors whose values walk is inside: an alias
	// to one of them would make the value hold itself.
	walking map[*yaml.Node]bool
}

// Load parses data (the contents of file) over the defaults, applies the
// --set overrides, and validates. Every problem is returned as Errors.
func Load(file string, data []byte, overrides []string) (*Scenario, error) {
	l := &loader{file: file, lines: map[string]int{}, sets: map[string]string{}}
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		return nil, Errors{l.yamlError(err)}
	}
	if root.Kind == 0 {
		root = yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{{Kind: yaml.MappingNode, Tag: "!!map"}}}
	}
	// One document: a second would otherwise be silently ignored.
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var first, second yaml.Node
	if dec.Decode(&first) == nil && dec.Decode(&second) == nil {
		return nil, Errors{{File: file, Line: second.Line, Reason: "a scenario file holds one YAML document; a second one starts here"}}
	}
	doc := root.Content[0]
	if doc.Kind != yaml.MappingNode {
		return nil, Errors{{File: file, Line: doc.Line, Reason: "a scenario must be a mapping of keys to values"}}
	}
	for k, o := range overrides {
		if err := l.override(doc, o, overrideLine+k); err != nil {
			return nil, Errors{err}
		}
	}
	l.walk(doc, reflect.TypeOf(Scenario{}), "")
	for _, e := range l.errs {
		if e.Line >= overrideLine {
			e.Line = 0 // an override's node: the error names the --set
		}
	}
	if len(l.errs) > 0 {
		return nil, l.errs
	}
	positiveZeros(doc)
	s := Default()
	if err := doc.Decode(&s); err != nil {
		return nil, Errors{l.yamlError(err)}
	}
	for _, fe := range s.Validate() {
		l.errs = append(l.errs, l.fieldError(fe))
	}
	if len(l.errs) > 0 {
		sort.SliceStable(l.errs, func(i, j int) bool { return l.errs[i].Line < l.errs[j].Line })
		return nil, l.errs
	}
	return &s, nil
}

var lineRE = regexp.MustCompile(`^(?:yaml: )?line (\d+): (.*)$`)

// yamlError turns a yaml.v3 error ("yaml: line 3: ...", or a TypeError
// with one line per problem) into an Error with the line split out.
func (l *loader) yamlError(err error) *Error {
	msg := err.Error()
	var te *yaml.TypeError
	if errors.As(err, &te) && len(te.Errors) > 0 {
		msg = te.Errors[0]
	}
	msg = strings.TrimPrefix(msg, "yaml: unmarshal errors:\n")
	msg = strings.TrimSpace(msg)
	if m := lineRE.FindStringSubmatch(msg); m != nil {
		n, _ := strconv.Atoi(m[1])
		reason := m[2]
		// yaml.v3 wraps nested unmarshaler errors: keep the innermost.
		for {
			mm := lineRE.FindStringSubmatch(reason)
			if mm == nil {
				break
			}
			n, _ = strconv.Atoi(mm[1])
			reason = mm[2]
		}
		e := &Error{File: l.file, Line: n, Reason: reason}
		if p := l.pathAtLine(n); p != "" {
			e.Field = p
			for q := p; q != "" && e.Set == ""; q = parent(q) {
				e.Set = l.sets[q]
			}
		}
		if n >= overrideLine {
			e.Line = 0
		}
		return e
	}
	return &Error{File: l.file, Reason: strings.TrimPrefix(msg, "yaml: ")}
}

func (l *loader) pathAtLine(n int) string {
	best := ""
	for p, ln := range l.lines {
		if ln == n && (best == "" || len(p) > len(best)) {
			best = p
		}
	}
	return best
}

// fieldError adds the line of the nearest path that the file wrote.
func (l *loader) fieldError(fe param.FieldError) *Error {
	e := &Error{File: l.file, Field: fe.Path, Value: fe.Value, Reason: fe.Reason}
	for p := fe.Path; p != ""; p = parent(p) {
		if s, ok := l.sets[p]; ok {
			e.Set = s
			return e
		}
		if ln, ok := l.lines[p]; ok && ln > 0 && ln < overrideLine {
			e.Line = ln
			return e
		}
	}
	return e
}

// setFor is the --set that wrote path or one of its parents, if any.
func (l *loader) setFor(path string) string {
	for p := path; p != ""; p = parent(p) {
		if s, ok := l.sets[p]; ok {
			return s
		}
	}
	return ""
}

func parent(p string) string {
	i := strings.LastIndexAny(p, ".[")
	if i < 0 {
		return ""
	}
	return p[:i]
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

var (
	durationType = reflect.TypeOf(param.Duration(0))
	numType      = reflect.TypeOf(param.Num(0))
	distType     = reflect.TypeOf(param.Dist{})
	policyType   = reflect.TypeOf(PolicySpec{})
	sampleType   = reflect.TypeOf(hosts.SampleSpec{})
)

// walk records the line of every path and rejects keys the schema does not
// know (strict decoding, with the line of the key).
func (l *loader) walk(n *yaml.Node, t reflect.Type, path string) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if _, ok := l.lines[path]; !ok && path != "" {
		l.lines[path] = n.Line
	}
	n, ok := l.follow(n, path)
	if !ok {
		return
	}
	if n.Anchor != "" {
		if l.walking == nil {
			l.walking = map[*yaml.Node]bool{}
		}
		l.walking[n] = true
		defer delete(l.walking, n)
	}
	switch t.Kind() {
	case reflect.Struct:
		l.walkStruct(n, t, path)
	case reflect.Slice:
		if !l.expect(n, yaml.SequenceNode, path, "expected a list") {
			return
		}
		for i, c := range n.Content {
			l.walk(c, t.Elem(), fmt.Sprintf("%s[%d]", path, i))
		}
	case reflect.Map:
		if !l.expect(n, yaml.MappingNode, path, "expected a mapping") {
			return
		}
		for i := 0; i+1 < len(n.Content); i += 2 {
			p := join(path, n.Content[i].Value)
			l.lines[p] = n.Content[i].Line
			l.walk(n.Content[i+1], t.Elem(), p)
		}
	default:
		if n.Kind != yaml.ScalarNode {
			l.errs = append(l.errs, &Error{File: l.file, Line: n.Line, Field: path, Set: l.sets[path], Reason: "expected a single value, not a list or mapping"})
			return
		}
		if reason, v := scalarProblem(n, t); reason != "" {
			l.errs = append(l.errs, &Error{File: l.file, Line: n.Line, Field: path, Value: v, Set: l.setFor(path), Reason: reason})
		}
	}
}

// follow returns the value an alias refers to (n itself if n is none),
// or false, with an error, for an alias inside the value it refers to,
// which would otherwise be walked forever.
func (l *loader) follow(n *yaml.Node, path string) (*yaml.Node, bool) {
	if n.Kind != yaml.AliasNode {
		return n, true
	}
	if l.walking[n.Alias] {
		l.errs = append(l.errs, &Error{File: l.file, Line: n.Line, Field: path, Value: "*" + n.Value, Set: l.sets[path],
			Reason: "the alias refers to a value that holds it: a value cannot contain itself"})
		return nil, false
	}
	return n.Alias, true
}

// expect reports whether n is of kind; a null is absent (false, no
// error), anything else is an error saying what was expected.
func (l *loader) expect(n *yaml.Node, kind yaml.Kind, path, expected string) bool {
	if n.Kind == kind {
		return true
	}
	if n.Tag != "!!null" {
		l.errs = append(l.errs, &Error{File: l.file, Line: n.Line, Field: path, Value: n.Value, Set: l.sets[path], Reason: expected})
	}
	return false
}

// walkStruct walks a mapping into struct type t: each key must be one of
// its yaml fields.
func (l *loader) walkStruct(n *yaml.Node, t reflect.Type, path string) {
	if n.Kind == yaml.ScalarNode && (t == distType || t == policyType || t == sampleType) {
		return
	}
	if t == sampleType {
		// A mapping of kinds to counts: walked as a map (its keys are
		// checked by validation, with their lines).
		l.walk(n, reflect.TypeOf(map[string]int{}), path)
		return
	}
	if !l.expect(n, yaml.MappingNode, path, "expected a mapping of keys to values") {
		return
	}
	fields := map[string]reflect.StructField{}
	var names []string
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		tag := strings.Split(f.Tag.Get("yaml"), ",")[0]
		if tag == "" || tag == "-" {
			continue
		}
		fields[tag] = f
		names = append(names, tag)
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		f, ok := fields[k.Value]
		p := join(path, k.Value)
		if !ok {
			where := "the scenario"
			if path != "" {
				where = path
			}
			l.errs = append(l.errs, &Error{File: l.file, Line: k.Line, Field: p, Set: l.sets[p],
				Reason: fmt.Sprintf("unknown field %q in %s (known: %s)", k.Value, where, strings.Join(names, ", "))})
			continue
		}
		l.lines[p] = k.Line
		l.walk(v, f.Type, p)
	}
}

// scalarProblem says what is wrong with a scalar for a field of type t
// ("" if nothing), checked while walking so that the error names the
// exact field even when several share a line; value is the text the
// user wrote as the message shows it ("" when the reason quotes it).
func scalarProblem(n *yaml.Node, t reflect.Type) (reason, value string) {
	if n.Tag == "!!null" {
		return "", ""
	}
	if t == durationType || t == numType {
		return timeProblem(n, t)
	}
	raw, quoted := n.Value, strconv.Quote(n.Value)
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if n.ShortTag() != "!!int" {
			return "expected a whole number", raw
		}
		if _, err := strconv.ParseInt(strings.ReplaceAll(n.Value, "_", ""), 0, 64); err != nil {
			return "a whole number out of range", raw
		}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		if n.ShortTag() != "!!int" {
			return "expected a whole number from 0 to 18446744073709551615", raw
		}
		if _, err := strconv.ParseUint(strings.ReplaceAll(n.Value, "_", ""), 0, 64); err != nil {
			return "expected a whole number from 0 to 18446744073709551615", raw
		}
	case reflect.Float32, reflect.Float64:
		var f float64
		if n.Decode(&f) != nil {
			return "expected a number", quoted
		}
	case reflect.Bool:
		var b bool
		if n.Decode(&b) != nil {
			return "expected true or false", quoted
		}
	}
	return "", ""
}

// timeProblem is scalarProblem for a duration ("8h") or a number that
// may be written as one.
func timeProblem(n *yaml.Node, t reflect.Type) (reason, value string) {
	if t == durationType {
		if _, err := param.ParseDuration(n.Value); err != nil {
			return err.Error(), ""
		}
		return "", ""
	}
	if f, err := strconv.ParseFloat(n.Value, 64); err == nil || n.ShortTag() == "!!float" {
		if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
			return "must be a finite number", n.Value
		}
		return "", ""
	}
	if _, err := param.ParseDuration(n.Value); err != nil {
		return "is neither a number nor a duration (write e.g. 4, 1e9 or 8h)", strconv.Quote(n.Value)
	}
	return "", ""
}

var stepRE = regexp.MustCompile(`^([A-Za-z0-9_\-]+)((?:\[\d+\])*)$`)

// override applies one --set path=value to the tree. The value is parsed
// as YAML, so lists and mappings can be given too.
func (l *loader) override(doc *yaml.Node, o string, line int) *Error {
	path, value, ok := strings.Cut(o, "=")
	path = strings.TrimSpace(path)
	bad := func(reason string) *Error {
		return &Error{File: l.file, Set: o, Field: path, Reason: reason}
	}
	if !ok || path == "" {
		return bad("--set takes path=value, e.g. hosts.initial=500")
	}
	var v yaml.Node
	if err := yaml.Unmarshal([]byte(value), &v); err != nil {
		return bad("value is not valid YAML: " + err.Error())
	}
	// One document, as in a file: yaml.Unmarshal would drop a second.
	dec := yaml.NewDecoder(strings.NewReader(value))
	var first, second yaml.Node
	if dec.Decode(&first) == nil && dec.Decode(&second) == nil {
		return bad("the value holds more than one YAML document (a line \"---\" starts another)")
	}
	var val *yaml.Node
	if v.Kind == 0 {
		val = &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: ""}
	} else {
		val = v.Content[0]
	}
	setLines(val, line)
	cur := doc
	steps := strings.Split(path, ".")
	full := ""
	for si, step := range steps {
		m := stepRE.FindStringSubmatch(step)
		if m == nil {
			return bad(fmt.Sprintf("bad path element %q", step))
		}
		key := m[1]
		full = join(full, key)
		if cur.Kind != yaml.MappingNode {
			return bad(fmt.Sprintf("%s is not a mapping", parent(full)))
		}
		var next, keyNode *yaml.Node
		for i := 0; i+1 < len(cur.Content); i += 2 {
			if cur.Content[i].Value == key {
				keyNode, next = cur.Content[i], cur.Content[i+1]
			}
		}
		idx := regexp.MustCompile(`\d+`).FindAllString(m[2], -1)
		last := si == len(steps)-1 && len(idx) == 0
		if next == nil {
			if len(idx) > 0 {
				return bad(fmt.Sprintf("%s is not in the scenario, so it has no element %s", full, idx[0]))
			}
			next = &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
			if last {
				next = val
			}
			cur.Content = append(cur.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: key, Line: line}, next)
		} else if last {
			*next = *val
			keyNode.Line = line // the path is the override's now
		}
		for _, is := range idx {
			i, _ := strconv.Atoi(is)
			if next.Kind != yaml.SequenceNode || i >= len(next.Content) {
				return bad(fmt.Sprintf("%s has no element %d", full, i))
			}
			full = fmt.Sprintf("%s[%d]", full, i)
			if si == len(steps)-1 && is == idx[len(idx)-1] {
				*next.Content[i] = *val
			}
			next = next.Content[i]
		}
		cur = next
	}
	l.sets[full] = o
	return nil
}

// overrideLine numbers the nodes of --set values, which have no line in
// the file: override k's nodes get line overrideLine+k, so an error yaml
// reports at that line names the override it came from.
const overrideLine = 1 << 30

func setLines(n *yaml.Node, line int) {
	n.Line, n.Column = line, 0
	for _, c := range n.Content {
		setLines(c, line)
	}
}

// positiveZeros writes every number of n that is a negative zero ("-0",
// "-0.0") as 0: it is zero, and the resolved scenario would otherwise
// write it as -0, which loads as the integer 0 and resolves otherwise
// the second time.
func positiveZeros(n *yaml.Node) {
	if n.Kind == yaml.ScalarNode && (n.ShortTag() == "!!float" || n.ShortTag() == "!!int") {
		if x, err := strconv.ParseFloat(n.Value, 64); err == nil && x == 0 && math.Signbit(x) {
			n.Value = "0"
		}
	}
	for _, c := range n.Content {
		positiveZeros(c)
	}
}

// Resolved returns the scenario with every default filled in, as YAML, and
// its SHA-256; a run writes both.
func Resolved(s *Scenario) ([]byte, string, error) {
	b, err := yaml.Marshal(s)
	if err != nil {
		return nil, "", err
	}
	sum := sha256.Sum256(b)
	return b, hex.EncodeToString(sum[:]), nil
}
