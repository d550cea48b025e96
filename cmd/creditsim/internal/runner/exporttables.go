package runner

import (
	"cmp"
	"fmt"
	"io"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"

	"github.com/creditsim/creditsim/boinc"
	"github.com/creditsim/creditsim/cmd/creditsim/internal/replay"
	"github.com/creditsim/creditsim/cmd/creditsim/internal/tables"
	"github.com/creditsim/creditsim/model/jobs"
	"github.com/creditsim/creditsim/policy"
	"github.com/creditsim/creditsim/results"
	"github.com/creditsim/creditsim/scenarios"
	"github.com/creditsim/creditsim/sim"
)

// coprocTypes are the GPU types of the scheduler's coprocessor summary
// in host.serialnum, by resource.
var coprocTypes = map[boinc.Resource]string{boinc.NVIDIA: "CUDA", boinc.AMD: "CAL", boinc.IntelGPU: "INTEL", boinc.AppleGPU: "apple_gpu"}

// anonymousVersionID is the app_version_id BOINC's result table gives an
// anonymous-platform result: -2 CPU, -3 NVIDIA, -4 AMD, -5 Intel GPU,
// -6 Apple GPU (db/boinc_db_types.h).
func anonymousVersionID(r boinc.Resource) int64 { return -2 - int64(r) }

// tableExport is replication 1's world and results as BOINC's tables.
type tableExport struct {
	s     *scenarios.Scenario
	x     *sim.Sim
	world *policy.World
	end   float64
	set   tables.Set
}

// at is a run's time as BOINC stores it: whole Unix seconds.
func at(t float64) int64 { return ExportEpoch + int64(math.Floor(t)) }

// exportTables writes replication 1's world and results into dir as a
// project's tables (package tables): the files `mysql --batch` prints,
// and schema.sql and load.sql to load them into MySQL or MariaDB.
// Granted credit is the scenario's first policy's.
func exportTables(s *scenarios.Scenario, dir string, x *sim.Sim, tr *replay.Tracer) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("--export-tables: %w", err)
	}
	e := &tableExport{s: s, x: x, world: x.World(), end: float64(s.Duration)}
	e.platformsAndApps()
	e.hostsAndUsers()
	havs := map[[2]int64]*tables.HostAppVersion{}
	wus := map[int64]*tables.Workunit{}
	err := tr.Each(func(r *replay.Row, credit []float64) error {
		e.result(r, credit[0], wus)
		h := havs[[2]int64{r.HostID, r.VersionID}]
		if h == nil {
			h = &tables.HostAppVersion{HostID: r.HostID + 1, AppVersionID: e.versionID(r)}
			havs[[2]int64{r.HostID, r.VersionID}] = h
		}
		h.ConsecutiveValid, h.MaxJobsPerDay = int64(r.HAVConsecutiveValid), int64(r.HAVMaxJobsDay)
		return nil
	})
	if err != nil {
		return err
	}
	for _, w := range wus {
		e.set.Workunits = append(e.set.Workunits, *w)
	}
	sort.Slice(e.set.Workunits, func(i, j int) bool { return e.set.Workunits[i].ID < e.set.Workunits[j].ID })
	for _, h := range havs {
		if h.AppVersionID > 0 {
			e.set.HostAppVersions = append(e.set.HostAppVersions, *h)
		}
	}
	sort.Slice(e.set.HostAppVersions, func(i, j int) bool {
		a, b := e.set.HostAppVersions[i], e.set.HostAppVersions[j]
		return a.HostID < b.HostID || a.HostID == b.HostID && a.AppVersionID < b.AppVersionID
	})
	return e.write(dir, tr)
}

// platformsAndApps fills platform, app and app_version: IDs from 1 in
// the world's order, platforms by name.
func (e *tableExport) platformsAndApps() {
	names := map[string]bool{}
	for _, v := range e.world.Versions {
		names[v.Platform] = true
	}
	for _, p := range e.s.Hosts.Platforms {
		names[p.Name] = true
	}
	pid := map[string]int64{}
	for i, n := range results.SortedKeys(names) {
		pid[n] = int64(i + 1)
		e.set.Platforms = append(e.set.Platforms, tables.Platform{ID: int64(i + 1), Name: n})
	}
	for _, a := range e.world.Apps {
		name := a.Name
		if len(e.world.Projects) > 1 {
			name = e.world.Projects[a.ProjectID].Name + "." + a.Name
		}
		e.set.Apps = append(e.set.Apps, tables.App{ID: int64(a.ID + 1), Name: name, TargetNResults: int64(a.TargetNResults)})
	}
	for _, v := range e.world.Versions {
		if v.Anonymous {
			continue // anonymous-platform versions have no row
		}
		e.set.AppVersions = append(e.set.AppVersions, tables.AppVersion{ID: int64(v.ID + 1), AppID: int64(v.AppID + 1),
			VersionNum: 100, PlatformID: pid[v.Platform], PlanClass: v.PlanClass})
	}
}

