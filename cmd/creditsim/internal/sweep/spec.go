package sweep

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/creditsim/creditsim/boinc/rng"
	"github.com/creditsim/creditsim/internal/suggest"
	"github.com/creditsim/creditsim/model/hosts"
	"github.com/creditsim/creditsim/results"
	"github.com/creditsim/creditsim/scenarios"
)

// Spec is a sweep file.
type Spec struct {
	// Name names the sweep; the default output folder is out/sweep-<name>.
	Name string `yaml:"name"`
	// Base is the scenario every point starts from: a built-in name or a
	// file, relative to the sweep file.
	Base string `yaml:"base"`
	// Set holds overrides (path=value, as --set) applied to every point
	// before its parameters.
	Set []string `yaml:"set"`
	// Seed is the master seed (default: the base scenario's).
	Seed *uint64 `yaml:"seed"`
	// Replications per point (default: the base scenario's).
	Replications int `yaml:"replications"`
	// Combine is grid (every combination, the first parameter varying
	// slowest) or zip (the i-th value of each parameter together).
	Combine string `yaml:"combine"`
	// Parameters are the swept fields.
	Parameters []Parameter `yaml:"parameters"`
	// Plots names the figures plotted against the parameters (dotted
	// names as in sweep.csv), and "frontier" for the frontier plot;
	// default: the headline figures.
	Plots []string `yaml:"plots"`
}

// Parameter is one swept scenario field: a list of values or a range.
type Parameter struct {
	// Path addresses the field as --set does: hosts.agents[0].share.
	Path string `yaml:"path"`
	// Values are YAML values, each written into the scenario as is.
	Values []yaml.Node `yaml:"values"`
	// Range is from, to and either step or count (evenly spaced, both
	// ends included).
	Range *Range `yaml:"range"`
	// Name says in words what the parameter is, for the plots' axes
	// ("share of accounts inflating benchmarks"); default: the path.
	Name string `yaml:"name"`
	// Labels name each value in words, in the values' order, for the
	// plots (a frontier point is named by what it changes, not by its
	// ID); default: the values themselves.
	Labels []string `yaml:"labels"`

	line int
	vals []string // the values as YAML text
}

// checkLabels checks that a parameter's labels, if given, name each of
// its values, none empty.
func (p *Parameter) checkLabels(file, field string) error {
	if p.Labels != nil && len(p.Labels) != len(p.vals) {
		return &Error{File: file, Line: p.line, Field: field + ".labels", Value: strings.Join(p.Labels, ", "),
			Reason: fmt.Sprintf("one label per value: %d labels for %d values", len(p.Labels), len(p.vals))}
	}
	for j, l := range p.Labels {
		if strings.TrimSpace(l) == "" {
			return &Error{File: file, Line: p.line, Field: fmt.Sprintf("%s.labels[%d]", field, j), Value: l, Reason: "empty"}
		}
	}
	return nil
}

// Range is an arithmetic sequence of numbers.
type Range struct {
	From  float64 `yaml:"from"`
	To    float64 `yaml:"to"`
	Step  float64 `yaml:"step"`
	Count int     `yaml:"count"`
}

// UnmarshalYAML keeps the parameter's line for error messages.
func (p *Parameter) UnmarshalYAML(n *yaml.Node) error {
	type plain Parameter
	var q plain
	if err := decodeStrict(n, &q); err != nil {
		return err
	}
	*p = Parameter(q)
	p.line = n.Line
	return nil
}

// decodeStrict decodes n rejecting unknown keys with their own lines
// (yaml.v3's KnownFields applies only to a Decoder, which would lose the
// file's lines).
func decodeStrict(n *yaml.Node, v any) error {
	if err := checkKeys(n, reflect.TypeOf(v)); err != nil {
		return err
	}
	return n.Decode(v)
}

var nodeType = reflect.TypeOf(yaml.Node{})

