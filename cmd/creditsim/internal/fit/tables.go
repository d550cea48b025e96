package fit

import (
	"context"
	"database/sql"
	"fmt"
	"maps"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/creditsim/creditsim/boinc"
	"github.com/creditsim/creditsim/cmd/creditsim/internal/replay"
	"github.com/creditsim/creditsim/cmd/creditsim/internal/statsdump"
	"github.com/creditsim/creditsim/cmd/creditsim/internal/tables"
	"github.com/creditsim/creditsim/model/hosts"
	"github.com/creditsim/creditsim/policy"
)

// TableOptions are what a fit of a project's tables is told beside them.
type TableOptions struct {
	Window Window
	// CountsFlops names the apps that count their FLOPs ("all": every
	// one): BOINC's tables do not say.
	CountsFlops []string
	// Server are the server's options read from config.xml (--set form).
	Server []string
	// ServerNotes say where the server's options came from.
	ServerNotes []string
	// Apps, if set, are the only apps fitted (names).
	Apps []string
}

// Project is a scenario fitted to a project's tables: the hosts (as
// from a statistics export, with GPU speeds from p_gpu_fpops) and,
// from its results and workunits, apps, versions, availability and
// error rates.
type Project struct {
	*Hosts
	Apps []*appFit
	// OnFraction is the mean of on_frac x active_frac over the hosts
	// present (OnHosts of them report one); 0: not in the table.
	OnFraction float64
	OnHosts    int
	// ErrorRate is client errors over results reported (aborts and
	// time-outs apart); InvalidRate invalid over validated results.
	ErrorRate, InvalidRate float64
	Results, Aborted       int
	TimedOut               int
	opts                   TableOptions
	appNotes               []string // values the workunit domains left out
	// Warnings say what the fit could not identify and guessed.
	Warnings []string
}

// appFit is one app as fitted.
type appFit struct {
	id                               int64
	Name                             string
	Workunits                        int
	Weight                           float64 // share of the workunits
	Est                              float64
	Classes                          []sizeClass
	BoundFactor, DelayBound          float64
	MinQuorum, TargetNResults        int
	MaxErrorResults, MaxTotalResults int
	MaxSuccessResults                int // 0 where it does not bind
	SizeErrorCV                      float64
	Versions                         []*versionFit
	CountsFlops                      bool
	// domainNotes and unidentified are what the workunit columns'
	// domains left out and could not identify (apps.go).
	domainNotes, unidentified []string
	// withinSS and withinDF pool the squared deviations of the log
	// efficiency measure within each (host, version), over the app's
	// versions: the jobs' spread.
	withinSS, withinDF float64
}

type sizeClass struct{ Factor, Share float64 }

// versionFit is one version as fitted: its efficiency from the results
// of hosts with at least minJobs results of it.
type versionFit struct {
	id                  int64
	Name, Platform      string
	PlanClass, Resource string
	Anonymous           bool
	AnonymousShare      float64
	CPUUsage, CPUFrac   float64
	Eff                 lognormal
	Results, Hosts      int
	MultiThread         bool
	cpu                 moments             // CPU time per elapsed second and CPU used
	usage               map[float64]float64 // a CPU version's avg_ncpus, flops_estimate / p_fpops: results by value
	havs                map[int64]*moments
}

// moments accumulates a sample's count, sum and sum of squares.
type moments struct{ n, sum, sq float64 }

func (m *moments) add(x float64) { m.n++; m.sum += x; m.sq += x * x }
func (m *moments) mean() float64 { return m.sum / m.n }
func (m *moments) variance() float64 {
	if m.n < 2 {
		return 0
	}
	mu := m.mean()
	return math.Max(0, (m.sq-m.n*mu*mu)/(m.n-1))
}

// minJobs is how many valid results a (host, version) needs before its
// mean efficiency counts.
const minJobs = 3

