package param

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/creditsim/creditsim/boinc"
	"go.yaml.in/yaml/v3"
)

var unitSeconds = map[string]float64{"s": 1, "m": 60, "h": 3600, "d": boinc.SecondsPerDay, "w": 7 * boinc.SecondsPerDay}

// ParseDuration parses "30s", "10m", "8h", "60d", "2w" (a finite,
// non-negative number and a unit) into seconds.
func ParseDuration(s string) (float64, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, fmt.Errorf("empty duration")
	}
	num, unit := splitUnit(s)
	mult, ok := unitSeconds[unit]
	switch {
	case unit == "" || strings.TrimSpace(num) == "":
		if _, err := strconv.ParseFloat(s, 64); err == nil {
			return 0, fmt.Errorf("duration %q has no unit (write e.g. 30s, 10m, 8h, 60d, 2w)", s)
		}
		return 0, fmt.Errorf("duration %q: not a number and a unit (write e.g. 30s, 10m, 8h, 60d, 2w)", s)
	case unit == "ms":
		return 0, fmt.Errorf("duration %q: unknown unit %q (use s, m, h, d or w; a millisecond is 0.001s)", s, unit)
	case !ok:
		return 0, fmt.Errorf("duration %q: unknown unit %q (use s, m, h, d or w)", s, unit)
	}
	v, err := strconv.ParseFloat(strings.TrimSpace(num), 64)
	switch {
	case errors.Is(err, strconv.ErrRange):
		return 0, fmt.Errorf("duration %q: %s is beyond the largest number (about 1.8e308)", s, strings.TrimSpace(num))
	case err != nil || math.IsNaN(v) || math.IsInf(v, 0):
		return 0, fmt.Errorf("duration %q: %q is not a number", s, strings.TrimSpace(num))
	case v < 0:
		return 0, fmt.Errorf("duration %q is negative", s)
	}
	return v * mult, nil
}

// splitUnit splits "8h" into "8" and "h", and "5 fortnights" into "5 "
// and "fortnights": the unit is the trailing run of letters.
func splitUnit(s string) (num, unit string) {
	i := len(s)
	for i > 0 && (s[i-1] >= 'a' && s[i-1] <= 'z' || s[i-1] >= 'A' && s[i-1] <= 'Z') {
		i--
	}
	// An exponent's e is part of the number ("1e5" has no unit); "1e5d"
	// has the unit d.
	if i > 0 && i < len(s) && strings.ContainsAny(s[i-1:i], "0123456789") && strings.HasPrefix(s[i:], "e") && len(s[i:]) == 1 {
		return s, ""
	}
	return s[:i], s[i:]
}

// FormatDuration writes seconds with the largest unit that keeps it short.
func FormatDuration(sec float64) string {
	for _, u := range []string{"w", "d", "h", "m"} {
		m := unitSeconds[u]
		if sec >= m && math.Mod(sec, m) == 0 {
			return strconv.FormatFloat(sec/m, 'g', -1, 64) + u
		}
	}
	return strconv.FormatFloat(sec, 'g', -1, 64) + "s"
}

// Duration is a length of simulated time in seconds, written with a unit.
type Duration float64

// Seconds returns d in seconds.
func (d Duration) Seconds() float64 { return float64(d) }

// UnmarshalYAML accepts only a number with a unit.
func (d *Duration) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind != yaml.ScalarNode {
		return &yaml.TypeError{Errors: []string{fmt.Sprintf("line %d: a duration must be a value like 8h", n.Line)}}
	}
	v, err := ParseDuration(n.Value)
	if err != nil {
		return &yaml.TypeError{Errors: []string{fmt.Sprintf("line %d: %v", n.Line, err)}}
	}
	*d = Duration(v)
	return nil
}

// MarshalYAML writes d with a unit.
func (d Duration) MarshalYAML() (any, error) { return FormatDuration(float64(d)), nil }

// Num is a number that may also be written as a duration with a unit
// (then it is in seconds), used inside distributions of times.
type Num float64

// UnmarshalYAML accepts 3.5, 1e9, "8h".
func (x *Num) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind != yaml.ScalarNode {
		return &yaml.TypeError{Errors: []string{fmt.Sprintf("line %d: expected a number", n.Line)}}
	}
	if v, err := strconv.ParseFloat(n.Value, 64); err == nil {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return &yaml.TypeError{Errors: []string{fmt.Sprintf("line %d: %q is not a finite number", n.Line, n.Value)}}
		}
		*x = Num(v)
		return nil
	}
	v, err := ParseDuration(n.Value)
	if err != nil {
		return &yaml.TypeError{Errors: []string{fmt.Sprintf("line %d: %q is neither a number nor a duration", n.Line, n.Value)}}
	}
	*x = Num(v)
	return nil
}
