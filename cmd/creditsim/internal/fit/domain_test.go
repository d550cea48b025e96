package fit

import (
	"strings"
	"testing"

	"github.com/creditsim/creditsim/cmd/creditsim/internal/statsdump"
)

// hostsWith are n hosts present in a 90-day window, each as edit makes
// it from a plain Linux host (4 CPUs, 3 GFLOPS, Dhrystone twice that).
func hostsWith(n int, edit func(i int, h *statsdump.Host)) []statsdump.Host {
	hs := make([]statsdump.Host, n)
	for i := range hs {
		hs[i] = statsdump.Host{ID: i + 1, UserID: i + 1, OSName: "Linux", CreateTime: 1e9, RPCTime: 1e9 + 100*86400,
			NCPUs: 4, PFpops: 3e9 + float64(i)*1e7, PIops: 6e9}
		if edit != nil {
			edit(i, &hs[i])
		}
	}
	return hs
}

// TestDomains: a host column whose values are missing, unset, BOINC's
// failed-benchmark 1e9 or absurd in most rows is not identified: the
// header says so under "Not identified" and never calls the baseline's
// value the data's; a few such rows are left out and said, and the rest
// fitted. No absurd value is written through.
func TestDomains(t *testing.T) {
	for _, c := range []struct {
		name       string
		edit       func(i int, h *statsdump.Host)
		unknown    []string // fields not identified
		noted      string   // a note on values left out
		notWritten string   // a value that must not reach the scenario
	}{
		{name: "plain"},
		{name: "no p_fpops column", edit: func(_ int, h *statsdump.Host) { h.PFpops, h.PIops = 0, 0 }, unknown: []string{"whetstone_gflops"}},
		{name: "every p_fpops negative", edit: func(_ int, h *statsdump.Host) { h.PFpops = -3e9 }, unknown: []string{"whetstone_gflops"}},
		{name: "every benchmark failed", edit: func(_ int, h *statsdump.Host) { h.PFpops, h.PIops = 1e9, 1e9 }, unknown: []string{"whetstone_gflops"}},
		{name: "p_fpops 1e308", edit: func(_ int, h *statsdump.Host) { h.PFpops = 1e308 }, unknown: []string{"whetstone_gflops"}, notWritten: "1e+299"},
		{name: "p_ncpus 1e9", edit: func(_ int, h *statsdump.Host) { h.NCPUs = 1e9 }, unknown: []string{"cores"}, notWritten: "1e+09"},
		{name: "cores 0 or less", edit: func(i int, h *statsdump.Host) { h.NCPUs = -4 * (i % 2) }, unknown: []string{"cores"}},
		{name: "no p_iops", edit: func(_ int, h *statsdump.Host) { h.PIops = 0 }, unknown: []string{"dhrystone_ratio"}},
		{name: "no create_time column", edit: func(_ int, h *statsdump.Host) { h.CreateTime = 0 }, unknown: []string{"arrivals_per_day and lifetime"}},
		{name: "create_time in the year -1200", edit: func(_ int, h *statsdump.Host) { h.CreateTime = -99e9 }, unknown: []string{"arrivals_per_day and lifetime"}},
		{name: "p_ngpus 1e6", edit: func(_ int, h *statsdump.Host) { h.GPUs = []statsdump.GPU{{Vendor: "NVIDIA", Count: 1e6}} }, unknown: []string{"gpu count"}, notWritten: "1e+06"},
		{name: "a few create_time after the last contact", edit: func(i int, h *statsdump.Host) {
			if i%10 == 0 {
				h.CreateTime = h.RPCTime + 86400
			}
		}, noted: "arrivals_per_day and lifetime: create_time of the export taken as before the window (4 after the host's last contact (rpc_time))"},
		{name: "a few failed benchmarks", edit: func(i int, h *statsdump.Host) {
			if i%10 == 0 {
				h.PFpops = 1e9
			}
		}, noted: "whetstone_gflops: p_fpops of the export left out of the fit (4 at 1e9 (BOINC's value for a failed benchmark))"},
	} {
		t.Run(c.name, func(t *testing.T) {
			f, err := FitHosts(hostsWith(40, c.edit), Window{})
			if err != nil {
				t.Fatal(err)
			}
			text, err := f.Scenario("x", "test")
			if err != nil {
				t.Fatal(err)
			}
			header, _, _ := strings.Cut(string(text), "\nname:")
			_, notIdentified, _ := strings.Cut(header, "# Not identified")
			for _, field := range c.unknown {
				if !strings.Contains(notIdentified, "#   - "+field+": not identified") {
					t.Errorf("%s not said to be not identified:\n%s", field, header)
				}
			}
			if len(c.unknown) == 0 && notIdentified != "" {
				t.Errorf("not identified in a plain world:\n%s", header)
			}
			if len(c.unknown) > 0 && strings.Contains(header, "empirical, the hosts' p_fpops") && c.unknown[0] == "whetstone_gflops" {
				t.Errorf("the header calls the baseline's benchmarks the hosts':\n%s", header)
			}
			if c.noted != "" && !strings.Contains(header, c.noted) {
				t.Errorf("no note %q:\n%s", c.noted, header)
			}
			if c.notWritten != "" && strings.Contains(string(text), c.notWritten) {
				t.Errorf("%s written into the scenario", c.notWritten)
			}
		})
	}
}

// TestMostlyOutOfDomainRefused: a host file out of domain in most rows
// of every column the fit reads (CPU counts, benchmarks, creation times)
// is refused, naming each column's count; one such column is a field
// not identified (TestDomains).
func TestMostlyOutOfDomainRefused(t *testing.T) {
	_, err := FitHosts(hostsWith(40, func(_ int, h *statsdump.Host) { h.NCPUs, h.PFpops, h.CreateTime = -1, 1e9, 0 }), Window{})
	if err == nil || !strings.Contains(err.Error(), "out of domain in most rows of every column the fit reads") ||
		!strings.Contains(err.Error(), "usable p_ncpus") || !strings.Contains(err.Error(), "usable create_time") {
		t.Errorf("err = %v", err)
	}
}
