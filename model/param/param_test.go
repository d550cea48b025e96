package param

import (
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

func TestParseDuration(t *testing.T) {
	for _, c := range []struct {
		in   string
		want float64
		ok   bool
	}{
		{"30s", 30, true}, {"10m", 600, true}, {"8h", 28800, true}, {"60d", 60 * 86400, true},
		{"2w", 14 * 86400, true}, {"1.5d", 1.5 * 86400, true}, {"0d", 0, true},
		{"30", 0, false}, {"", 0, false}, {"5y", 0, false}, {"-1d", 0, false}, {"xd", 0, false}, {"Infd", 0, false},
	} {
		got, err := ParseDuration(c.in)
		if (err == nil) != c.ok || got != c.want {
			t.Errorf("ParseDuration(%q) = %v, %v", c.in, got, err)
		}
	}
	// Each refusal says what is wrong with the value, not only that it is.
	for _, c := range []struct{ in, says string }{
		{"1ms", `unknown unit "ms" (use s, m, h, d or w; a millisecond is 0.001s)`},
		{"5 fortnights", `unknown unit "fortnights"`},
		{"1e400d", "1e400 is beyond the largest number"},
		{"30", "has no unit"},
		{"xd", "not a number and a unit"},
		{"-1d", "is negative"},
	} {
		if _, err := ParseDuration(c.in); err == nil || !strings.Contains(err.Error(), c.says) {
			t.Errorf("ParseDuration(%q): %v, want it to say %q", c.in, err, c.says)
		}
	}
	if s := FormatDuration(86400 * 7); s != "1w" {
		t.Errorf("FormatDuration(1w) = %s", s)
	}
	if s := FormatDuration(90); s != "90s" {
		t.Errorf("FormatDuration(90) = %s", s)
	}
}

// Sampled means match the requested ones (lognormal by mean and CV, the
// Weibull's mean scale x Γ(1 + 1/shape)).
func TestDistMeans(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	for _, d := range []Dist{
		{Kind: "lognormal", Mean: 4.2, CV: 0.2},
		{Kind: "exponential", Mean: 3},
		{Kind: "weibull", Shape: 0.393, Scale: 2.964},
		{Kind: "normal", Mean: 10, CV: 0.1},
		{Kind: "uniform", Min: Ptr(50), Max: Ptr(100)},
		{Kind: "choice", Values: []Num{1, 3}, Weights: []float64{3, 1}},
	} {
		const n = 400000
		sum := 0.0
		for i := 0; i < n; i++ {
			sum += d.Sample(r)
		}
		if got, want := sum/n, d.MeanValue(); math.Abs(got-want) > 0.02*want {
			t.Errorf("%s: sample mean %v, want %v", d.Kind, got, want)
		}
	}
	c := Dist{Kind: "lognormal", Mean: 0.5, CV: 2, Max: Ptr(1)}
	for i := 0; i < 10000; i++ {
		if x := c.Sample(r); x > 1 || x <= 0 {
			t.Fatalf("clamped draw %v", x)
		}
	}
}

func TestDistValidate(t *testing.T) {
	for _, c := range []struct {
		d    Dist
		errs int
	}{
		{Const(1), 0},
		{Dist{Kind: "gaussian"}, 1},
		{Dist{Kind: "uniform", Min: Ptr(1)}, 1},
		{Dist{Kind: "weibull", Shape: 0, Scale: 1}, 1},
		{Dist{Kind: "choice"}, 1},
		{Dist{Kind: "choice", Values: []Num{1, 2}, Weights: []float64{1}}, 1},
		{Dist{Kind: "lognormal", Mean: -1}, 1},
		{Dist{Kind: "uniform", Min: Ptr(2), Max: Ptr(1)}, 1},
	} {
		k := NewCheck()
		c.d.Validate(k)
		if len(k.Errors()) != c.errs {
			t.Errorf("%+v: %v", c.d, k.Errors())
		}
	}
}

// TestDistRoundTripOverDefault: a distribution written and read back
// over the default it was decoded over is itself, though decoding merges
// a mapping of the default's kind over the default: the parameters a kind
// reads are written even when 0 or empty.
func TestDistRoundTripOverDefault(t *testing.T) {
	choice := Dist{Kind: "choice", Values: []Num{1, 2, 4}, Weights: []float64{1, 2, 1}}
	cases := []struct {
		name      string
		def, dist Dist
	}{
		{"const 0 over 0.02", Const(0.02), Const(0)},
		{"normal cv 0 over cv 0.3", Dist{Kind: "normal", Mean: 4, CV: 0.3}, Dist{Kind: "normal", Mean: 4}},
		{"lognormal cv 0, max kept", Dist{Kind: "lognormal", Mean: 0.5, CV: 0.2, Max: Ptr(1)}, Dist{Kind: "lognormal", Mean: 0.5, Max: Ptr(1)}},
		{"choice without weights", choice, Dist{Kind: "choice", Values: []Num{1, 2}}},
		{"weibull over const", Const(1), Dist{Kind: "weibull", Shape: 2, Scale: 3}},
		{"a parameter the kind does not read", Const(1), Dist{Kind: "const", Mean: 2, CV: 0.5}},
	}
	for _, c := range cases {
		b, err := yaml.Marshal(c.dist)
		if err != nil {
			t.Fatal(err)
		}
		got := c.def
		if err := yaml.Unmarshal(b, &got); err != nil {
			t.Fatalf("%s: %v\n%s", c.name, err, b)
		}
		if len(got.Weights) == 0 && len(c.dist.Weights) == 0 {
			got.Weights = c.dist.Weights // written [] reads back empty, not nil
		}
		if !reflect.DeepEqual(got, c.dist) {
			t.Errorf("%s: wrote\n%sread back %+v, want %+v", c.name, b, got, c.dist)
		}
	}
}
