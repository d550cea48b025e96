// Package prefetch asks the processor to start loading memory that a
// simulation will read soon. The engine's records (hosts, results,
// workunits) are touched at random across tens to hundreds of megabytes,
// so most first touches miss every cache; the event loop and the
// validator know one step ahead which records they will need, and a
// prefetch issued then overlaps the miss with the current step's work.
//
// A prefetch is only a hint: it never faults, never changes memory and
// so never changes a result. On amd64 it is PREFETCHT0; elsewhere Line
// does nothing.
//
// Imports (layer 0): none.
package prefetch
