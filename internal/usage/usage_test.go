package usage

import (
	"runtime"
	"runtime/debug"
	"strconv"
	"testing"
)

var sink [][]byte

func TestMeasuresGrowth(t *testing.T) {
	cpu0 := CPUSeconds()
	var p Peak
	runtime.GC()
	p.Sample()
	before := p.Bytes()
	for i := 0; i < 64; i++ {
		b := make([]byte, 1<<20)
		for j := range b {
			b[j] = byte(j) // touched, so resident
		}
		sink = append(sink, b)
	}
	runtime.GC()
	p.Sample()
	if got := p.Bytes() - before; got < 60<<20 {
		t.Errorf("live heap grew by %d bytes after holding 64 MiB", got)
	}
	sink = nil
	runtime.GC()
	p.Sample()
	if p.Bytes() < 64<<20 {
		t.Errorf("the peak forgot its maximum: %d", p.Bytes())
	}
	if LiveHeap() >= p.Bytes() {
		t.Errorf("live heap %d after freeing is not below the peak %d", LiveHeap(), p.Bytes())
	}
	x := 0.0
	for i := 0; i < 20_000_000; i++ {
		x += float64(i % 7)
	}
	if x == 0 {
		t.Fatal("unreachable")
	}
	if runtime.GOOS == "linux" {
		if CPUSeconds() <= cpu0 {
			t.Errorf("CPU time did not grow: %g then %g", cpu0, CPUSeconds())
		}
		if PeakRSS() < 64<<20 {
			t.Errorf("peak RSS %d after holding 64 MiB", PeakRSS())
		}
	}
}

func TestSetRunGC(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	for _, tc := range []struct {
		env  string
		want int
	}{
		{"", RunGCPercent},
		{"80", 80},
		{"off", -1},
	} {
		t.Setenv("GOGC", tc.env)
		// What the runtime read from GOGC at start-up is gone; put
		// back what the environment now says, as a process starting
		// with it would have.
		debug.SetGCPercent(gcFromEnv(tc.env))
		if got := SetRunGC(); got != tc.want {
			t.Errorf("GOGC=%q: SetRunGC() = %d, want %d", tc.env, got, tc.want)
		}
	}
}

// gcFromEnv is the percent a process starts with for GOGC=env.
func gcFromEnv(env string) int {
	switch env {
	case "":
		return 100
	case "off":
		return -1
	}
	n, _ := strconv.Atoi(env)
	return n
}

// TestResetPeakRSS: after 64 MB was resident and has been given back,
// a reset peak is well below it, and it rises again with what is
// touched next.
func TestResetPeakRSS(t *testing.T) {
	const n = 64 << 20
	touch := func() []byte {
		b := make([]byte, n)
		for i := 0; i < len(b); i += 4096 {
			b[i] = 1
		}
		return b
	}
	b := touch()
	high := PeakRSS()
	if high < n {
		t.Fatalf("PeakRSS() = %d with %d bytes touched", high, n)
	}
	runtime.KeepAlive(b)
	b = nil
	debug.FreeOSMemory()
	if !ResetPeakRSS() {
		t.Skip("this system does not let a process reset its peak resident set")
	}
	if low := PeakRSS(); low > high-n/2 {
		t.Errorf("PeakRSS() = %d after the reset, was %d with %d bytes touched and given back", low, high, n)
	}
	b = touch()
	if again := PeakRSS(); again < n {
		t.Errorf("PeakRSS() = %d with %d bytes touched after the reset", again, n)
	}
	runtime.KeepAlive(b)
}
