package sim

import (
	"unsafe"

	"github.com/creditsim/creditsim/internal/hugepage"
)

// resultChunk is how many results one pool chunk holds. Results live in
// fixed chunks, not one growing slice, so that growth never copies the
// results in flight (tens of megabytes for a few thousand hosts). A chunk
// is 1.5 MB; the heap places it on an 8 KB boundary, so it overlaps one
// or two huge pages, advised with their neighbours (hugepage.Advise).
const resultChunk = 1 << 14

// resultPool stores results by dense index; indexes are never reused
// except through the simulation's free list.
//
// A slot's generation lives apart from its record, in a dense array:
// deadlines and runtime-accounting lists name results by (slot,
// generation), and most are stale by the time they are checked (the
// result was recorded and its slot freed, or reused). Checking four
// bytes in a dense array instead of first loading the cold record makes
// those checks cache hits.
type resultPool struct {
	chunks []*[resultChunk]result
	// gens[k] holds the generations of chunks[k]'s slots: in chunks too,
	// since copying one growing array added to the start-up peak.
	gens []*[resultChunk]uint32
	// out[k] has a bit for each of chunks[k]'s slots, set while its
	// result is out on a host (sent, not yet received by the server):
	// compacting the deadline lists reads these dense bits, not the
	// records, which at 100,000 hosts would be a cache miss each.
	out []*[resultChunk / 64]uint64
	n   int32
}

// add appends a zero result and returns its index.
func (p *resultPool) add() int32 {
	if int(p.n) == len(p.chunks)*resultChunk {
		c := make([]result, resultChunk)
		hugepage.Advise(c)
		p.chunks = append(p.chunks, (*[resultChunk]result)(c))
		g := make([]uint32, resultChunk)
		hugepage.Advise(g)
		p.gens = append(p.gens, (*[resultChunk]uint32)(g))
		p.out = append(p.out, new([resultChunk / 64]uint64))
	}
	p.n++
	return p.n - 1
}

// res returns result i; i must have come from results.add. (Unsigned,
// the chunk and the place in it are a shift and a mask. The place's
// offset is added to the chunk's address, not indexed: indexing a
// pointer to an array checks it for nil by reading the chunk's first
// byte, and the chunks' first lines, all on 8 KB boundaries, share a
// few cache sets and kept evicting one another: 7% of a 100,000-host
// run.)
func (s *Sim) res(i int32) *result {
	c := unsafe.Pointer(s.results.chunks[uint32(i)/resultChunk])
	return (*result)(unsafe.Add(c, uintptr(uint32(i)%resultChunk)*unsafe.Sizeof(result{})))
}

// gen returns result slot i's generation, which changes each time the
// slot is taken or freed (addressed as res is).
func (s *Sim) gen(i int32) *uint32 {
	c := unsafe.Pointer(s.results.gens[uint32(i)/resultChunk])
	return (*uint32)(unsafe.Add(c, uintptr(uint32(i)%resultChunk)*4))
}

// setOut records whether result slot i's result is out on a host: set
// when it is sent, cleared when the server receives it (reported or
// timed out). A result is always received before its slot is freed.
func (s *Sim) setOut(i int32, on bool) {
	w := &s.results.out[uint32(i)/resultChunk][uint32(i)%resultChunk/64]
	bit := uint64(1) << (uint32(i) % 64)
	if on {
		*w |= bit
	} else {
		*w &^= bit
	}
}

// isOut reports whether result slot i's result is out on a host.
func (s *Sim) isOut(i int32) bool {
	return s.results.out[uint32(i)/resultChunk][uint32(i)%resultChunk/64]&(1<<(uint32(i)%64)) != 0
}

// fifoChunk is the number of entries in one fifo chunk.
const fifoChunk = 1 << 12

// fifo is a first-in first-out queue in fixed chunks that are recycled
// once consumed, so a long-running queue reuses its memory instead of
// growing and copying one slice (fresh memory is the costly part).
type fifo[T any] struct {
	chunks [][]T
	head   int // next entry of chunks[0]
	free   [][]T
	n      int // entries
}

