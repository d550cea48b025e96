package sim

// Prefetching: the records an event or a validator step will read are
// known a step ahead, and asking for them then overlaps their cache
// misses with the current step's work. Prefetches are hints: they never
// change what the simulation computes.

import (
	"unsafe"

	"github.com/creditsim/creditsim/internal/prefetch"
	"github.com/creditsim/creditsim/model/hosts"
)

// lines asks for every cache line of the n bytes at p.
func lines(p unsafe.Pointer, n uintptr) { prefetch.Range(p, n) }

// prefetchResult asks for result ri's record.
func (s *Sim) prefetchResult(ri int32) {
	lines(unsafe.Pointer(s.res(ri)), unsafe.Sizeof(result{}))
}

// prefetchPaid asks for result ri's row of runtime paid and settled,
// if the run has runtime accounting and the result has a row.
func (s *Sim) prefetchPaid(ri int32) {
	if row := s.paidRow(ri); row != nil {
		lines(unsafe.Pointer(&row[0]), uintptr(len(row))*8)
	}
}

// prefetchEvents asks, as an event starts, for what the next events will
// read, in two stages: the records of the one after next (the least of
// the heap root's children), and what the next one's host record points
// to (that record was asked for an event ago), with the record of the
// job it will most likely start.
func (s *Sim) prefetchEvents() {
	e := s.q.next()
	if e == nil {
		return
	}
	if e.kind == evJobDone || e.kind == evContact {
		s.prefetchHostParts(e.a)
	}
	switch e.kind {
	case evContact:
		s.prefetchReports(e.a)
	case evAccountManager:
		// Settling walks the host's runtime list first.
		if h := &s.hosts[e.a]; len(h.unpaid) > 0 {
			lines(unsafe.Pointer(&h.unpaid[0]), uintptr(len(h.unpaid))*unsafe.Sizeof(resultRef{}))
		}
	}
	if e := s.q.afterNext(); e != nil {
		s.prefetchEvent(e)
	}
}

// prefetchEvent asks for the records event e will read first: its host,
// and for a finished job the job's result.
func (s *Sim) prefetchEvent(e *event) {
	switch e.kind {
	case evJobDone:
		s.prefetchResult(e.b)
		fallthrough
	case evContact, evAvailability, evAccountManager:
		lines(unsafe.Pointer(&s.hosts[e.a]), unsafe.Sizeof(hostState{}))
	}
}

// prefetchWorkunit asks for workunit wi's record.
func (s *Sim) prefetchWorkunit(wi int32) {
	lines(unsafe.Pointer(s.wu(wi)), unsafe.Sizeof(workunit{}))
}

// prefetchCredit asks for workunit wi's row of credit per policy, if it
// has one. It reads the workunit's record, which should be in cache.
func (s *Sim) prefetchCredit(wi int32) {
	if w := s.wu(wi); w.credit != 0 && s.npol > 0 {
		lines(unsafe.Pointer(&s.creditRow(wi)[0]), uintptr(s.npol)*8)
	}
}

// prefetchHostParts asks for what host i's record points to, which an
// event for the host reads next: its hosts.Host, what it reported (a
// job that ends adds to the client's estimated credit from it), job
// lists, usage and estimated credit. The record itself must already be
// in cache (prefetched an event ago), or reading its pointers would be
// the miss this avoids.
func (s *Sim) prefetchHostParts(i int32) {
	h := &s.hosts[i]
	// All of the host's record: ending a job reads its behaviour, in the
	// record's last two lines, through DoesWork and the reported times
	// and counts.
	lines(unsafe.Pointer(h.h), unsafe.Sizeof(hosts.Host{}))
	lines(unsafe.Pointer(&s.reported[i]), unsafe.Sizeof(hostReport{}))
	if len(h.queue) > 0 {
		prefetch.Line(unsafe.Pointer(&h.queue[0]))
		// The job the host starts next, most often: its first line,
		// what choosing and starting it reads, and with runtime
		// accounting its generation and the runtime list's next entry.
		lines(unsafe.Pointer(s.res(h.next)), 64)
		if len(s.ras) > 0 {
			prefetch.Line(unsafe.Pointer(s.gen(h.next)))
			if n := len(h.unpaid); n < cap(h.unpaid) {
				prefetch.Line(unsafe.Pointer(&h.unpaid[:n+1][n]))
			}
		}
	}
	if len(h.running) > 0 {
		prefetch.Line(unsafe.Pointer(&h.running[0]))
	}
	if n := len(h.usage); n > 0 {
		lines(unsafe.Pointer(&h.usage[0]), uintptr(3*n)*8) // and estFlops
	}
}

