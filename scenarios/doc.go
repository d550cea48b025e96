// Package scenarios defines the scenario file: its YAML schema, defaults,
// strict decoding, validation and the built-in library.
//
// Loading never panics on input: a syntax error, an unknown key, a value
// of the wrong type or one that fails validation comes back as an *Error
// naming the file, line, field and value. Overrides given as --set
// path=value apply to the YAML tree before decoding, so they are checked
// like the file itself.
//
// Imports (layer 3): boinc, internal/suggest, model/hosts, model/jobs, model/param, policy.
package scenarios
