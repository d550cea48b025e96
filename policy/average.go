package policy

// AverageParams are the parameters of BOINC's AVERAGE (lib/average.h).
type AverageParams struct {
	// Threshold is n_threshold: samples with the incremented count below it
	// update a straight mean; from it on the average is exponential.
	Threshold float64
	// Weight is sample_weight, the exponential smoothing factor.
	Weight float64
	// Limit is sample_limit: a sample above Limit times a non-zero average is
	// capped (strict >); the first sample is never capped.
	Limit float64
}

// The parameter sets of sched/credit.h.
var (
	// HAVParams are used for host_app_version pfc, et and turnaround.
	HAVParams = AverageParams{Threshold: 20, Weight: 0.01, Limit: 10}
	// AVParams are used for app_version pfc.
	AVParams = AverageParams{Threshold: 100, Weight: 0.001, Limit: 10}
)

// Average is BOINC's AVERAGE: a running mean that turns exponential after
// Threshold-1 samples, with a cap on outliers. The zero value is empty.
type Average struct {
	N   float64
	Avg float64
}

// Update adds sample x and reports whether it was truncated (capped) or
// rejected. A negative sample is rejected and changes nothing.
func (a *Average) Update(x float64, p AverageParams) bool {
	if x < 0 {
		return true
	}
	truncated := false
	if a.N != 0 && a.Avg != 0 && x > a.Avg*p.Limit {
		x = a.Avg * p.Limit
		truncated = true
	}
	a.N++
	d := x - a.Avg
	if a.N < p.Threshold {
		a.Avg += d / a.N
	} else {
		a.Avg += p.Weight * d
	}
	return truncated
}

// AverageVar is BOINC's AVERAGE_VAR: Average plus a variance (Welford in
// the mean phase, exponential after it).
type AverageVar struct {
	N   float64
	Avg float64
	Var float64
	Q   float64
}

// Update adds sample x, as Average.Update, and updates the variance.
func (a *AverageVar) Update(x float64, p AverageParams) bool {
	if x < 0 {
		return true
	}
	truncated := false
	if a.N != 0 && a.Avg != 0 && x > a.Avg*p.Limit {
		x = a.Avg * p.Limit
		truncated = true
	}
	a.N++
	d := x - a.Avg
	if a.N < p.Threshold {
		a.Avg += d / a.N
		a.Q += float64(d * (x - a.Avg))
		a.Var = a.Q / a.N
	} else {
		a.Avg += p.Weight * d
		a.Var += p.Weight * (float64(d*d) - a.Var)
	}
	return truncated
}
