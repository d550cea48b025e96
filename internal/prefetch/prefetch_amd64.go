package prefetch

import "unsafe"

// Line asks for the cache line holding p to be loaded. p may point
// anywhere; an invalid address is ignored by the processor.
//
//go:noescape
func Line(p unsafe.Pointer)

// Range asks for every cache line holding one of the n bytes at p.
//
//go:noescape
func Range(p unsafe.Pointer, n uintptr)
