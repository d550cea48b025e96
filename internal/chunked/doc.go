// Package chunked provides a growable array kept in fixed chunks.
//
// A slice that grows by append copies everything it holds into a larger
// array each time it fills, and until the garbage collector runs the old
// array and the new one are both in memory. For the arrays of a
// simulation of 100,000 hosts (tens of megabytes each, grown in the
// first simulated days, when the heap is at its largest) those copies
// raised peak RSS by hundreds of megabytes, and no freed array could be
// reused for the next, larger one. A chunked array never copies and
// never moves an element, at the price of one more load per access (the
// chunk's address, which stays in cache).
//
// Imports (layer 1): internal/hugepage.
package chunked