// runtimeNoise is the job-to-job spread of elapsed time the fitted
// world keeps (the hosts' default): the rest of the spread within a
// host and version is taken as the jobs' true sizes against their
// estimate.
var runtimeNoise = hosts.Default().RuntimeNoise

// tableFit gathers what results tell while they stream.
type tableFit struct {
	p         *Project
	w         Window
	wus       map[int64]int // workunit ID -> index in the set
	hosts     map[int64]*tables.Host
	apps      map[int64]*appFit
	versions  map[int64]*versionFit // by app_version_id (anonymous: appid x 1e6 - id)
	hostVer   map[[2]int64]int      // (host, app_version_id) -> results
	platName  map[int64]string
	validated int
	invalid   int
	reported  int
	errors    int
	// elapsed and cpuTime check the valid results' times against their
	// domains (results.go).
	elapsed, cpuTime *column
}

// FitTables fits a scenario to a project's tables.
func FitTables(src tables.Source, opt TableOptions) (*Project, error) {
	t := &tableFit{p: &Project{opts: opt}, apps: map[int64]*appFit{}, versions: map[int64]*versionFit{},
		hostVer: map[[2]int64]int{}, platName: map[int64]string{}}
	set, err := tables.Read(src, t.result)
	if err != nil {
		return nil, err
	}
	if t.wus == nil {
		t.start(set) // no results at all
	}
	t.p.Warnings = append(t.p.Warnings, dropped(set, src.Name())...)
	if err := checkApps(src.Name(), set, opt.Apps); err != nil {
		return nil, err
	}
	hs, byID, err := hostRows(src.Name(), set.Hosts)
	if err != nil {
		return nil, err
	}
	plat := t.hostPlatforms(set, byID)
	t.splitAnonymous(plat, byID)
	hf, err := fitHosts(hs, t.w, hostSource{tables: true,
		platform: func(i int) string { return plat[i] },
		gpuPeak: func(i int) (float64, bool) {
			// p_gpu_fpops is the sum over the host's GPUs.
			h := &set.Hosts[i]
			return h.PGPUFpops / float64(max(h.NGPUs, 1)), h.PGPUFpops > 0 && h.NGPUs > 0
		}})
	if err != nil {
		return nil, err
	}
	t.p.Hosts = hf
	hostColumns(set, hf)
	if err := t.finish(set, hs); err != nil {
		return nil, err
	}
	return t.p, nil
}

// hostColumns says what the host and user tables' missing columns leave
// not identified, and fits the teams where both have their columns.
func hostColumns(set *tables.Set, hf *Hosts) {
	hostsHave := func(col string) bool { return set.Has["host"][col] }
	if !hostsHave("os_name") {
		hf.Notes[6] = "platforms: each host's, that of the app versions it ran most results of (the host table has no os_name: a host that ran none is left out)"
	}
	if !hostsHave("userid") {
		hf.HostsPerUser = choice{}
		hf.Unidentified = append(hf.Unidentified, "hosts_per_user, teams and team_share: not identified: the host table has no userid column; the baseline's written")
	} else if set.Has["user"] != nil && !set.Has["user"]["teamid"] {
		hf.Unidentified = append(hf.Unidentified, "teams and team_share: not identified: the user table has no teamid column; the baseline's written")
	}
	if hostsHave("userid") && set.Has["user"] != nil && set.Has["user"]["teamid"] {
		team := map[int]int{}
		for _, u := range set.Users {
			team[int(u.ID)] = int(u.TeamID)
		}
		hf.FitTeams(team, "user.teamid")
	}
}

// checkApps checks that every app --app names is in the app table.
func checkApps(source string, set *tables.Set, apps []string) error {
	for _, name := range apps {
		if !slices.ContainsFunc(set.Apps, func(a tables.App) bool { return a.Name == name }) {
			var names []string
			for _, a := range set.Apps {
				names = append(names, a.Name)
			}
			return fmt.Errorf("%s: no app %q (the app table has %s)", source, name, strings.Join(names, ", "))
		}
	}
	return nil
}

