package sim

import (
	"math/rand/v2"
	"testing"

	"github.com/creditsim/creditsim/model/jobs"
	"github.com/creditsim/creditsim/model/param"
)

// TestWorkArrayScan: each request's scan of an app's slots starts at a
// slot drawn from the feeder's stream, about evenly over the slots, and
// goes on slot after slot, each slot once: a slot emptied in a request
// stays empty until the feeder fills it before the next.
func TestWorkArrayScan(t *testing.T) {
	app := jobs.App{RscFpopsEst: 1e13, BoundFactor: 10, SizeError: param.Const(1), Weight: 1, MinQuorum: 1, TargetNResults: 1}
	s := &Sim{cfg: &Config{}, apps: []appState{{cfg: &app, stream: jobs.NewStream(&app, 1, 2), quorum: 1, target: 1}},
		feedRng: rand.New(rand.NewPCG(1, 2))}
	const n, requests = 10, 5000
	s.work = newWorkArray(n, []float64{1}, []int{0})
	a := &s.apps[0]
	starts := make([]int, n)
	for range requests {
		s.rpc++
		prev := -1
		for k := 0; ; k++ {
			ri := s.takeResult(0, 0)
			if ri < 0 {
				if k != n {
					t.Fatalf("a request took %d jobs from %d slots", k, n)
				}
				break
			}
			s.res(ri).st = stQueued // sent
			if k == 0 {
				starts[a.taken]++
			} else if a.taken != (prev+1)%n {
				t.Fatalf("slot %d taken after slot %d", a.taken, prev)
			}
			prev = a.taken
		}
	}
	for k, c := range starts {
		// Binomial(5000, 0.1): mean 500, sd 21.
		if c < 400 || c > 600 {
			t.Errorf("scans started at slot %d %d times of %d, want about %d", k, c, requests, requests/n)
		}
	}
}
