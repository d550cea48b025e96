// Package inputlimit bounds what creditsim reads from a user's file: its
// size once decompressed, how far a compressed file may expand, the
// length of a line, the columns of a header and the lines of a file. A
// project's export of any size or shape is then either read or refused
// in seconds with an error naming the file, the line and the limit, and
// the flag that raises it; never a machine out of memory, never minutes
// spent on a file of blank lines.
//
// Every reader of a user's data (table files, statistics exports, replay
// inputs and traces) opens its file with Open, under the process's
// limits (Current), which the command line sets once from --limit.
//
// Imports (layer 0): none.
package inputlimit
