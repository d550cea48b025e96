package sim

// DirtyFreeSlots returns how many result slots on the free list have
// runtime accounting's row of paid, and how many of those rows are not
// zero: what the slot's next occupant would start with. Tests only.
func (s *Sim) DirtyFreeSlots() (withRow, dirty int) {
	for _, ri := range s.freeRes {
		if row := s.paidRow(ri); row != nil {
			withRow++
			for _, x := range row {
				if x != 0 {
					dirty++
					break
				}
			}
		}
	}
	return withRow, dirty
}
