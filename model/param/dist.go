package param

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Dist is a parametrised distribution as written in a scenario. A bare
// number is a constant. Kinds and their parameters:
//
//	const        mean
//	normal       mean, cv (or sd)
//	lognormal    mean, cv (of the distribution itself, not of its log)
//	uniform      min, max
//	exponential  mean
//	weibull      shape, scale
//	choice       values, weights (weights default to equal)
//
// Min and Max, when set, clamp every draw (for choice they are ignored).
type Dist struct {
	Kind    string    `yaml:"dist"`
	Mean    Num       `yaml:"mean,omitempty"`
	CV      float64   `yaml:"cv,omitempty"`
	SD      Num       `yaml:"sd,omitempty"`
	Shape   float64   `yaml:"shape,omitempty"`
	Scale   Num       `yaml:"scale,omitempty"`
	Min     *Num      `yaml:"min,omitempty"`
	Max     *Num      `yaml:"max,omitempty"`
	Values  []Num     `yaml:"values,flow,omitempty"`
	Weights []float64 `yaml:"weights,flow,omitempty"`
}

// Const returns the constant distribution at v.
func Const(v float64) Dist { return Dist{Kind: "const", Mean: Num(v)} }

// Ptr returns a pointer to v, for Min and Max.
func Ptr(v float64) *Num { n := Num(v); return &n }

// DistKinds lists the distribution kinds.
var DistKinds = []string{"const", "normal", "lognormal", "uniform", "exponential", "weibull", "choice"}

// UnmarshalYAML accepts a bare number (a constant) or a mapping.
func (d *Dist) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind == yaml.ScalarNode {
		var x Num
		if err := n.Decode(&x); err != nil {
			return err
		}
		*d = Const(float64(x))
		return nil
	}
	// Fields left out keep their current (default) values, unless the
	// mapping names another kind, whose parameters start afresh.
	type plain Dist
	p := plain(*d)
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == "dist" && n.Content[i+1].Value != d.Kind {
			p = plain{}
		}
	}
	if err := n.Decode(&p); err != nil {
		return err
	}
	*d = Dist(p)
	if d.Kind == "" {
		d.Kind = "const"
	}
	return nil
}

// kindParams are the parameters each kind reads.
var kindParams = map[string][]string{
	"const":       {"mean"},
	"normal":      {"mean", "cv", "sd"},
	"lognormal":   {"mean", "cv"},
	"uniform":     {"min", "max"},
	"exponential": {"mean"},
	"weibull":     {"shape", "scale"},
	"choice":      {"values", "weights"},
}

// MarshalYAML writes the parameters its kind reads even when they are 0
// or empty, and any other that is set. Decoding merges a mapping of the
// default's kind over the default, so a 0 left out would load back as
// the default's value (error_rate 0 as 0.02): written, the scenario a
// run resolves loads back to itself.
func (d Dist) MarshalYAML() (any, error) {
	uses := func(name string) bool { return slices.Contains(kindParams[d.Kind], name) }
	n := &yaml.Node{Kind: yaml.MappingNode}
	var err error
	add := func(key string, v any, flow bool) {
		var vn yaml.Node
		if err == nil {
			err = vn.Encode(v)
		}
		if flow {
			vn.Style = yaml.FlowStyle
		}
		n.Content = append(n.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: key}, &vn)
	}
	add("dist", d.Kind, false)
	for _, f := range []struct {
		name string
		v    float64
	}{{"mean", float64(d.Mean)}, {"cv", d.CV}, {"sd", float64(d.SD)}, {"shape", d.Shape}, {"scale", float64(d.Scale)}} {
		if f.v != 0 || uses(f.name) {
			add(f.name, f.v, false)
		}
	}
	if d.Min != nil {
		add("min", float64(*d.Min), false)
	}
	if d.Max != nil {
		add("max", float64(*d.Max), false)
	}
	if len(d.Values) > 0 || uses("values") {
		add("values", d.Values, true)
	}
	if len(d.Weights) > 0 || uses("weights") {
		add("weights", d.Weights, true)
	}
	return n, err
}

