package sim

// The feeder: workunits and their unsent results, in the order the
// feeder enumerates them (by workunit, oldest first), and the
// shared-memory work array the scheduler picks them from.

// workArray is each project's feeder's shared-memory work array
// (shmem_work_items slots), its slots shared among the project's apps by
// weight, as the feeder's --allapps mode interleaves them. A slot holds an unsent result (or one
// cancelled since it was put there), or -1 when empty. The feeder fills
// empty slots from each app's queue before a request looks at them (its
// scans run every few seconds, between requests); the scheduler scans an
// app's slots once per request and resource, from a random slot
// (send_work_score_type), and a slot it empties stays empty for the rest
// of that request.
type workArray struct {
	slots []int32
	// first and n are each app's slots: slots[first[ai]:first[ai]+n[ai]].
	first, n []int
}

// newWorkArray gives each project size slots, shared among its apps by
// their weights: app i of project p gets floor(0.5 + size x w_i / sum of
// p's weights) (feeder.cpp's enum_sizes), at least one.
func newWorkArray(size int, weights []float64, project []int) workArray {
	sum := map[int]float64{}
	for i, w := range weights {
		sum[project[i]] += w
	}
	wa := workArray{first: make([]int, len(weights)), n: make([]int, len(weights))}
	at := 0
	for i, w := range weights {
		k := int(0.5 + float64(size)*w/sum[project[i]])
		if !(k >= 1) {
			k = 1
		}
		wa.first[i], wa.n[i] = at, k
		at += k
	}
	wa.slots = make([]int32, at)
	for i := range wa.slots {
		wa.slots[i] = -1
	}
	return wa
}

// takeResult returns an unsent result of app ai for host, or -1: the
// next slot of the app's scan in this request whose workunit the host
// may have (one_result_per_user_per_wu, one_result_per_host_per_wu). The
// first take of a request fills the app's empty slots and draws where
// its scan starts.
func (s *Sim) takeResult(ai, host int) int32 {
	a := &s.apps[ai]
	wa := &s.work
	if a.rpc != s.rpc {
		a.rpc = s.rpc
		s.fillSlots(ai)
		a.scanAt, a.scanned = int(s.feedRng.Uint64N(uint64(wa.n[ai]))), 0
	}
	for a.scanned < wa.n[ai] {
		k := wa.first[ai] + (a.scanAt+a.scanned)%wa.n[ai]
		a.scanned++
		ri := wa.slots[k]
		if ri < 0 {
			continue
		}
		r := s.res(ri)
		if r.st != stUnsent {
			// Cancelled while waiting: its workunit no longer needs it. The
			// workunit may still be waiting for others, and must forget it
			// before the slot is reused, or freeing the workunit would free
			// the slot a second time.
			wa.slots[k] = -1
			s.dropCancelled(ri)
			continue
		}
		if s.hasResultOf(r.wu, host) {
			continue
		}
		wa.slots[k] = -1
		a.taken = k
		return ri
	}
	return -1
}

// untake puts back the result the scheduler took last from app ai but
// did not send, into its slot.
func (s *Sim) untake(ai int, ri int32) {
	s.work.slots[s.apps[ai].taken] = ri
}

// fillSlots is the feeder filling app ai's empty slots from the app's
// queue, creating workunits when the queue runs out (the work generator
// keeps it from running dry).
func (s *Sim) fillSlots(ai int) {
	a := &s.apps[ai]
	wa := &s.work
	for k := wa.first[ai]; k < wa.first[ai]+wa.n[ai]; k++ {
		for wa.slots[k] < 0 {
			if a.head == len(a.feeder) {
				s.generate(ai)
			}
			ri := a.feeder[a.head]
			a.head++
			if s.res(ri).st != stUnsent {
				s.dropCancelled(ri)
				continue
			}
			wa.slots[k] = ri
		}
	}
	if a.head > 1024 && a.head*2 > len(a.feeder) {
		a.feeder = append(a.feeder[:0], a.feeder[a.head:]...)
		a.head = 0
	}
}

// dropCancelled frees a cancelled result the feeder held.
func (s *Sim) dropCancelled(ri int32) {
	w := s.wu(s.res(ri).wu)
	s.removeRep(w, ri)
	*s.gen(ri)++
	s.freeRes.Push(ri)
}

// hasResultOf reports whether host may not have a result of workunit
// wi: it has one already, with one_result_per_host_per_wu, or its user
// has, with one_result_per_user_per_wu; or, with server trust pairing,
// the host is untrusted and so was one the workunit was sent to.
func (s *Sim) hasResultOf(wi int32, host int) bool {
	sv := &s.cfg.Server
	if sv.Trust.PairUntrusted && s.nTrusted > 0 && s.wu(wi).untrusted && !s.hosts[host].trusted {
		// Server trust pairs an untrusted host's result with trusted
		// hosts' only.
		return true
	}
	switch {
	case sv.OneResultPerUserPerWU:
		return s.userHasResult(wi, s.hosts[host].h.UserID)
	case sv.OneResultPerHostPerWU:
		return s.hostHasResult(wi, host)
	}
	return false
}

// hostHasResult reports whether a result of workunit wi was sent to
// host.
func (s *Sim) hostHasResult(wi int32, host int) bool {
	w := s.wu(wi)
	if !w.sent {
		return false
	}
	for _, ri := range s.reps(w) {
		r := s.res(ri)
		if r.st != stUnsent && r.st != stCancelled && int(r.host) == host {
			return true
		}
	}
	return false
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
