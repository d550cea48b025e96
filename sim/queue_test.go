package sim

import (
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

func BenchmarkQueue(b *testing.B) {
	var q queue
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 10000; i++ {
		q.push(event{t: r.Float64() * 1e6})
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		e := q.pop()
		e.t += r.Float64() * 1e4
		q.push(e)
	}
}
