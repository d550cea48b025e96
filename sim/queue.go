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
	evEnd
)

// queue is a binary min-heap of events held by value in a slice, with no
// allocation per event once it has grown (container/heap would box each
// event in an interface).
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
	q.h = append(q.h, e)
	i := len(q.h) - 1
	for i > 0 {
		p := (i - 1) / 2
		if !less(&q.h[i], &q.h[p]) {
			break
		}
		q.h[i], q.h[p] = q.h[p], q.h[i]
		i = p
	}
}

// pop removes and returns the earliest event; the queue must not be empty.
func (q *queue) pop() event {
	top := q.h[0]
	n := len(q.h) - 1
	q.h[0] = q.h[n]
	q.h = q.h[:n]
	i := 0
	for {
		l := 2*i + 1
		if l >= n {
			break
		}
		m := l
		if r := l + 1; r < n && less(&q.h[r], &q.h[l]) {
			m = r
		}
		if !less(&q.h[m], &q.h[i]) {
			break
		}
		q.h[i], q.h[m] = q.h[m], q.h[i]
		i = m
	}
	return top
}
