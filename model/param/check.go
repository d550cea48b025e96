package param

import (
	"fmt"
	"strconv"
)

// FieldError is a rejected value at a dotted path of the scenario, such as
// "projects[0].apps[1].min_quorum".
type FieldError struct {
	Path   string
	Value  string
	Reason string
}

func (e FieldError) Error() string {
	return fmt.Sprintf("%s: %s: %s", e.Path, e.Value, e.Reason)
}

// Check collects field errors under a path prefix.
type Check struct {
	errs *[]FieldError
	path string
}

// NewCheck returns an empty collector at the root.
func NewCheck() Check { return Check{errs: new([]FieldError)} }

// Errors returns what was collected, in the order found.
func (c Check) Errors() []FieldError { return *c.errs }

// Field returns a collector for a named child.
func (c Check) Field(name string) Check {
	if c.path == "" {
		return Check{c.errs, name}
	}
	return Check{c.errs, c.path + "." + name}
}

// Index returns a collector for a list element.
func (c Check) Index(i int) Check { return Check{c.errs, c.path + "[" + strconv.Itoa(i) + "]"} }

// Path is the collector's path.
func (c Check) Path() string { return c.path }

// Fail records that field (a child of c, or c itself when empty) has a bad value.
func (c Check) Fail(field string, value any, reason string) {
	p := c
	if field != "" {
		p = c.Field(field)
	}
	*c.errs = append(*c.errs, FieldError{Path: p.path, Value: format(value), Reason: reason})
}

// Range fails unless lo <= v <= hi.
func (c Check) Range(field string, v, lo, hi float64) {
	if !(v >= lo && v <= hi) {
		c.Fail(field, v, fmt.Sprintf("must be between %s and %s", format(lo), format(hi)))
	}
}

// Time bounds of a scenario, fixed and the same on every machine: they
// keep each periodic event and each run within what can finish.
const (
	Second = 1.0
	Minute = 60.0
	Day    = 86400.0
	// MaxRunDays is the longest simulated run: ten years.
	MaxRunDays = 3650
)

// DurationRange fails unless lo <= v <= hi (seconds), saying both in
// units.
func (c Check) DurationRange(field string, v Duration, lo, hi float64) {
	if !(float64(v) >= lo && float64(v) <= hi) {
		c.Fail(field, v, fmt.Sprintf("must be between %s and %s", FormatDuration(lo), FormatDuration(hi)))
	}
}

// Positive fails unless v > 0.
func (c Check) Positive(field string, v float64) {
	if !(v > 0) {
		c.Fail(field, v, "must be above 0")
	}
}

// NonNegative fails unless v >= 0.
func (c Check) NonNegative(field string, v float64) {
	if !(v >= 0) {
		c.Fail(field, v, "must not be negative")
	}
}

// Raw is a value shown as is, without quotes (e.g. Raw("[]"), "unset").
type Raw string

func format(v any) string {
	switch x := v.(type) {
	case Raw:
		return string(x)
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64)
	case Duration:
		return FormatDuration(float64(x))
	case string:
		return strconv.Quote(x)
	default:
		return fmt.Sprint(v)
	}
}
