package hugepage

import (
	"syscall"
	"unsafe"
)

// size is the huge page size of x86-64 and arm64 Linux with 4 KB pages.
const size = 2 << 20

// Advise asks for huge pages for every 2 MB page that s's backing array
// (up to its capacity) overlaps, the array's neighbours in those pages
// included. Best called right after the allocation, before the memory is
// first touched, so that the first touches fault in huge pages. Errors
// are ignored: the advice is only advice (a kernel without THP refuses
// it).
//
// Rounding outward matters: Go's heap places a large array on an 8 KB
// boundary, so a 2 MB array almost never holds a whole aligned 2 MB page,
// and an array smaller than 2 MB never does. The neighbours are other
// heap objects, mostly the engine's other chunks; the advice changes only
// how their memory is paged. An address in the range that is not mapped
// makes the call fail for that part only.
func Advise[T any](s []T) {
	var zero T
	n := uintptr(cap(s)) * unsafe.Sizeof(zero)
	if n == 0 {
		return
	}
	start := uintptr(unsafe.Pointer(unsafe.SliceData(s[:1])))
	lo := start &^ (size - 1)
	hi := (start + n + size - 1) &^ (size - 1)
	syscall.Syscall(syscall.SYS_MADVISE, lo, hi-lo, syscall.MADV_HUGEPAGE)
}