// dropped says which rows each table lost for their identity.
func dropped(set *tables.Set, source string) []string {
	var out []string
	for _, name := range tables.Names {
		if d, ok := set.Dropped[name]; ok {
			out = append(out, fmt.Sprintf("%s table of %s: %s", name, source, d))
		}
	}
	return out
}

// hostRows are the host table's rows as the host fit reads them, and
// each host's index by ID.
func hostRows(source string, rows []tables.Host) ([]statsdump.Host, map[int64]int, error) {
	hs := make([]statsdump.Host, len(rows))
	byID := map[int64]int{}
	for i, h := range rows {
		gpus, err := statsdump.GPUs(h.Misc, h.SerialNum)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: host %d: %v", source, h.ID, err)
		}
		if len(gpus) == 0 && h.NGPUs > 0 {
			gpus = []statsdump.GPU{{Count: int(h.NGPUs)}}
		}
		hs[i] = statsdump.Host{ID: int(h.ID), UserID: int(h.UserID), TotalCredit: h.TotalCredit, OSName: h.OSName,
			CreateTime: float64(h.CreateTime), RPCTime: float64(h.RPCTime), NCPUs: int(h.NCPUs), PFpops: h.PFpops, PIops: h.PIops, GPUs: gpus}
		byID[h.ID] = i
	}
	return hs, byID, nil
}

// start readies the fit for results once the other tables are read.
func (t *tableFit) start(set *tables.Set) {
	t.w = t.p.opts.Window.filled(len(set.Hosts), func(i int) (float64, float64) {
		return float64(set.Hosts[i].CreateTime), float64(set.Hosts[i].RPCTime)
	})
	t.hosts = make(map[int64]*tables.Host, len(set.Hosts))
	for i := range set.Hosts {
		t.hosts[set.Hosts[i].ID] = &set.Hosts[i]
	}
	t.wus = make(map[int64]int, len(set.Workunits))
	for i, w := range set.Workunits {
		t.wus[w.ID] = i
	}
	for _, p := range set.Platforms {
		t.platName[p.ID] = p.Name
	}
	for _, a := range set.Apps {
		if len(t.p.opts.Apps) == 0 || slices.Contains(t.p.opts.Apps, a.Name) {
			t.apps[a.ID] = &appFit{id: a.ID, Name: a.Name}
		}
	}
	for _, v := range set.AppVersions {
		a := t.apps[v.AppID]
		if a == nil || v.Deprecated != 0 {
			continue
		}
		vf := &versionFit{id: v.ID, Platform: t.platName[v.PlatformID], PlanClass: v.PlanClass,
			Resource: replay.ResourceOf(v.PlanClass).String(), havs: map[int64]*moments{}}
		vf.MultiThread = vf.Resource == "cpu" && boinc.IsMultithread(v.PlanClass)
		t.versions[v.ID] = vf
		a.Versions = append(a.Versions, vf)
	}
}

// result takes one result row in.
func (t *tableFit) result(set *tables.Set, r *tables.Result) error {
	if t.wus == nil {
		t.start(set)
	}
	if float64(r.SentTime) < t.w.From || float64(r.SentTime) >= t.w.To || r.SentTime == 0 {
		return nil
	}
	a := t.apps[r.AppID]
	if a == nil {
		return nil
	}
	t.p.Results++
	v := t.version(a, r)
	v.Results++
	t.hostVer[[2]int64{r.HostID, v.id}]++
	if r.ServerState != tables.ServerOver {
		return nil
	}
	switch {
	case r.Outcome == tables.OutcomeNoReply:
		t.p.TimedOut++
		return nil
	case r.Outcome == tables.OutcomeClientError && r.ExitStatus == tables.ExitAbortedViaGUI:
		t.p.Aborted++
		return nil
	case r.Outcome == tables.OutcomeClientError:
		t.reported++
		t.errors++
		return nil
	case r.Outcome != tables.OutcomeSuccess:
		return nil
	}
	t.reported++
	switch r.ValidateState {
	case tables.ValidateInvalid:
		t.validated++
		t.invalid++
	case tables.ValidateValid:
		t.validated++
		t.efficiency(set, a, v, r)
	}
	return nil
}

