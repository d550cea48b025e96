package policy

import (
	"math"
	"strconv"
	"strings"
)

// A Decl declares one option of a kind, once: its name, its default, what
// it means, and the typed field of the kind's configuration it parses
// into. A kind lists its declarations in one function of its
// configuration; Docs gives `creditsim policies` its text and
// ParseOptions fills the fields, so no default or name is written twice.
type Decl struct {
	Doc OptionDoc
	set func(text string) error
}

// Range says which numbers a Float option takes.
type Range int

// Ranges of Float options.
const (
	AnyFinite   Range = iota
	NonNegative       // at least 0
	Positive          // above 0
)

// Float declares a number option stored in dst.
func Float(dst *float64, name string, def float64, r Range, doc string) Decl {
	text := strings.NewReplacer("e+0", "e", "e+", "e").Replace(strconv.FormatFloat(def, 'g', -1, 64))
	return Decl{Doc: OptionDoc{Name: name, Default: text, Doc: doc}, set: func(s string) error {
		v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
		switch {
		case err != nil || math.IsNaN(v) || math.IsInf(v, 0):
			return &OptionError{Option: name, Value: s, Reason: "not a finite number"}
		case r == Positive && !(v > 0):
			return &OptionError{Option: name, Value: s, Reason: "must be above 0"}
		case r == NonNegative && v < 0:
			return &OptionError{Option: name, Value: s, Reason: "must not be negative"}
		}
		*dst = v
		return nil
	}}
}

// Choice declares an option that takes one of allowed, stored in dst as
// the kind's own typed constant.
func Choice[T ~string](dst *T, name string, def T, doc string, allowed ...T) Decl {
	names := make([]string, len(allowed))
	for i, a := range allowed {
		names[i] = string(a)
	}
	return Decl{Doc: OptionDoc{Name: name, Default: string(def), Doc: doc}, set: func(s string) error {
		for _, a := range allowed {
			if s == string(a) {
				*dst = a
				return nil
			}
		}
		return &OptionError{Option: name, Value: s, Reason: "must be one of " + strings.Join(names, ", ")}
	}}
}

// Bool declares a true/false option stored in dst.
func Bool(dst *bool, name string, def bool, doc string) Decl {
	return Decl{Doc: OptionDoc{Name: name, Default: strconv.FormatBool(def), Doc: doc}, set: func(s string) error {
		switch s {
		case "true":
			*dst = true
		case "false":
			*dst = false
		default:
			return &OptionError{Option: name, Value: s, Reason: "must be one of true, false"}
		}
		return nil
	}}
}

// Text declares an option kept as text and checked by check (nil: any).
func Text(dst *string, name, def, doc string, check func(string) error) Decl {
	return Decl{Doc: OptionDoc{Name: name, Default: def, Doc: doc}, set: func(s string) error {
		if check != nil {
			if err := check(s); err != nil {
				return err
			}
		}
		*dst = s
		return nil
	}}
}

// ParseOptions sets every declared field: from opts where given, else
// from its default.
func ParseOptions(opts Options, decls []Decl) error {
	for _, d := range decls {
		s, ok := opts[d.Doc.Name]
		if !ok {
			s = d.Doc.Default
		}
		if err := d.set(s); err != nil {
			return err
		}
	}
	return nil
}

// Docs are the declarations' names, defaults and texts.
func Docs(decls []Decl) []OptionDoc {
	out := make([]OptionDoc, len(decls))
	for i, d := range decls {
		out[i] = d.Doc
	}
	return out
}
