package replay

import (
	"math"
	"testing"

	"github.com/creditsim/creditsim/policy"
)

// TestGPUPeak: host.p_gpu_fpops is the peak of all a host's GPUs, as
// BOINC's scheduler sums them (handle_request.cpp); policies read one
// GPU's (a GPU version's peak is GPUs used x it). A replay divides by
// p_ngpus, and a trace writes the sum, an absurd claimed peak kept finite.
func TestGPUPeak(t *testing.T) {
	for _, c := range []struct {
		name          string
		ngpus         int
		perGPU, total float64
	}{
		{"no GPU", 0, 0, 0},
		{"one GPU", 1, 5e12, 5e12},
		{"two GPUs", 2, 5e12, 1e13},
		{"four GPUs", 4, 2.5e12, 1e13},
		{"a claimed peak of 1e304 on two", 2, 1e304, 2e304},
	} {
		r := &Row{NGPUs: c.ngpus, GPUFpops: c.total}
		if got := gpuPeak(r); got != c.perGPU {
			t.Errorf("%s: replay reads one GPU's peak as %g, want %g", c.name, got, c.perGPU)
		}
		var x Row
		copyView(&x, &policy.Result{HostNGPUs: int32(c.ngpus), HostGPUPeak: c.perGPU})
		if x.GPUFpops != c.total {
			t.Errorf("%s: trace writes p_gpu_fpops %g, want %g", c.name, x.GPUFpops, c.total)
		}
	}
	var x Row
	copyView(&x, &policy.Result{HostNGPUs: 3, HostGPUPeak: 1e308})
	if x.GPUFpops != math.MaxFloat64 {
		t.Errorf("a claimed peak of 1e308 on three GPUs: p_gpu_fpops %g, want the largest finite number", x.GPUFpops)
	}
}
