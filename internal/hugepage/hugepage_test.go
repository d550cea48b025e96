package hugepage

import (
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"unsafe"
)

// TestAdvise: advice leaves a slice's contents as they were and, on
// Linux with THP available, marks the mappings holding its first and last
// bytes "hg" (huge page advised) in /proc/self/smaps, whatever its size
// or alignment: 2 MB exactly (a result chunk, which the heap places on an
// 8 KB boundary), smaller (a workunit chunk) and larger. Empty slices are
// left alone.
func TestAdvise(t *testing.T) {
	Advise([]int(nil))
	Advise(make([]byte, 0, 0))
	for _, n := range []int{64 << 10, 512 << 10, 2 << 20, 24 << 20} {
		s := make([]byte, n)
		for i := range s[:10] {
			s[i] = byte(i + 1)
		}
		Advise(s)
		for i := range s[:10] {
			if s[i] != byte(i+1) {
				t.Fatalf("%d bytes: s[%d] = %d after the advice", n, i, s[i])
			}
		}
		if runtime.GOOS != "linux" {
			continue
		}
		mode, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled")
		if err != nil || strings.Contains(string(mode), "[never]") {
			t.Skip("no transparent huge pages on this system")
		}
		smaps, err := os.ReadFile("/proc/self/smaps")
		if err != nil {
			t.Skip(err)
		}
		for _, addr := range []uintptr{uintptr(unsafe.Pointer(&s[0])), uintptr(unsafe.Pointer(&s[n-1]))} {
			if flags, ok := vmFlags(string(smaps), addr); !ok {
				t.Errorf("%d bytes: no mapping in /proc/self/smaps holds %#x", n, addr)
			} else if !strings.Contains(flags, " hg") {
				t.Errorf("%d bytes: the mapping holding %#x is not advised for huge pages: %s", n, addr, flags)
			}
		}
		runtime.KeepAlive(s)
	}
}

// vmFlags returns the VmFlags line of the mapping holding addr.
func vmFlags(smaps string, addr uintptr) (string, bool) {
	var cur [2]uintptr
	for _, line := range strings.Split(smaps, "\n") {
		if lo, hi, ok := mappingRange(line); ok {
			cur = [2]uintptr{lo, hi}
			continue
		}
		if strings.HasPrefix(line, "VmFlags:") && cur[0] <= addr && addr < cur[1] {
			return line, true
		}
	}
	return "", false
}

// mappingRange parses the address range that starts a mapping's block
// in /proc/self/smaps ("7f12a000-7f12c000 rw-p ...").
func mappingRange(line string) (lo, hi uintptr, ok bool) {
	f := strings.Fields(line)
	if len(f) < 2 {
		return 0, 0, false
	}
	a, b, found := strings.Cut(f[0], "-")
	if !found {
		return 0, 0, false
	}
	x, err1 := strconv.ParseUint(a, 16, 64)
	y, err2 := strconv.ParseUint(b, 16, 64)
	if err1 != nil || err2 != nil {
		return 0, 0, false
	}
	return uintptr(x), uintptr(y), true
}

// TestAppend: Append keeps the elements and their order, grows by at
// least a quarter (and to least at first), and appends in place while
// there is room.
func TestAppend(t *testing.T) {
	var s []int32
	for i := range int32(5000) {
		before := cap(s)
		s = Append(s, 1024, i)
		if c := cap(s); c != before && (c < before+before/4 || c < 1024) {
			t.Fatalf("after %d elements: capacity %d from %d", i+1, c, before)
		}
	}
	for i, x := range s {
		if x != int32(i) {
			t.Fatalf("s[%d] = %d", i, x)
		}
	}
	s = s[:10:20]
	p := &s[0]
	s = Append(s, 0, 7, 8, 9)
	if &s[0] != p || len(s) != 13 || s[12] != 9 {
		t.Fatalf("an append with room moved or lost elements: len %d", len(s))
	}
	s = Append(s, 0, make([]int32, 100)...)
	if len(s) != 113 || s[12] != 9 || cap(s) < 113 {
		t.Fatalf("a multi-element append past capacity: len %d cap %d", len(s), cap(s))
	}
}
