package sim

import "math"

// DirtyFreeSlots returns how many result slots on the free list have
// runtime accounting's row of paid, and how many of those rows are not
// zero: what the slot's next occupant would start with. Tests only.
func (s *Sim) DirtyFreeSlots() (withRow, dirty int) {
	for i := range s.freeRes.Len() {
		if row := s.paidRow(*s.freeRes.At(i)); row != nil {
			withRow++
			for _, x := range row {
				if x != 0 {
					dirty++
					break
				}
			}
		}
	}
	return withRow, dirty
}

// HostJobs returns how many results the hosts hold in their queues, as
// running jobs, and ended but not yet reported. Tests only.
func (s *Sim) HostJobs() (queued, running, ended int) {
	for i := range s.hosts {
		h := &s.hosts[i]
		queued += len(h.queue)
		running += len(h.running)
		ended += len(h.done)
	}
	return queued, running, ended
}

// OutBitsWrong counts the result slots in use whose out-on-host bit is
// not what their state says (queued, running or ended on a host, the
// host departed or not). Tests only.
func (s *Sim) OutBitsWrong() int {
	free := map[int32]bool{}
	for i := range s.freeRes.Len() {
		free[*s.freeRes.At(i)] = true
	}
	wrong := 0
	for i := int32(0); i < s.results.n; i++ {
		if free[i] {
			continue
		}
		st := s.res(i).st
		if s.isOut(i) != (st == stQueued || st == stRunning || st == stDone) {
			wrong++
		}
	}
	return wrong
}

// WorkArraySlots returns each app's slots of a work array of size slots
// per project. Tests only.
func WorkArraySlots(size int, weights []float64, projects []int) []int {
	return newWorkArray(size, weights, projects).n
}

// IdentityState says, for host i, the results it reported as this
// identity, its successor, whether it has gone, and what it holds.
func (s *Sim) IdentityState(i int) (reported, successor int32, gone bool, queued, running, done int, nextTry float64) {
	h := &s.hosts[i]
	return h.reportedN, h.successor, h.gone, len(h.queue), len(h.running), len(h.done), h.nextTry
}

// QueuedWorkDrift returns the largest difference, relative to the
// host's CPUs and GPUs, between a host's running sum of its queued jobs'
// instance-seconds (hostState.queued) and the sum over its queue now.
// Tests only.
func (s *Sim) QueuedWorkDrift() float64 {
	worst := 0.0
	for i := range s.hosts {
		h := &s.hosts[i]
		var sum [2]float64
		for _, ri := range h.queue {
			r := s.res(ri)
			c := 0
			if s.versions[r.vid].Resource.IsGPU() {
				c = 1
			}
			sum[c] += r.estRun * s.instances(h, int(r.vid))
		}
		for c := range sum {
			worst = max(worst, math.Abs(sum[c]-h.queued[c])/max(1, sum[c]))
		}
	}
	return worst
}
