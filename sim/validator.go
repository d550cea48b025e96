package sim

// The validator: quorums, canonical results, credit and the host-version rows it updates.

import (
	"github.com/creditsim/creditsim/boinc"
	"github.com/creditsim/creditsim/model/hosts"
	"github.com/creditsim/creditsim/policy"
)

// validatorPass handles every workunit with new successful results: find
// a canonical result (a group of min_quorum agreeing outputs), mark
// results valid or invalid, ask each policy for the credit, and grant it.
func (s *Sim) validatorPass() {
	if len(s.valQueue) == 0 {
		return
	}
	queue := s.valQueue
	s.valQueue = nil
	for k, wi := range queue {
		s.prefetchValidation(queue, k)
		s.validate(wi)
	}
	s.valQueue = append(queue[:0], s.valQueue...)
	for _, p := range s.pols {
		p.Tick(policy.Tick{Kind: policy.ValidatorPassEnd, Time: s.now})
	}
	if s.cfg.Tracer != nil {
		s.cfg.Tracer.Tick(policy.Tick{Kind: policy.ValidatorPassEnd, Time: s.now})
	}
}

func (s *Sim) validate(wi int32) {
	w := s.wu(wi)
	w.queued = false
	if w.failed {
		return
	}
	if w.assim {
		s.validateLate(wi)
		return
	}
	best, bestN, pending := s.largestGroup(w)
	if pending < int(s.quorum(w)) {
		return
	}
	if bestN < int(s.quorum(w)) {
		s.askForMore(wi)
		return
	}
	checked := false
	if s.cfg.Server.Trust.Confirmations > 0 {
		var goOn bool
		if goOn, checked = s.checkGroup(wi, best); !goOn {
			return
		}
	}
	s.markAgainst(w, best)
	s.showValidation(s.reps(w))
	s.apps[w.app].validated++
	s.countQuorum()
	// With max_claimed_credit every result of the agreeing group may be
	// invalid: the workunit has its canonical result, and no result is
	// granted the credit.
	s.val = policy.Validation{Time: s.now, WorkunitID: int64(wi)<<32 | int64(w.gen), AppID: int(w.app),
		RscFpopsEst: w.est, RscFpopsBound: s.bound(w), Valid: s.views, Invalid: s.invalid}
	credit := s.newCredit(wi)
	for p, pol := range s.pols {
		credit[p] = policy.Finite(pol.Validated(&s.val))
	}
	if s.cfg.Tracer != nil {
		s.cfg.Tracer.Validated(&s.val, credit)
	}
	s.updateHAVs(wi)
	if s.cfg.Server.Trust.Confirmations > 0 {
		s.confirm(w, checked)
	}
	w.assim = true
	s.grantAll(wi, credit)
	s.maybeFree(wi)
}

// largestGroup groups w's unvalidated successes by output: the output
// most of them agree on, how many do, and how many successes wait.
func (s *Sim) largestGroup(w *workunit) (best uint32, bestN, pending int) {
	for _, ri := range s.reps(w) {
		r := s.res(ri)
		if r.st != stReported || r.outcome() != policy.Success {
			continue
		}
		pending++
		n := 0
		for _, rj := range s.reps(w) {
			o := s.res(rj)
			if o.st == stReported && o.outcome() == policy.Success && o.output == r.output {
				n++
			}
		}
		if n > bestN {
			best, bestN = r.output, n
		}
	}
	return best, bestN, pending
}

// askForMore handles a quorum of successes without agreement: once no
// result is still out, one more is made, or, at max_total_results, the
// workunit fails with its reported results invalid. As BOINC's validator
// does, more disagreeing successes than max_success_results fail it at
// once, whatever is still out.
func (s *Sim) askForMore(wi int32) {
	w := s.wu(wi)
	a := s.apps[w.app].cfg
	alive, viable := 0, 0
	for _, ri := range s.reps(w) {
		r := s.res(ri)
		switch r.st {
		case stUnsent, stQueued, stRunning, stDone:
			alive++
		case stReported:
			if r.outcome() == policy.Success {
				viable++
			}
		}
	}
	tooMany := a.MaxSuccessResults > 0 && viable > a.MaxSuccessResults
	if alive > 0 && !tooMany {
		return
	}
	if tooMany || len(s.reps(w)) >= a.MaxTotalResults {
		for _, ri := range s.reps(w) {
			if s.res(ri).st == stReported {
				s.res(ri).setValidateState(policy.Invalid)
			}
		}
		s.failWU(wi)
		return
	}
	s.newResult(wi)
}