// version is the fitted version of result r of app a: its app_version
// row's, or for an anonymous-platform result (a negative ID) one per
// app and resource.
func (t *tableFit) version(a *appFit, r *tables.Result) *versionFit {
	if v := t.versions[r.AppVersionID]; v != nil && r.AppVersionID > 0 {
		return v
	}
	key := r.AppID*1_000_000 - r.AppVersionID // BOINC's generalized_app_version_id
	v := t.versions[key]
	if v == nil {
		res := policy.CPU
		if r.AppVersionID < 0 {
			res = replay.AnonymousResource(r.AppVersionID)
		}
		v = &versionFit{id: key, Anonymous: true, Resource: res.String(), havs: map[int64]*moments{}}
		t.versions[key] = v
		a.Versions = append(a.Versions, v)
	}
	return v
}

// efficiency adds a valid result's measure of its version's efficiency,
// rsc_fpops_est / (elapsed x flops_estimate), and its CPU time per
// elapsed second.
func (t *tableFit) efficiency(set *tables.Set, a *appFit, v *versionFit, r *tables.Result) {
	i, ok := t.wus[r.WorkunitID]
	if !ok || !t.timesInDomain(r) || r.FlopsEstimate <= 0 || r.FlopsEstimate == 1e9 || r.RuntimeOutlier != 0 {
		return
	}
	e := set.Workunits[i].RscFpopsEst / (r.ElapsedTime * r.FlopsEstimate)
	if !(e > 0) || math.IsInf(e, 0) {
		return
	}
	m := v.havs[r.HostID]
	if m == nil {
		m = &moments{}
		v.havs[r.HostID] = m
	}
	m.add(math.Log(e))
	t.cpuUse(v, r)
}

// cpuUse adds a valid result's CPU use: for a CPU version the server's
// flops_estimate is its avg_ncpus times the host's p_fpops (for a
// multi-threaded one, the host's CPUs), which gives the CPUs a job
// used; its CPU time per elapsed second over those is its CPU time
// fraction. A GPU version's CPU time per elapsed second is kept whole.
func (t *tableFit) cpuUse(v *versionFit, r *tables.Result) {
	per := r.CPUTime / r.ElapsedTime
	h, ok := t.hosts[r.HostID]
	switch {
	case v.Resource != "cpu" || !ok || h.PFpops <= 0:
		v.cpu.add(per)
	case v.MultiThread:
		v.cpu.add(per / float64(max(h.NCPUs, 1)))
	default:
		// The most common value: a host whose benchmark is above the
		// scheduler's cap (1.1 x the 95th percentile) shows less.
		use := round(r.FlopsEstimate / h.PFpops)
		if v.usage == nil {
			v.usage = map[float64]float64{}
		}
		v.usage[use]++
		v.cpu.add(per / use)
	}
}

// splitAnonymous gives each app's anonymous-platform results a version
// per platform of the hosts that ran them (BOINC's app_version_id says
// only the device), its anonymous_share the share of that platform's
// hosts running the app on that device that used one.
func (t *tableFit) splitAnonymous(plat []string, byID map[int64]int) {
	keys := slices.SortedFunc(maps.Keys(t.hostVer), func(a, b [2]int64) int {
		if a[0] != b[0] {
			return int(a[0] - b[0])
		}
		return int(a[1] - b[1])
	})
	for _, a := range t.apps {
		t.splitApp(a, keys, plat, byID)
	}
}

