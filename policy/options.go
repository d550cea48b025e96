package policy

import (
	"math"
	"strconv"
	"strings"
)

// Float returns option name as a float64, or def when it is absent. The
// value must be finite and, if positive is set, above 0.
func (o Options) Float(name string, def float64, positive bool) (float64, error) {
	s, ok := o[name]
	if !ok {
		return def, nil
	}
	v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, &OptionError{Option: name, Value: s, Reason: "not a finite number"}
	}
	if positive && v <= 0 {
		return 0, &OptionError{Option: name, Value: s, Reason: "must be above 0"}
	}
	return v, nil
}

// Choice returns option name, which must be one of allowed, or def.
func (o Options) Choice(name, def string, allowed ...string) (string, error) {
	s, ok := o[name]
	if !ok {
		return def, nil
	}
	for _, a := range allowed {
		if s == a {
			return s, nil
		}
	}
	return "", &OptionError{Option: name, Value: s, Reason: "must be one of " + strings.Join(allowed, ", ")}
}
