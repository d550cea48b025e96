package hugepage

import (
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"unsafe"
)

// TestAdvise: advice on a large slice leaves its contents as they were
// and, on Linux with THP available, marks its mapping "hg" (huge page
// advised) in /proc/self/smaps; small and empty slices are left alone.
func TestAdvise(t *testing.T) {
	Advise([]int(nil))
	Advise(make([]byte, 10))
	s := make([]uint64, 3<<20) // 24 MB
	for i := range s[:1000] {
		s[i] = uint64(i)
	}
	Advise(s)
	for i := range s[:1000] {
		if s[i] != uint64(i) {
			t.Fatalf("s[%d] = %d after the advice", i, s[i])
		}
	}
	if runtime.GOOS != "linux" {
		return
	}
	mode, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled")
	if err != nil || strings.Contains(string(mode), "[never]") {
		t.Skip("no transparent huge pages on this system")
	}
	smaps, err := os.ReadFile("/proc/self/smaps")
	if err != nil {
		t.Skip(err)
	}
	addr := uintptr(unsafe.Pointer(&s[len(s)/2]))
	found := false
	var cur [2]uintptr
	for _, line := range strings.Split(string(smaps), "\n") {
		if lo, hi, ok := mappingRange(line); ok {
			cur = [2]uintptr{lo, hi}
			continue
		}
		if strings.HasPrefix(line, "VmFlags:") && cur[0] <= addr && addr < cur[1] {
			found = true
			if !strings.Contains(line, " hg") {
				t.Errorf("the mapping holding the slice is not advised for huge pages: %s", line)
			}
		}
	}
	if !found {
		t.Error("no mapping in /proc/self/smaps holds the slice")
	}
	runtime.KeepAlive(s)
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
