package sim

import (
	"cmp"
	"math"
	"math/bits"
	"slices"
	"unsafe"

	"github.com/creditsim/creditsim/internal/hugepage"
)

// event is one scheduled happening. Events are ordered by (time, seq):
// seq is the order of scheduling, so ties resolve the same way every run.
type event struct {
	t    float64
	seq  uint64
	kind evKind
	gen  uint32 // guards against acting on a stale event
	a    int32  // host or result index
	b    int32
}

type evKind uint8

const (
	evHostArrive evKind = iota
	evHostDepart
	evAvailability
	evJobDone
	evContact
	evTimeout
	evValidator
	evFeeder
	evDay
	evAccountManager
	evEnd
)

// queue is a radix heap of events: a monotone priority queue, which is
// what a discrete-event simulation needs, since an event is nearly always
// scheduled no earlier than the one being handled.
//
// The key of an event is the bit pattern of its time, which orders as the
// time does for times >= 0. Bucket j > 0 holds the events whose key first
// differs from last's (the key of the latest event taken out) at bit j-1
// from the bottom; bucket 0 holds those at last's very time, in seq order.
// Every event in a bucket comes before every event in a higher one. Taking
// out an event, when bucket 0 is empty, empties the lowest bucket into
// lower ones around its least event. So an event moves down a few times
// in its life (about eight in the baseline), each time in a sequential
// pass over memory, instead of taking a branchy walk down a heap whose
// nodes are scattered in memory at every pop.
//
// A bucket is a chain of fixed blocks, which a free list recycles, so the
// queue holds about as many event slots as it has events, however they
// are spread over the buckets.
//
// An event scheduled before last (a host retrying at a time already
// passed) goes to the overdue list, which comes before everything else,
// so the order is (time, seq) in every case. Times must not be NaN.
type queue struct {
	b     [64]chain
	head  int    // the next event of bucket 0's first block
	mask  uint64 // bit j-1 set when bucket j is non-empty, j >= 1
	last  uint64 // key of the latest event taken out
	lastT float64
	free  *qblock // recycled blocks, linked by next
	over  []event // scheduled before lastT
	n     int
	seq   uint64
	nBlk  int // blocks allocated
	// lo and lo2 are the least and second least events of the buckets
	// above 0 (lo2 nil if there is one), when known: the peeks ask for
	// them at every event and a refill wants lo. Pushes keep them; a
	// refill, which moves events, forgets.
	known   bool
	lo, lo2 *event
	// least[j] and least2[j] are bucket j's earliest and second
	// earliest events (j >= 1; nil when it holds fewer), kept as events
	// are added (one or two comparisons), where finding them by passes
	// over the bucket, as the peeks need at nearly every event, took 6%
	// of a 100,000-host run.
	least, least2 [64]*event
}

// qBlockLen events make a block: 1 KB, so a bucket's slack is small.
const qBlockLen = 32

type qblock struct {
	e    [qBlockLen]event
	next *qblock
}

// chain is a bucket: its blocks from first to last, all full but the
// last, which has room for room more events. first is nil when the
// bucket is empty; the zero chain is empty.
type chain struct {
	first, last *qblock
	room        int
}

// key returns the radix key of time t >= 0 (-0 is 0).
func key(t float64) uint64 {
	k := math.Float64bits(t)
	if k == 1<<63 {
		return 0
	}
	return k
}

// Len returns the number of queued events.
func (q *queue) Len() int { return q.n }

func less(x, y *event) bool {
	if x.t != y.t {
		return x.t < y.t
	}
	return x.seq < y.seq
}

// push schedules e; its seq is assigned here.
func (q *queue) push(e event) {
	e.seq = q.seq
	q.seq++
	q.n++
	if !(e.t >= q.lastT) {
		q.over = append(q.over, e)
		return
	}
	j := bits.Len64(key(e.t) ^ q.last)
	x := q.add(j, &e)
	if j == 0 {
		return
	}
	q.track(j, x)
	if q.known {
		if less(x, q.lo) {
			q.lo, q.lo2 = x, q.lo
		} else if q.lo2 == nil || less(x, q.lo2) {
			q.lo2 = x
		}
	}
}

// add appends e to bucket j and returns where it put it.
func (q *queue) add(j int, e *event) *event {
	c := &q.b[j]
	if c.room == 0 {
		q.link(j, c)
	}
	x := &c.last.e[(qBlockLen-c.room)&(qBlockLen-1)]
	*x = *e
	c.room--
	return x
}

// link appends an empty block to bucket j's chain c.
func (q *queue) link(j int, c *chain) {
	blk := q.free
	if blk == nil {
		blk = q.alloc()
	}
	q.free = blk.next
	blk.next = nil
	if c.first == nil {
		c.first = blk
		if j > 0 {
			q.mask |= 1 << (j - 1)
		}
	} else {
		c.last.next = blk
	}
	c.last, c.room = blk, qBlockLen
}

// alloc adds a slab of blocks to the free list and returns the first.
// Slabs grow with the queue (a quarter of it, up to 2 MB), advised for
// huge pages.
func (q *queue) alloc() *qblock {
	slab := make([]qblock, min(max(16, q.nBlk/4), 2048))
	hugepage.Advise(slab)
	for k := range slab[:len(slab)-1] {
		slab[k].next = &slab[k+1]
	}
	q.free = &slab[0]
	q.nBlk += len(slab)
	return q.free
}

// recycle puts bucket j's blocks on the free list and empties it.
func (q *queue) recycle(j int) {
	c := &q.b[j]
	c.last.next = q.free
	q.free = c.first
	*c = chain{}
	if j > 0 {
		q.mask &^= 1 << (j - 1)
		q.least[j], q.least2[j] = nil, nil
	}
}

