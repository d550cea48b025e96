// Package boinc holds BOINC's vocabulary that every other package shares:
// processing resources, result outcomes and validation states, and the
// time and Cobblestone constants. It imports nothing of the project, so
// model/, policy/ and sim/ can stand side by side on it.
//
// Its subpackage rng derives the independent random streams the
// simulation's components draw from.
//
// Imports (layer 0): none.
package boinc
