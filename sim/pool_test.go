package sim

import (
	"math/rand/v2"
	"slices"
	"testing"
	"unsafe"
)

// TestFIFO pushes and pops across chunk boundaries in several patterns
// and checks order, emptiness and chunk recycling.
func TestFIFO(t *testing.T) {
	for _, tc := range []struct {
		name       string
		push, pops []int // alternate: push[k] entries, then pop pops[k]
	}{
		{"one chunk", []int{10}, []int{10}},
		{"exact chunk", []int{fifoChunk}, []int{fifoChunk}},
		{"chunk plus one", []int{fifoChunk + 1}, []int{fifoChunk + 1}},
		{"interleaved", []int{3000, 3000, 5000, 100}, []int{2000, 4000, 1000, 4100}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var f fifo[int]
			next, want := 0, 0
			for k := range tc.push {
				for i := 0; i < tc.push[k]; i++ {
					f.push(next)
					next++
				}
				for i := 0; i < tc.pops[k]; i++ {
					if f.empty() {
						t.Fatalf("empty after %d pops, %d pushed", want, next)
					}
					if got := *f.front(); got != want {
						t.Fatalf("front = %d, want %d", got, want)
					}
					f.pop()
					want++
				}
			}
			if !f.empty() {
				t.Fatalf("not empty after popping all %d", next)
			}
			if len(f.chunks) > 1 {
				t.Errorf("%d chunks held after draining", len(f.chunks))
			}
		})
	}
}

// TestFIFORecycles checks that a queue whose length stays bounded stops
// allocating chunks.
func TestFIFORecycles(t *testing.T) {
	var f fifo[int]
	for i := 0; i < 3*fifoChunk; i++ {
		f.push(i)
	}
	for i := 0; i < 20*fifoChunk; i++ {
		f.pop()
		f.push(i)
	}
	if got := len(f.chunks) + len(f.free); got > 5 {
		t.Errorf("%d chunks allocated for a queue of %d", got, 3*fifoChunk)
	}
	// Drained and filled again to the same length (what compacting a
	// deadline list does), it reuses its own chunks: dropping them would
	// leave garbage the heap grows for.
	had := map[*int]bool{}
	for _, c := range slices.Concat(f.chunks, f.free) { // not append: f.chunks's spare capacity is the queue's
		had[&c[:1][0]] = true
	}
	for !f.empty() {
		f.pop()
	}
	for i := 0; i < 3*fifoChunk; i++ {
		f.push(i)
	}
	for _, c := range f.chunks {
		if !had[&c[:1][0]] {
			t.Fatalf("a new chunk was allocated to refill a drained queue")
		}
	}
}

func TestResultPoolIndexes(t *testing.T) {
	s := &Sim{}
	for i := int32(0); i < 2*resultChunk+3; i++ {
		if got := s.results.add(); got != i {
			t.Fatalf("add = %d, want %d", got, i)
		}
		s.res(i).output = uint32(i)
		*s.gen(i) = uint32(i) + 7
	}
	if len(s.results.gens) != len(s.results.chunks) {
		t.Fatalf("%d chunks of generations for %d of results", len(s.results.gens), len(s.results.chunks))
	}
	for _, i := range []int32{0, resultChunk - 1, resultChunk, 2*resultChunk + 2} {
		if s.res(i).output != uint32(i) || *s.gen(i) != uint32(i)+7 {
			t.Errorf("slot %d: output %d, generation %d", i, s.res(i).output, *s.gen(i))
		}
	}
}

// TestWorkunitPool: workunits and the credit rows they take keep their
// values and their addresses as the pools grow across chunks, rows of
// workunits do not overlap, and a freed workunit's row is given back and
// taken again before the credit pool grows.
func TestWorkunitPool(t *testing.T) {
	const npol = 3
	s := &Sim{}
	s.credit.npol = npol
	first := s.wu(s.wus.add())
	first.app = -1
	for i := int32(1); i < 2*wuChunk+3; i++ {
		if got := s.wus.add(); got != i {
			t.Fatalf("add = %d, want %d", got, i)
		}
		s.wu(i).app = i
		if i%8 == 0 { // only some have credit, as in a run
			for p, row := 0, s.newCredit(i); p < npol; p++ {
				row[p] = float64(int(i)*npol + p)
			}
		}
	}
	if s.wu(0) != first || first.app != -1 {
		t.Errorf("workunit 0 moved or changed as the pool grew")
	}
	if want := int32((2*wuChunk + 2) / 8); s.credit.n != want {
		t.Errorf("%d credit rows handed out, want %d", s.credit.n, want)
	}
	for _, i := range []int32{8, wuChunk - 8, wuChunk, 2 * wuChunk} {
		row := s.creditRow(i)
		if s.wu(i).app != i || len(row) != npol || cap(row) != npol {
			t.Fatalf("slot %d: app %d, credit row of length %d, capacity %d", i, s.wu(i).app, len(row), cap(row))
		}
		for p := range row {
			if row[p] != float64(int(i)*npol+p) {
				t.Errorf("slot %d: credit[%d] = %g", i, p, row[p])
			}
		}
	}
	w := s.wu(wuChunk)
	row := w.credit
	s.freeCredit(w)
	if w.credit != 0 {
		t.Fatalf("a freed workunit keeps credit row %d", w.credit)
	}
	s.freeCredit(w) // nothing to give back: the row must not be put twice
	n := s.credit.n
	if s.newCredit(7); s.wu(7).credit != row || s.credit.n != n {
		t.Errorf("a new row is %d with %d handed out; want the freed row %d, still %d", s.wu(7).credit, s.credit.n, row, n)
	}
	if s.newCredit(9); s.wu(9).credit == row || s.credit.n != n+1 {
		t.Errorf("the next row is %d with %d handed out; want a fresh one", s.wu(9).credit, s.credit.n)
	}
}