func (f *fifo[T]) push(x T) {
	n := len(f.chunks)
	if n == 0 || len(f.chunks[n-1]) == fifoChunk {
		var c []T
		if k := len(f.free); k > 0 {
			c, f.free = f.free[k-1], f.free[:k-1]
		} else {
			c = make([]T, 0, fifoChunk)
		}
		f.chunks = append(f.chunks, c)
		n++
	}
	f.chunks[n-1] = append(f.chunks[n-1], x)
	f.n++
}

// empty reports whether the queue holds nothing.
func (f *fifo[T]) empty() bool {
	return len(f.chunks) == 0 || (len(f.chunks) == 1 && f.head == len(f.chunks[0]))
}

// front returns the oldest entry; the queue must not be empty.
func (f *fifo[T]) front() *T { return &f.chunks[0][f.head] }

// back returns the newest entry; the queue must not be empty.
func (f *fifo[T]) back() *T {
	c := f.chunks[len(f.chunks)-1]
	return &c[len(c)-1]
}

// pop removes the oldest entry; the queue must not be empty.
func (f *fifo[T]) pop() {
	f.n--
	f.head++
	if f.head == fifoChunk {
		// Every consumed chunk is kept for reuse. Keeping two (6ae6c03)
		// held less when counted, but compaction empties a deadline
		// list and refills it, and the list then grows back: chunks
		// dropped and allocated again were garbage the collector let
		// the heap grow for (100,000 hosts, 90 days: peak RSS 1.90 GB
		// against 1.71 GB live).
		f.free = append(f.free, f.chunks[0][:0])
		f.chunks[0] = nil
		f.chunks = f.chunks[1:]
		f.head = 0
	}
}

// wuChunk is how many workunits one workunit chunk holds: 512 KB. A
// chunk is all the pool holds beyond the workunits it needs. A chunk is
// smaller than a huge page; the page it lies in is advised, with the
// chunks and other records the heap places beside it. Against 32,768
// per chunk, BaselineSeven showed no loss.
const wuChunk = 1 << 13

// wuPool stores workunits by dense index in fixed chunks: growing never
// copies the workunits in flight (hundreds of megabytes in a world of
// 100,000 hosts, copied at every doubling of a single slice) and holds at
// most a chunk more than it uses. A workunit's address never changes.
type wuPool struct {
	chunks [][]workunit
	n      int32
}

// add appends a zero workunit and returns its index.
func (p *wuPool) add() int32 {
	if int(p.n) == len(p.chunks)*wuChunk {
		c := make([]workunit, wuChunk)
		hugepage.Advise(c)
		p.chunks = append(p.chunks, c)
	}
	p.n++
	return p.n - 1
}

// creditChunk is how many rows one credit pool chunk holds.
const creditChunk = 1 << 12

// creditPool holds the credit per policy of the workunits that have
// it: a row is taken when a workunit's canonical result is found and
// given back when the workunit is freed. Most live workunits are still
// waiting for their results (in the baseline, about a quarter of them
// have credit at a time, and far fewer on the first day, when the pools
// are at their largest), so a row per workunit slot would mostly hold
// nothing.
type creditPool struct {
	chunks [][]float64 // creditChunk rows of npol each
	npol   int
	n      int32   // rows handed out at least once
	free   []int32 // rows given back
}

// take returns a row's index; the row holds what its last holder left.
func (p *creditPool) take() int32 {
	if k := len(p.free); k > 0 {
		i := p.free[k-1]
		p.free = p.free[:k-1]
		return i
	}
	if int(p.n) == len(p.chunks)*creditChunk {
		c := make([]float64, creditChunk*p.npol)
		hugepage.Advise(c)
		p.chunks = append(p.chunks, c)
	}
	p.n++
	return p.n - 1
}

// put gives row i back.
func (p *creditPool) put(i int32) { p.free = append(p.free, i) }

// row returns row i.
func (p *creditPool) row(i int32) []float64 {
	k := int(i%creditChunk) * p.npol
	return p.chunks[i/creditChunk][k : k+p.npol : k+p.npol]
}