// prefetchReports asks for what host i's contact reports first: the
// result's record and its workunit's, which the contact could ask for
// only once the result's record had come. The host's record must
// already be in cache, as for prefetchHostParts.
func (s *Sim) prefetchReports(i int32) {
	h := &s.hosts[i]
	if len(h.done) > 0 {
		prefetch.Line(unsafe.Pointer(&h.done[0]))
		s.prefetchResult(h.done0)
		s.prefetchWorkunit(h.done0WU)
	}
}

// prefetchValidation asks, while the validator works on queue[k], for
// what the next workunits need, in four stages (each stage reads only
// what an earlier one fetched): the workunit record of queue[k+4]; the
// replica list of queue[k+3] where it is not inline in the record; the
// replicas' records, their rows of runtime paid and settled (which
// finishing them reads) and the credit row of queue[k+2]; and for queue[k+1]
// the host, user and team accounts that granting its replicas' credit
// updates, and what the policies that ask for it will read.
func (s *Sim) prefetchValidation(queue []int32, k int) {
	if k+4 < len(queue) {
		lines(unsafe.Pointer(s.wu(queue[k+4])), unsafe.Sizeof(workunit{}))
	}
	if k+3 < len(queue) {
		s.prefetchReps(s.wu(queue[k+3]))
	}
	if k+2 < len(queue) {
		wi := queue[k+2]
		for _, ri := range s.reps(s.wu(wi)) {
			s.prefetchResult(ri)
			s.prefetchPaid(ri)
		}
		s.prefetchCredit(wi)
		s.prefetchSlot(wi, 0)
	}
	if k+1 < len(queue) {
		s.prefetchSlot(queue[k+1], 1)
		for _, ri := range s.reps(s.wu(queue[k+1])) {
			r := s.res(ri)
			if r.st != stReported {
				continue
			}
			s.prefetchAccounts(r)
			if len(s.prefetchers) > 0 {
				v := s.shown(r)
				for _, p := range s.prefetchers {
					p.Prefetch(v)
				}
			}
		}
	}
}

// prefetchSlot passes on to the observer, if it asks for them, the
// prefetch stages of workunit slot wi (SlotPrefetcher).
func (s *Sim) prefetchSlot(wi int32, stage int) {
	if s.slotPf != nil {
		s.slotPf.PrefetchSlot(wi, stage)
	}
}

// prefetchAccounts asks for the host, user and team accounts that
// granting result r's credit updates, all policies' side by side.
func (s *Sim) prefetchAccounts(r *result) {
	l := &s.ledgers
	n := uintptr(l.npol) * unsafe.Sizeof(Account{})
	if n == 0 {
		return
	}
	hr := &s.reported[r.host]
	if i := int(r.host) * l.npol; uint(i) < uint(len(l.hosts)) {
		lines(unsafe.Pointer(&l.hosts[i]), n)
	}
	if i := int(hr.user) * l.npol; uint(i) < uint(len(l.users)) {
		lines(unsafe.Pointer(&l.users[i]), n)
	}
	if i := int(hr.team) * l.npol; hr.team > 0 && uint(i) < uint(len(l.teams)) {
		lines(unsafe.Pointer(&l.teams[i]), n)
	}
}
