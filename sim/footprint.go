package sim

import "unsafe"

// Footprint returns the bytes the engine's own stores hold now, counted
// from their capacities: result and workunit records with their credit
// and replica lists, deadline lists, feeders, the event queue, hosts
// with their job lists, and accounts. It leaves out the policies', the
// collector's and Go's own overheads. Unlike the live heap, which
// depends on when the garbage collector last ran, it is the same for
// the same scenario and seed, so it measures a change to the engine's
// memory exactly. It walks the hosts, so call it at most once a
// simulated day.
func (s *Sim) Footprint() int64 {
	b := int64(len(s.results.chunks)) * resultChunk * int64(unsafe.Sizeof(result{}))
	b += int64(len(s.results.gens))*resultChunk*4 + int64(len(s.paid))*resultChunk*int64(len(s.ras)+1)*8 + s.freeRes.Bytes()
	b += int64(len(s.wus.chunks))*wuChunk*int64(unsafe.Sizeof(workunit{})) + s.credit.bytes()
	b += s.wuLists + int64(cap(s.spills))*24 + s.freeWU.Bytes() + int64(cap(s.valQueue))*4
	for i := range s.apps {
		a := &s.apps[i]
		b += int64(cap(a.feeder))*4 + fifoBytes(&a.deadlines) + fifoBytes(&a.dlRefs)
	}
	b += s.q.bytes()
	b += int64(cap(s.hosts)) * int64(unsafe.Sizeof(hostState{}))
	for i := range s.hosts {
		h := &s.hosts[i]
		b += int64(cap(h.qbuf)+cap(h.running)+cap(h.done))*4 + int64(cap(h.unpaid))*8
		b += int64(cap(h.havs))*int64(unsafe.Sizeof(hav{})) + int64(len(h.usage))*32 // usage and estFlops
	}
	l := &s.ledgers
	b += int64(cap(l.hosts)+cap(l.users)+cap(l.teams)) * int64(unsafe.Sizeof(Account{}))
	return b
}

// fifoBytes is the memory a fifo's chunks hold, in use or kept for reuse.
func fifoBytes[T any](f *fifo[T]) int64 {
	var x T
	n := 0
	for _, c := range f.chunks {
		n += cap(c)
	}
	for _, c := range f.free {
		n += cap(c)
	}
	return int64(n) * int64(unsafe.Sizeof(x))
}
