package sim

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

// queue is a 4-ary min-heap of events with no allocation per event once
// it has grown (container/heap would box each event in an interface).
// Event times, the key nearly every comparison settles, are kept in
// their own array apart from the rest of each event: sifting compares
// four children's times in 32 bytes, half a cache line, and touches the
// rest of an event only when it moves (or on a tie of times, when seq
// decides). The root sits at slot 3, so that every node's four children
// fill slots 4k to 4k+3: an aligned run that never straddles two lines.
// Sifting moves a hole instead of swapping.
type queue struct {
	t   []float64 // event times by slot, from slot qRoot
	e   []event   // the events by slot (their t too, for pop's result)
	seq uint64
}

// qRoot is the slot of the heap's root; node j (0-based) is at slot
// j+qRoot and its children at slots 4(j+qRoot)-8 to 4(j+qRoot)-5.
const qRoot = 3

// Len returns the number of queued events.
func (q *queue) Len() int { return max(0, len(q.t)-qRoot) }

func less(x, y *event) bool {
	if x.t != y.t {
		return x.t < y.t
	}
	return x.seq < y.seq
}

// before reports whether the event in slot i comes before the one in
// slot j.
func (q *queue) before(i, j int) bool {
	if ti, tj := q.t[i], q.t[j]; ti != tj {
		return ti < tj
	}
	return q.e[i].seq < q.e[j].seq
}

// firstChild is the slot of the first child of slot i.
func firstChild(i int) int { return 4*i - 8 }

// parent is the slot of the parent of slot i (i > qRoot).
func parent(i int) int { return (i + 8) / 4 }

// push schedules e; its seq is assigned here.
func (q *queue) push(e event) {
	e.seq = q.seq
	q.seq++
	if len(q.t) == 0 {
		q.t = append(grow(q.t, qRoot+1), make([]float64, qRoot)...)
		q.e = append(grow(q.e, qRoot+1), make([]event, qRoot)...)
	}
	q.t = append(grow(q.t, 1), e.t)
	q.e = append(grow(q.e, 1), e)
	i := len(q.t) - 1
	for i > qRoot {
		p := parent(i)
		if !less(&e, &q.e[p]) {
			break
		}
		q.t[i], q.e[i] = q.t[p], q.e[p]
		i = p
	}
	q.t[i], q.e[i] = e.t, e
}

// pop removes and returns the earliest event; the queue must not be empty.
func (q *queue) pop() event {
	top := q.e[qRoot]
	n := len(q.t) - 1
	lastT, last := q.t[n], q.e[n]
	q.t, q.e = q.t[:n], q.e[:n]
	if n == qRoot {
		return top
	}
	i := qRoot
	for {
		c := firstChild(i)
		if c >= n {
			break
		}
		m := c
		end := min(c+4, n)
		for k := c + 1; k < end; k++ {
			if q.before(k, m) {
				m = k
			}
		}
		if tm := q.t[m]; !(tm < lastT || tm == lastT && q.e[m].seq < last.seq) {
			break // less(child, last) is false
		}
		q.t[i], q.e[i] = q.t[m], q.e[m]
		i = m
	}
	q.t[i], q.e[i] = lastT, last
	return top
}

// next returns the earliest event, nil when the queue is empty.
func (q *queue) next() *event {
	if len(q.t) <= qRoot {
		return nil
	}
	return &q.e[qRoot]
}

// afterNext returns the earliest of the root's children (the event that
// comes after the next one unless an event scheduled meanwhile comes
// first), nil when there is none.
func (q *queue) afterNext() *event {
	c, n := firstChild(qRoot), len(q.t)
	if c >= n {
		return nil
	}
	m := c
	for k := c + 1; k < min(c+4, n); k++ {
		if q.before(k, m) {
			m = k
		}
	}
	return &q.e[m]
}
