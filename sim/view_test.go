package sim

import (
	"reflect"
	"testing"
	"unsafe"

	"github.com/creditsim/creditsim/model/hosts"
	"github.com/creditsim/creditsim/model/jobs"
	"github.com/creditsim/creditsim/model/param"
	"github.com/creditsim/creditsim/policy"
)

// derived are the fields of policy.Result that show takes from the
// workunit, the version, the result's own fields or its host as the
// scheduler saw it, instead of the stored view (RuntimeOutlier is
// always false; ServerTrusted is the host's server trust now).
var derived = map[string]bool{
	"ID": true, "ElapsedTime": true, "CPUTime": true, "CountedFlops": true,
	"WorkunitID": true, "ProjectID": true, "AppID": true, "RscFpopsEst": true, "RscFpopsBound": true,
	"HostID": true, "VersionID": true, "SentTime": true, "ReceivedTime": true, "Outcome": true, "ValidateState": true,
	"OutputFlops": true, "RuntimeOutlier": true, "ServerTrusted": true,
	"UserID": true, "TeamID": true, "HostNCPUs": true, "HostNGPUs": true, "HostPFpops": true, "HostPIops": true, "HostGPUPeak": true,
}

// TestViewCoversResult: every field of policy.Result is either stored
// (a field of serverView of the same name and type) or derived, so a
// field added to policy.Result cannot be left out of what policies see.
func TestViewCoversResult(t *testing.T) {
	rt, vt := reflect.TypeFor[policy.Result](), reflect.TypeFor[serverView]()
	for i := range rt.NumField() {
		f := rt.Field(i)
		g, stored := vt.FieldByName(f.Name)
		switch {
		case stored && derived[f.Name]:
			t.Errorf("%s is both stored and derived", f.Name)
		case !stored && !derived[f.Name]:
			t.Errorf("policy.Result.%s is neither stored in serverView nor derived by show", f.Name)
		case stored && g.Type != f.Type:
			t.Errorf("%s: stored as %v, policy.Result has %v", f.Name, g.Type, f.Type)
		}
	}
	if vt.NumField()+len(derived) != rt.NumField() {
		t.Errorf("serverView has %d fields and %d are derived; policy.Result has %d", vt.NumField(), len(derived), rt.NumField())
	}
}

