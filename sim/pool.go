package sim

import (
	"unsafe"

	"github.com/creditsim/creditsim/internal/hugepage"
)

// resultChunk is how many results one pool chunk holds. Results live in
// fixed chunks, not one growing slice, so that growth never copies the
// results in flight (tens of megabytes for a few thousand hosts). A chunk
// spans a few huge pages (about 5 MB).
const resultChunk = 1 << 14

// grow returns s with room for at least n more elements, doubling its
// capacity and advising huge pages for the new backing array before it
// is touched: the large, randomly accessed slices of a run (workunits,
// credit, events) are where TLB misses cost most.
func grow[T any](s []T, n int) []T {
	if len(s)+n <= cap(s) {
		return s
	}
	t := make([]T, len(s), max(2*cap(s), len(s)+n, 64))
	hugepage.Advise(t)
	copy(t, s)
	return t
}

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
	gens   []uint32
	n      int32
}

// add appends a zero result and returns its index.
func (p *resultPool) add() int32 {
	if int(p.n) == len(p.chunks)*resultChunk {
		c := make([]result, resultChunk)
		hugepage.Advise(c)
		p.chunks = append(p.chunks, (*[resultChunk]result)(c))
	}
	p.gens = append(p.gens, 0)
	p.n++
	return p.n - 1
}

// res returns result i; i must have come from results.add.
func (s *Sim) res(i int32) *result {
	return &s.results.chunks[i/resultChunk][i%resultChunk]
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
		f.free = append(f.free, f.chunks[0][:0])
		f.chunks[0] = nil
		f.chunks = f.chunks[1:]
		f.head = 0
	}
}

// wuChunk is how many workunits one workunit chunk holds: about 4 MB,
// so that each chunk spans at least one whole huge page.
const wuChunk = 1 << 15

// wuPool stores workunits, and each one's credit per policy, by dense
// index in fixed chunks: growing never copies the workunits in flight
// (hundreds of megabytes in a world of 100,000 hosts, copied at every
// doubling of a single slice) and holds at most a chunk more than it
// uses. A workunit's address never changes.
type wuPool struct {
	chunks [][]workunit
	credit [][]float64 // chunk k: the credit rows of chunk k's workunits
	npol   int
	n      int32
}

// add appends a zero workunit with a zero credit row and returns its index.
func (p *wuPool) add() int32 {
	if int(p.n) == len(p.chunks)*wuChunk {
		c := make([]workunit, wuChunk)
		g := make([]float64, wuChunk*p.npol)
		hugepage.Advise(c)
		hugepage.Advise(g)
		p.chunks = append(p.chunks, c)
		p.credit = append(p.credit, g)
	}
	p.n++
	return p.n - 1
}

// wu returns workunit i; i must have come from wus.add.
func (s *Sim) wu(i int32) *workunit {
	return &s.wus.chunks[i/wuChunk][i%wuChunk]
}

// creditRow returns workunit i's credit per policy.
func (s *Sim) creditRow(i int32) []float64 {
	n := s.wus.npol
	k := int(i%wuChunk) * n
	return s.wus.credit[i/wuChunk][k : k+n : k+n]
}

// replicas is a workunit's list of results. The first four sit in the
// workunit's own record, so reading them needs no second load (most
// workunits have two or three); a workunit that needs more keeps them
// all in a slice, which its slot then keeps for later workunits.
type replicas struct {
	in   [4]int32
	n    int32
	more []int32 // all of them, once more than four were ever needed
}

// list returns the results in the order they were added. Adding to the
// list does not change a slice list returned before.
func (r *replicas) list() []int32 {
	if r.more != nil {
		return r.more
	}
	return r.in[:r.n]
}

// add appends ri and returns the bytes the list grew by outside the
// workunit's record.
func (r *replicas) add(ri int32) int64 {
	if r.more == nil && int(r.n) < len(r.in) {
		r.in[r.n] = ri
		r.n++
		return 0
	}
	c := cap(r.more)
	if r.more == nil {
		r.more = append(make([]int32, 0, 2*len(r.in)), r.in[:r.n]...)
		r.n = 0
	}
	r.more = append(r.more, ri)
	return int64(cap(r.more)-c) * 4
}

// remove takes ri out of the list, keeping the order of the others.
func (r *replicas) remove(ri int32) {
	if r.more != nil {
		r.more = remove(r.more, ri)
		return
	}
	r.n = int32(len(remove(r.in[:r.n], ri)))
}

// prefetch asks for the list when it lies outside the workunit's record.
func (r *replicas) prefetch() {
	if len(r.more) > 0 {
		lines(unsafe.Pointer(&r.more[0]), uintptr(len(r.more))*4)
	}
}

// clear empties the list, keeping any slice for reuse.
func (r *replicas) clear() {
	r.n = 0
	if r.more != nil {
		r.more = r.more[:0]
	}
}
