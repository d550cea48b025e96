// Package param holds the parameter types that scenario models share:
// durations written with units, numbers that may carry a duration unit,
// parametrised distributions, and a collector of field errors that names
// the offending path and value so the scenario loader can add the line.
//
// Imports (layer 1): boinc.
package param