// TestShow: show copies every stored field and fills the derived ones
// from the workunit (its slot and generation, rsc_fpops_est and bound,
// its FLOPs as the output's once the job ran to its end), the version
// (project and app), the result (host, version, sent time, outcome,
// validate state, and the received time once the server has it) and the
// host as reported (user, team, devices, benchmarks, GPU peak); a
// one_time_claim result shows the claim in place of the benchmarks or
// GPU peak it went through.
func TestShow(t *testing.T) {
	app := jobs.App{RscFpopsEst: 3e13, BoundFactor: 7.3, SizeError: param.Const(1)}
	job := jobs.NewStream(&app, 1, 2).Next()
	s := &Sim{versions: make([]policy.AppVersion, 3), hosts: make([]hostState, 13), reported: make([]hostReport, 13),
		apps: []appState{{}, {cfg: &app}}, verCfg: []*jobs.Version{nil, {CPUTimeFraction: 0.5}}, seq: make([]bool, 3), nResults: 40}
	for s.wus.n < 4 {
		s.wus.add()
	}
	*s.wu(2) = workunit{app: 1, gen: 7, est: job.Est, flops: 27}
	s.versions[1] = policy.AppVersion{ProjectID: 5, AppID: 6, CPUUsage: 2}
	s.reported[12] = hostReport{user: 13, team: 14, ncpus: 16, ngpus: 17, pf: 18, pi: 19, gpuPeak: 20, trueNCPUs: 4, outFactor: 1}
	// Received at 50 (runTotal), ran 24 s (CPU time 24 x 2 CPUs x 0.5),
	// counted 26 FLOPs (remaining, once the job has ended: fTimes).
	r := &result{wu: 2, host: 12, vid: 1, id: 11, sentTime: 21, runTotal: 50, remaining: 26, ran: 24,
		flags: fReceived | fOutput | fTimes,
		view:  serverView{FlopsEstimate: 23, HAV: policy.HAVState{ConsecutiveValid: 28, MaxJobsPerDay: 29}}}
	r.setOutcome(policy.ClientError)
	r.setValidateState(policy.Invalid)
	want := policy.Result{
		ID: 11, WorkunitID: 2<<32 | 7, HostID: 12, UserID: 13, TeamID: 14, ProjectID: 5, AppID: 6, VersionID: 1,
		HostNCPUs: 16, HostNGPUs: 17, HostPFpops: 18, HostPIops: 19, HostGPUPeak: 20,
		SentTime: 21, ReceivedTime: 50, FlopsEstimate: 23, ElapsedTime: 24, CPUTime: 24, CountedFlops: 26, OutputFlops: 27,
		RscFpopsEst: 3e13, RscFpopsBound: job.Bound, // the stream's own
		HAV:     policy.HAVState{ConsecutiveValid: 28, MaxJobsPerDay: 29},
		Outcome: policy.ClientError, ValidateState: policy.Invalid,
	}
	if got := *s.shown(r); got != want {
		t.Errorf("show:\n got %+v\nwant %+v", got, want)
	}
	// Before the server has it, and for a job that did not run to its
	// end, runTotal and remaining are still the job's, its times are not
	// reported and the output is none.
	r.flags = 0
	if got := *s.shown(r); got.ReceivedTime != 0 || got.OutputFlops != 0 || got.CountedFlops != 0 || got.ElapsedTime != 0 || got.CPUTime != 0 {
		t.Errorf("not received, not ended, no output: shows ReceivedTime %v, OutputFlops %v, CountedFlops %v, times %v, %v",
			got.ReceivedTime, got.OutputFlops, got.CountedFlops, got.ElapsedTime, got.CPUTime)
	}
	r.flags = fReceived | fOutput | fTimes
	for _, c := range []struct {
		channel     string
		pf, pi, gpu float64
	}{{"gpu_peak", 18, 19, 1e304}, {"cpu_benchmark", 1e304, 1e304, 20}} {
		s.hosts[12].h = &hosts.Host{Behaviour: hosts.Behaviour{Kind: hosts.OneTimeClaim, Channel: c.channel, Claim: 1e304}}
		r.flags |= fClaimed
		w := want
		w.HostPFpops, w.HostPIops, w.HostGPUPeak = c.pf, c.pi, c.gpu
		if got := *s.shown(r); got != w {
			t.Errorf("%s claim:\n got %+v\nwant %+v", c.channel, got, w)
		}
		av := &policy.AppVersion{Resource: policy.NVIDIA, CPUUsage: 1, GPUUsage: 1}
		cpu, gpu := s.reportedPeak(r, av)
		if wc, wg := policy.ReportedPeak(&w, av); cpu != wc || gpu != wg {
			t.Errorf("%s claim: reportedPeak %v, %v; the view shows %v, %v", c.channel, cpu, gpu, wc, wg)
		}
	}
}

// TestResultRecordSize: a result record is 96 bytes, and the fields the
// client loop reads on every event (up to flopsDone) lie in its first 64;
// a workunit record is one cache line, its first replicas inline. A field
// added to either should keep this true, or move the figure on purpose.
func TestResultRecordSize(t *testing.T) {
	if n := unsafe.Sizeof(result{}); n != 96 {
		t.Errorf("result record is %d bytes, want 96", n)
	}
	if n := unsafe.Sizeof(workunit{}); n != 64 {
		t.Errorf("workunit record is %d bytes, want 64", n)
	}
	if end := unsafe.Offsetof(result{}.flopsDone) + 8; end > 64 {
		t.Errorf("hot fields end at byte %d, past the first 64", end)
	}
}