// checkKeys rejects a key of a mapping that t has no field for, as
// yaml.v3 words it, so that yamlErr reads both alike.
func checkKeys(n *yaml.Node, t reflect.Type) error {
	for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice {
		if t.Kind() == reflect.Slice && n.Kind == yaml.SequenceNode {
			for _, c := range n.Content {
				if err := checkKeys(c, t.Elem()); err != nil {
					return err
				}
			}
			return nil
		}
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct || t == nodeType || n.Kind != yaml.MappingNode {
		return nil
	}
	fields := map[string]reflect.Type{}
	for i := 0; i < t.NumField(); i++ {
		if name, _, _ := strings.Cut(t.Field(i).Tag.Get("yaml"), ","); name != "" && name != "-" {
			fields[name] = t.Field(i).Type
		}
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := n.Content[i]
		ft, ok := fields[k.Value]
		if !ok {
			return &yaml.TypeError{Errors: []string{fmt.Sprintf("line %d: field %s not found in type sweep.%s", k.Line, k.Value, t.Name())}}
		}
		if err := checkKeys(n.Content[i+1], ft); err != nil {
			return err
		}
	}
	return nil
}

// maxPoints bounds a sweep: every point's scenario is built at load.
const maxPoints = 10000

// Error is bad input in a sweep file: the file, line, field and value at
// fault, printed as the scenario loader prints its own; for a point whose
// scenario is bad, Reason is the loader's message.
type Error = scenarios.Error

// IsInput reports whether err is bad input (exit status 2).
func IsInput(err error) bool {
	var e *Error
	var se scenarios.Errors
	return errors.As(err, &e) || errors.As(err, &se)
}

// Sweep is a loaded, checked sweep: its points and their scenarios.
type Sweep struct {
	Spec   Spec
	File   string
	Points []Point
	// Seed is the master seed every point's seed derives from.
	Seed uint64
	// Resolved is the spec with its defaults and the base scenario as
	// resolved, written as sweep.resolved.yaml; shards and merges check
	// they belong to the same sweep by it.
	Resolved []byte

	base string // the base scenario as opened: a path or a built-in name
}

// BasePath is the base scenario's file, "" for a built-in.
func (sw *Sweep) BasePath() string {
	if _, err := os.Stat(sw.base); err == nil {
		return sw.base
	}
	return ""
}

// Point is one combination of parameter values.
type Point struct {
	Index  int      // 0-based position in the sweep's order
	Values []string // one per parameter, as YAML text
	// Seed is the point's master seed: hash(sweep seed, the point's
	// non-policy parameters), so it does not depend on order, workers or
	// sharding, and policy options never change the draws.
	Seed     uint64
	Scenario *scenarios.Scenario
}

// ID names the point's folder.
func (p Point) ID() string { return fmt.Sprintf("p%04d", p.Index) }

// Load reads and checks a sweep file: every point's scenario is built and
// validated, so bad input is found before anything runs.
func Load(file string) (*Sweep, error) {
	data, err := scenarios.ReadInput(file)
	if err != nil {
		return nil, &Error{File: file, Reason: err.Error()}
	}
	return Parse(file, data)
}

// Parse is Load with the file's contents given.
func Parse(file string, data []byte) (*Sweep, error) {
	spec, lines, err := decode(file, data)
	if err != nil {
		return nil, err
	}
	base, err := checkSpec(file, &spec, lines)
	if err != nil {
		return nil, err
	}
	if err := checkParameters(file, &spec, lines); err != nil {
		return nil, err
	}
	// The base scenario with the fixed overrides: bad ones are the
	// sweep's fault, reported with the line of set (or of base).
	fixed := append([]string(nil), spec.Set...)
	if spec.Replications > 0 {
		fixed = append(fixed, "replications="+strconv.Itoa(spec.Replications))
	}
	s0, err := scenarios.Open(base, fixed)
	if err != nil {
		line := lines["set"]
		if len(spec.Set) == 0 {
			line = lines["base"]
		}
		return nil, &Error{File: file, Line: line, Field: "base " + spec.Base + " with set", Reason: err.Error()}
	}
	sw := &Sweep{Spec: spec, File: file, Seed: s0.Seed, base: base}
	if spec.Seed != nil {
		sw.Seed = *spec.Seed
	}
	if err := sw.makePoints(fixed); err != nil {
		return nil, err
	}
	res, err := sw.resolve(s0)
	if err != nil {
		return nil, err
	}
	sw.Resolved = res
	return sw, nil
}

// decode reads a sweep file strictly (unknown keys are errors), with the
// line of each top-level key.
func decode(file string, data []byte) (Spec, map[string]int, error) {
	var spec Spec
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		return spec, nil, yamlErr(file, err, nil)
	}
	if root.Kind == 0 || root.Content[0].Kind != yaml.MappingNode {
		return spec, nil, &Error{File: file, Reason: "a sweep must be a mapping (name, base, parameters, ...)"}
	}
	d := yaml.NewDecoder(bytes.NewReader(data))
	d.KnownFields(true)
	if err := d.Decode(&spec); err != nil {
		return spec, nil, yamlErr(file, err, root.Content[0])
	}
	return spec, keyLines(root.Content[0]), nil
}

