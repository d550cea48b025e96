package sim

import (
	"math/rand/v2"
	"testing"
)

// TestCompactDeadlines: compacting an app's deadline FIFO drops exactly
// the results freed since they were sent and those the server has
// (reported, final, cancelled), keeps the others in send order under
// their own deadline times, and keeps every deadline time (each still
// fires its timeout event), through the chunks' wrap-around.
func TestCompactDeadlines(t *testing.T) {
	s := &Sim{apps: make([]appState, 1)}
	a := &s.apps[0]
	a.dlArmed = true // no event queue here
	a.dlCompact = 1 << 30
	r := rand.New(rand.NewPCG(7, 8))
	type sent struct {
		t   float64
		ref resultRef
	}
	var all []sent
	now := 0.0
	for i := 0; i < 3*fifoChunk; i++ {
		if r.IntN(3) == 0 {
			now += float64(1 + r.IntN(5)) // several results share a time
		}
		ri := s.results.add()
		all = append(all, sent{now, resultRef{ri, 0}})
		s.addDeadline(0, ri, 0, now)
	}
	times := 0
	for i := range all {
		if i == 0 || all[i].t != all[i-1].t {
			times++
		}
	}
	if a.deadlines.n != times || a.dlRefs.n != len(all) {
		t.Fatalf("before: %d times, %d results; want %d, %d", a.deadlines.n, a.dlRefs.n, times, len(all))
	}
	// Free about four in five, as a week's sends mostly are; of the
	// rest, about half are on their hosts still.
	var want []sent
	states := []uint8{stQueued, stRunning, stDone, stReported, stOver, stCancelled}
	for _, x := range all {
		st := states[r.IntN(len(states))]
		s.res(x.ref.ri).st = st
		s.setOut(x.ref.ri, st <= stDone)
		switch {
		case r.IntN(5) != 0:
			*s.gen(x.ref.ri)++
		case st <= stDone:
			want = append(want, x)
		}
	}
	s.compactDeadlines(a)
	if a.deadlines.n != times || a.dlRefs.n != len(want) {
		t.Fatalf("after: %d times, %d results; want %d, %d", a.deadlines.n, a.dlRefs.n, times, len(want))
	}
	var got []sent
	last := -1.0
	for !a.deadlines.empty() {
		run := *a.deadlines.front()
		a.deadlines.pop()
		if run.t <= last {
			t.Fatalf("time %v after %v", run.t, last)
		}
		last = run.t
		for range run.n {
			got = append(got, sent{run.t, *a.dlRefs.front()})
			a.dlRefs.pop()
		}
	}
	if len(got) != len(want) {
		t.Fatalf("%d results left, want %d", len(got), len(want))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("result %d: %+v, want %+v", i, got[i], want[i])
		}
	}
}