// hostsAndUsers fills host, user and team from the hosts that arrived
// before the end, with the first policy's credit.
func (e *tableExport) hostsAndUsers() {
	ledger := e.x.Ledger(0)
	users := map[int]*tables.User{}
	teams := map[int]*tables.Team{}
	for i, h := range e.x.Hosts() {
		if !(h.Arrival < e.end) {
			continue
		}
		acct := ledger.Host(i)
		pf, pi, ncpus := e.x.Reported(i)
		row := tables.Host{ID: int64(i + 1), UserID: int64(h.UserID + 1), CreateTime: at(h.Arrival), RPCTime: at(math.Min(h.Departure, e.end)),
			TotalCredit: acct.Total, ExpavgCredit: acct.RAC.Avg, ExpavgTime: rebase(acct.RAC.AvgTime),
			OnFrac: e.x.OnFraction(i), ConnectedFrac: 1, ActiveFrac: 1, GPUActiveFrac: 1,
			NCPUs: int64(ncpus), PFpops: pf, PIops: pi, OSName: osNames[h.Platform], SerialNum: "[BOINC|8.0.4]"}
		if row.OSName == "" {
			row.OSName = h.Platform
		}
		if t, ok := coprocTypes[h.GPUVendor]; ok && h.NGPUs > 0 {
			row.NGPUs = int64(h.NGPUs)
			row.PGPUFpops = float64(h.NGPUs) * e.x.ReportedGPUPeak(i)
			row.SerialNum += fmt.Sprintf("[%s|simulated|%d|4096MB|0|0]", t, h.NGPUs)
		}
		e.set.Hosts = append(e.set.Hosts, row)
		u := users[h.UserID]
		if u == nil {
			u = &tables.User{ID: int64(h.UserID + 1), CreateTime: row.CreateTime, TeamID: int64(h.TeamID)}
			users[h.UserID] = u
		}
		u.TotalCredit += acct.Total
		if h.TeamID != 0 {
			t := teams[h.TeamID]
			if t == nil {
				t = &tables.Team{ID: int64(h.TeamID), CreateTime: ExportEpoch, Name: fmt.Sprintf("team %d", h.TeamID)}
				teams[h.TeamID] = t
			}
			t.TotalCredit += acct.Total
		}
	}
	for _, k := range slices.Sorted(maps.Keys(users)) {
		e.set.Users = append(e.set.Users, *users[k])
	}
	for _, k := range slices.Sorted(maps.Keys(teams)) {
		e.set.Teams = append(e.set.Teams, *teams[k])
	}
}

// rebase is a run's time as a Unix time, 0 staying 0 (never).
func rebase(t float64) float64 {
	if t == 0 {
		return 0
	}
	return ExportEpoch + t
}

// versionID is the app_version_id a result row is stored with.
func (e *tableExport) versionID(r *replay.Row) int64 {
	v := &e.world.Versions[r.VersionID]
	if v.Anonymous {
		return anonymousVersionID(v.Resource)
	}
	return r.VersionID + 1
}

// outcomeCodes are BOINC's result.outcome codes (an abort is a client
// error with exit status EXIT_ABORTED_VIA_GUI, 203, lib/error_numbers.h).
var outcomeCodes = map[policy.Outcome]int64{policy.Success: tables.OutcomeSuccess, policy.ClientError: tables.OutcomeClientError,
	policy.Aborted: tables.OutcomeClientError, policy.NoReply: tables.OutcomeNoReply}

