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
	"github.com/creditsim/creditsim/model/param"
	"github.com/creditsim/creditsim/policy"
	"github.com/creditsim/creditsim/scenarios"
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
	SizeErrorCV                      float64
	Versions                         []*versionFit
	CountsFlops                      bool
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
	for _, name := range opt.Apps {
		if !slices.ContainsFunc(set.Apps, func(a tables.App) bool { return a.Name == name }) {
			var names []string
			for _, a := range set.Apps {
				names = append(names, a.Name)
			}
			return nil, fmt.Errorf("%s: no app %q (the app table has %s)", src.Name(), name, strings.Join(names, ", "))
		}
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
			h := &set.Hosts[i]
			return h.PGPUFpops / float64(max(h.NGPUs, 1)), h.PGPUFpops > 0
		}})
	if err != nil {
		return nil, err
	}
	t.p.Hosts = hf
	if set.Has["user"] != nil && set.Has["user"]["teamid"] {
		team := map[int]int{}
		for _, u := range set.Users {
			team[int(u.ID)] = int(u.TeamID)
		}
		hf.FitTeams(team, "user.teamid")
	}
	if err := t.finish(set, hs); err != nil {
		return nil, err
	}
	return t.p, nil
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
	t.w = t.p.opts.Window
	if t.w.To == 0 {
		for _, h := range set.Hosts {
			t.w.To = max(t.w.To, float64(h.RPCTime))
		}
	}
	if t.w.From == 0 {
		first := math.Inf(1)
		for _, h := range set.Hosts {
			first = min(first, float64(h.CreateTime))
		}
		t.w.From = max(t.w.To-DefaultDays*86400, first)
	}
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
	case r.Outcome == tables.OutcomeClientError && r.ExitStatus == errAbortedViaGUI:
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

// errAbortedViaGUI is the exit status of a result the volunteer aborted.
const errAbortedViaGUI = -221

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
	if !ok || r.ElapsedTime <= 0 || r.FlopsEstimate <= 0 || r.FlopsEstimate == 1e9 || r.RuntimeOutlier != 0 {
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
		a.fitVersions()
		if len(a.Versions) > 0 {
			p.Apps = append(p.Apps, a)
		}
	}
	if len(p.Apps) == 0 {
		return fmt.Errorf("no app had workunits and valid results from %s to %s", day(t.w.From), day(t.w.To))
	}
	p.weigh()
	return nil
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
func (t *tableFit) availability(set *tables.Set) {
	var m moments
	for _, h := range set.Hosts {
		if h.OnFrac <= 0 || float64(h.RPCTime) < t.w.From || float64(h.CreateTime) >= t.w.To {
			continue
		}
		act := h.ActiveFrac
		if act <= 0 {
			act = 1
		}
		m.add(math.Min(1, h.OnFrac*act))
	}
	if m.n > 0 {
		t.p.OnFraction, t.p.OnHosts = round(m.mean()), int(m.n)
	}
}

// jobs fits the app's workunits: estimates, bound, delay bound and
// replication.
func (a *appFit) jobs(ws []*tables.Workunit) {
	a.Workunits = len(ws)
	est := make([]float64, 0, len(ws))
	var bound, delay []float64
	quorum, target, maxErr, maxTotal := map[float64]float64{}, map[float64]float64{}, map[float64]float64{}, map[float64]float64{}
	for _, w := range ws {
		if w.RscFpopsEst > 0 {
			est = append(est, w.RscFpopsEst)
			if w.RscFpopsBound > 0 {
				bound = append(bound, w.RscFpopsBound/w.RscFpopsEst)
			}
		}
		if w.DelayBound > 0 {
			delay = append(delay, float64(w.DelayBound))
		}
		quorum[float64(w.MinQuorum)]++
		target[float64(w.TargetNResults)]++
		maxErr[float64(w.MaxErrorResults)]++
		maxTotal[float64(w.MaxTotalResults)]++
	}
	a.Est, a.Classes = sizeClasses(est)
	a.BoundFactor, a.DelayBound = median(bound), median(delay)
	a.MinQuorum, a.TargetNResults = int(mode(quorum)), int(mode(target))
	a.MaxErrorResults, a.MaxTotalResults = int(mode(maxErr)), int(mode(maxTotal))
}

// maxClasses is how many size classes an app's estimates are cut into.
const maxClasses = 4

