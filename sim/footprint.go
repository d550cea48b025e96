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
	var b int64
	for _, p := range s.FootprintParts() {
		b += p.Bytes
	}
	return b
}

// A FootprintPart is one of the engine's stores and the bytes it holds.
type FootprintPart struct {
	Store string
	Bytes int64
}

// FootprintParts returns Footprint store by store, in a fixed order:
// where a world's memory goes. Result slots are counted whether in use
// or free (the pool keeps its largest size).
func (s *Sim) FootprintParts() []FootprintPart {
	var hostLists, hostVersions, feeders, deadlines int64
	for i := range s.apps {
		a := &s.apps[i]
		feeders += int64(cap(a.feeder)) * 4
		deadlines += fifoBytes(&a.deadlines) + fifoBytes(&a.dlRefs)
	}
	for i := range s.hosts {
		h := &s.hosts[i]
		hostLists += int64(cap(h.qbuf)+cap(h.running)+cap(h.done))*4 + int64(cap(h.unpaid))*8
		hostVersions += int64(cap(h.havs))*int64(unsafe.Sizeof(hav{})) + int64(len(h.usage))*32 // usage and estFlops
	}
	l := &s.ledgers
	slots := int64(len(s.results.chunks)) * resultChunk
	return []FootprintPart{
		{"result records", slots * int64(unsafe.Sizeof(result{}))},
		{"result generations and out bits", int64(len(s.results.gens)) * resultChunk * (32 + 1) / 8},
		{"runtime paid per result", int64(len(s.paid)) * resultChunk * int64(len(s.ras)+1) * 8},
		{"free result and workunit slots", s.freeRes.Bytes() + s.freeWU.Bytes()},
		{"workunit records", int64(len(s.wus.chunks)) * wuChunk * int64(unsafe.Sizeof(workunit{}))},
		{"credit per workunit", s.credit.bytes()},
		{"replica lists and validator queue", s.wuLists + int64(cap(s.spills))*24 + int64(cap(s.valQueue))*4},
		{"feeders", feeders},
		{"deadline lists", deadlines},
		{"event queue", s.q.bytes()},
		{"host records", int64(cap(s.hosts)) * int64(unsafe.Sizeof(hostState{}))},
		{"host job and runtime lists", hostLists},
		{"host versions and usage", hostVersions},
		{"accounts", int64(cap(l.hosts)+cap(l.users)+cap(l.teams)) * int64(unsafe.Sizeof(Account{}))},
	}
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

// SlotCensus counts the result pool's slots by what holds each: where
// the memory of results in flight goes. Every slot of the pool is in
// exactly one count (Total is the pool's size).
type SlotCensus struct {
	Unsent   int // created, waiting in a feeder (cancelled ones too, freed when taken)
	Queued   int // on a host, not started
	Running  int // on a host, started (paused ones too)
	Ended    int // ended on its host, not yet reported
	Orphaned int // on a host that has left, waiting for its deadline to time it out
	Reported int // on the server, waiting for validation (its quorum)
	Held     int // final and recorded, kept until its workunit's other results are final
	Settling int // final, waiting for its host's next account-manager call (runtime accounting)
	Free     int // free, kept for reuse
}

// Total is the number of slots counted: the pool's size.
func (c SlotCensus) Total() int {
	return c.Unsent + c.Queued + c.Running + c.Ended + c.Orphaned + c.Reported + c.Held + c.Settling + c.Free
}

// SlotCensus walks the result pool and counts its slots by state. It
// reads every slot, so call it at most once a simulated day.
func (s *Sim) SlotCensus() SlotCensus {
	free := make([]uint64, (int(s.results.n)+63)/64)
	for _, c := range s.freeRes.Chunks() {
		for _, ri := range c {
			free[ri/64] |= 1 << (ri % 64)
		}
	}
	var c SlotCensus
	for i := int32(0); i < s.results.n; i++ {
		if free[i/64]&(1<<(i%64)) != 0 {
			c.Free++
			continue
		}
		r := s.res(i)
		if r.has(fOrphan) && (r.st == stQueued || r.st == stRunning || r.st == stDone) {
			c.Orphaned++
			continue
		}
		switch r.st {
		case stUnsent, stCancelled:
			c.Unsent++
		case stQueued:
			c.Queued++
		case stRunning:
			c.Running++
		case stDone:
			c.Ended++
		case stReported:
			c.Reported++
		case stOver:
			if r.has(fSettling) {
				c.Settling++
			} else {
				c.Held++
			}
		}
	}
	return c
}
