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
// confirmed results in a row make its host trusted (with AbortUntrusts,
// only results sent after its last abort count); an invalid result takes
// its host's trust away.
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
		if h.trusted || r.sentTime < h.untrustedAt || !(checked || s.trustedOther(w, ri)) {
			continue
		}
		h.confirmed++
		if int(h.confirmed) >= s.cfg.Server.Trust.Confirmations {
			h.trusted = true
			s.nTrusted++
			// With HoldTrusted, what the host holds from before is paid
			// as a trusted host's is, once held that long: else a host
			// caught, held and trusted again would be paid sooner than
			// an honest one.
			if s.cfg.Server.Trust.HoldTrusted == 0 {
				s.settleEscrow(int(r.host), true)
			}
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

// untrust takes host i's trust away and restarts its count; with escrow,
// the credit it holds is revoked, or, with Audit and a host that was
// trusted (whose credit HoldTrusted held), checked and revoked where
// wrong. An untrusted host's escrow is revoked whole: it holds little
// (it is trusted after a few confirmations), and auditing a faker's
// would have the project compute everything it faked.
func (s *Sim) untrust(i int) {
	h := &s.hosts[i]
	was := h.trusted
	if was {
		s.nTrusted--
	}
	h.trusted, h.confirmed = false, 0
	switch t := &s.cfg.Server.Trust; {
	case t.Escrow && t.Audit && was:
		s.audit(i)
	case t.Escrow:
		s.settleEscrow(i, false)
	}
}

// audit checks every result host i holds: the project computes each
// job and revokes the results whose output is wrong; the right ones are
// verified, paid when their hold ends as an honest host's are (paid at
// once, a caught host would be paid sooner than an honest one) and
// never revoked. Each is a project check.
func (s *Sim) audit(i int) {
	held := s.held[int32(i)]
	kept := held[:0]
	honest := s.hosts[i].h.Behaviour.Kind == 0
	for _, ri := range held {
		r := s.res(ri)
		if r.has(fVerified) {
			kept = append(kept, ri)
			continue
		}
		s.checks++
		if r.output == 0 {
			r.set(fVerified, true)
			kept = append(kept, ri)
			continue
		}
		s.checksFailed++
		r.set(fHeld, false)
		r.set(fRevoked, true)
		if honest {
			s.escrow.revoked++
		}
		s.finish(ri)
		s.maybeFree(r.wu)
	}
	if len(kept) == 0 {
		delete(s.held, int32(i))
		return
	}
	s.held[int32(i)] = kept
}

// escrowed puts valid result ri in escrow if escrow is on and its host
// is untrusted, or trusted with HoldTrusted: final, not granted nor
// recorded until settled. It reports whether it did.
func (s *Sim) escrowed(ri int32) bool {
	t := &s.cfg.Server.Trust
	if t.Confirmations == 0 {
		return false // no server trust: nothing to read on the hot path
	}
	r := s.res(ri)
	if s.hosts[r.host].h.Behaviour.Kind == 0 {
		s.escrow.valid++
	}
	if !t.Escrow || r.has(fOrphan) || s.hosts[r.host].trusted && t.HoldTrusted == 0 {
		return false
	}
	if s.held == nil {
		s.held = map[int32][]int32{}
	}
	r.st = stOver
	r.startedAt = s.now
	r.set(fHeld, true)
	s.held[r.host] = append(s.held[r.host], ri)
	return true
}

// settleEscrow ends host i's escrow: granted (release) when the server
// has come to trust it, else revoked (recorded with no credit).
func (s *Sim) settleEscrow(i int, release bool) { s.settleHeld(i, release, false) }

// settleHeld grants (release) or revokes what host i holds; atEnd counts
// an honest host's revoked results as held at the run's end instead.
func (s *Sim) settleHeld(i int, release, atEnd bool) {
	held := s.held[int32(i)]
	if len(held) == 0 {
		return
	}
	delete(s.held, int32(i))
	honest := s.hosts[i].h.Behaviour.Kind == 0
	var kept []int32
	for _, ri := range held {
		r := s.res(ri)
		if r.has(fVerified) && !release && !atEnd {
			kept = append(kept, ri) // audited right: waits out its hold
			continue
		}
		r.set(fHeld, false)
		if release {
			s.grant(ri, s.creditRow(r.wu))
		} else {
			r.set(fRevoked, true)
			switch {
			case honest && atEnd:
				s.escrow.heldAtEnd++
			case honest:
				s.escrow.revoked++
			}
		}
		s.finish(ri)
		s.maybeFree(r.wu)
	}
	if len(kept) > 0 {
		s.held[int32(i)] = kept
	}
}

// releaseHeld grants trusted hosts' results held HoldTrusted or longer,
// and any host's results an audit verified once held that long (called
// daily, hosts in order).
func (s *Sim) releaseHeld() {
	cutoff := s.now - s.cfg.Server.Trust.HoldTrusted
	for i := range s.hosts {
		held := s.held[int32(i)]
		if len(held) == 0 {
			continue
		}
		trusted := s.hosts[i].trusted
		kept := held[:0]
		for _, ri := range held {
			r := s.res(ri)
			if r.startedAt > cutoff || !trusted && !r.has(fVerified) {
				kept = append(kept, ri)
				continue
			}
			r.set(fHeld, false)
			s.grant(ri, s.creditRow(r.wu))
			s.finish(ri)
			s.maybeFree(r.wu)
		}
		if len(kept) == 0 {
			delete(s.held, int32(i))
		} else {
			s.held[int32(i)] = kept
		}
	}
}

// escrowAtEnd records the results still in escrow when the run ends:
// their credit was never granted.
func (s *Sim) escrowAtEnd() {
	for i := range s.hosts {
		s.settleHeld(i, false, true)
	}
}

// escrowFull reports whether untrusted host i holds as many results in
// escrow as it may: it gets no work until they are released. Results an
// audit verified count too: a host caught with a backlog gets no more
// work until its hold ends. A trusted
// host's hold (HoldTrusted) is bounded by its length instead: a fast
// honest host must not stall for the week its credit waits.
func (s *Sim) escrowFull(i int) bool {
	t := &s.cfg.Server.Trust
	return t.Escrow && !s.hosts[i].trusted && len(s.held[int32(i)]) >= t.EscrowLimit
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
	// HonestValid counts honest hosts' valid results; Revoked those whose
	// escrowed credit was revoked, HeldAtEnd those still in escrow when
	// the run ended (with escrow on).
	HonestValid, Revoked, HeldAtEnd int64
}

// TrustPrice returns the replication's trust figures (zeros with trust
// off).
func (s *Sim) TrustPrice() TrustPrice {
	p := TrustPrice{Checks: s.checks, Failed: s.checksFailed, HonestValid: s.escrow.valid, Revoked: s.escrow.revoked, HeldAtEnd: s.escrow.heldAtEnd}
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

// jobDoesWork reports whether host h computes job r: not a fake's, nor a
// job an awake sleeper fakes.
func jobDoesWork(h *hostState, r *result) bool {
	return h.h.Behaviour.DoesWork() && !r.has(fFake)
}

// awake reports whether sleeper host i believes the server trusts it: the
// server's own trust when it keeps one, else adaptive replication's (10
// consecutive valid results on one of its app versions).
func (s *Sim) awake(i int) bool {
	h := &s.hosts[i]
	if s.cfg.Server.Trust.Confirmations > 0 {
		return h.trusted
	}
	for k := range h.havs {
		if h.havs[k].consecValid >= 10 {
			return true
		}
	}
	return false
}

// Reported returns what host i reported to the server: Whetstone and
// Dhrystone per CPU and its CPUs (what a project's host table holds).
func (s *Sim) Reported(i int) (pf, pi float64, ncpus int) {
	h := &s.hosts[i]
	return h.pf, h.pi, h.ncpus
}

// ReportedGPUPeak is the peak FLOPS per GPU host i reports.
func (s *Sim) ReportedGPUPeak(i int) float64 { return s.hosts[i].gpuPeak }
