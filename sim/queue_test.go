package sim

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"testing"
)

func TestQueueOrdersByTimeThenSequence(t *testing.T) {
	var q queue
	r := rand.New(rand.NewPCG(1, 2))
	var want []event
	for i := 0; i < 5000; i++ {
		// Few distinct times, so many ties.
		e := event{t: float64(r.IntN(50)), a: int32(i)}
		q.push(e)
		e.seq = uint64(i)
		want = append(want, e)
	}
	sort.SliceStable(want, func(i, j int) bool { return want[i].t < want[j].t })
	for i, w := range want {
		got := q.pop()
		if got.t != w.t || got.a != w.a {
			t.Fatalf("pop %d: got (t %v, a %d), want (t %v, a %d)", i, got.t, got.a, w.t, w.a)
		}
	}
	if q.Len() != 0 {
		t.Fatal("queue not empty")
	}
}

// BenchmarkQueue pops the earliest event, peeks at the next two as the
// engine does, and pushes it back later, in a queue of n events: 10,000 fits in cache, a million (a world of about
// 100,000 hosts) does not.
func BenchmarkQueue(b *testing.B) {
	for _, n := range []int{10000, 1000000} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			var q queue
			r := rand.New(rand.NewPCG(1, 2))
			for i := 0; i < n; i++ {
				q.push(event{t: r.Float64() * 1e6})
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				e := q.pop()
				// The engine's prefetching peeks at every event.
				q.next()
				q.afterNext()
				e.t += r.Float64() * 1e4
				q.push(e)
			}
		})
	}
}

// TestQueueInterleaved pushes and pops at random against a sorted
// reference, with ties and a few times already passed, through growth
// and down to empty, checking the next and after-next peeks as it goes
// (after-next only when nothing is overdue: it is a hint, nil then).
func TestQueueInterleaved(t *testing.T) {
	var q queue
	r := rand.New(rand.NewPCG(3, 4))
	var ref []event // sorted by (t, seq)
	seq := uint64(0)
	now := 0.0
	for step := 0; step < 200000; step++ {
		if r.IntN(100) < 52 || len(ref) == 0 {
			e := event{t: now + float64(r.IntN(40)), a: int32(step)}
			if r.IntN(50) == 0 {
				e.t = now - float64(1+r.IntN(5)) // already passed: overdue
			}
			q.push(e)
			e.seq = seq
			seq++
			k := sort.Search(len(ref), func(i int) bool { return less(&e, &ref[i]) })
			ref = append(ref, event{})
			copy(ref[k+1:], ref[k:])
			ref[k] = e
		} else {
			if n := q.next(); n == nil || n.a != ref[0].a {
				t.Fatalf("step %d: next is %+v, want %+v", step, n, ref[0])
			}
			if a := q.afterNext(); len(q.over) > 0 && a != nil {
				t.Fatalf("step %d: after-next %+v with events overdue, want nil", step, a)
			} else if len(q.over) == 0 && (len(ref) > 1 && (a == nil || a.a != ref[1].a) || len(ref) == 1 && a != nil) {
				t.Fatalf("step %d: after-next %+v, want %+v", step, a, ref[min(1, len(ref)-1)])
			}
			got := q.pop()
			if got.t != ref[0].t || got.a != ref[0].a || got.seq != ref[0].seq {
				t.Fatalf("step %d: pop %+v, want %+v", step, got, ref[0])
			}
			now = got.t
			ref = ref[1:]
		}
		if q.Len() != len(ref) {
			t.Fatalf("step %d: Len %d, want %d", step, q.Len(), len(ref))
		}
	}
}

// TestQueueMemory checks that the queue holds about as many event slots
// as it has events, after events have moved down through every bucket:
// a block per 32 events and a part-filled block per bucket, plus the
// last slab's spare blocks (a quarter of the queue at most).
func TestQueueMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("a queue of 100,000 events measured: go test without -short runs it")
	}
	for _, n := range []int{1000, 100000} {
		var q queue
		r := rand.New(rand.NewPCG(5, 6))
		for i := 0; i < n; i++ {
			q.push(event{t: r.Float64() * 1e6})
		}
		for i := 0; i < 20*n; i++ {
			e := q.pop()
			e.t += r.Float64() * 1e4
			q.push(e)
		}
		if limit := (n/qBlockLen+64)*5/4 + 16; q.nBlk > limit {
			t.Errorf("%d events: %d blocks, want at most %d", n, q.nBlk, limit)
		}
	}
}
