// Package projectdb reads a BOINC project's database, read-only: the
// results a replay needs (Read) and a connection fit's table readers
// query (OpenReadOnly), with time-outs by default so a silent server
// cannot hang a command. It alone links the MySQL driver, so the
// packages that simulate do not carry it.
//
// Imports (layer 9): cmd/creditsim/internal/replay.
package projectdb
