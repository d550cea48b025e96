package scenarios

import (
	"os"
	"strings"
	"testing"

	_ "github.com/creditsim/creditsim/policy/all" // every credit system
)

func TestBuiltinsLoad(t *testing.T) {
	for _, n := range Names() {
		if _, err := Open(n, nil); err != nil {
			t.Errorf("%s: %v", n, err)
		}
		if Summary(n) == "" {
			t.Errorf("%s has no opening comment", n)
		}
	}
}

func TestOverrides(t *testing.T) {
	s, err := Open("baseline", []string{"hosts.initial=7", "projects[0].apps[0].versions[1].efficiency={dist: const, mean: 0.25}", "server.feeder_period=5m"})
	if err != nil {
		t.Fatal(err)
	}
	if s.Hosts.Initial != 7 || float64(s.Projects[0].Apps[0].Versions[1].Efficiency.Mean) != 0.25 || s.Server.FeederPeriod != 300 {
		t.Errorf("overrides not applied: %d %v %v", s.Hosts.Initial, s.Projects[0].Apps[0].Versions[1].Efficiency, s.Server.FeederPeriod)
	}
	for _, c := range []struct{ set, want string }{
		{"hosts.nosuch=1", `builtin:baseline (--set hosts.nosuch=1): hosts.nosuch: unknown field "nosuch"`},
		{"projects[3].name=x", "projects has no element 3"},
		{"hosts.initial", "--set takes path=value"},
		{"hosts.initial=-4", "(--set hosts.initial=-4): hosts.initial: -4: must not be negative"},
		{"duration=5", `duration "5" has no unit`},
		// A bad value in one override is blamed on it, not on a later one.
		{"hosts.initial=5\n---\n6", `(--set "hosts.initial=5\n---\n6"): hosts.initial: the value holds more than one YAML document`},
		{"hosts.report_delay=0", `(--set hosts.report_delay=0): hosts.report_delay: duration "0" has no unit`},
		{"hosts.agents=[{kind: cherry_picker, threshold: 5}]", `threshold: 5}]): hosts.agents[0].threshold: duration "5"`},
		// Time bounds: each period is an event, and a run must finish.
		{"duration=3650000d", "duration: 3.65e+06d: at most 3650 days (ten years) of simulated time"},
		{"server.validator_period=0.000001s", "server.validator_period: 1e-06s: must be between 1s and 1d"},
		{"server.feeder_period=2d", "server.feeder_period: 2d: must be between 1s and 1d"},
		{"server.perf_info_period=1s", "server.perf_info_period: 1s: must be between 1m and 365d"},
		{"hosts.work_buffer=1s", "hosts.work_buffer: 1s: must be between 1m and 30d"},
		{"hosts.account_manager_interval=0.5s", "hosts.account_manager_interval: 0.5s: must be between 1m and 30d"},
		{"hosts.report_delay=400d", "hosts.report_delay: 400d: must be between 0s and 30d"},
		{"hosts.availability={model: on_fraction, on_fraction: 0.5, period: 1s}", "hosts.availability.period: 1s: must be between 1m and 365d"},
		{"hosts.availability={model: weibull, on_period: {dist: const, mean: 0.001}, off_period: {dist: const, mean: 1}}",
			"hosts.availability.on_period: 0.001s on average: periods must average at least 1s"},
		{"projects[0].apps[0].delay_bound=1s", "projects[0].apps[0].delay_bound: 1s: must be between 1m and 365d"},
		// max_success_results: 0 (none), or between target_nresults and max_total_results, as BOINC's job creation.
		{"projects[0].apps[0].max_success_results=1", "projects[0].apps[0].max_success_results: 1: must be at least target_nresults (BOINC raises it to that)"},
		{"projects[0].apps[0].max_success_results=-1", "projects[0].apps[0].max_success_results: -1: must be at least target_nresults"},
		{"projects[0].apps[0].max_success_results=9", "projects[0].apps[0].max_success_results: 9: must be at most max_total_results (BOINC refuses such a job)"},
		{"hosts.agents=[{kind: cherry_picker, threshold: 0.001s, share: 0.1}]", "hosts.agents[0].threshold: 0.001s: must be between 1s and 30d"},
		{"server.trust={confirmations: 10, quota_tenure: 1d}", "server.trust.quota_tenure: 1d: holds a new host to untrusted_quota: give untrusted_quota"},
		{"server.trust={confirmations: 10, untrusted_quota: 30, quota_tenure: 400d}", "server.trust.quota_tenure: 400d: must be between"},
	} {
		_, err := Open("baseline", []string{c.set, "server.max_jobs_in_progress=2"})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("--set %s: %v, want %q", c.set, err, c.want)
		}
	}
}

