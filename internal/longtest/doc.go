// Package longtest gates creditsim's long claim checks: tests that run
// built-in worlds at the size a documented figure is stated for (the
// scenario library's claims, README's verdict, the memory table, the
// fit round trips, the attack search's quality). They take minutes, so
// README's test command, `go test ./...`, leaves them out and stays
// within five minutes on a busy 2-core machine; they run when the
// environment sets CREDITSIM_LONGTEST=1, as .ci/run does after it:
//
//	CREDITSIM_LONGTEST=1 go test ./...
//
// Imports (layer 0): none.
package longtest