// markAgainst marks w's reported successes valid when their output is
// best (and they do not claim too much), else invalid; the first of best
// becomes the canonical result.
func (s *Sim) markAgainst(w *workunit, best uint32) {
	for _, ri := range s.reps(w) {
		r := s.res(ri)
		if r.st != stReported || r.outcome() != policy.Success {
			continue
		}
		if r.output == best && w.canonical < 0 {
			w.canonical = ri
		}
		if r.output == best && !s.overClaims(r) {
			r.setValidateState(policy.Valid)
			// The validator computes credit from the host-version rows as
			// they are now, and only then counts the results valid or
			// invalid (validator.cpp: assign_credit_set before is_valid).
			s.showHAV(r)
		} else {
			r.setValidateState(policy.Invalid)
		}
	}
}

// grantAll grants credit to wi's valid reported results and finishes
// every reported one; unsent results are no longer needed.
func (s *Sim) grantAll(wi int32, credit []float64) {
	w := s.wu(wi)
	for _, ri := range s.reps(w) {
		r := s.res(ri)
		if r.st == stUnsent {
			r.st = stCancelled
		}
		if r.st != stReported {
			continue
		}
		if r.validateState() == policy.Valid {
			if s.escrowed(ri) {
				continue
			}
			s.grant(ri, credit)
		}
		s.finish(ri)
	}
}

// validateLate checks results that arrive after the canonical one against
// it; a valid one gets the canonical credit.
func (s *Sim) validateLate(wi int32) {
	w := s.wu(wi)
	canon := s.res(w.canonical).output
	credit := s.creditRow(wi)
	for _, ri := range s.reps(w) {
		r := s.res(ri)
		if r.st != stReported || r.outcome() != policy.Success {
			continue
		}
		if r.output == canon && !s.overClaims(r) {
			r.setValidateState(policy.Valid)
		} else {
			r.setValidateState(policy.Invalid)
		}
		s.updateHAV(r)
		if r.validateState() != policy.Valid {
			s.untrust(int(r.host))
		}
		s.one[0] = ri
		s.showValidation(s.one[:])
		for p, pol := range s.pols {
			s.val = policy.Validation{Time: s.now, WorkunitID: int64(wi)<<32 | int64(w.gen), AppID: int(w.app),
				RscFpopsEst: w.est, RscFpopsBound: s.bound(w), Valid: s.views, Invalid: s.invalid,
				Late: true, CanonicalCredit: credit[p]}
			pol.Validated(&s.val)
		}
		if s.cfg.Tracer != nil {
			s.val.CanonicalCredit = 0
			s.cfg.Tracer.Validated(&s.val, credit)
		}
		if r.validateState() == policy.Valid {
			if s.escrowed(ri) {
				continue
			}
			s.grant(ri, credit)
		}
		s.finish(ri)
	}
	s.maybeFree(wi)
}

// countQuorum counts a workunit's validation by the day its first valid
// result was sent, and whether every valid result came from an agent's
// host (Host.Group not honest): a quorum no honest host checked.
func (s *Sim) countQuorum() {
	if len(s.views) == 0 {
		return
	}
	day := int(s.views[0].SentTime / boinc.SecondsPerDay)
	for len(s.quorums) <= day {
		s.quorums = append(s.quorums, [2]int64{})
	}
	s.quorums[day][0]++
	for _, v := range s.views {
		if s.hosts[v.HostID].h.Group == hosts.Group(hosts.Honest) {
			return
		}
	}
	s.quorums[day][1]++
}

// Quorums returns, per day a workunit's first valid result was sent on,
// how many workunits were validated and how many of those had only
// agents' results valid.
func (s *Sim) Quorums() [][2]int64 { return s.quorums }

// Validated returns how many workunits of each app (in the order of
// Config's apps) the validator has validated.
func (s *Sim) Validated() []int64 {
	out := make([]int64, len(s.apps))
	for i := range s.apps {
		out[i] = s.apps[i].validated
	}
	return out
}

// overClaims reports whether result r claims more than the validator's
// max_claimed_credit (0: off), which makes it invalid whatever its output
// (validate_util2.cpp's check_set and check_pair, 2006 to 2011). Its
// claimed_credit is the first system's claim as the scheduler of that
// era stored it: the FLOPs the app counted where it counts them, else
// CPU time x the mean of the host's reported benchmarks, at 100
// Cobblestones per GFLOPS-day.
func (s *Sim) overClaims(r *result) bool {
	max := s.cfg.Server.MaxClaimedCredit
	if max == 0 {
		return false
	}
	return ClaimedCredit(s.shown(r), &s.versions[r.vid]) > max
}

