package scenarios

import (
	"math"
	"strings"
	"testing"
)

// TestEstimateResults: every built-in is well inside the default limit;
// the absurd worlds that used to run forever are outside it.
func TestEstimateResults(t *testing.T) {
	for _, n := range Names() {
		s, err := Open(n, nil)
		if err != nil {
			t.Fatal(err)
		}
		if e := s.EstimateResults(); !(e < DefaultMaxResults/10) {
			t.Errorf("%s: estimate %.3g, want well under the limit %.3g", n, e, DefaultMaxResults)
		}
		if err := s.CheckScale(DefaultMaxResults / 10); err != nil {
			t.Errorf("%s: %v", n, err)
		}
		t.Logf("%s: about %.3g results, %.3g host events", n, s.EstimateResults(), s.EstimateHostEvents())
	}
	for _, set := range []string{"hosts.initial=1000000000", "hosts.initial=10000000", "hosts.cpu.cores=1000000000",
		"projects[0].apps[0].rsc_fpops_est=1e-300", "hosts.cpu.whetstone_gflops=1e300",
		"hosts.availability={model: on_fraction, on_fraction: 0.5, period: 1m}\nhosts.initial=200000\nduration=3650d\nhosts.cpu.whetstone_gflops=0.0001"} {
		s, err := Open("baseline", strings.Split(set, "\n"))
		if err != nil {
			t.Fatalf("%s: %v", set, err)
		}
		if err := s.CheckScale(DefaultMaxResults); err == nil {
			t.Errorf("%s: accepted (estimates %.3g results, %.3g host events)", set, s.EstimateResults(), s.EstimateHostEvents())
		}
	}
	// A realistic large project: 100,000 hosts for a year, one replication.
	s, err := Open("baseline", []string{"hosts.initial=100000", "duration=365d", "replications=1"})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.CheckScale(DefaultMaxResults); err != nil {
		t.Error(err)
	}
}

// TestEstimateCountsFakes: hosts that return a job in a tenth of its time
// send ten times the results, and the estimate says so.
func TestEstimateCountsFakes(t *testing.T) {
	honest, err := Open("baseline", nil)
	if err != nil {
		t.Fatal(err)
	}
	fakes, err := Open("baseline", []string{"hosts.agents=[{kind: fake_results, share: 0.5, work_fraction: 0.1}]"})
	if err != nil {
		t.Fatal(err)
	}
	// Half the hosts at 10 x: 0.5 + 0.5 x 10 = 5.5 x.
	if r := fakes.EstimateResults() / honest.EstimateResults(); math.Abs(r-5.5) > 1e-9 {
		t.Errorf("half the hosts faking at 1/10 of the work: estimate x %.6g, want 5.5", r)
	}
}
