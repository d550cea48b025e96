package replay

import (
	"fmt"
	"math"
	"strconv"

	"github.com/creditsim/creditsim/boinc"
)

// Limits of a replay input, fixed so that the same input reads or fails
// everywhere: times span at most MaxSpan (a replay keeps a feeder tick
// every period over it), a trace's periods are the scenario's limits
// (1 s to a day), and a trace's world holds at most MaxTraceHosts hosts
// and users.
const (
	MaxSpan       = 20 * 365 * boinc.SecondsPerDay
	MinPeriod     = 1.0
	MaxPeriod     = boinc.SecondsPerDay
	MaxTraceHosts = 10_000_000
)

// check returns the field, text and reason of a trace header's first
// fault, or "".
func (h *Header) check() (field, value, reason string) {
	f := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
	for _, p := range []struct {
		name string
		v    float64
	}{{"validator_period", h.ValidatorPeriod}, {"feeder_period", h.FeederPeriod}} {
		if !(p.v >= MinPeriod && p.v <= MaxPeriod) {
			return p.name, f(p.v), fmt.Sprintf("want %g to %g seconds", MinPeriod, MaxPeriod)
		}
	}
	if !(h.End > 0 && h.End <= MaxSpan) {
		return "end", f(h.End), fmt.Sprintf("want a time above 0 and at most %g seconds (20 years)", MaxSpan)
	}
	w := h.World
	if w == nil {
		return "world", "null", "a trace names its world"
	}
	switch {
	case len(w.Apps) == 0:
		return "world.Apps", "[]", "a world has at least one app"
	case len(w.Versions) == 0:
		return "world.Versions", "[]", "a world has at least one version"
	case w.MaxHosts < 1 || w.MaxHosts > MaxTraceHosts:
		return "world.MaxHosts", strconv.Itoa(w.MaxHosts), fmt.Sprintf("want 1 to %d", MaxTraceHosts)
	case w.MaxUsers < 1 || w.MaxUsers > MaxTraceHosts:
		return "world.MaxUsers", strconv.Itoa(w.MaxUsers), fmt.Sprintf("want 1 to %d", MaxTraceHosts)
	case w.MaxTeams < 0 || w.MaxTeams > MaxTraceHosts:
		return "world.MaxTeams", strconv.Itoa(w.MaxTeams), fmt.Sprintf("want 0 to %d", MaxTraceHosts)
	}
	for i, a := range w.Apps {
		if a.ID != i {
			return fmt.Sprintf("world.Apps[%d].ID", i), strconv.Itoa(a.ID), "a trace's apps are numbered 0, 1, ... in order"
		}
	}
	for i, v := range w.Versions {
		switch {
		case v.ID != i:
			return fmt.Sprintf("world.Versions[%d].ID", i), strconv.Itoa(v.ID), "a trace's versions are numbered 0, 1, ... in order"
		case v.AppID < 0 || v.AppID >= len(w.Apps):
			return fmt.Sprintf("world.Versions[%d].AppID", i), strconv.Itoa(v.AppID), fmt.Sprintf("the world has %d app(s)", len(w.Apps))
		case int(v.Resource) >= len(boinc.ResourceNames()):
			return fmt.Sprintf("world.Versions[%d].Resource", i), strconv.Itoa(int(v.Resource)),
				fmt.Sprintf("want 0 to %d (%v)", len(boinc.ResourceNames())-1, boinc.ResourceNames())
		}
	}
	return "", "", ""
}

// checkRow returns the field, text and reason of a trace row's first ID
// outside the trace's world, or "".
func (h *Header) checkRow(r *Row) (field, value, reason string) {
	w := h.World
	for _, c := range []struct {
		name string
		v    int64
		n    int
	}{{"host_id", r.HostID, w.MaxHosts}, {"user_id", r.UserID, w.MaxUsers}, {"team_id", r.TeamID, w.MaxTeams + 1},
		{"app_id", r.AppID, len(w.Apps)}, {"app_version_id", r.VersionID, len(w.Versions)}} {
		if c.v < 0 || c.v >= int64(c.n) {
			return c.name, strconv.FormatInt(c.v, 10), fmt.Sprintf("outside the trace's world (want 0 to %d)", c.n-1)
		}
	}
	if a := w.Versions[r.VersionID].AppID; int64(a) != r.AppID {
		return "app_id", strconv.FormatInt(r.AppID, 10), fmt.Sprintf("version %d is app %d's", r.VersionID, a)
	}
	return "", "", ""
}

// timeSpan follows the earliest and latest times of the rows read, with
// their lines.
type timeSpan struct {
	lo, hi         float64
	loLine, hiLine int
	loField        string
	hiField        string
	any            bool
}

// add takes in a row's times.
func (s *timeSpan) add(r *Row, line int) {
	for _, t := range []struct {
		name string
		v    float64
	}{{"sent_time", r.SentTime}, {"received_time", r.ReceivedTime}, {"validated_time", r.ValidatedTime}} {
		if t.v == 0 {
			continue // absent
		}
		if !s.any || t.v < s.lo {
			s.lo, s.loLine, s.loField = t.v, line, t.name
		}
		if !s.any || t.v > s.hi {
			s.hi, s.hiLine, s.hiField = t.v, line, t.name
		}
		s.any = true
	}
}

// check refuses times that span more than MaxSpan, or a trace whose end
// is before its last time or more than MaxSpan after its first.
func (s *timeSpan) check(file string, h *Header) error {
	f := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
	if s.any && s.hi-s.lo > MaxSpan {
		return &Error{File: file, Line: s.hiLine, Field: s.hiField, Value: f(s.hi),
			Reason: fmt.Sprintf("%.3g years after the earliest time (line %d, %s %s); a replay covers at most 20 years",
				(s.hi-s.lo)/(365*boinc.SecondsPerDay), s.loLine, s.loField, f(s.lo))}
	}
	if h != nil && s.any && (h.End < s.hi || h.End-math.Min(s.lo, 0) > MaxSpan) {
		return &Error{File: file, Line: s.hiLine, Field: s.hiField, Value: f(s.hi),
			Reason: fmt.Sprintf("past the trace header's end, %s", f(h.End))}
	}
	return nil
}
