package runner

import (
	"fmt"
	"io"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"

	"github.com/creditsim/creditsim/boinc"
	"github.com/creditsim/creditsim/cmd/creditsim/internal/statsdump"
	"github.com/creditsim/creditsim/results"
	"github.com/creditsim/creditsim/scenarios"
	"github.com/creditsim/creditsim/sim"
)

// ExportEpoch is the Unix time a run's day 0 is exported at: 2026-01-01
// 00:00 UTC.
const ExportEpoch = 1767225600

// osNames are the operating system names a statistics export gives the
// platforms of the built-ins.
var osNames = map[string]string{"windows_x86_64": "Microsoft Windows 11", "x86_64-pc-linux-gnu": "Linux Ubuntu",
	"x86_64-apple-darwin": "Darwin"}

// gpuTypes are BOINC's GPU type names by resource.
var gpuTypes = map[boinc.Resource]string{boinc.NVIDIA: "nvidia", boinc.AMD: "amd", boinc.IntelGPU: "intel", boinc.AppleGPU: "apple"}

// exportStats writes the run's hosts into dir/host.gz as db_dump writes a
// project's statistics export: hosts with credit under the scenario's
// first policy, created at their arrival, last seen when they left or at
// the end, with what they reported; and their users, with their teams,
// into dir/user.gz.
func exportStats(s *scenarios.Scenario, dir string, x *sim.Sim) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("--export-stats: %w", err)
	}
	end := float64(s.Duration)
	ledger := x.Ledger(0)
	var rows []statsdump.Host
	teams := map[int]int{}
	for i, h := range x.Hosts() {
		credit := ledger.Host(i).Total
		if !(h.Arrival < end) || !(credit > 0) {
			continue // db_dump lists hosts with credit only
		}
		pf, pi, ncpus := x.Reported(i)
		row := statsdump.Host{ID: i + 1, UserID: h.UserID + 1, TotalCredit: credit, OSName: osNames[h.Platform],
			CreateTime: ExportEpoch + h.Arrival, RPCTime: ExportEpoch + math.Min(h.Departure, end),
			NCPUs: ncpus, PFpops: pf, PIops: pi}
		if row.OSName == "" {
			row.OSName = h.Platform
		}
		if t, ok := gpuTypes[h.GPUVendor]; ok && h.NGPUs > 0 {
			row.GPUs = []statsdump.GPU{{Vendor: t, Model: "simulated", Count: h.NGPUs}}
		}
		rows = append(rows, row)
		teams[row.UserID] = h.TeamID
	}
	users := make([]statsdump.User, 0, len(teams))
	for _, u := range slices.Sorted(maps.Keys(teams)) {
		users = append(users, statsdump.User{ID: u, TeamID: teams[u]})
	}
	for _, f := range []struct {
		name  string
		write func(w io.Writer) error
	}{
		{"host.gz", func(w io.Writer) error { return statsdump.Write(w, rows) }},
		{"user.gz", func(w io.Writer) error { return statsdump.WriteUsers(w, users) }},
	} {
		path := filepath.Join(dir, f.name)
		if err := results.StreamFileAtomic(path, f.write); err != nil {
			return fmt.Errorf("--export-stats %s: %w", path, err)
		}
	}
	return nil
}