// ClaimedCredit is result r's claimed_credit as the first system's
// scheduler stored it (see overClaims).
func ClaimedCredit(r *policy.Result, v *policy.AppVersion) float64 {
	if v.CountsFlops {
		return policy.Finite(policy.FlopsToCredit(r.CountedFlops, policy.ScaleClassic))
	}
	return policy.BenchmarkClaim(r, false, policy.ScaleClassic)
}

func (s *Sim) updateHAVs(wi int32) {
	for _, ri := range s.reps(s.wu(wi)) {
		r := s.res(ri)
		if r.st == stReported && r.outcome() == policy.Success {
			s.updateHAV(r)
		}
	}
}

// showValidation shows the policies the results of rs the validator has
// just judged (reported successes): the views of the valid ones in
// s.views, of the invalid ones in s.invalid, in the order of rs.
func (s *Sim) showValidation(rs []int32) {
	s.views, s.invalid = s.views[:0], s.invalid[:0]
	if cap(s.viewBuf) < len(rs) {
		s.viewBuf = make([]policy.Result, len(rs))
	}
	buf := s.viewBuf[:cap(s.viewBuf)]
	k := 0
	for _, ri := range rs {
		r := s.res(ri)
		if r.st != stReported || r.outcome() != policy.Success {
			continue
		}
		v := s.show(r, &buf[k])
		k++
		if r.validateState() == policy.Valid {
			s.views = append(s.views, v)
		} else {
			s.invalid = append(s.invalid, v)
		}
	}
}

// showHAV gives a result's view the host-version row as it is now.
func (s *Sim) showHAV(r *result) {
	if h := &s.hosts[r.host]; !h.gone {
		hv := &h.havs[r.vid]
		r.view.HAV = policy.HAVState{ConsecutiveValid: policy.Count32(hv.consecValid), MaxJobsPerDay: policy.Count32(hv.mjd)}
	}
}

// updateHAV applies the validator's rules to a host-version row: valid
// adds one to consecutive_valid (not for a job deliberately sent once:
// is_unreplicated) and to max_jobs_per_day (uncapped), and, as the
// credit computation does, a sample of elapsed time over rsc_fpops_est
// to the host's runtime statistics and one of PFC over rsc_fpops_est to
// the version's, unless the result is a runtime outlier; invalid resets
// consecutive_valid and takes one off a quota above the project's.
func (s *Sim) updateHAV(r *result) {
	valid := r.validateState() == policy.Valid
	est := s.wu(r.wu).est
	usable := valid && est > 0 && !runtimeOutlier(r)
	elapsed, cpu := s.reportedTimes(r)
	if elapsed < 1e-6 {
		elapsed = cpu
	}
	if x := elapsed * r.view.FlopsEstimate / est; usable && !s.versions[r.vid].Anonymous && x >= 1e-4 && x <= 1e4 {
		// The version's PFC statistics, which the scheduler's estimates use.
		s.avPFC[r.vid].Update(x, policy.AVParams)
	}
	if r.has(fOrphan) {
		return
	}
	hv := &s.hosts[r.host].havs[r.vid]
	w := s.wu(r.wu)
	if valid {
		if !(s.target(w) == 1 && s.apps[w.app].cfg.TargetNResults > 1) {
			hv.consecValid++
		}
		hv.mjd++
		if usable {
			hv.et.Update(elapsed/est, policy.HAVParams)
		}
	} else {
		hv.consecValid = 0
		if hv.mjd > s.cfg.Server.DailyResultQuota {
			hv.mjd--
		}
	}
	r.view.HAV = policy.HAVState{ConsecutiveValid: policy.Count32(hv.consecValid), MaxJobsPerDay: policy.Count32(hv.mjd)}
}

// grant credits result ri with credit[p] from each policy.
func (s *Sim) grant(ri int32, credit []float64) {
	r := s.res(ri)
	s.ledgers.grant(r.host, &s.reported[r.host], r.sentTime, s.now, credit)
}

// runtimeOutlier reports whether the server keeps a result out of the
// runtime statistics: flagged by the project (which the engine never
// does: its views' RuntimeOutlier is false), or sent with a failed or
// missing benchmark (flops_estimate 1e9 or <= 0, which get_pfc replaces
// and flags).
func runtimeOutlier(r *result) bool {
	return r.view.FlopsEstimate <= 0 || r.view.FlopsEstimate == 1e9
}
