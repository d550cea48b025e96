package policy

import "math"

// CreditHalfLife is BOINC's CREDIT_HALF_LIFE, 7 days, in seconds.
const CreditHalfLife = 7 * SecondsPerDay

// ln2 is M_LN2 as BOINC's fallback defines it.
const ln2 = 0.693147180559945309417

// RAC is a recent average (credit per day) with the time it was last
// updated; AvgTime 0 means never.
type RAC struct {
	Avg     float64
	AvgTime float64
}

// UpdateAverage is BOINC's update_average (lib/util.cpp): it adds work done
// since workStart to the average at time now. The first call with non-zero
// work sets Avg = work / days since workStart (the first-grant spike; the
// validator passes the result's sent time). Later calls use the exact
// exponential form, or its first-order limit when the gap is under about
// 0.87 s at the 7-day half-life. A negative gap is clamped to 0, and
// AvgTime always becomes now.
func (r *RAC) UpdateAverage(now, workStart, work, halfLife float64) {
	if r.AvgTime != 0 {
		diff := now - r.AvgTime
		if diff < 0 {
			diff = 0
		}
		if diff == 0 {
			// exp(0) is exactly 1: the first-order branch, without the
			// exp call (most updates come in a validator pass at one
			// time).
			r.Avg += ((ln2 * work) * SecondsPerDay) / halfLife
			r.AvgTime = now
			return
		}
		diffDays := diff / SecondsPerDay
		w := math.Exp((-diff * ln2) / halfLife)
		r.Avg *= w
		if 1-w > 1e-6 {
			r.Avg += (1 - w) * (work / diffDays)
		} else {
			r.Avg += ((ln2 * work) * SecondsPerDay) / halfLife
		}
	} else if work != 0 {
		dd := (now - workStart) / SecondsPerDay
		r.Avg = work / dd
	}
	r.AvgTime = now
}

// Decayed returns the average decayed to now without changing r, as
// seed 000's decay_average does for display. A zero AvgTime decays nothing.
func (r RAC) Decayed(now, halfLife float64) float64 {
	if r.AvgTime == 0 || now <= r.AvgTime {
		return r.Avg
	}
	return r.Avg * math.Exp((-(now-r.AvgTime)*ln2)/halfLife)
}

// DecayIdle is the update_stats daemon's pass for one row: a row whose RAC
// is above threshold (0.1 for hosts, users and teams; 0 for app versions)
// and that was not updated within minAge seconds (86400) is decayed with a
// work-free update_average. It reports whether the row was decayed.
func (r *RAC) DecayIdle(now, threshold, minAge, halfLife float64) bool {
	if r.Avg <= threshold || r.AvgTime >= now-minAge {
		return false
	}
	r.UpdateAverage(now, 0, 0, halfLife)
	return true
}
