package sim

import (
	"unsafe"

	"github.com/creditsim/creditsim/internal/hugepage"
	"github.com/creditsim/creditsim/internal/prefetch"
	"github.com/creditsim/creditsim/policy"
)

// This file is the client's side of runtime accounting (Science United):
// the estimated credit a client reports to its account manager, and the
// attribution of what the account manager pays to the results that ran.

// addEstimated adds runtime seconds of a job to the host's estimated
// credit for the job's project: runtime x the reported peak FLOPS of the
// devices the job uses, CPU and GPU apart, as the client counts it
// (client/work_fetch.cpp update_rec: per resource, instance-seconds x
// the resource's speed).
func (s *Sim) addEstimated(h *hostState, runtime float64, r *result, v *policy.AppVersion) {
	cpu, gpu := s.reportedPeak(r, v)
	e := &h.estFlops[v.ProjectID]
	e[0] += runtime * cpu
	e[1] += runtime * gpu
}

// accountManagerCall is a client's call to its account manager: for each
// project it reports the estimated credit accumulated so far (jobs that
// stopped, plus the running ones up to now), and the runtime-accounting
// policies grant what they make of it. A host that is off when a call is
// due makes it when it comes back on (the client calls once its next RPC
// time has passed); the next call is due an interval after the last.
func (s *Sim) accountManagerCall(i int) {
	h := &s.hosts[i]
	if h.gone {
		return
	}
	if !h.on {
		h.amDue = true
		return
	}
	h.amDue = false
	if next := s.now + float64(s.cfg.Hosts.AccountManagerInterval); next < s.cfg.Duration {
		s.q.push(event{t: next, kind: evAccountManager, a: int32(i)})
	}
	for p := range s.cfg.Projects {
		est := h.estFlops[p]
		for _, ri := range h.running {
			r := s.res(ri)
			v := &s.versions[r.vid]
			if v.ProjectID == p {
				cpu, gpu := s.reportedPeak(r, v)
				run := r.ran + (s.now - r.startedAt)
				est[0] += run * cpu
				est[1] += run * gpu
			}
		}
		// One reused report: passed through an interface, a local would
		// be allocated at every call.
		c := &s.amReport
		*c = policy.ClientReport{Time: s.now, HostID: i, UserID: h.h.UserID, TeamID: h.h.TeamID, ProjectID: p,
			EstimatedCPUFlops: est[0], EstimatedGPUFlops: est[1], NCPUs: h.ncpus, CPUPeak: h.pf,
			NGPUs: h.h.NGPUs, GPUPeak: h.gpuPeak}
		for k, pol := range s.pols {
			if credit := pol.ClientReport(c); credit != 0 {
				s.ledgers.grantClient(k, c, credit)
			}
		}
	}
	s.settle(i, true)
}

// trackRuntime puts a result that starts running on host h on the host's
// list of runtime to settle, with nothing paid yet. A result that never
// ran has nothing to settle.
func (s *Sim) trackRuntime(h *hostState, ri int32) {
	n := len(s.ras)
	if n == 0 {
		return
	}
	h.unpaid = append(h.unpaid, resultRef{ri: ri, gen: *s.gen(ri)})
	// In chunks of a pool chunk's rows, as the results are (never
	// copied, never more than a chunk ahead); the pool can be several
	// chunks ahead of the results that have started (a large world
	// queues many before any runs).
	n++ // and amRan
	for int(ri)/resultChunk >= len(s.paid) {
		c := make([]float64, resultChunk*n)
		hugepage.Advise(c)
		s.paid = append(s.paid, c)
	}
}

// paidRow returns result slot ri's row of paid: the credit each
// runtime-accounting policy has paid for its runtime so far, then the
// runtime already settled by account-manager calls (paid, or lost when
// the host left: amRan). It is nil for a slot beyond the rows, whose
// result has never run.
func (s *Sim) paidRow(ri int32) []float64 {
	if k := int(ri) / resultChunk; k < len(s.paid) {
		n := len(s.ras) + 1
		j := int(ri%resultChunk) * n
		return s.paid[k][j : j+n : j+n]
	}
	return nil
}

// amRan is the runtime of result ri already settled by account-manager
// calls.
func (s *Sim) amRan(ri int32) float64 {
	if row := s.paidRow(ri); row != nil {
		return row[len(row)-1]
	}
	return 0
}

// clearPaid forgets what the result in slot ri, which is being freed,
// was paid and had settled, so that every free slot's row is zero for
// its next occupant. Freeing is the time to do it: settling or
// validating the result has just read the row, where taking the slot
// again would find it long gone from the caches. A result that never
// ran has nothing to clear.
func (s *Sim) clearPaid(ri int32) { clear(s.paidRow(ri)) }

