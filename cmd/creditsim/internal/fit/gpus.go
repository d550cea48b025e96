package fit

import (
	"sort"
	"strings"
)

// gpuPeakTFLOPS is the single-precision peak of common GPU models at
// their boost clock, in TFLOPS, as their makers' specification sheets
// give it (NVIDIA GeForce and AMD Radeon product pages, Intel's graphics
// specifications): the statistics export names a host's GPU model but
// not its speed. A model not here leaves the host out of the fit of
// peak_ratio.
var gpuPeakTFLOPS = map[string]float64{
	"gtx 1050 ti": 2.138, "gtx 1060": 4.375, "gtx 1070": 6.463, "gtx 1080 ti": 11.34, "gtx 1080": 8.873,
	"gtx 1650": 2.984, "gtx 1660 super": 5.027, "gtx 1660 ti": 5.437, "gtx 1660": 5.03,
	"rtx 2060": 6.451, "rtx 2070": 7.465, "rtx 2080 ti": 13.45, "rtx 2080": 10.07,
	"rtx 3060 ti": 16.20, "rtx 3060": 12.74, "rtx 3070": 20.31, "rtx 3080": 29.77, "rtx 3090": 35.58,
	"rtx 4060": 15.11, "rtx 4070": 29.15, "rtx 4080": 48.74, "rtx 4090": 82.58,
	"rx 580": 6.175, "rx 5700 xt": 9.754, "rx 6700 xt": 13.21, "rx 6800 xt": 20.74, "rx 6800": 16.17,
	"rx 6900 xt": 23.04, "rx 7900 xtx": 61.39,
	"uhd graphics 630": 0.4608, "iris xe": 2.074,
}

// gpuKeys are the table's keys, longest first, so that "rtx 3060 ti" is
// tried before "rtx 3060".
var gpuKeys = func() []string {
	keys := make([]string, 0, len(gpuPeakTFLOPS))
	for k := range gpuPeakTFLOPS {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if len(keys[i]) != len(keys[j]) {
			return len(keys[i]) > len(keys[j])
		}
		return keys[i] < keys[j]
	})
	return keys
}()

// gpuPeak returns a GPU model's peak FLOPS from the table, found by its
// name (case and spacing aside).
func gpuPeak(model string) (float64, bool) {
	m := " " + strings.Join(strings.Fields(strings.ToLower(model)), " ") + " "
	for _, k := range gpuKeys {
		if strings.Contains(m, " "+k+" ") {
			return gpuPeakTFLOPS[k] * 1e12, true
		}
	}
	return 0, false
}
