package replay

import (
	"sort"
	"strconv"

	"github.com/creditsim/creditsim/policy"
)

// index maps each row's source IDs to the dense IDs of the world.
type index struct {
	host, user, team, app, version []int
	// Source IDs of the dense ones, for the outputs.
	hostIDs, userIDs, versionIDs, appIDs []int64
}

// buildWorld makes the world policies are initialised with: a trace's
// own, or one built from the rows (one project; an app per app ID; a
// version per version ID, a GPU one when its plan class names a GPU,
// anonymous when its ID is negative, counting its FLOPs when the input
// has counted FLOPs for it).
func buildWorld(in *Input) (*policy.World, *index) {
	idx := &index{}
	n := len(in.Rows)
	idx.host, idx.user, idx.team, idx.app, idx.version = make([]int, n), make([]int, n), make([]int, n), make([]int, n), make([]int, n)
	if h := in.Header; h != nil && h.World != nil {
		return traceWorld(in, h.World, idx)
	}
	col := func(f func(r *Row) int64) []int64 {
		out := make([]int64, n)
		for i := range in.Rows {
			out[i] = f(&in.Rows[i])
		}
		return out
	}
	hosts, hostIDs := dense(col(func(r *Row) int64 { return r.HostID }))
	users, userIDs := dense(col(func(r *Row) int64 { return r.UserID }))
	teams, teamIDs := dense(col(func(r *Row) int64 { return r.TeamID }))
	apps, appIDs := dense(col(func(r *Row) int64 { return r.AppID }))
	// A version is keyed by app and version ID: anonymous versions
	// (negative IDs) are per app, as the server's generalized IDs are.
	vkey := func(r *Row) int64 {
		if r.VersionID < 0 {
			return r.AppID*1_000_000 - r.VersionID
		}
		return r.VersionID
	}
	versions, versionKeys := dense(col(vkey))
	idx.hostIDs, idx.userIDs, idx.appIDs, idx.versionIDs = hostIDs, userIDs, appIDs, versionKeys
	w := &policy.World{Projects: []policy.Project{{ID: 0, Name: "project"}},
		MaxHosts: len(hostIDs), MaxUsers: len(userIDs), MaxTeams: len(teamIDs)}
	for _, id := range appIDs {
		w.Apps = append(w.Apps, policy.App{ID: apps[id], Name: "app " + strconv.FormatInt(id, 10), MinQuorum: 1, TargetNResults: 1, DelayBound: 7 * 86400})
	}
	w.Versions = make([]policy.AppVersion, len(versionKeys))
	for i := range in.Rows {
		r := &in.Rows[i]
		idx.host[i], idx.user[i], idx.team[i], idx.app[i] = hosts[r.HostID], users[r.UserID], teams[r.TeamID], apps[r.AppID]
		v := versions[vkey(r)]
		idx.version[i] = v
		av := &w.Versions[v]
		if av.Name == "" {
			*av = versionOf(r, v, apps[r.AppID])
		}
		if r.CountedFlops > 0 {
			av.CountsFlops = true
		}
	}
	return w, idx
}

// versionOf is the app version (dense ID v, of dense app) that row r's
// results ran: its resource from the plan class, or, anonymous (a
// negative ID), from the ID.
func versionOf(r *Row, v, app int) policy.AppVersion {
	res := ResourceOf(r.PlanClass)
	if r.VersionID < 0 {
		res = AnonymousResource(r.VersionID)
	}
	av := policy.AppVersion{ID: v, AppID: app, Name: "version " + strconv.FormatInt(r.VersionID, 10),
		PlanClass: r.PlanClass, Resource: res, CPUUsage: 1, Anonymous: r.VersionID < 0}
	if res.IsGPU() {
		av.CPUUsage, av.GPUUsage = 0.1, 1
	}
	return av
}

// traceWorld is a trace's world: its IDs are the world's dense IDs
// already.
func traceWorld(in *Input, world *policy.World, idx *index) (*policy.World, *index) {
	w := *world
	for i := range in.Rows {
		r := &in.Rows[i]
		idx.host[i], idx.user[i], idx.team[i], idx.app[i], idx.version[i] = int(r.HostID), int(r.UserID), int(r.TeamID), int(r.AppID), int(r.VersionID)
	}
	for h := 0; h < w.MaxHosts; h++ {
		idx.hostIDs = append(idx.hostIDs, int64(h))
	}
	for u := 0; u < w.MaxUsers; u++ {
		idx.userIDs = append(idx.userIDs, int64(u))
	}
	for _, v := range w.Versions {
		idx.versionIDs = append(idx.versionIDs, int64(v.ID))
	}
	for _, a := range w.Apps {
		idx.appIDs = append(idx.appIDs, int64(a.ID))
	}
	return &w, idx
}

// dense numbers the distinct ids from 0 in increasing order: the map
// from an id to its number, and the ids in that order.
func dense(ids []int64) (map[int64]int, []int64) {
	set := map[int64]bool{}
	for _, id := range ids {
		set[id] = true
	}
	var sorted []int64
	for id := range set {
		sorted = append(sorted, id)
	}
	sort.Slice(sorted, func(a, b int) bool { return sorted[a] < sorted[b] })
	m := make(map[int64]int, len(sorted))
	for i, id := range sorted {
		m[id] = i
	}
	return m, sorted
}

// AnonymousResource reads an anonymous version's ID (db/boinc_db_types.h:
// -2 CPU, -3 NVIDIA, -4 AMD, -5 Intel GPU, -6 Apple GPU).
func AnonymousResource(id int64) policy.Resource {
	switch id {
	case -3:
		return policy.NVIDIA
	case -4:
		return policy.AMD
	case -5:
		return policy.IntelGPU
	case -6:
		return policy.AppleGPU
	}
	return policy.CPU
}

// gpuPeak is one GPU's peak FLOPS, which policies read (a GPU version's
// peak is GPUs used x this): host.p_gpu_fpops over the host's GPUs.
func gpuPeak(r *Row) float64 {
	if r.NGPUs > 1 {
		return r.GPUFpops / float64(r.NGPUs)
	}
	return r.GPUFpops
}

// view is the server's view of row i that policies receive.
func view(r *Row, idx *index, i int) policy.Result {
	return policy.Result{ID: r.ResultID, WorkunitID: r.WorkunitID, HostID: int32(idx.host[i]), UserID: int32(idx.user[i]), TeamID: int32(idx.team[i]),
		AppID: int32(idx.app[i]), VersionID: int32(idx.version[i]),
		HostNCPUs: policy.Count32(r.NCPUs), HostPFpops: r.PFpops, HostPIops: r.PIops, HostNGPUs: policy.Count32(r.NGPUs), HostGPUPeak: gpuPeak(r),
		SentTime: r.SentTime, ReceivedTime: r.ReceivedTime, FlopsEstimate: r.FlopsEstimate,
		Outcome: r.Outcome, ValidateState: r.ValidateState, ElapsedTime: r.ElapsedTime, CPUTime: r.CPUTime,
		CountedFlops: r.CountedFlops, OutputFlops: r.OutputFlops, RuntimeOutlier: r.RuntimeOutlier,
		RscFpopsEst: r.RscFpopsEst, RscFpopsBound: bound(r),
		HAV: policy.HAVState{ConsecutiveValid: policy.Count32(r.HAVConsecutiveValid), MaxJobsPerDay: policy.Count32(r.HAVMaxJobsDay)}}
}