// checkSpec checks the sweep's name, base, combine and replications,
// fills their defaults, and returns the base's path (a built-in name,
// or a file relative to the sweep file).
func checkSpec(file string, spec *Spec, lines map[string]int) (string, error) {
	bad := func(line int, field, value, reason string) error {
		return &Error{File: file, Line: line, Field: field, Value: value, Reason: reason}
	}
	if spec.Name == "" {
		spec.Name = strings.TrimSuffix(filepath.Base(file), filepath.Ext(file))
	}
	if reason := scenarios.FileNameProblem(spec.Name); reason != "" {
		return "", bad(lines["name"], "name", spec.Name, reason+" (it names the default output folder)")
	}
	if spec.Base == "" {
		return "", bad(0, "base", "", "missing: a built-in scenario name or a scenario file")
	}
	base := spec.Base
	if _, ok := scenarios.Builtin(base); !ok && !filepath.IsAbs(base) {
		// Relative to the sweep file; a bare name that is no file there
		// is left as written, so the error lists the built-ins.
		joined := filepath.Join(filepath.Dir(file), base)
		if _, err := os.Stat(joined); err == nil || strings.ContainsAny(base, `/\`) || filepath.Ext(base) != "" {
			base = joined
		}
	}
	switch spec.Combine {
	case "":
		spec.Combine = "grid"
	case "grid", "zip":
	default:
		return "", bad(lines["combine"], "combine", spec.Combine, "must be grid or zip")
	}
	if _, given := lines["replications"]; given && spec.Replications < 1 {
		return "", bad(lines["replications"], "replications", strconv.Itoa(spec.Replications), "must be at least 1")
	}
	return base, nil
}

// checkParameters checks the swept parameters (each path once, values
// that parse, as many values in each for zip, at most maxPoints points)
// and the figures to plot, and keeps each parameter's values.
func checkParameters(file string, spec *Spec, lines map[string]int) error {
	bad := func(line int, field, value, reason string) error {
		return &Error{File: file, Line: line, Field: field, Value: value, Reason: reason}
	}
	if len(spec.Parameters) == 0 {
		return bad(lines["parameters"], "parameters", "", "give at least one parameter (path and values or range)")
	}
	seen := map[string]bool{}
	for i := range spec.Parameters {
		p := &spec.Parameters[i]
		field := fmt.Sprintf("parameters[%d]", i)
		if p.Path == "" {
			return bad(p.line, field+".path", "", "missing")
		}
		if seen[p.Path] {
			return bad(p.line, field+".path", p.Path, "swept twice")
		}
		seen[p.Path] = true
		vals, err := p.values()
		if err != nil {
			return bad(p.line, field, p.Path, err.Error())
		}
		p.vals = vals
		if err := p.checkLabels(file, field); err != nil {
			return err
		}
	}
	total := 1
	for i, p := range spec.Parameters {
		if spec.Combine != "zip" {
			if total *= len(p.vals); total > maxPoints {
				break
			}
			continue
		}
		if len(p.vals) != len(spec.Parameters[0].vals) {
			return bad(p.line, fmt.Sprintf("parameters[%d]", i), p.Path,
				fmt.Sprintf("zip needs the same number of values in every parameter (%d here, %d in the first)", len(p.vals), len(spec.Parameters[0].vals)))
		}
		total = len(p.vals)
	}
	if total > maxPoints {
		return bad(lines["parameters"], "parameters", "", fmt.Sprintf("the %s of their values has more than %d points; split the sweep", spec.Combine, maxPoints))
	}
	return checkPlots(file, spec.Plots, lines["plots"])
}

// FrontierPlot is the name in plots that asks for the frontier: each
// point's price against each policy's worst gain (sweep-frontier.png).
const FrontierPlot = "frontier"

// checkPlots checks that each figure a sweep plots is one a summary has
// (or the frontier).
func checkPlots(file string, plots []string, line int) error {
	for i, f := range plots {
		if f == FrontierPlot {
			continue
		}
		why := unknownKind(f)
		if !results.KnownFigure(f) {
			why = "not a figure of summary.json (e.g. honest_ratio, cheat_ratio.benchmark_inflation; sweep.csv lists them all)"
		}
		if why != "" {
			return &Error{File: file, Line: line, Field: fmt.Sprintf("plots[%d]", i), Value: f, Reason: why}
		}
	}
	return nil
}

// unknownKind says why a figure of a family whose members are agent
// kinds (gain.KIND, cheat_ratio.KIND+KIND) names no kind, else "": such a
// plot would otherwise be drawn from nothing, silently.
func unknownKind(fig string) string {
	f, member, _ := results.Lookup(fig)
	if f == nil || f.Member != "kind" {
		return ""
	}
	for _, k := range strings.Split(member, "+") {
		if _, ok := hosts.ParseKind(k); !ok || k == "honest" {
			return fmt.Sprintf("%q is not an agent kind (known: %s)%s", k, strings.Join(hosts.KindNames(), ", "),
				suggest.DidYouMean(k, hosts.KindNames()))
		}
	}
	return ""
}

// makePoints makes the sweep's points: the base with the fixed overrides
// and the point's values, and a seed hashed from the sweep's seed and the
// values of every parameter that is not a policy option.
func (sw *Sweep) makePoints(fixed []string) error {
	spec := sw.Spec
	for k, vals := range combinations(spec) {
		pt := Point{Index: k, Values: vals}
		sets := append([]string(nil), fixed...)
		var identity []string
		for i, p := range spec.Parameters {
			sets = append(sets, p.Path+"="+vals[i])
			if !isPolicyPath(p.Path) {
				identity = append(identity, p.Path+"="+vals[i])
			}
		}
		pt.Seed = pointSeed(sw.Seed, identity)
		sets = append(sets, "seed="+strconv.FormatUint(pt.Seed, 10))
		s, err := scenarios.Open(sw.base, sets)
		if err != nil {
			i := paramAt(spec, err)
			p := spec.Parameters[i]
			return &Error{File: sw.File, Line: p.line, Field: fmt.Sprintf("parameters[%d] (path %s)", i, p.Path),
				Reason: fmt.Sprintf("point %d (%s): %v", k, describe(spec, vals), err)}
		}
		pt.Scenario = s
		sw.Points = append(sw.Points, pt)
	}
	return nil
}

var (
	errLineRE  = regexp.MustCompile(`^line (\d+): (.*)$`)
	notFoundRE = regexp.MustCompile(`^field (\S+) not found in type sweep\.(\w+)$`)
	typeRE     = regexp.MustCompile("^cannot unmarshal !!\\w+ `(.*)` into (\\S+)$")
	// The keys each part of a sweep file takes, by the Go type yaml.v3
	// names in its errors.
	knownKeys = map[string][]string{"Spec": yamlKeys(Spec{}), "plain": yamlKeys(Parameter{}), "Range": yamlKeys(Range{})}
)

// yamlErr turns a yaml.v3 error into an Error naming the line, the field
// (found in root by the line, when given) and the text written, in the
// scenario loader's words.
func yamlErr(file string, err error, root *yaml.Node) error {
	msg := strings.TrimPrefix(strings.TrimPrefix(err.Error(), "yaml: "), "unmarshal errors:\n")
	msg = strings.TrimSpace(msg)
	if i := strings.IndexByte(msg, '\n'); i >= 0 {
		msg = msg[:i] // the first problem
	}
	e := &Error{File: file, Reason: msg}
	if m := errLineRE.FindStringSubmatch(msg); m != nil {
		e.Line, _ = strconv.Atoi(m[1])
		e.Reason = m[2]
	}
	if m := notFoundRE.FindStringSubmatch(e.Reason); m != nil {
		known := knownKeys[m[2]]
		e.Field = m[1]
		if p := pathAtLine(root, e.Line, "", m[1], true); p != "" {
			e.Field = p
		}
		e.Reason = fmt.Sprintf("unknown field %q (known: %s)%s", m[1], strings.Join(known, ", "), suggest.DidYouMean(m[1], known))
	} else if m := typeRE.FindStringSubmatch(e.Reason); m != nil {
		e.Field, e.Value = pathAtLine(root, e.Line, "", m[1], false), m[1]
		switch m[2] {
		case "uint64":
			e.Reason = "expected a whole number from 0 to 18446744073709551615"
		case "int":
			e.Reason = "expected a whole number"
		case "float64":
			e.Reason = "expected a number"
		default:
			e.Reason = "expected " + m[2]
		}
	}
	return e
}

// pathAtLine is the dotted path of the key on line n under node whose
// key (byKey) or scalar value is text; failing that, of the last key on
// the line.
func pathAtLine(n *yaml.Node, line int, path, text string, byKey bool) string {
	exact, last := "", ""
	var visit func(n *yaml.Node, path string)
	visit = func(n *yaml.Node, path string) {
		if n == nil {
			return
		}
		switch n.Kind {
		case yaml.MappingNode:
			for i := 0; i+1 < len(n.Content); i += 2 {
				k, v := n.Content[i], n.Content[i+1]
				p := k.Value
				if path != "" {
					p = path + "." + k.Value
				}
				if k.Line == line {
					last = p
					if byKey && k.Value == text || !byKey && v.Kind == yaml.ScalarNode && v.Value == text {
						exact = p
					}
				}
				visit(v, p)
			}
		case yaml.SequenceNode:
			for i, c := range n.Content {
				p := fmt.Sprintf("%s[%d]", path, i)
				if c.Kind == yaml.ScalarNode && c.Line == line && !byKey && c.Value == text {
					exact = p
				}
				visit(c, p)
			}
		}
	}
	visit(n, path)
	if exact != "" {
		return exact
	}
	return last
}

// yamlKeys lists the YAML keys of a struct's fields.
func yamlKeys(v any) []string {
	var out []string
	t := reflect.TypeOf(v)
	for i := 0; i < t.NumField(); i++ {
		if name, _, _ := strings.Cut(t.Field(i).Tag.Get("yaml"), ","); name != "" && name != "-" {
			out = append(out, name)
		}
	}
	return out
}

func keyLines(m *yaml.Node) map[string]int {
	out := map[string]int{}
	for i := 0; i+1 < len(m.Content); i += 2 {
		out[m.Content[i].Value] = m.Content[i].Line
	}
	return out
}

// paramAt guesses which parameter a scenario error is about: the one
// whose path the error names, else the first.
func paramAt(spec Spec, err error) int {
	msg := err.Error()
	best, bestLen := 0, -1
	for i, p := range spec.Parameters {
		if strings.Contains(msg, "--set "+p.Path+"=") && len(p.Path) > bestLen {
			best, bestLen = i, len(p.Path)
		}
	}
	return best
}

func describe(spec Spec, vals []string) string {
	var parts []string
	for i, p := range spec.Parameters {
		parts = append(parts, p.Path+"="+vals[i])
	}
	return strings.Join(parts, ", ")
}

// isPolicyPath: policy options never enter a point's seed (DESIGN 10).
func isPolicyPath(path string) bool {
	return path == "policies" || strings.HasPrefix(path, "policies.") || strings.HasPrefix(path, "policies[")
}

// values returns the parameter's values as YAML text.
func (p *Parameter) values() ([]string, error) {
	switch {
	case p.Range != nil && len(p.Values) > 0:
		return nil, errors.New("give values or range, not both")
	case p.Range != nil:
		return p.Range.expand()
	case len(p.Values) == 0:
		return nil, errors.New("give values (a list) or range (from, to, step or count)")
	}
	var out []string
	for i := range p.Values {
		out = append(out, flow(&p.Values[i]))
	}
	return out, nil
}

// flow writes a YAML value on one line.
func flow(n *yaml.Node) string {
	c := *n
	setFlow(&c)
	b, err := yaml.Marshal(&c)
	if err != nil {
		return n.Value
	}
	return strings.TrimSpace(string(b))
}

func setFlow(n *yaml.Node) {
	if n.Kind == yaml.MappingNode || n.Kind == yaml.SequenceNode {
		n.Style = yaml.FlowStyle
	}
	n.HeadComment, n.LineComment, n.FootComment = "", "", ""
	for i, c := range n.Content {
		cc := *c
		setFlow(&cc)
		n.Content[i] = &cc
	}
}

func (r *Range) expand() ([]string, error) {
	if math.IsNaN(r.From) || math.IsNaN(r.To) || math.IsInf(r.From, 0) || math.IsInf(r.To, 0) {
		return nil, errors.New("range needs finite from and to")
	}
	n := r.Count
	switch {
	case r.Step != 0 && r.Count != 0:
		return nil, errors.New("range takes step or count, not both")
	case r.Count < 0:
		return nil, fmt.Errorf("range count %d must be at least 1", r.Count)
	case math.IsNaN(r.Step) || math.IsInf(r.Step, 0):
		return nil, fmt.Errorf("range step %g must be a finite number", r.Step)
	case r.Step != 0:
		steps := (r.To - r.From) / r.Step
		if steps < 0 {
			return nil, fmt.Errorf("range step %g goes away from to (%g) from from (%g)", r.Step, r.To, r.From)
		}
		// Counted in floating point first: a tiny step would overflow an int.
		if steps > 100000 {
			return nil, fmt.Errorf("range from %g to %g by %g has more than 100000 values", r.From, r.To, r.Step)
		}
		// Tolerate rounding: 0 to 0.2 by 0.05 has 5 values.
		n = int(math.Floor(steps+1e-9)) + 1
	case r.Count == 0:
		return nil, errors.New("range needs step or count")
	}
	if n > 100000 {
		return nil, fmt.Errorf("range has %d values; at most 100000", n)
	}
	out := make([]string, n)
	for i := range out {
		var x float64
		switch {
		case r.Step != 0:
			x = r.From + float64(i)*r.Step
		case n == 1:
			x = r.From
		default:
			x = r.From + (r.To-r.From)*float64(i)/float64(n-1)
		}
		out[i] = results.FormatFloat(x)
	}
	return out, nil
}

// combinations lists the points' values in sweep order.
func combinations(spec Spec) [][]string {
	ps := spec.Parameters
	if spec.Combine == "zip" {
		out := make([][]string, len(ps[0].vals))
		for k := range out {
			for _, p := range ps {
				out[k] = append(out[k], p.vals[k])
			}
		}
		return out
	}
	out := [][]string{nil}
	for _, p := range ps {
		var next [][]string
		for _, prefix := range out {
			for _, v := range p.vals {
				next = append(next, append(append([]string(nil), prefix...), v))
			}
		}
		out = next
	}
	return out
}

// resolve writes the sweep as run: the spec with its defaults, each
// point's values and seed, and the base scenario (set applied) resolved.
func (sw *Sweep) resolve(base *scenarios.Scenario) ([]byte, error) {
	baseYAML, _, err := scenarios.Resolved(base)
	if err != nil {
		return nil, err
	}
	type param struct {
		Path   string   `yaml:"path"`
		Name   string   `yaml:"name,omitempty"`
		Values []string `yaml:"values,flow"`
		Labels []string `yaml:"labels,omitempty"`
	}
	type point struct {
		ID     string `yaml:"id"`
		Seed   uint64 `yaml:"seed"`
		Values string `yaml:"values"`
	}
	doc := struct {
		Name         string   `yaml:"name"`
		Base         string   `yaml:"base"`
		Set          []string `yaml:"set,omitempty"`
		Seed         uint64   `yaml:"seed"`
		Replications int      `yaml:"replications"`
		Combine      string   `yaml:"combine"`
		Parameters   []param  `yaml:"parameters"`
		Plots        []string `yaml:"plots,omitempty"`
		Points       []point  `yaml:"points"`
	}{Name: sw.Spec.Name, Base: sw.Spec.Base, Set: sw.Spec.Set, Seed: sw.Seed, Replications: base.Replications,
		Combine: sw.Spec.Combine, Plots: sw.Spec.Plots}
	for _, p := range sw.Spec.Parameters {
		doc.Parameters = append(doc.Parameters, param{p.Path, p.Name, p.vals, p.Labels})
	}
	for _, pt := range sw.Points {
		doc.Points = append(doc.Points, point{pt.ID(), pt.Seed, describe(sw.Spec, pt.Values)})
	}
	sweepYAML, err := yaml.Marshal(doc)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	b.WriteString("# The sweep as run, and its base scenario with set applied, before each point's values.\n")
	b.WriteString("sweep:\n")
	indent(&b, sweepYAML)
	b.WriteString("base_scenario:\n")
	indent(&b, baseYAML)
	return b.Bytes(), nil
}

func indent(b *bytes.Buffer, text []byte) {
	for _, line := range strings.SplitAfter(string(text), "\n") {
		if line != "" && line != "\n" {
			b.WriteString("  ")
		}
		b.WriteString(line)
	}
}

// pointSeed hashes the sweep seed with the point's identity.
func pointSeed(master uint64, identity []string) uint64 {
	// 53 bits, so that JSON readers that hold numbers as doubles keep it.
	return rng.Hash(master, rng.String(strings.Join(identity, "\n"))) & (1<<53 - 1)
}
