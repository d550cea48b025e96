package sim_test

import (
	"os"
	"runtime"
	"runtime/pprof"
	"strconv"
	"testing"
)

func TestZZHeap(t *testing.T) {
	if os.Getenv("ZZHOSTS") == "" {
		t.Skip()
	}
	h := os.Getenv("ZZHOSTS")
	x := newBaseline(t, []string{"hosts.initial=" + h, "duration=16d", "warmup=7d"})
	day := 0
	want, _ := strconv.Atoi(os.Getenv("ZZDAY"))
	x.Run(func(float64) {
		day++
		if day == want {
			runtime.GC()
			f, _ := os.Create("/tmp/zzheap.prof")
			pprof.WriteHeapProfile(f)
			f.Close()
		}
	})
}