// TestReportedTimes: a result's ElapsedTime and CPUTime are 0 until its
// job has ended; then the time it ran and that x its CPUs x its
// version's CPU-time fraction (a multi-threaded version's CPUs being the
// host's, as reported but at most its own); once reported, as BOINC's
// scheduler stores them (boinc.CheckTimes: a sequential version's
// elapsed time raised to its CPU time, elapsed clamped to the turnaround
// in whole seconds, CPU time capped at elapsed x the CPUs the host
// reports), but not when timed out; a cheater's kept times are shown as
// kept.
func TestReportedTimes(t *testing.T) {
	s := &Sim{versions: []policy.AppVersion{{CPUUsage: 0.5}, {MultiThread: true, CPUUsage: 99}, {CPUUsage: 16}},
		verCfg:   []*jobs.Version{{CPUTimeFraction: 0.9}, {CPUTimeFraction: 1}, {CPUTimeFraction: 1}},
		seq:      []bool{true, false, true},
		reported: []hostReport{{ncpus: 16, trueNCPUs: 4}, {ncpus: 2, trueNCPUs: 8}},
		altTimes: map[uint32][2]float64{7: {1e304, 3}}}
	for _, c := range []struct {
		name    string
		r       result
		outcome policy.Outcome
		wantE   float64
		wantC   float64
	}{
		{"not ended", result{ran: 100}, policy.Success, 0, 0},
		{"ended", result{ran: 100, flags: fTimes}, policy.Success, 100, 100 * 0.5 * 0.9},
		{"reported within the turnaround", result{ran: 100, sentTime: 10, runTotal: 200, flags: fTimes | fReceived}, policy.Success, 100, 45},
		{"reported, elapsed clamped", result{ran: 100, sentTime: 10, runTotal: 70, flags: fTimes | fReceived}, policy.ClientError, 60, 45},
		{"reported, the turnaround in whole seconds", result{ran: 99.7, sentTime: 10.2, runTotal: 109.9, flags: fTimes | fReceived}, policy.Success, 99, 99.7 * 0.5 * 0.9},
		{"timed out: not clamped", result{ran: 100, sentTime: 10, runTotal: 70, flags: fTimes | fReceived}, policy.NoReply, 100, 45},
		{"multi-threaded: the host's true CPUs", result{host: 0, vid: 1, ran: 10, flags: fTimes}, policy.Success, 10, 40},
		{"multi-threaded: the CPUs reported", result{host: 1, vid: 1, ran: 10, flags: fTimes}, policy.Success, 10, 20},
		{"CPU time capped at elapsed x the CPUs reported", result{host: 1, vid: 1, ran: 10, sentTime: 0, runTotal: 5, flags: fTimes | fReceived}, policy.Success, 5, 10},
		{"sequential, CPU time above elapsed: elapsed raised to it, then to the turnaround", result{host: 0, vid: 2, ran: 10, sentTime: 0, runTotal: 100, flags: fTimes | fReceived}, policy.Success, 100, 160},
		{"sequential, CPU time above elapsed, within the turnaround", result{host: 1, vid: 2, ran: 10, sentTime: 0, runTotal: 1000, flags: fTimes | fReceived}, policy.Success, 160, 160},
		{"sequential, timed out: not checked", result{host: 0, vid: 2, ran: 10, sentTime: 0, runTotal: 100, flags: fTimes | fReceived}, policy.NoReply, 10, 160},
		{"a cheater's, kept", result{id: 7, ran: 10, flags: fTimes | fAltTimes}, policy.Success, 1e304, 3},
	} {
		r := c.r
		r.setOutcome(c.outcome)
		if e, cpu := s.reportedTimes(&r); e != c.wantE || cpu != c.wantC {
			t.Errorf("%s: times %v, %v; want %v, %v", c.name, e, cpu, c.wantE, c.wantC)
		}
	}
}

// TestViewID: the view's ID is the record's 32 bits with the high bits
// of the latest send, one less where the low bits have wrapped since.
func TestViewID(t *testing.T) {
	for _, c := range []struct {
		nResults int64
		id       uint32
		want     int64
	}{
		{5, 5, 5},
		{5, 3, 3},
		{1<<32 + 5, 5, 1<<32 + 5},
		{1<<32 + 5, 0xfffffff0, 0xfffffff0},
		{3<<32 + 1, 0xffffffff, 2<<32 + 0xffffffff},
	} {
		s := &Sim{nResults: c.nResults}
		if got := s.viewID(&result{id: c.id}); got != c.want {
			t.Errorf("nResults %#x, id %#x: view ID %#x, want %#x", c.nResults, c.id, got, c.want)
		}
	}
}
