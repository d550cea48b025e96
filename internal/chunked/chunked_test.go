package chunked_test

import (
	"fmt"
	"testing"

	"github.com/creditsim/creditsim/internal/chunked"
)

// TestSliceAgainstSlice drives a Slice and a plain slice through the same
// pushes, pops and grows across chunk boundaries and compares every
// element, the addresses of elements kept, and the chunks' iteration.
func TestSliceAgainstSlice(t *testing.T) {
	var s chunked.Slice[int64]
	var want []int64
	var kept *int64
	steps := []struct {
		op string
		n  int
	}{
		{"push", chunked.Size + 5}, {"pop", 7}, {"grow", 2*chunked.Size + 3}, {"push", 3},
		{"pop", chunked.Size + 10}, {"grow", chunked.Size + 20}, {"push", chunked.Size}, {"grow", 10}, {"pop", 0},
	}
	next := int64(1)
	for _, st := range steps {
		switch st.op {
		case "push":
			for range st.n {
				s.Push(next)
				want = append(want, next)
				next++
			}
		case "pop":
			for range st.n {
				if got, w := s.Pop(), want[len(want)-1]; got != w {
					t.Fatalf("Pop = %d, want %d", got, w)
				}
				want = want[:len(want)-1]
			}
		case "grow":
			s.Grow(st.n)
			for len(want) < st.n {
				want = append(want, 0) // Grow must zero what Pop left behind
			}
		}
		if kept == nil && s.Len() > chunked.Size {
			kept = s.At(3)
		}
		if s.Len() != len(want) {
			t.Fatalf("after %s %d: Len %d, want %d", st.op, st.n, s.Len(), len(want))
		}
		if s.Cap() < s.Len() || s.Cap()%chunked.Size != 0 || s.Bytes() != int64(s.Cap())*8 {
			t.Fatalf("Cap %d, Bytes %d for Len %d", s.Cap(), s.Bytes(), s.Len())
		}
		for i, w := range want {
			if *s.At(i) != w {
				t.Fatalf("after %s %d: At(%d) = %d, want %d", st.op, st.n, i, *s.At(i), w)
			}
		}
		n := 0
		for start, c := range s.Chunks() {
			if start != n {
				t.Fatalf("chunk starts at %d, want %d", start, n)
			}
			for j, x := range c {
				if x != want[start+j] {
					t.Fatalf("chunk element %d = %d, want %d", start+j, x, want[start+j])
				}
			}
			n += len(c)
		}
		if n != len(want) {
			t.Fatalf("chunks cover %d elements, want %d", n, len(want))
		}
	}
	if kept != s.At(3) || *kept != 4 {
		t.Errorf("element 3 moved or changed: %p %p %d", kept, s.At(3), *kept)
	}
	for range s.Chunks() {
		break // stopping early must not panic
	}
}

func ExampleSlice() {
	var free chunked.Slice[int32]
	for i := range int32(3) {
		free.Push(i)
	}
	fmt.Println(free.Pop(), free.Len())
	var firsts chunked.Slice[float64]
	firsts.Grow(chunked.Size + 1) // two chunks, nothing copied
	*firsts.At(chunked.Size) = 2.5
	fmt.Println(firsts.Len(), *firsts.At(chunked.Size), firsts.Cap() == 2*chunked.Size)
	// Output:
	// 2 2
	// 8193 2.5 true
}

// TestRows fills rows across chunk boundaries and reads every one back.
func TestRows(t *testing.T) {
	for _, width := range []int{0, 1, 11} {
		r := chunked.NewRows[float64](width)
		n := 2<<chunked.RowShift + 3
		for i := range n {
			if k := r.Add(); k != i {
				t.Fatalf("width %d: Add = %d, want %d", width, k, i)
			}
			row := r.Row(i)
			if len(row) != width || cap(row) != width {
				t.Fatalf("width %d: row %d has len %d cap %d", width, i, len(row), cap(row))
			}
			for j := range row {
				if row[j] != 0 {
					t.Fatalf("width %d: new row %d holds %v", width, i, row)
				}
				row[j] = float64(i*100 + j)
			}
		}
		for i := range n {
			for j, x := range r.Row(i) {
				if x != float64(i*100+j) {
					t.Fatalf("width %d: row %d [%d] = %v", width, i, j, x)
				}
			}
		}
		if r.Len() != n || r.Bytes() != int64(3<<chunked.RowShift*width*8) {
			t.Errorf("width %d: Len %d, Bytes %d", width, r.Len(), r.Bytes())
		}
	}
}