// splitApp splits app a's anonymous-platform versions by platform;
// keys are hostVer's, sorted.
func (t *tableFit) splitApp(a *appFit, keys [][2]int64, plat []string, byID map[int64]int) {
	var kept []*versionFit
	type pr struct{ platform, resource string }
	split := map[pr]*versionFit{}
	hosts, anon := map[pr]map[int64]bool{}, map[pr]map[int64]bool{}
	in := map[int64]*versionFit{}
	for _, v := range a.Versions {
		in[v.id] = v
		if !v.Anonymous {
			kept = append(kept, v)
		}
	}
	for _, k := range keys {
		v := in[k[1]]
		i, ok := byID[k[0]]
		if v == nil || !ok || plat[i] == "" {
			continue
		}
		key := pr{plat[i], v.Resource}
		if hosts[key] == nil {
			hosts[key], anon[key] = map[int64]bool{}, map[int64]bool{}
		}
		hosts[key][k[0]] = true
		if !v.Anonymous {
			continue
		}
		anon[key][k[0]] = true
		nv := split[key]
		if nv == nil {
			nv = &versionFit{id: v.id, Anonymous: true, Platform: key.platform, Resource: v.Resource, havs: map[int64]*moments{}, cpu: v.cpu}
			split[key] = nv
			kept = append(kept, nv)
		}
		nv.Results += t.hostVer[k]
		if m := v.havs[k[0]]; m != nil {
			nv.havs[k[0]] = m
		}
	}
	for key, v := range split {
		v.AnonymousShare = round(float64(len(anon[key])) / float64(len(hosts[key])))
	}
	a.Versions = kept
}

// hostPlatforms is each host's platform: that of the versions it ran
// most results of, else its os_name's.
func (t *tableFit) hostPlatforms(set *tables.Set, byID map[int64]int) []string {
	best := make([]int, len(set.Hosts))
	out := make([]string, len(set.Hosts))
	for i, h := range set.Hosts {
		out[i] = platformOf(h.OSName)
	}
	keys := make([][2]int64, 0, len(t.hostVer))
	for k := range t.hostVer {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		return keys[i][0] < keys[j][0] || keys[i][0] == keys[j][0] && keys[i][1] < keys[j][1]
	})
	for _, k := range keys {
		i, ok := byID[k[0]]
		if n := t.hostVer[k]; ok && n > best[i] && !t.versions[k[1]].Anonymous {
			best[i], out[i] = n, t.versions[k[1]].Platform
		}
	}
	return out
}

// finish fits apps, versions, availability and error rates from what
// the results gave.
func (t *tableFit) finish(set *tables.Set, hs []statsdump.Host) error {
	p := t.p
	if p.Results == 0 {
		return fmt.Errorf("no result was sent from %s to %s", day(t.w.From), day(t.w.To))
	}
	if t.reported > 0 {
		p.ErrorRate = float64(t.errors) / float64(t.reported)
	}
	if t.validated > 0 {
		p.InvalidRate = float64(t.invalid) / float64(t.validated)
	}
	t.availability(set)
	notes, un := t.resultNotes()
	p.appNotes, p.Warnings = append(p.appNotes, notes...), append(p.Warnings, un...)
	t.fitApps(set)
	if len(p.Apps) == 0 {
		why := ""
		if len(p.Warnings) > 0 {
			why = ":\n  - " + strings.Join(p.Warnings, "\n  - ")
		}
		return fmt.Errorf("no app had workunits and valid results from %s to %s%s", day(t.w.From), day(t.w.To), why)
	}
	p.weigh()
	return nil
}