// sizeClasses are an app's estimates as a base and classes of equal
// share around it (quantiles; geometric means), or the one estimate.
func sizeClasses(est []float64) (float64, []sizeClass) {
	if len(est) == 0 {
		return 0, nil
	}
	sort.Float64s(est)
	base := median(est)
	if est[len(est)-1] <= est[0]*1.05 {
		return round(base), nil
	}
	var out []sizeClass
	n := min(maxClasses, len(est))
	for c := 0; c < n; c++ {
		part := est[c*len(est)/n : (c+1)*len(est)/n]
		if len(part) == 0 {
			continue
		}
		lg := 0.0
		for _, x := range part {
			lg += math.Log(x / base)
		}
		out = append(out, sizeClass{Factor: round(math.Exp(lg / float64(len(part)))), Share: round(float64(len(part)) / float64(len(est)))})
	}
	return round(base), out
}

// fitVersions fits each version's efficiency (lognormal across hosts,
// each host's mean over its results, less the spread those means owe to
// the jobs) and CPU use, and the app's job-size spread from what is left
// within hosts.
func (a *appFit) fitVersions() {
	var kept []*versionFit
	byName := map[string]*versionFit{}
	for _, v := range a.Versions {
		if !v.fit(a) {
			continue
		}
		v.Name = versionName(v)
		// Of versions of one platform and plan class (successive
		// version numbers), the one with most results stands for all.
		if o := byName[v.Name]; o != nil {
			if v.Results > o.Results {
				*o = *v
			}
			continue
		}
		byName[v.Name] = v
		kept = append(kept, v)
	}
	a.Versions = kept
	if a.withinDF > 1 {
		cv := math.Sqrt(math.Max(0, math.Expm1(a.withinSS/a.withinDF)-runtimeNoise*runtimeNoise))
		a.SizeErrorCV = round(math.Max(0.01, math.Min(cv, maxSizeCV)))
	}
}

// fit fits the version from its hosts; false if no host had minJobs
// valid results of it.
func (v *versionFit) fit(a *appFit) bool {
	var means moments
	ss, df, inv := 0.0, 0.0, 0.0
	for _, host := range slices.Sorted(maps.Keys(v.havs)) {
		m := v.havs[host]
		if m.n < minJobs {
			continue
		}
		means.add(m.mean())
		ss += m.variance() * (m.n - 1)
		df += m.n - 1
		inv += 1 / m.n
	}
	if means.n == 0 {
		return false
	}
	a.withinSS, a.withinDF = a.withinSS+ss, a.withinDF+df
	v.Hosts = int(means.n)
	// Log-efficiency: the hosts' means spread by the hosts' efficiencies
	// and by their jobs (the jobs' variance over n each).
	jobVar := ss / math.Max(1, df)
	s2 := math.Max(0, means.variance()-jobVar*inv/means.n)
	mu := means.mean()
	mean := math.Exp(mu + s2/2)
	v.Eff = lognormal{Mean: round(math.Min(mean, 1)), CV: round(math.Max(0.01, math.Sqrt(math.Expm1(s2))))}
	frac := v.cpu.mean()
	switch {
	case v.Resource != "cpu":
		// A GPU version's CPU time per elapsed second is its avg_ncpus
		// times the CPU time fraction (taken as the default's).
		v.CPUFrac = defaultCPUFrac
		v.CPUUsage = round(math.Max(0.01, frac/defaultCPUFrac))
	default:
		v.CPUUsage, v.CPUFrac = 1, round(math.Min(1, math.Max(0.01, frac)))
		if len(v.usage) > 0 {
			v.CPUUsage = math.Max(0.01, mode(v.usage))
		}
	}
	return true
}

// cpuNote says how the version's CPU use was fitted.
func (v *versionFit) cpuNote() string {
	switch {
	case v.Resource != "cpu":
		return fmt.Sprintf("CPU time per elapsed second %.3g, as cpu_usage at the default CPU time fraction %g", v.CPUUsage*v.CPUFrac, defaultCPUFrac)
	case v.MultiThread:
		return fmt.Sprintf("multi-threaded (its plan class names mt): CPU time per elapsed second and CPU %.3g", v.CPUFrac)
	}
	return fmt.Sprintf("cpu_usage %g, flops_estimate over the host's p_fpops; CPU time per elapsed second and CPU %.3g", v.CPUUsage, v.CPUFrac)
}

// defaultCPUFrac is a version's default CPU time per elapsed second and CPU.
const defaultCPUFrac = 0.98

// shortPlatforms abbreviate BOINC's platform names in version names.
var shortPlatforms = map[string]string{"windows_x86_64": "win", "windows_intelx86": "win32", "x86_64-pc-linux-gnu": "linux",
	"x86_64-apple-darwin": "mac", "arm64-apple-darwin": "mac-arm", "aarch64-unknown-linux-gnu": "linux-arm"}

// versionName names a fitted version by platform and plan class.
func versionName(v *versionFit) string {
	p := shortPlatforms[v.Platform]
	if p == "" {
		p = v.Platform
	}
	if v.Anonymous {
		return p + "-anonymous-" + v.Resource
	}
	pc := v.PlanClass
	if pc == "" {
		pc = "cpu"
	}
	return p + "-" + pc
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	return s[len(s)/2]
}

