package hugepage

import (
	"syscall"
	"unsafe"
)

// size is the huge page size of x86-64 and arm64 Linux with 4 KB pages.
const size = 2 << 20

// Advise asks for huge pages for the whole 2 MB pages inside s's
// backing array (up to its capacity). Best called right after the
// allocation, before the memory is first touched, so that the first
// touches fault in huge pages. Errors are ignored: the advice is only
// advice (a kernel without THP refuses it).
func Advise[T any](s []T) {
	var zero T
	n := uintptr(cap(s)) * unsafe.Sizeof(zero)
	if n < size {
		return
	}
	base := unsafe.Pointer(unsafe.SliceData(s[:1]))
	all := unsafe.Slice((*byte)(base), n)
	start := uintptr(base)
	lo := (start+size-1)&^(size-1) - start
	hi := (start+n)&^(size-1) - start
	if hi <= lo {
		return
	}
	syscall.Madvise(all[lo:hi], syscall.MADV_HUGEPAGE)
}
