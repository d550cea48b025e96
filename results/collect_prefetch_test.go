package results

import "testing"

// TestPrefetchSlotBounds: PrefetchSlot accepts any slot at either stage,
// before the collector has seen a workunit and after, and changes none
// of what spread reads.
func TestPrefetchSlotBounds(t *testing.T) {
	c := NewCollector(Window{}, 1, 2)
	for _, slot := range []int32{-1, 0, 7, 1 << 30} {
		c.PrefetchSlot(slot, 0)
		c.PrefetchSlot(slot, 1)
	}
	c.firsts = newFirstRows(c.npol)
	for range 2 {
		c.firsts.Add()
	}
	copy(c.firsts.Row(0), []float64{0, 1, 2})
	copy(c.firsts.Row(1), []float64{0, 3, 4})
	c.slots.Grow(3)
	*c.slots.At(1) = firstRef{at: 2, gen: 5}
	*c.slots.At(2) = firstRef{at: 1, gen: 6}
	for _, slot := range []int32{-1, 0, 1, 2, 3, 1 << 30} {
		c.PrefetchSlot(slot, 0)
		c.PrefetchSlot(slot, 1)
	}
	c.slots.At(0).at = 99 // a slot naming a row past the last: no read beyond it
	c.PrefetchSlot(0, 1)
	if *c.slots.At(1) != (firstRef{2, 5}) || *c.slots.At(2) != (firstRef{1, 6}) || c.firsts.Row(1)[2] != 4 {
		t.Errorf("PrefetchSlot changed the collector: %v %v %v", *c.slots.At(1), *c.slots.At(2), c.firsts.Row(1))
	}
}
