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
	c.firstAt = []int32{0, 2, 1}
	c.firstGen = []uint32{0, 5, 6}
	c.firstG = []float64{1, 2, 3, 4}
	c.firstT = []float64{0, 0}
	for _, slot := range []int32{-1, 0, 1, 2, 3, 1 << 30} {
		c.PrefetchSlot(slot, 0)
		c.PrefetchSlot(slot, 1)
	}
	c.firstAt[0] = 99 // a slot pointing past firstG: no read beyond it
	c.PrefetchSlot(0, 1)
	if c.firstAt[1] != 2 || c.firstGen[2] != 6 || c.firstG[3] != 4 {
		t.Errorf("PrefetchSlot changed the collector: %v %v %v", c.firstAt, c.firstGen, c.firstG)
	}
}
