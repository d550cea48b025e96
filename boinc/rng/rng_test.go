package rng

import "testing"

func TestHashOrderAndIndependence(t *testing.T) {
	if Hash(1, 2) == Hash(2, 1) {
		t.Error("Hash ignores order")
	}
	if Hash(1, 2, 3) == Hash(1, 2, 4) {
		t.Error("Hash collides on neighbouring ids")
	}
	// Streams of neighbouring components are uncorrelated: their first draws
	// disagree, and a stream is reproducible.
	a, b := New(Hash(7, 0, String("host"), 1)), New(Hash(7, 0, String("host"), 2))
	same := 0
	for i := 0; i < 1000; i++ {
		if a.Uint64()%2 == b.Uint64()%2 {
			same++
		}
	}
	if same < 420 || same > 580 {
		t.Errorf("neighbouring streams agree on %d of 1000 coin flips", same)
	}
	x, y := New(99).Uint64(), New(99).Uint64()
	if x != y {
		t.Error("same seed, different stream")
	}
	s := NewSource(5)
	first := s.R.Uint64()
	s.Reseed(5)
	if s.R.Uint64() != first {
		t.Error("Reseed does not restart the stream")
	}
}
