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

// queue is a 4-ary min-heap of events held by value in a slice, with no
// allocation per event once it has grown (container/heap would box each
// event in an interface). Four children per node halve the depth of a
// binary heap, and sifting moves a hole instead of swapping: pop, the
// hottest call of a run, touches fewer cache lines.
type queue struct {
	h   []event
	seq uint64
}

func less(x, y *event) bool {
	if x.t != y.t {
		return x.t < y.t
	}
	return x.seq < y.seq
}

func (q *queue) Len() int { return len(q.h) }

// push schedules e; its seq is assigned here.
func (q *queue) push(e event) {
	e.seq = q.seq
	q.seq++
	q.h = append(grow(q.h, 1), e)
	i := len(q.h) - 1
	for i > 0 {
		p := (i - 1) / 4
		if !less(&e, &q.h[p]) {
			break
		}
		q.h[i] = q.h[p]
		i = p
	}
	q.h[i] = e
}

// pop removes and returns the earliest event; the queue must not be empty.
func (q *queue) pop() event {
	top := q.h[0]
	n := len(q.h) - 1
	last := q.h[n]
	q.h = q.h[:n]
	if n == 0 {
		return top
	}
	i := 0
	for {
		c := 4*i + 1
		if c >= n {
			break
		}
		m := c
		end := min(c+4, n)
		for k := c + 1; k < end; k++ {
			if less(&q.h[k], &q.h[m]) {
				m = k
			}
		}
		if !less(&q.h[m], &last) {
			break
		}
		q.h[i] = q.h[m]
		i = m
	}
	q.h[i] = last
	return top
}