// mode is the most common value (the smallest of equals).
func mode(counts map[float64]float64) float64 {
	best, n := 0.0, -1.0
	for v, c := range counts {
		if c > n || c == n && v < best {
			best, n = v, c
		}
	}
	return best
}

// Scenario is the fitted scenario: the baseline with the fitted hosts,
// availability, error rates, apps and server options, as YAML, its
// header naming the source, the window, each method and each
// assumption.
func (p *Project) Scenario(name, source string) ([]byte, error) {
	// The baseline's claims describe the baseline, not this world.
	sets := append([]string{"name=" + name, "claims=[]"}, p.Hosts.sets()...)
	sets = append(sets, p.sets(name)...)
	s, err := scenarios.Open("baseline", sets)
	if err != nil {
		return nil, fmt.Errorf("the fitted scenario does not validate: %v", err)
	}
	body, _, err := scenarios.Resolved(s)
	if err != nil {
		return nil, err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# %s: fitted by creditsim fit from %s (%d hosts, %d results sent in the window).\n", name, source, p.Rows, p.Results)
	b.WriteString("# Fitted from the tables:\n")
	p.Hosts.Notes[4] = p.Hosts.benchNote()
	for _, n := range append(append(p.Hosts.Notes, p.tableNotes()...), p.opts.ServerNotes...) {
		b.WriteString("#   - " + n + "\n")
	}
	b.WriteString("# Not in the tables, so assumed:\n")
	for _, n := range append(append(p.Hosts.Assumed, p.Hosts.teamsAssumed()...), p.tableAssumed()...) {
		b.WriteString("#   - " + n + "\n")
	}
	if len(p.Warnings) > 0 {
		b.WriteString("# Not identified (read before trusting this world):\n")
		for _, n := range p.Warnings {
			b.WriteString("#   - " + n + "\n")
		}
	}
	b.Write(body)
	return []byte(b.String()), nil
}

// sets are the --set overrides beyond the hosts'.
func (p *Project) sets(name string) []string {
	out := []string{
		fmt.Sprintf("hosts.error_rate=%g", round(p.ErrorRate)),
		fmt.Sprintf("hosts.invalid_rate=%g", round(p.InvalidRate)),
	}
	if p.OnFraction > 0 {
		// The baseline's on periods (fitted to SETI@home's hosts), the
		// off periods' mean set so that hosts are on OnFraction of the time.
		a := hosts.Default().Availability
		on := a.OnPeriod.MeanValue()
		off := on * (1 - p.OnFraction) / math.Max(p.OnFraction, 0.01)
		out = append(out, fmt.Sprintf("hosts.availability={model: weibull, on_period: {dist: weibull, shape: %g, scale: %s}, off_period: {dist: lognormal, mean: %s, cv: %g}}",
			a.OnPeriod.Shape, param.FormatDuration(float64(a.OnPeriod.Scale)), param.FormatDuration(round(off)), a.OffPeriod.CV))
	}
	var apps []string
	for _, a := range p.Apps {
		apps = append(apps, a.yaml())
	}
	out = append(out, "projects=[{name: "+name+", apps: ["+strings.Join(apps, ", ")+"]}]")
	return append(out, p.opts.Server...)
}

// yaml is the app in YAML's flow form.
func (a *appFit) yaml() string {
	f := []string{"name: " + quote(a.Name), fmt.Sprintf("weight: %g", a.Weight), fmt.Sprintf("rsc_fpops_est: %g", a.Est)}
	if a.SizeErrorCV > 0 {
		f = append(f, fmt.Sprintf("size_error: {dist: lognormal, mean: 1, cv: %g}", a.SizeErrorCV))
	}
	if len(a.Classes) > 0 {
		var cs []string
		for i, c := range a.Classes {
			cs = append(cs, fmt.Sprintf("{name: q%d, share: %g, factor: %g, estimated: true}", i+1, c.Share, c.Factor))
		}
		f = append(f, "size_classes: ["+strings.Join(cs, ", ")+"]")
	}
	if a.BoundFactor > 0 {
		f = append(f, fmt.Sprintf("bound_factor: %g", round(a.BoundFactor)))
	}
	if a.DelayBound > 0 {
		f = append(f, "delay_bound: "+param.FormatDuration(a.DelayBound))
	}
	for _, x := range []struct {
		k string
		v int
	}{{"min_quorum", a.MinQuorum}, {"target_nresults", a.TargetNResults}, {"max_error_results", a.MaxErrorResults}, {"max_total_results", a.MaxTotalResults}} {
		if x.v > 0 {
			f = append(f, fmt.Sprintf("%s: %d", x.k, x.v))
		}
	}
	var vs []string
	for _, v := range a.Versions {
		vs = append(vs, v.yaml(a.CountsFlops))
	}
	f = append(f, "versions: ["+strings.Join(vs, ", ")+"]")
	return "{" + strings.Join(f, ", ") + "}"
}

// yaml is the version in YAML's flow form.
func (v *versionFit) yaml(counts bool) string {
	f := []string{"name: " + quote(v.Name), "resource: " + v.Resource}
	if v.Platform != "" {
		f = append(f, "platform: "+quote(v.Platform))
	}
	if v.PlanClass != "" {
		f = append(f, "plan_class: "+quote(v.PlanClass))
	}
	switch {
	case v.Resource != "cpu":
		f = append(f, "gpu_usage: 1")
	case v.MultiThread:
		f = append(f, "multi_thread: true")
	}
	f = append(f, fmt.Sprintf("cpu_usage: %g", v.CPUUsage), fmt.Sprintf("cpu_time_fraction: %g", v.CPUFrac),
		fmt.Sprintf("efficiency: {dist: lognormal, mean: %g, cv: %g, max: 1}", v.Eff.Mean, v.Eff.CV))
	if v.Anonymous {
		f = append(f, "anonymous: true", fmt.Sprintf("anonymous_share: %g", v.AnonymousShare))
	}
	if counts {
		f = append(f, "counts_flops: true")
	}
	return "{" + strings.Join(f, ", ") + "}"
}

// quote writes a name as a YAML string.
func quote(s string) string { return fmt.Sprintf("%q", s) }

// tableNotes say how the tables' part was fitted.
func (p *Project) tableNotes() []string {
	out := []string{
		fmt.Sprintf("error_rate: client errors over results reported (%.3g; %d aborts and %d time-outs apart); invalid_rate: invalid over validated results (%.3g)",
			p.ErrorRate, p.Aborted, p.TimedOut, p.InvalidRate),
	}
	if p.OnFraction > 0 {
		out = append(out, fmt.Sprintf("availability: hosts on %.3g of the time (mean on_frac x active_frac of %d hosts present); the baseline's on periods, the off periods' mean set to match", p.OnFraction, p.OnHosts))
	}
	if len(p.Apps) > 1 {
		out = append(out, "apps: each weighted by its share of the workunits created in the window (apps of several projects, which a run's export names project.app, become apps of one project)")
	}
	for _, a := range p.Apps {
		out = append(out, fmt.Sprintf("app %s: %d workunits created in the window; rsc_fpops_est their median%s, bound_factor the median of rsc_fpops_bound / rsc_fpops_est, delay bound their median, quorum, target and limits the most common",
			a.Name, a.Workunits, map[bool]string{true: fmt.Sprintf(" with %d size classes of equal share (quantiles)", len(a.Classes)), false: ""}[len(a.Classes) > 0]))
		if a.SizeErrorCV > 0 {
			out = append(out, fmt.Sprintf("app %s: size_error's CV %.3g, the spread of rsc_fpops_est / (elapsed x flops_estimate) within each host and version, less the runtime noise of %g", a.Name, a.SizeErrorCV, runtimeNoise))
		}
		for _, v := range a.Versions {
			out = append(out, fmt.Sprintf("version %s: efficiency lognormal over %d hosts with %d or more valid results (mean of rsc_fpops_est / (elapsed x flops_estimate) per host, less the jobs' spread); %s",
				v.Name, v.Hosts, minJobs, v.cpuNote()))
		}
	}
	return out
}

// tableAssumed says what the tables could not tell.
func (p *Project) tableAssumed() []string {
	out := []string{
		"a job's true size against its estimate: the fitted world's jobs average their estimate (rsc_fpops_est), so an efficiency measured from elapsed times is the version's; were the estimates off, the efficiencies would be off by as much",
		"how long hosts stay on and off (only the fraction on is in the tables): the baseline's periods",
		"results db_purge removed before the export are missing; so are workunits created before the window",
		"GPU versions use one GPU each (gpu_usage is in app_version's XML, not a column)",
	}
	if p.OnFraction == 0 {
		out = append(out, "availability: the host table has no on_frac; the baseline's")
	}
	any := false
	for _, a := range p.Apps {
		any = any || a.CountsFlops
	}
	if !any {
		out = append(out, "whether an app counts its FLOPs (the tables do not say; --counts-flops names those that do): none does")
	}
	if len(p.opts.Server) == 0 {
		out = append(out, "the server's options (quotas, jobs per reply, the one-result options) live in config.xml, not the tables; none was given (--config): creditsim's defaults")
	}
	return out
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
