package prefetch

import (
	"testing"
	"unsafe"
)

// TestLineChangesNothing: prefetches of a live slice, of its end, of
// ranges of any length and of nil neither fault nor change memory.
func TestLineChangesNothing(t *testing.T) {
	b := make([]byte, 256)
	for i := range b {
		b[i] = byte(i)
	}
	for i := range b {
		Line(unsafe.Pointer(&b[i]))
	}
	Line(nil)
	for _, n := range []int{0, 1, 63, 64, 65, 200, 256} {
		Range(unsafe.Pointer(&b[0]), uintptr(n))
	}
	Range(unsafe.Pointer(&b[100]), 156)
	Range(nil, 0)
	for i := range b {
		if b[i] != byte(i) {
			t.Fatalf("byte %d changed to %d", i, b[i])
		}
	}
}

func BenchmarkLine(b *testing.B) {
	x := make([]int64, 1<<20)
	for i := 0; i < b.N; i++ {
		Line(unsafe.Pointer(&x[(i*4099)&(len(x)-1)]))
	}
}
