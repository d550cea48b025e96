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
	var d Decay
	r.UpdateAverageDecay(now, workStart, work, halfLife, &d)
}

// Decay remembers the decay factor of the last gap UpdateAverageDecay
// computed one for. Averages updated at one time whose last updates were
// at one time too (an entity's accounts under several policies) then
// share one exp call. A Decay serves one half-life; its zero value
// remembers nothing.
type Decay struct {
	diff, w float64
}

// factor returns exp(-diff ln2 / halfLife) for diff > 0.
func (d *Decay) factor(diff, halfLife float64) float64 {
	if d.diff != diff {
		d.diff, d.w = diff, math.Exp((-diff*ln2)/halfLife)
	}
	return d.w
}

// UpdateAverageDecay is UpdateAverage with the decay factor taken from d
// when d last computed it for the same gap; the result is the same to
// the bit.
func (r *RAC) UpdateAverageDecay(now, workStart, work, halfLife float64, d *Decay) {
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
		w := d.factor(diff, halfLife)
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