// Validate checks that the parameters fit the kind.
func (d Dist) Validate(c Check) {
	switch d.Kind {
	case "const":
	case "normal", "lognormal":
		if d.CV < 0 || math.IsNaN(d.CV) {
			c.Fail("cv", d.CV, "must not be negative")
		}
		if d.SD < 0 {
			c.Fail("sd", float64(d.SD), "must not be negative")
		}
		if d.Kind == "lognormal" && !(d.Mean > 0) {
			c.Fail("mean", float64(d.Mean), "a lognormal needs a mean above 0")
		}
	case "uniform":
		if d.Min == nil || d.Max == nil {
			c.Fail("", d.Kind, "uniform needs min and max")
		}
	case "exponential":
		if !(d.Mean > 0) {
			c.Fail("mean", float64(d.Mean), "must be above 0")
		}
	case "weibull":
		c.Positive("shape", d.Shape)
		c.Positive("scale", float64(d.Scale))
	case "choice":
		if len(d.Values) == 0 {
			c.Fail("values", Raw("[]"), "choice needs at least one value")
		}
		if len(d.Weights) != 0 && len(d.Weights) != len(d.Values) {
			c.Fail("weights", len(d.Weights), fmt.Sprintf("needs one weight per value (%d)", len(d.Values)))
		}
		sum := 0.0
		for i, w := range d.Weights {
			if !(w >= 0) {
				c.Field("weights").Index(i).Fail("", w, "must not be negative")
			}
			sum += w
		}
		if len(d.Weights) > 0 && !(sum > 0) {
			c.Fail("weights", sum, "must not all be 0")
		}
	default:
		c.Fail("dist", d.Kind, "unknown distribution (known: "+strings.Join(DistKinds, ", ")+")")
	}
	if d.Min != nil && d.Max != nil && *d.Min > *d.Max {
		c.Fail("min", float64(*d.Min), "is above max "+strconv.FormatFloat(float64(*d.Max), 'g', -1, 64))
	}
}

// Bounds returns the smallest and largest value a draw can take.
func (d Dist) Bounds() (lo, hi float64) {
	lo, hi = math.Inf(-1), math.Inf(1)
	switch d.Kind {
	case "const":
		lo, hi = float64(d.Mean), float64(d.Mean)
	case "lognormal", "exponential", "weibull":
		lo = 0
	case "uniform":
		lo, hi = float64(*d.Min), float64(*d.Max)
	case "normal":
		if d.CV == 0 && d.SD == 0 {
			lo, hi = float64(d.Mean), float64(d.Mean)
		}
	case "choice":
		lo, hi = math.Inf(1), math.Inf(-1)
		for _, v := range d.Values {
			lo, hi = min(lo, float64(v)), max(hi, float64(v))
		}
		return lo, hi
	}
	if d.Min != nil {
		lo = max(lo, float64(*d.Min))
	}
	if d.Max != nil {
		hi = min(hi, float64(*d.Max))
	}
	return lo, hi
}

// MeanValue returns the distribution's mean before clamping.
func (d Dist) MeanValue() float64 {
	switch d.Kind {
	case "uniform":
		return (float64(*d.Min) + float64(*d.Max)) / 2
	case "weibull":
		return float64(d.Scale) * math.Gamma(1+1/d.Shape)
	case "choice":
		s, ws := 0.0, 0.0
		for i, v := range d.Values {
			w := 1.0
			if len(d.Weights) > 0 {
				w = d.Weights[i]
			}
			s += float64(v) * w
			ws += w
		}
		return s / ws
	}
	return float64(d.Mean)
}

// Sample draws one value from r. The distribution must be valid.
func (d Dist) Sample(r *rand.Rand) float64 {
	var x float64
	switch d.Kind {
	case "const":
		x = float64(d.Mean)
	case "normal":
		sd := float64(d.SD)
		if sd == 0 {
			sd = d.CV * float64(d.Mean)
		}
		x = float64(d.Mean) + sd*r.NormFloat64()
	case "lognormal":
		// Parameters of the log chosen so the distribution has the given mean and CV.
		s2 := math.Log1p(d.CV * d.CV)
		mu := math.Log(float64(d.Mean)) - s2/2
		x = math.Exp(mu + math.Sqrt(s2)*r.NormFloat64())
	case "uniform":
		x = float64(*d.Min) + (float64(*d.Max)-float64(*d.Min))*r.Float64()
	case "exponential":
		x = float64(d.Mean) * r.ExpFloat64()
	case "weibull":
		u := 1 - r.Float64() // (0, 1]
		x = float64(d.Scale) * math.Pow(-math.Log(u), 1/d.Shape)
	case "choice":
		if len(d.Weights) == 0 {
			return float64(d.Values[r.IntN(len(d.Values))])
		}
		total := 0.0
		for _, w := range d.Weights {
			total += w
		}
		u := r.Float64() * total
		for i, w := range d.Weights {
			if u < w {
				return float64(d.Values[i])
			}
			u -= w
		}
		return float64(d.Values[len(d.Values)-1])
	}
	if d.Min != nil && x < float64(*d.Min) {
		x = float64(*d.Min)
	}
	if d.Max != nil && x > float64(*d.Max) {
		x = float64(*d.Max)
	}
	return x
}
