//go:build !unix

package usage

// CPUSeconds returns 0: this system gives no getrusage.
func CPUSeconds() float64 { return 0 }

// PeakRSS returns 0: this system gives no getrusage.
func PeakRSS() uint64 { return 0 }