// TestResolvedRoundTrip: the resolved scenario a run writes loads back
// to the same scenario, including values that equal no default: a zero
// where the default is not (a resolved distribution leaves zeros out, and
// a mapping naming its kind is complete) and weights taken away.
func TestResolvedRoundTrip(t *testing.T) {
	cases := []struct {
		name, set string
		check     func(*Scenario) float64
		want      float64
	}{
		{"baseline", "", nil, 0},
		{"baseline", "hosts.error_rate=0", func(s *Scenario) float64 { return float64(s.Hosts.ErrorRate.Mean) }, 0},
		{"baseline", "hosts.invalid_rate=0", func(s *Scenario) float64 { return float64(s.Hosts.InvalidRate.Mean) }, 0},
		{"baseline", "projects[0].apps[0].versions[0].efficiency.cv=0",
			func(s *Scenario) float64 { return s.Projects[0].Apps[0].Versions[0].Efficiency.CV }, 0},
		{"mt-idle", "hosts.cpu.cores.weights=null", func(s *Scenario) float64 { return float64(len(s.Hosts.CPU.Cores.Weights)) }, 0},
	}
	for _, c := range cases {
		var sets []string
		if c.set != "" {
			sets = []string{c.set}
		}
		s, err := Open(c.name, sets)
		if err != nil {
			t.Fatalf("%s %s: %v", c.name, c.set, err)
		}
		b, sum, err := Resolved(s)
		if err != nil {
			t.Fatal(err)
		}
		s2, err := Load("resolved.yaml", b, nil)
		if err != nil {
			t.Fatalf("%s %s: resolved scenario does not load: %v", c.name, c.set, err)
		}
		b2, sum2, _ := Resolved(s2)
		if sum != sum2 || string(b) != string(b2) {
			t.Errorf("%s %s: resolving twice changes the scenario", c.name, c.set)
		}
		if c.check != nil {
			if got := c.check(s2); got != c.want {
				t.Errorf("%s %s: reloaded value %v, want %v", c.name, c.set, got, c.want)
			}
		}
	}
}

// TestFolderNamedLikeBuiltin: a folder in the current directory named
// like a built-in (a run's output, say) does not hide the built-in; a
// file of that name does, and a path to the folder is refused.
func TestFolderNamedLikeBuiltin(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	if err := os.Mkdir("cheaters", 0o755); err != nil {
		t.Fatal(err)
	}
	s, err := Open("cheaters", nil)
	if err != nil || s.Name != "cheaters" {
		t.Fatalf("Open(cheaters) beside a folder of that name: %v", err)
	}
	if _, err := Open("./cheaters", nil); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("Open(./cheaters), a folder: %v", err)
	}
	if err := os.WriteFile("baseline", []byte("name: mine\nduration: 10d\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// The file is read (and found to have no project), not the built-in.
	if _, err := Open("baseline", nil); err == nil || !strings.HasPrefix(err.Error(), "baseline:") || !strings.Contains(err.Error(), "project") {
		t.Errorf("a file named baseline: %v", err)
	}
}
