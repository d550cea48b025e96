// Package usage measures what a run costs the machine: the process's CPU
// time and peak resident memory (getrusage, which counts this process
// only, so a shared machine does not distort it as it does wall time),
// and the live heap as of the last garbage collection, sampled to find
// its peak. SetRunGC sets the garbage collector as a simulation process
// runs it.
//
// Imports (layer 0): none.
package usage
