// Package rng derives independent random streams from a master seed.
//
// Every random component of a run (each host, each app's workunit stream,
// the arrival process, ...) draws from its own stream whose seed is a hash
// of (master seed, replication, component, index). Adding a host therefore
// leaves every other host's draws unchanged, and results do not depend on
// the order in which components are created. math/rand/v2's PCG with
// different increments is not a family of independent streams, hence the
// hashing.
//
// Imports (layer 0): none.
package rng
