package chunked

import (
	"iter"
	"unsafe"

	"github.com/creditsim/creditsim/internal/hugepage"
)

// Shift is log2 of Size.
const Shift = 13

// Size is how many elements a chunk holds.
const Size = 1 << Shift

// Slice is an array of T in chunks of Size elements. The zero value is
// empty and ready to use. An element's address never changes while the
// Slice holds it.
type Slice[T any] struct {
	chunks [][]T
	n      int
}

// Len returns the number of elements.
func (s *Slice[T]) Len() int { return s.n }

// Cap returns the number of elements the chunks can hold.
func (s *Slice[T]) Cap() int { return len(s.chunks) * Size }

// Bytes returns the memory the chunks hold.
func (s *Slice[T]) Bytes() int64 {
	var x T
	return int64(s.Cap()) * int64(unsafe.Sizeof(x))
}

// At returns a pointer to element i; 0 <= i < Len().
func (s *Slice[T]) At(i int) *T { return &s.chunks[i>>Shift][i&(Size-1)] }

// Grow appends zero elements until Len() is at least n. Chunks kept
// from a Pop are zeroed again as they are reused.
func (s *Slice[T]) Grow(n int) {
	for s.n < n {
		k := s.n >> Shift
		if k == len(s.chunks) {
			c := make([]T, Size)
			hugepage.Advise(c)
			s.chunks = append(s.chunks, c)
		}
		m := min(n-s.n, Size-s.n&(Size-1))
		j := s.n & (Size - 1)
		clear(s.chunks[k][j : j+m])
		s.n += m
	}
}

// Push appends x.
func (s *Slice[T]) Push(x T) {
	if s.n == s.Cap() {
		c := make([]T, Size)
		hugepage.Advise(c)
		s.chunks = append(s.chunks, c)
	}
	s.chunks[s.n>>Shift][s.n&(Size-1)] = x
	s.n++
}

// Pop removes the last element and returns it; Len() must be positive.
// The chunks stay, for later growth.
func (s *Slice[T]) Pop() T {
	s.n--
	return s.chunks[s.n>>Shift][s.n&(Size-1)]
}

// Chunks yields, in order, the index of each chunk's first element and
// the chunk's part of the elements; they may be changed in place.
func (s *Slice[T]) Chunks() iter.Seq2[int, []T] {
	return func(yield func(int, []T) bool) {
		for k := 0; k*Size < s.n; k++ {
			if !yield(k*Size, s.chunks[k][:min(Size, s.n-k*Size)]) {
				return
			}
		}
	}
}

// RowShift is log2 of the rows a chunk of Rows holds.
const RowShift = 10

// Rows is a table of rows of a fixed width, in chunks of 1<<RowShift
// rows. A row's address never changes.
type Rows[T any] struct {
	width  int
	chunks [][]T
	n      int
}

// NewRows returns an empty table of rows of width elements; width >= 0.
func NewRows[T any](width int) Rows[T] { return Rows[T]{width: width} }

// Len returns the number of rows.
func (r *Rows[T]) Len() int { return r.n }

// Bytes returns the memory the chunks hold.
func (r *Rows[T]) Bytes() int64 {
	var x T
	return int64(len(r.chunks)) << RowShift * int64(r.width) * int64(unsafe.Sizeof(x))
}

// Add appends a row of zeros and returns its index.
func (r *Rows[T]) Add() int {
	if r.n == len(r.chunks)<<RowShift {
		c := make([]T, r.width<<RowShift)
		hugepage.Advise(c)
		r.chunks = append(r.chunks, c)
	}
	r.n++
	return r.n - 1
}

// Row returns row i, 0 <= i < Len(); its capacity is its width, so an
// append to it cannot write over the next row.
func (r *Rows[T]) Row(i int) []T {
	j := (i & (1<<RowShift - 1)) * r.width
	return r.chunks[i>>RowShift][j : j+r.width : j+r.width]
}
