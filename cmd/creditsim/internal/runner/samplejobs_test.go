package runner

import (
	"encoding/csv"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/creditsim/creditsim/scenarios"
)

// TestSampleJobs checks sample-jobs.csv against hosts.csv: the credit of
// every valid job of a sample host adds up to the host's total credit in
// its ledger, policy by policy; and every policy gets a dynamics plot.
func TestSampleJobs(t *testing.T) {
	t.Parallel()
	skipLong(t)
	s, err := scenarios.Load("gpu.yaml", []byte(gpuScenario("2")), []string{"replications=1", "hosts.initial=120",
		"policies=[v1peak, v2actual, v3pfc-boinc]"})
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "out")
	if _, err := Run(s, Options{Out: dir}); err != nil {
		t.Fatal(err)
	}
	jobs := readCSV(t, filepath.Join(dir, "sample-jobs.csv"))
	hosts := readCSV(t, filepath.Join(dir, "hosts.csv"))
	col := func(head []string, name string) int {
		for i, h := range head {
			if h == name {
				return i
			}
		}
		t.Fatalf("no column %s in %v", name, head)
		return -1
	}
	num := func(s string) float64 {
		v, err := strconv.ParseFloat(s, 64)
		if err != nil {
			t.Fatalf("%q: %v", s, err)
		}
		return v
	}
	for _, pol := range []string{"v1peak", "v2actual", "v3pfc-boinc"} {
		sum := map[string]float64{}
		g := col(jobs[0], pol+".granted")
		for _, row := range jobs[1:] {
			sum[row[1]] += num(row[g])
		}
		if len(sum) == 0 {
			t.Fatal("sample-jobs.csv has no jobs")
		}
		total, host := col(hosts[0], pol+".total_credit"), col(hosts[0], "host")
		checked := 0
		for _, row := range hosts[1:] {
			want, ok := sum[row[host]]
			if !ok {
				continue
			}
			checked++
			if got := num(row[total]); math.Abs(got-want) > 1e-9*math.Max(1, got) {
				t.Errorf("%s host %s: jobs add up to %g, ledger total %g", pol, row[host], want, got)
			}
		}
		if checked != len(sum) {
			t.Errorf("%s: %d sample hosts in sample-jobs.csv, %d found in hosts.csv", pol, len(sum), checked)
		}
		if _, err := os.Stat(filepath.Join(dir, "dynamics-"+pol+".png")); err != nil {
			t.Errorf("no dynamics plot for %s: %v", pol, err)
		}
	}
}

func readCSV(t *testing.T, path string) [][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return rows
}