// fitApps fits each app with workunits created in the window, in ID
// order, into the project's apps.
func (t *tableFit) fitApps(set *tables.Set) {
	p := t.p
	counts := map[string]bool{}
	for _, n := range p.opts.CountsFlops {
		counts[n] = true
	}
	wus := map[int64][]*tables.Workunit{}
	for i := range set.Workunits {
		w := &set.Workunits[i]
		if float64(w.CreateTime) >= t.w.From && float64(w.CreateTime) < t.w.To {
			wus[w.AppID] = append(wus[w.AppID], w)
		}
	}
	ids := make([]int64, 0, len(t.apps))
	for id := range t.apps {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
	for _, id := range ids {
		a := t.apps[id]
		if len(wus[id]) == 0 {
			continue
		}
		a.CountsFlops = counts["all"] || counts[a.Name]
		a.jobs(wus[id])
		p.Warnings = append(p.Warnings, a.unidentified...)
		if a.Est == 0 {
			continue // its jobs' sizes are not identified: said
		}
		p.appNotes = append(p.appNotes, a.domainNotes...)
		a.fitVersions()
		if len(a.Versions) > 0 {
			p.Apps = append(p.Apps, a)
		}
	}
}

// weigh gives each app its share of the workunits, and warns of the
// apps whose job sizes the tables do not identify.
func (p *Project) weigh() {
	total := 0
	for _, a := range p.Apps {
		total += a.Workunits
	}
	for _, a := range p.Apps {
		a.Weight = round(float64(a.Workunits) / float64(total))
		if a.SizeErrorCV >= maxSizeCV {
			p.Warnings = append(p.Warnings, fmt.Sprintf("app %s: one host's elapsed times for one version spread far more than a job's size error (CV %g or more): its jobs' true sizes differ from their estimates by more than the estimates say (classes the project does not estimate). Its versions' efficiency and its size spread are then not identified from these tables; the fitted values are the estimates' error, not the versions' speed", a.Name, maxSizeCV))
		}
	}
}

// maxSizeCV caps a fitted size error's CV: beyond it, the spread is not
// a size error (Project.Warnings).
const maxSizeCV = 1.5

// availability is the mean of on_frac x active_frac over the hosts
// present that report one.
// Each fraction must lie in (0, 1] (domain.go); with fewer than half of
// the hosts present in the domain for either, availability is not
// identified and the baseline's is written.
func (t *tableFit) availability(set *tables.Set) {
	var m moments
	on, act := newColumn("on_frac", "host"), newColumn("active_frac", "host")
	for _, h := range set.Hosts {
		if float64(h.RPCTime) < t.w.From || float64(h.CreateTime) >= t.w.To {
			continue
		}
		okOn, okAct := checkFraction(on, h.OnFrac), checkFraction(act, h.ActiveFrac)
		if okOn && okAct {
			m.add(h.OnFrac * h.ActiveFrac)
		}
	}
	for _, c := range []*column{on, act} {
		note, un := c.judge("availability", "availability")
		if note != "" {
			t.p.appNotes = append(t.p.appNotes, note)
		}
		if un != "" {
			t.p.Warnings = append(t.p.Warnings, un)
			return
		}
	}
	if m.n > 0 {
		t.p.OnFraction, t.p.OnHosts = round(m.mean()), int(m.n)
	}
}

// dbMargin is how long before the window a database read starts: a
// result created then may be sent in it.
const dbMargin = 30 * 86400

// DBWindow completes w from the database's host table (its end: the last
// contact) and bounds db's reads of results and workunits to it.
func DBWindow(db *tables.DB, w *Window) error {
	if w.To == 0 {
		var last sql.NullFloat64
		if err := db.Conn.QueryRowContext(context.Background(), "SELECT MAX(rpc_time) FROM host").Scan(&last); err != nil {
			return fmt.Errorf("%s: host: %v", db.Label, err)
		}
		if !last.Valid {
			return fmt.Errorf("%s: the host table is empty", db.Label)
		}
		w.To = last.Float64
	}
	from := w.From
	if from == 0 {
		from = w.To - DefaultDays*86400
	}
	db.Since, db.Until = int64(from)-dbMargin, int64(w.To)+1
	return nil
}