// TestReplicas: a workunit's result list keeps the order of adding
// through removals, inline and past four (where it spills out of the
// record, and the footprint counts it), and a cleared list is reused.
func TestReplicas(t *testing.T) {
	s := &Sim{}
	w := &workunit{}
	var want []int32
	check := func(step string) {
		t.Helper()
		got := s.reps(w)
		if len(got) != len(want) {
			t.Fatalf("%s: %v, want %v", step, got, want)
		}
		for k := range got {
			if got[k] != want[k] {
				t.Fatalf("%s: %v, want %v", step, got, want)
			}
		}
	}
	for round := 0; round < 2; round++ {
		before := s.wuLists
		for i := int32(0); i < 3; i++ {
			s.addRep(w, 10+i)
			want = append(want, 10+i)
		}
		check("three inline")
		s.removeRep(w, 11)
		want = []int32{10, 12}
		check("removed inline")
		for i := int32(20); i < 26; i++ {
			s.addRep(w, i)
			want = append(want, i)
		}
		check("past four")
		grown := s.wuLists - before
		if round == 0 && (grown == 0 || w.reps.spill != 1) {
			t.Errorf("a list past four grew %d bytes outside the record, spill %d", grown, w.reps.spill)
		}
		if round == 1 && (grown != 0 || len(s.spills) != 1) {
			t.Errorf("a reused list grew by %d bytes, %d spilled lists", grown, len(s.spills))
		}
		s.removeRep(w, 10)
		s.removeRep(w, 25)
		s.removeRep(w, 99) // absent: nothing happens
		want = []int32{12, 20, 21, 22, 23, 24}
		check("removed past four")
		s.clearReps(w)
		want = want[:0]
		check("cleared")
	}
}

// TestHostQueue drives a host's job queue (queueJob, takeQueued, and the
// transitioner's remove) and a plain slice through the same random
// operations: the queue must hold the same jobs in the same order, end
// where its buffer ends, and keep a buffer of a few times its longest.
func TestHostQueue(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var h hostState
	var want []int32
	next := int32(0)
	longest := 0
	for step := range 200000 {
		// Phases of filling and draining, as a host's buffer does.
		fill := step/1000%2 == 0
		switch op := rng.IntN(10); {
		case op < 6 && fill || op < 3:
			h.queueJob(next)
			want = append(want, next)
			next++
		case len(want) > 0 && op < 9:
			k := 0
			if rng.IntN(4) == 0 {
				k = rng.IntN(len(want))
			}
			if got := h.takeQueued(k); got != want[k] {
				t.Fatalf("step %d: takeQueued(%d) = %d, want %d", step, k, got, want[k])
			}
			want = append(want[:k], want[k+1:]...)
		case len(want) > 0:
			x := want[rng.IntN(len(want))]
			h.queue = remove(h.queue, x)
			want = remove(want, x)
		}
		longest = max(longest, len(want))
		if !slices.Equal(h.queue, want) {
			t.Fatalf("step %d: queue %v, want %v", step, h.queue, want)
		}
		if len(h.queue) > 0 {
			start := unsafe.Pointer(&h.queue[0])
			buf := unsafe.Pointer(unsafe.SliceData(h.qbuf))
			if uintptr(start) < uintptr(buf) || uintptr(start)+uintptr(cap(h.queue))*4 != uintptr(buf)+uintptr(cap(h.qbuf))*4 {
				t.Fatalf("step %d: the queue is not the end of its buffer", step)
			}
		}
	}
	if longest < 100 || cap(h.qbuf) > 4*longest {
		t.Errorf("a buffer of %d for a queue of at most %d", cap(h.qbuf), longest)
	}
}