// pop removes and returns the earliest event; the queue must not be empty.
func (q *queue) pop() event {
	q.n--
	if len(q.over) > 0 {
		m := least(q.over)
		e := q.over[m]
		q.over = append(q.over[:m], q.over[m+1:]...)
		return e
	}
	c := &q.b[0]
	if c.first == nil {
		q.refill()
	}
	blk := c.first
	e := blk.e[q.head]
	q.head++
	if blk == c.last {
		if q.head == qBlockLen-c.room {
			q.recycle(0)
			q.head = 0
		}
	} else if q.head == qBlockLen {
		c.first = blk.next
		blk.next = q.free
		q.free = blk
		q.head = 0
	}
	return e
}

// refill empties the lowest non-empty bucket, bucket 0 being empty: its
// least event becomes last, and every event of it moves to the bucket it
// now belongs in, all lower; those at last's time land in bucket 0,
// sorted by seq.
func (q *queue) refill() {
	i := bits.TrailingZeros64(q.mask) + 1
	src := q.b[i]
	q.learn()
	q.lastT, q.last = q.lo.t, key(q.lo.t)
	q.known = false
	q.b[i] = chain{}
	q.mask &^= 1 << (i - 1)
	q.least[i], q.least2[i] = nil, nil
	for blk := src.first; blk != nil; {
		es := blk.e[:src.len(blk)]
		for k := range es {
			// add, by hand: the compiler would not inline it. j < 64,
			// as keys have the sign bit clear.
			j := bits.Len64(key(es[k].t)^q.last) & 63
			c := &q.b[j]
			if c.room == 0 {
				q.link(j, c)
			}
			x := &c.last.e[(qBlockLen-c.room)&(qBlockLen-1)]
			*x = es[k]
			c.room--
			// Buckets below i were empty: their least are among these.
			if j > 0 {
				q.track(j, x)
			}
		}
		// Free the block at once, for the events still to move.
		next := blk.next
		blk.next, q.free = q.free, blk
		blk = next
	}
	// Events of equal time moved together keep no order; seq restores
	// it. There is nearly always one; more than a block's worth would
	// need a whole block of events at one time, which a slice sort
	// handles.
	c := &q.b[0]
	if c.first != c.last {
		q.sortLong()
		return
	}
	z := c.first.e[:c.len(c.first)]
	for k := 1; k < len(z); k++ {
		for l := k; l > 0 && z[l].seq < z[l-1].seq; l-- {
			z[l], z[l-1] = z[l-1], z[l]
		}
	}
}

// sortLong orders bucket 0, of several blocks, by seq.
func (q *queue) sortLong() {
	var all []event
	c := &q.b[0]
	for blk := c.first; blk != nil; blk = blk.next {
		all = append(all, blk.e[:c.len(blk)]...)
	}
	slices.SortFunc(all, func(x, y event) int { return cmp.Compare(x.seq, y.seq) })
	for blk := c.first; blk != nil; blk = blk.next {
		all = all[copy(blk.e[:c.len(blk)], all):]
	}
}

// len returns the number of events in blk, a block of c.
func (c *chain) len(blk *qblock) int {
	if blk == c.last {
		return qBlockLen - c.room
	}
	return qBlockLen
}

// least returns the index of the earliest of es, which is not empty.
func least(es []event) int {
	m := 0
	for k := 1; k < len(es); k++ {
		if less(&es[k], &es[m]) {
			m = k
		}
	}
	return m
}

// front0 returns the i'th (1 or 2) event of bucket 0, nil if it has fewer.
func (q *queue) front0(i int) *event {
	c := &q.b[0]
	if c.first == nil {
		return nil
	}
	l := q.head + i - 1
	if l < c.len(c.first) {
		return &c.first.e[l]
	}
	if nx := c.first.next; nx != nil && l == qBlockLen {
		return &nx.e[0]
	}
	return nil
}

// next returns the earliest event, nil when the queue is empty.
func (q *queue) next() *event {
	if len(q.over) > 0 {
		return &q.over[least(q.over)]
	}
	if e := q.front0(1); e != nil {
		return e
	}
	if q.mask == 0 {
		return nil
	}
	q.learn()
	return q.lo
}

// track notes x, just added to bucket j >= 1, among its two least.
func (q *queue) track(j int, x *event) {
	if m := q.least[j]; m == nil || less(x, m) {
		q.least[j], q.least2[j] = x, m
	} else if m2 := q.least2[j]; m2 == nil || less(x, m2) {
		q.least2[j] = x
	}
}

// learn sets lo and lo2 if they are not known, from the lowest bucket's
// two least, or its least and the next bucket's; some bucket above 0
// must hold an event.
func (q *queue) learn() {
	if q.known {
		return
	}
	i := bits.TrailingZeros64(q.mask) + 1
	q.lo, q.lo2 = q.least[i], q.least2[i]
	if rest := q.mask & (q.mask - 1); q.lo2 == nil && rest != 0 {
		q.lo2 = q.least[bits.TrailingZeros64(rest)+1]
	}
	q.known = true
}

// afterNext returns the event that comes after the next one (unless an
// event scheduled meanwhile comes first), nil when there is none. It is a
// hint for prefetching: with overdue events it gives nil.
func (q *queue) afterNext() *event {
	if len(q.over) > 0 {
		return nil
	}
	if e := q.front0(2); e != nil {
		return e
	}
	if q.mask == 0 {
		return nil
	}
	q.learn()
	if q.front0(1) != nil {
		return q.lo
	}
	return q.lo2
}

// bytes returns the bytes the queue holds, counted from capacities.
func (q *queue) bytes() int64 {
	return int64(q.nBlk)*int64(unsafe.Sizeof(qblock{})) + int64(cap(q.over))*int64(unsafe.Sizeof(event{}))
}