// result is a trace row as result's row, its workunit added to wus
// (nil: not).
func (e *tableExport) result(r *replay.Row, credit float64, wus map[int64]*tables.Workunit) tables.Result {
	a := &e.world.Apps[r.AppID]
	out := tables.Result{ID: r.ResultID + 1, CreateTime: at(r.SentTime), WorkunitID: r.WorkunitID + 1, ServerState: 4,
		HostID: r.HostID + 1, UserID: int64(r.UserID + 1), TeamID: r.TeamID, AppID: r.AppID + 1,
		SentTime: at(r.SentTime), ReportDeadline: at(r.SentTime + a.DelayBound),
		Name: fmt.Sprintf("wu_%d_%d", r.WorkunitID+1, r.ResultID+1), AppVersionID: e.versionID(r), FlopsEstimate: r.FlopsEstimate}
	if r.ReportedSeq > 0 {
		out.ServerState, out.Outcome = tables.ServerOver, outcomeCodes[r.Outcome]
		if r.Outcome == policy.Aborted {
			out.ExitStatus = tables.ExitAbortedViaGUI
		}
		if r.Outcome != policy.NoReply {
			out.ReceivedTime = at(r.ReceivedTime)
			out.CPUTime, out.ElapsedTime = r.CPUTime, r.ElapsedTime
		}
	}
	switch r.ValidateState {
	case policy.Valid:
		out.ValidateState = tables.ValidateValid
		if !math.IsNaN(credit) {
			out.GrantedCredit = credit
		}
	case policy.Invalid:
		out.ValidateState = tables.ValidateInvalid
	}
	if r.RuntimeOutlier {
		out.RuntimeOutlier = 1
	}
	if wus == nil {
		return out
	}
	w := wus[r.WorkunitID]
	if w == nil {
		w = &tables.Workunit{ID: r.WorkunitID + 1, CreateTime: out.SentTime, AppID: r.AppID + 1, Name: fmt.Sprintf("wu_%d", r.WorkunitID+1),
			RscFpopsEst: r.RscFpopsEst, RscFpopsBound: r.RscFpopsBound, DelayBound: int64(a.DelayBound),
			MinQuorum: int64(a.MinQuorum), TargetNResults: int64(a.TargetNResults)}
		if c := e.appConfig(int(r.AppID)); c != nil {
			w.MaxErrorResults, w.MaxTotalResults = int64(c.MaxErrorResults), int64(c.MaxTotalResults)
			// BOINC's workunit always has one; 0 here means none but the total.
			w.MaxSuccessResults = int64(cmp.Or(c.MaxSuccessResults, c.MaxTotalResults))
		}
		wus[r.WorkunitID] = w
	}
	w.CreateTime = min(w.CreateTime, out.SentTime)
	if out.ValidateState == tables.ValidateValid && w.CanonicalResultID == 0 {
		w.CanonicalResultID, w.CanonicalCredit = out.ID, out.GrantedCredit
	}
	return out
}

// appConfig is the scenario's configuration of the world's app i: the
// world numbers apps in the scenario's order, project by project.
func (e *tableExport) appConfig(i int) *jobs.App {
	for p := range e.s.Projects {
		if i < len(e.s.Projects[p].Apps) {
			return &e.s.Projects[p].Apps[i]
		}
		i -= len(e.s.Projects[p].Apps)
	}
	return nil
}

// write writes every table's file and the SQL beside them, all whole or
// none; results as the tracer holds them, one at a time.
func (e *tableExport) write(dir string, tr *replay.Tracer) error {
	rows := map[string]func(w *tables.Writer) error{
		"platform":         each(e.set.Platforms),
		"app":              each(e.set.Apps),
		"app_version":      each(e.set.AppVersions),
		"team":             each(e.set.Teams),
		"user":             each(e.set.Users),
		"host":             each(e.set.Hosts),
		"host_app_version": each(e.set.HostAppVersions),
		"workunit":         each(e.set.Workunits),
		"result": func(w *tables.Writer) error {
			return tr.Each(func(r *replay.Row, credit []float64) error {
				row := e.result(r, credit[0], nil)
				return w.Write(&row)
			})
		},
	}
	// Every file is written into a folder of its own beside the others
	// first, and moved into dir only when all are whole: a failure (a
	// full disk) leaves dir as it was, never one run's results beside
	// another run's hosts.
	tmp, err := os.MkdirTemp(dir, ".export-tables-")
	if err != nil {
		return fmt.Errorf("--export-tables: %w", err)
	}
	defer os.RemoveAll(tmp)
	names := []string{"schema.sql", "load.sql"}
	for _, t := range tables.Names {
		path := filepath.Join(tmp, t+".tsv")
		err := results.StreamFileAtomic(path, func(w io.Writer) error {
			tw := tables.NewWriter(w, t)
			if err := rows[t](tw); err != nil {
				return err
			}
			return tw.Flush()
		})
		if err != nil {
			return fmt.Errorf("--export-tables %s: %w", filepath.Join(dir, t+".tsv"), err)
		}
		names = append(names, t+".tsv")
	}
	if err := tables.WriteSQL(tmp, results.WriteFileAtomic); err != nil {
		return fmt.Errorf("--export-tables: %w", err)
	}
	for _, n := range names {
		if err := os.Rename(filepath.Join(tmp, n), filepath.Join(dir, n)); err != nil {
			return fmt.Errorf("--export-tables: %w", err)
		}
	}
	return nil
}

// each writes every row of rows.
func each[T any](rows []T) func(w *tables.Writer) error {
	return func(w *tables.Writer) error {
		for i := range rows {
			if err := w.Write(&rows[i]); err != nil {
				return err
			}
		}
		return nil
	}
}