// settle attributes runtime to host i's results after an account-manager
// call (pay true: each policy pays for the runtime since the previous
// call what its call just granted for it) or when the host leaves (pay
// false: that runtime is never paid). Results that have stopped running
// are then fully settled; those already final are recorded.
func (s *Sim) settle(i int, pay bool) {
	if len(s.ras) == 0 {
		return
	}
	h := &s.hosts[i]
	s.prefetchUnpaid(h)
	k := 0
	for _, ref := range h.unpaid {
		if *s.gen(ref.ri) != ref.gen {
			continue // freed since: its runtime was settled before
		}
		r := s.res(ref.ri)
		ran := r.ran
		if r.st == stRunning && h.on {
			ran += s.now - r.startedAt
		}
		paid := s.paidRow(ref.ri) // tracked: never nil
		if tail := ran - paid[len(s.ras)]; tail > 0 && pay {
			s.pay(ref.ri, tail)
		}
		paid[len(s.ras)] = ran
		if (r.st == stQueued || r.st == stRunning) && pay {
			h.unpaid[k] = ref
			k++
			continue
		}
		if r.has(fSettling) {
			r.set(fSettling, false)
			s.record(ref.ri)
			s.maybeFree(r.wu)
		}
	}
	h.unpaid = h.unpaid[:k]
}

// prefetchUnpaid asks for what settling h's unpaid results reads, in
// stages over the list (reading a record waits for it, but by then the
// rest are on their way): the slots' generations; the results' records
// and what they were paid; their workunits; then for those to be
// recorded, replica lists not inline and credit rows; then the replicas,
// which freeing the workunit checks.
func (s *Sim) prefetchUnpaid(h *hostState) {
	for _, ref := range h.unpaid {
		prefetch.Line(unsafe.Pointer(s.gen(ref.ri)))
	}
	for _, ref := range h.unpaid {
		if *s.gen(ref.ri) == ref.gen {
			s.prefetchResult(ref.ri)
			s.prefetchPaid(ref.ri)
		}
	}
	settling := 0
	for _, ref := range h.unpaid {
		if *s.gen(ref.ri) == ref.gen {
			if r := s.res(ref.ri); r.has(fSettling) {
				s.prefetchWorkunit(r.wu)
				s.prefetchSlot(r.wu, 0)
				settling++
			} else {
				// Paying shows the policies the result, with its
				// workunit's ID and size.
				prefetch.Line(unsafe.Pointer(s.wu(r.wu)))
			}
		}
	}
	if settling == 0 {
		return
	}
	for _, ref := range h.unpaid {
		if r := s.res(ref.ri); *s.gen(ref.ri) == ref.gen && r.has(fSettling) {
			s.prefetchReps(s.wu(r.wu))
			s.prefetchCredit(r.wu)
			s.prefetchSlot(r.wu, 1)
		}
	}
	for _, ref := range h.unpaid {
		if r := s.res(ref.ri); *s.gen(ref.ri) == ref.gen && r.has(fSettling) {
			for _, o := range s.reps(s.wu(r.wu)) {
				if o != ref.ri {
					// Freeing reads only the hot line: state, settling.
					lines(unsafe.Pointer(s.res(o)), 64)
				}
			}
		}
	}
}

// pay adds to result ri's paid credit what each runtime-accounting
// policy's last call for its host paid for runtime seconds of it.
func (s *Sim) pay(ri int32, runtime float64) {
	v := s.shown(s.res(ri))
	paid := s.paidRow(ri)
	for k, p := range s.ras {
		paid[k] += s.pols[p].(policy.RuntimeAccounting).Accrued(v, runtime)
	}
}

// settleAtEnd records the results still waiting for a call when the run
// ends: the runtime since their host's last call is valued at that
// call's rate, since the host, still attached, would be paid for it at
// its next call.
func (s *Sim) settleAtEnd() {
	for i := range s.hosts {
		h := &s.hosts[i]
		for _, ref := range h.unpaid {
			if *s.gen(ref.ri) != ref.gen {
				continue
			}
			r := s.res(ref.ri)
			if !r.has(fSettling) {
				continue
			}
			paid := s.paidRow(ref.ri)
			if tail := r.ran - paid[len(s.ras)]; tail > 0 {
				s.pay(ref.ri, tail)
			}
			paid[len(s.ras)] = r.ran
			r.set(fSettling, false)
			s.record(ref.ri)
		}
	}
}
