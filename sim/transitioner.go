package sim

// The transitioner: deadlines, timeouts, re-issue and failed workunits, and freeing what nothing refers to.

import (
	"github.com/creditsim/creditsim/policy"
)

// deadlineRun is a deadline time and how many results of dlRefs, in
// order, have it.
type deadlineRun struct {
	t float64
	n int32
}

// addDeadline records a sent result's deadline in its app's FIFO and arms
// the app's timeout event if none is pending.
func (s *Sim) addDeadline(ai int, ri int32, gen uint32, t float64) {
	a := &s.apps[ai]
	if !a.deadlines.empty() && a.deadlines.back().t == t {
		a.deadlines.back().n++
	} else {
		a.deadlines.push(deadlineRun{t: t, n: 1})
	}
	a.dlRefs.push(resultRef{ri: ri, gen: gen})
	if a.dlRefs.n >= a.dlCompact && !a.expiring {
		s.compactDeadlines(a)
	}
	if !a.dlArmed {
		a.dlArmed = true
		s.q.push(event{t: t, kind: evTimeout, a: int32(ai)})
	}
}

// compactDeadlines drops from a's deadline FIFO the results timeout
// would pass over: those freed since they were sent (their slot's
// generation has moved on) and those the server has (reported, final
// or cancelled: a result never goes back to its host). It keeps every
// deadline time, so that the FIFO holds about the app's results out on
// hosts rather than a delay bound's worth of sends. It runs when the
// FIFO has doubled since it last ran, and reads only dense arrays (the
// slots' generations and out-on-host bits), never a record.
func (s *Sim) compactDeadlines(a *appState) {
	for k := a.deadlines.n; k > 0; k-- {
		run := *a.deadlines.front()
		a.deadlines.pop()
		live := int32(0)
		for range run.n {
			ref := *a.dlRefs.front()
			a.dlRefs.pop()
			if *s.gen(ref.ri) == ref.gen && s.isOut(ref.ri) {
				a.dlRefs.push(ref)
				live++
			}
		}
		a.deadlines.push(deadlineRun{t: run.t, n: live})
	}
	a.dlCompact = max(2*a.dlRefs.n, 1024)
}

// expire times out every result of app ai whose deadline has come, in
// send order, and re-arms the event for the next deadline.
func (s *Sim) expire(ai int) {
	a := &s.apps[ai]
	a.dlArmed = false
	a.expiring = true
	for !a.deadlines.empty() && a.deadlines.front().t <= s.now {
		run := *a.deadlines.front()
		a.deadlines.pop()
		for range run.n {
			ref := *a.dlRefs.front()
			a.dlRefs.pop()
			s.timeout(int(ref.ri), ref.gen)
		}
	}
	a.expiring = false
	if !a.deadlines.empty() {
		a.dlArmed = true
		s.q.push(event{t: a.deadlines.front().t, kind: evTimeout, a: int32(ai)})
	}
}

// timeout is the transitioner finding a result past its deadline.
func (s *Sim) timeout(ri int, gen uint32) {
	if *s.gen(int32(ri)) != gen {
		return // recorded and freed since, perhaps reused
	}
	// The result's out bit, in a dense array, says whether the server
	// has it already (reported since the list was last compacted) without
	// loading the record.
	if !s.isOut(int32(ri)) {
		return
	}
	r := s.res(int32(ri))
	if r.st != stQueued && r.st != stRunning && r.st != stDone {
		return // cannot be while the bit is right (TestSlotCensus)
	}
	if !r.has(fOrphan) {
		s.dropTimedOut(int32(ri), r)
	}
	r.setOutcome(policy.NoReply)
	r.receive(s.now)
	s.setOut(int32(ri), false)
	pv := s.shown(r)
	for _, p := range s.pols {
		p.Reported(pv)
	}
	if s.cfg.Tracer != nil {
		s.cfg.Tracer.Reported(pv)
	}
	s.finish(int32(ri))
	s.retry(r.wu)
}

