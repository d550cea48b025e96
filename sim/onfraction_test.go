package sim_test

import (
	"math"
	"testing"

	"github.com/creditsim/creditsim/scenarios"
)

// TestOnFraction: the fraction of its time each host is on, as a host
// table's on_frac reports it, averages the availability model's
// expected fraction (1 for hosts always on, the configured fraction for
// on_fraction, the on and off periods' means for weibull) and never
// leaves [0, 1].
func TestOnFraction(t *testing.T) {
	slowInShort(t)
	for _, avail := range []string{
		"{model: always}",
		"{model: on_fraction, on_fraction: 0.3, period: 1d}",
		"{model: weibull, on_period: {dist: weibull, shape: 0.393, scale: 2.964h}, off_period: {dist: lognormal, mean: 6h, cv: 2}}",
	} {
		set := []string{"hosts.initial=150", "hosts.arrivals_per_day=2", "duration=30d", "policies=[v1peak]", "hosts.availability=" + avail}
		s, err := scenarios.Open("baseline", set)
		if err != nil {
			t.Fatal(err)
		}
		want := s.Hosts.Availability.ExpectedOnFraction()
		x := newBaseline(t, set)
		x.Run(nil)
		sum, n := 0.0, 0
		for i, h := range x.Hosts() {
			f := x.OnFraction(i)
			if !(f >= 0 && f <= 1) {
				t.Fatalf("%s: host %d on %v of the time", avail, i, f)
			}
			if h.Arrival < 10*86400 { // long enough to average its periods
				sum, n = sum+f, n+1
			}
		}
		if got := sum / float64(n); math.Abs(got-want) > 0.03 {
			t.Errorf("%s: hosts on %.4f of the time on average, want %.4f", avail, got, want)
		} else {
			t.Logf("%s: %.4f (model %.4f) over %d hosts", avail, got, want, n)
		}
	}
}
