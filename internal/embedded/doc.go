// Package embedded checks text a test generates against the copy a
// document holds between two marker lines, and rewrites that copy when
// the test runs with -update: README's verdict, the library's claims and
// docs/attack.md's limits are what the tool prints, to the digit, and a
// test says so. Tests only.
//
// Imports (layer 0): none.
package embedded