// dropTimedOut takes a timed-out result off its host: the client stops
// it (its device time is accounted), the host-version's quota falls and
// its consecutive-valid count restarts, and the client fetches work if
// its queue is short.
func (s *Sim) dropTimedOut(ri int32, r *result) {
	h := &s.hosts[r.host]
	if r.st == stRunning && h.on {
		r.ran += s.now - r.startedAt
	}
	if r.st == stRunning {
		v := &s.versions[r.vid]
		s.addEstimated(h, r.ran, r, v)
		if v.Resource.IsGPU() {
			h.gpuFree += v.GPUUsage
		} else {
			h.cpuFree += h.cpusUsed(v)
		}
	}
	if r.st == stQueued || r.st == stRunning {
		s.dropEstimate(h, r)
	}
	queued := r.st == stQueued
	h.queue = remove(h.queue, ri)
	if queued {
		s.queueWork(h, r, -1)
	}
	h.running = remove(h.running, ri)
	h.done = remove(h.done, ri)
	hv := &h.havs[r.vid]
	q := s.cfg.Server.DailyResultQuota
	if hv.mjd == 0 {
		hv.mjd = q
	}
	hv.mjd = max(1, min(hv.mjd, q)-1)
	hv.consecValid = 0
	r.view.HAV = policy.HAVState{ConsecutiveValid: policy.Count32(hv.consecValid), MaxJobsPerDay: policy.Count32(hv.mjd)}
	if r.runTotal > 0 && jobDoesWork(&s.hosts[r.host], r) {
		r.flopsDone = s.wu(r.wu).flops * min(r.ran/r.runTotal, 1)
		r.set(fEnded, true)
	}
	s.startJobs(int(r.host))
	// The client drops the job; with its queue short it asks for
	// work. A host whose every job timed out would otherwise never
	// call again (its calls come at a job's end).
	if !h.contact && h.on {
		h.contact = true
		s.q.push(event{t: s.now, kind: evContact, a: r.host})
	}
}

func remove(l []int32, x int32) []int32 {
	for k, y := range l {
		if y == x {
			return append(l[:k], l[k+1:]...)
		}
	}
	return l
}

// retry issues another result after an error, unless the workunit has
// failed or no longer needs one.
func (s *Sim) retry(wi int32) {
	w := s.wu(wi)
	a := s.apps[w.app].cfg
	if w.failed {
		s.maybeFree(wi)
		return
	}
	// As transitioner.cpp: more client errors than max_error_results
	// fail the workunit; time-outs and aborts are no replies, and count
	// only towards max_total_results, which fails it when another
	// result is needed and none may be made.
	if int(w.nError) > a.MaxErrorResults {
		s.failWU(wi)
		return
	}
	if w.assim {
		s.maybeFree(wi)
		return
	}
	// Results still able to succeed.
	alive := 0
	for _, ri := range s.reps(w) {
		st := s.res(ri).st
		if st == stUnsent || st == stQueued || st == stRunning || st == stDone ||
			st == stReported && s.res(ri).outcome() == policy.Success && s.res(ri).validateState() != policy.Invalid {
			alive++
		}
	}
	if alive < int(s.target(w)) {
		if len(s.reps(w)) >= a.MaxTotalResults {
			s.failWU(wi)
			return
		}
		s.newResult(wi)
	}
}

// failWU marks a workunit failed: unsent results are cancelled; results
// in progress still count for their hosts but grant nothing.
func (s *Sim) failWU(wi int32) {
	w := s.wu(wi)
	w.failed = true
	for _, ri := range s.reps(w) {
		switch s.res(ri).st {
		case stUnsent:
			s.res(ri).st = stCancelled
		case stReported:
			s.finish(ri)
		}
	}
	s.maybeFree(wi)
}

// maybeFree returns a workunit and its results to the pools once nothing
// refers to them any more.
func (s *Sim) maybeFree(wi int32) {
	w := s.wu(wi)
	if !w.assim && !w.failed {
		return
	}
	for _, ri := range s.reps(w) {
		r := s.res(ri)
		if r.st != stOver && r.st != stCancelled && r.st != stUnsent || r.has(fSettling) || r.has(fHeld) {
			return
		}
	}
	for _, ri := range s.reps(w) {
		r := s.res(ri)
		if r.st == stUnsent || r.st == stCancelled {
			// Still in the feeder: freed when taken. Freeing it here too
			// would hand the slot out twice.
			r.st = stCancelled
			continue
		}
		if r.has(fAltTimes) {
			delete(s.altTimes, r.id)
		}
		s.clearPaid(ri)
		*s.gen(ri)++
		s.freeRes.Push(ri)
	}
	s.clearReps(w)
	s.freeCredit(w)
	w.gen++
	s.freeWU.Push(wi)
}
