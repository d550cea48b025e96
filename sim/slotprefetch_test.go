package sim_test

import (
	"slices"
	"testing"

	"github.com/creditsim/creditsim/policy"
	"github.com/creditsim/creditsim/sim"
)

// slotWatch is an observer that asks for slot prefetches and counts the
// valid results whose slot was among the last 64 announced at each
// stage (the engine announces a step or a few ahead).
type slotWatch struct {
	recent           [2][64]int32
	next             [2]int
	valid, announced int
}

func (o *slotWatch) PrefetchSlot(slot int32, stage int) {
	o.recent[stage][o.next[stage]%64] = slot + 1
	o.next[stage]++
}

func (o *slotWatch) ResultDone(r *sim.Record) {
	if r.View.ValidateState != policy.Valid {
		return
	}
	o.valid++
	if slices.Contains(o.recent[0][:], r.Slot+1) && slices.Contains(o.recent[1][:], r.Slot+1) {
		o.announced++
	}
}

func (o *slotWatch) Day(*sim.DayState) {}

// TestSlotPrefetchAhead: an observer implementing sim.SlotPrefetcher is
// told both stages of most valid results' workunit slots before it sees
// them, whether results are recorded at validation (job-based credit
// only) or at the account-manager call that settles their runtime. Not
// all: the last workunits of a validator pass have no step ahead, and a
// late result is validated alone (about 72% and 88% here).
func TestSlotPrefetchAhead(t *testing.T) {
	t.Parallel()
	for _, pols := range []string{"[v1peak]", "[v1peak, sciunited]"} {
		o := &slotWatch{}
		newObserved(t, []string{"policies=" + pols, "hosts.initial=200", "duration=10d", "warmup=1d"}, o).Run(nil)
		if o.valid < 1000 || float64(o.announced) < 0.6*float64(o.valid) {
			t.Errorf("%s: %d of %d valid results announced at both stages", pols, o.announced, o.valid)
		} else {
			t.Logf("%s: %d of %d valid results announced at both stages", pols, o.announced, o.valid)
		}
	}
}