// bytes is the memory the pool holds.
func (p *creditPool) bytes() int64 {
	return int64(len(p.chunks))*creditChunk*int64(p.npol)*8 + int64(cap(p.free))*4
}

// quorum is workunit w's min_quorum.
func (s *Sim) quorum(w *workunit) int32 {
	if w.unrepl {
		return 1
	}
	return s.apps[w.app].quorum
}

// target is workunit w's target_nresults.
func (s *Sim) target(w *workunit) int32 {
	if w.unrepl {
		return 1
	}
	return s.apps[w.app].target
}

// bound is workunit w's rsc_fpops_bound, computed as the job stream
// does (jobs.Workunit.Bound).
func (s *Sim) bound(w *workunit) float64 { return w.est * s.apps[w.app].cfg.BoundFactor }

// wu returns workunit i; i must have come from wus.add.
func (s *Sim) wu(i int32) *workunit {
	return &s.wus.chunks[uint32(i)/wuChunk][uint32(i)%wuChunk]
}

// creditRow returns workunit i's credit per policy; it must have a
// canonical result (w.credit, set by newCredit).
func (s *Sim) creditRow(i int32) []float64 { return s.credit.row(s.wu(i).credit - 1) }

// newCredit gives workunit i a credit row, when its canonical result is
// found, and returns it.
func (s *Sim) newCredit(i int32) []float64 {
	w := s.wu(i)
	w.credit = s.credit.take() + 1
	return s.credit.row(w.credit - 1)
}

// freeCredit gives back workunit w's credit row, if it has one.
func (s *Sim) freeCredit(w *workunit) {
	if w.credit != 0 {
		s.credit.put(w.credit - 1)
		w.credit = 0
	}
}

// replicas is a workunit's list of results. The first four sit in the
// workunit's own record, so reading them needs no second load (most
// workunits have two or three); a workunit that needs more keeps them
// all in a list of Sim.spills, which its slot then keeps for later
// workunits. The record holds the list's index, not a slice header, to
// stay one cache line.
type replicas struct {
	in    [4]int32
	spill int32 // 1 + the index in Sim.spills of the list of all of them; 0 while they fit in
}

// reps returns workunit w's results in the order they were added.
// Adding to the list does not change a list returned before.
func (s *Sim) reps(w *workunit) []int32 {
	if w.reps.spill != 0 {
		return s.spills[w.reps.spill-1]
	}
	return w.reps.in[:w.nreps]
}

// addRep appends result ri to workunit w's list.
func (s *Sim) addRep(w *workunit, ri int32) {
	r := &w.reps
	if r.spill == 0 && int(w.nreps) < len(r.in) {
		r.in[w.nreps] = ri
		w.nreps++
		return
	}
	if r.spill == 0 {
		s.spills = append(s.spills, append(make([]int32, 0, 2*len(r.in)), r.in[:w.nreps]...))
		s.wuLists += 2 * int64(len(r.in)) * 4
		r.spill = int32(len(s.spills))
		w.nreps = 0
	}
	l := &s.spills[r.spill-1]
	c := cap(*l)
	*l = append(*l, ri)
	s.wuLists += int64(cap(*l)-c) * 4
}

// removeRep takes result ri out of workunit w's list, keeping the order
// of the others.
func (s *Sim) removeRep(w *workunit, ri int32) {
	r := &w.reps
	if r.spill != 0 {
		s.spills[r.spill-1] = remove(s.spills[r.spill-1], ri)
		return
	}
	w.nreps = uint8(len(remove(r.in[:w.nreps], ri)))
}

// prefetchReps asks for workunit w's list when it lies outside the record.
func (s *Sim) prefetchReps(w *workunit) {
	if w.reps.spill != 0 {
		if l := s.spills[w.reps.spill-1]; len(l) > 0 {
			lines(unsafe.Pointer(&l[0]), uintptr(len(l))*4)
		}
	}
}

// clearReps empties workunit w's list, keeping any spilled list for reuse.
func (s *Sim) clearReps(w *workunit) {
	w.nreps = 0
	if w.reps.spill != 0 {
		s.spills[w.reps.spill-1] = s.spills[w.reps.spill-1][:0]
	}
}
