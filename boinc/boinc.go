package boinc

import "fmt"

// SecondsPerDay is BOINC's SECONDS_PER_DAY.
const SecondsPerDay = 86400.0

// Historic Cobblestone scales, in credits per GFLOPS-day.
const (
	// ScaleClassic is the first and second systems' scale (BOINC's credit
	// page: "GigaFLOPs = RAC/100") and design v29's C = F*100/86400e9.
	ScaleClassic = 100.0
	// ScaleServer is the server's COBBLESTONE_SCALE = 200/86400e9 and
	// Science United's scale.
	ScaleServer = 200.0
)

// Resource is the processing resource an app version uses.
type Resource uint8

// Resources, as BOINC's proc types.
const (
	CPU Resource = iota
	NVIDIA
	AMD
	IntelGPU
	AppleGPU
)

var resourceNames = [...]string{"cpu", "nvidia", "amd", "intel_gpu", "apple_gpu"}

func (r Resource) String() string {
	if int(r) < len(resourceNames) {
		return resourceNames[r]
	}
	return fmt.Sprintf("resource(%d)", r)
}

// IsGPU reports whether r is a GPU type.
func (r Resource) IsGPU() bool { return r != CPU }

// ParseResource returns the Resource named s.
func ParseResource(s string) (Resource, bool) {
	for i, n := range resourceNames {
		if n == s {
			return Resource(i), true
		}
	}
	return 0, false
}

// ResourceNames lists the valid resource names.
func ResourceNames() []string { return resourceNames[:] }

// Outcome is a result's outcome as the server records it.
type Outcome uint8

// Outcomes.
const (
	Success     Outcome = iota // the client reported a completed result
	ClientError                // the client reported a computation error
	Aborted                    // the client (its user) aborted the result
	NoReply                    // the deadline passed without a report
	// NumOutcomes is the number of outcomes.
	NumOutcomes = iota
)

var outcomeNames = [...]string{"success", "client_error", "aborted", "no_reply"}

func (o Outcome) String() string { return outcomeNames[o] }

// ValidateState is a result's validation state.
type ValidateState uint8

// Validation states.
const (
	Unvalidated ValidateState = iota
	Valid
	Invalid
)
