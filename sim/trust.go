package sim

// Server trust (Server.Trust): which hosts the server trusts, the
// project's checks that build that trust, and what they cost.

import (
	"math"

	"github.com/creditsim/creditsim/policy"
)

// checkGroup is the project's check of the agreeing group whose output is
// best: a group no trusted host is in is checked with probability
// check_rate, one a trusted host vouches for with recheck_rate. The
// project computes the job itself and knows the right output (0). A
// group found wrong is invalid: its results are finished, their hosts
// lose trust, and the workunit asks for another result. checkGroup
// reports whether validation goes on, and whether the project checked
// the group (which confirms its results).
func (s *Sim) checkGroup(wi int32, best uint32) (goOn, checked bool) {
	w := s.wu(wi)
	t := &s.cfg.Server.Trust
	rate := t.CheckRate
	if s.vouched(w, best) {
		rate = t.RecheckRate
	}
	if rate == 0 || s.srvRng.Float64() >= rate {
		return true, false
	}
	s.checks++
	if best == 0 {
		return true, true
	}
	s.checksFailed++
	for _, ri := range s.reps(w) {
		r := s.res(ri)
		if r.st != stReported || r.outcome() != policy.Success || r.output != best {
			continue
		}
		r.setValidateState(policy.Invalid)
		s.updateHAV(r)
		s.untrust(int(r.host))
		s.finish(ri)
	}
	s.askForMore(wi)
	return false, true
}

// vouched reports whether a trusted host returned one of w's reported
// successes whose output is best.
func (s *Sim) vouched(w *workunit, best uint32) bool {
	for _, ri := range s.reps(w) {
		r := s.res(ri)
		if r.st == stReported && r.outcome() == policy.Success && r.output == best && s.hosts[r.host].trusted {
			return true
		}
	}
	return false
}

// confirm updates trust after w's validation: a valid result is
// confirmed when the project checked its group or a trusted host of
// another user returned a valid result of it, and Confirmations
// confirmed results in a row make its host trusted; an invalid result
// takes its host's trust away.
func (s *Sim) confirm(w *workunit, checked bool) {
	for _, ri := range s.reps(w) {
		r := s.res(ri)
		if r.st != stReported || r.outcome() != policy.Success {
			continue
		}
		h := &s.hosts[r.host]
		if r.validateState() != policy.Valid {
			s.untrust(int(r.host))
			continue
		}
		if h.trusted || !(checked || s.trustedOther(w, ri)) {
			continue
		}
		h.confirmed++
		if int(h.confirmed) >= s.cfg.Server.Trust.Confirmations {
			h.trusted = true
			s.nTrusted++
			if h.firstTrust == 0 {
				h.firstTrust = s.now
			}
		}
	}
}

// trustedOther reports whether a trusted host of a user other than ri's
// returned a valid result of w.
func (s *Sim) trustedOther(w *workunit, ri int32) bool {
	user := s.reported[s.res(ri).host].user
	for _, rj := range s.reps(w) {
		o := s.res(rj)
		if rj != ri && o.st == stReported && o.validateState() == policy.Valid &&
			s.hosts[o.host].trusted && s.reported[o.host].user != user {
			return true
		}
	}
	return false
}

// untrust takes host i's trust away and restarts its count.
func (s *Sim) untrust(i int) {
	h := &s.hosts[i]
	if h.trusted {
		s.nTrusted--
	}
	h.trusted, h.confirmed = false, 0
}

// TrustPrice is what server trust cost a replication, and how far it got.
type TrustPrice struct {
	// Checks are the groups the project computed itself; Failed those it
	// found wrong.
	Checks, Failed int64
	// HonestHosts are the honest hosts that reported a result; Trusted
	// those of them the server came to trust, DaysToTrust their mean days
	// from arrival to their first trust (NaN when none).
	HonestHosts, Trusted int
	DaysToTrust          float64
}

// TrustPrice returns the replication's trust figures (zeros with trust
// off).
func (s *Sim) TrustPrice() TrustPrice {
	p := TrustPrice{Checks: s.checks, Failed: s.checksFailed}
	days := 0.0
	for i := range s.hosts {
		h := &s.hosts[i]
		if !h.arrived || h.h.Behaviour.Kind != 0 || h.reportedN == 0 {
			continue
		}
		p.HonestHosts++
		if h.firstTrust > 0 {
			p.Trusted++
			days += (h.firstTrust - h.h.Arrival) / 86400
		}
	}
	p.DaysToTrust = math.NaN()
	if p.Trusted > 0 {
		p.DaysToTrust = days / float64(p.Trusted)
	}
	return p
}
