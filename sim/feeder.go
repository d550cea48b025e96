package sim

// The feeder: workunits and their unsent results, in the order the scheduler takes them.

// takeResult removes from the app's feeder the first unsent result whose
// workunit has no other result on this host's user (BOINC's
// one-result-per-user-per-workunit rule), generating a workunit when none
// of the first 64 fits.
func (s *Sim) takeResult(ai, host int) int32 {
	a := &s.apps[ai]
	if a.head > 1024 && a.head*2 > len(a.feeder) {
		a.feeder = append(a.feeder[:0], a.feeder[a.head:]...)
		a.head = 0
	}
	user := s.hosts[host].h.UserID
	for k := a.head; k < len(a.feeder) && k < a.head+64; k++ {
		ri := a.feeder[k]
		r := s.res(ri)
		if r.st != stUnsent {
			// Cancelled while waiting: its workunit no longer needs it. The
			// workunit may still be waiting for others, and must forget it
			// before the slot is reused, or freeing the workunit would free
			// the slot a second time.
			s.takeAt(a, k)
			w := s.wu(r.wu)
			s.removeRep(w, ri)
			*s.gen(ri)++
			s.freeRes.Push(ri)
			continue
		}
		if !s.userHasResult(r.wu, user) {
			s.takeAt(a, k)
			return ri
		}
	}
	wi := s.generate(ai)
	k := len(a.feeder) - len(s.reps(s.wu(wi)))
	ri := a.feeder[k]
	s.takeAt(a, k)
	return ri
}

// untake puts back a result the scheduler took but did not send, at the
// head of its app's feeder.
func (s *Sim) untake(ai int, ri int32) {
	a := &s.apps[ai]
	if a.head == 0 {
		a.feeder = append(a.feeder, 0)
		copy(a.feeder[1:], a.feeder)
		a.head++
	}
	a.head--
	a.feeder[a.head] = ri
}

// takeAt removes feeder entry k, keeping the order of the others.
func (s *Sim) takeAt(a *appState, k int) {
	copy(a.feeder[a.head+1:k+1], a.feeder[a.head:k])
	a.head++
}

// userHasResult reports whether a result of workunit wi was sent to a
// host of user (the scheduler sends a workunit's results to distinct
// users).
func (s *Sim) userHasResult(wi int32, user int) bool {
	w := s.wu(wi)
	if !w.sent || w.users&userBit(int32(user)) == 0 {
		// The usual cases: a new workunit's first result; no result
		// sent to anyone sharing the user's bit.
		return false
	}
	for _, ri := range s.reps(w) {
		r := s.res(ri)
		if r.st != stUnsent && r.st != stCancelled && int(s.reported[r.host].user) == user {
			return true
		}
	}
	return false
}

// userBit is user's bit in a workunit's users.
func userBit(user int32) uint8 { return 1 << (uint32(user) & 7) }

// generate creates one workunit of app ai and its initial results.
func (s *Sim) generate(ai int) int32 {
	a := &s.apps[ai]
	var wi int32
	if s.freeWU.Len() > 0 {
		wi = s.freeWU.Pop()
	} else {
		wi = s.wus.add()
	}
	w := s.wu(wi)
	s.clearReps(w)
	spill := w.reps.spill
	wu := a.stream.Next()
	*w = workunit{app: int32(ai), est: wu.Est, flops: wu.Flops, canonical: -1, gen: w.gen + 1}
	w.reps.spill = spill
	if a.cfg.AdaptiveReplication {
		// Created unreplicated; raised to the app's settings when the first
		// result goes to an untrusted host.
		w.unrepl = true
	}
	for k := int32(0); k < s.target(w); k++ {
		s.newResult(wi)
	}
	return wi
}

// newResult adds an unsent result to workunit wi and the feeder.
func (s *Sim) newResult(wi int32) int32 {
	var ri int32
	if s.freeRes.Len() > 0 {
		ri = s.freeRes.Pop()
	} else {
		ri = s.results.add()
	}
	*s.gen(ri)++
	*s.res(ri) = result{wu: wi, host: -1, st: stUnsent}
	w := s.wu(wi)
	s.addRep(w, ri)
	s.apps[w.app].feeder = append(s.apps[w.app].feeder, ri)
	return ri
}
