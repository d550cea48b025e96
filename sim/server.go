package sim

import (
	"math"

	"github.com/creditsim/creditsim/model/hosts"
	"github.com/creditsim/creditsim/policy"
)

// projectFor picks the attached project to ask for work on a resource:
// the one furthest below its resource share of this host's device time.
func (s *Sim) projectFor(h *hostState, gpu bool) int {
	best, bestPrio := -1, math.Inf(-1)
	total, shares := 0.0, 0.0
	for p := range s.cfg.Projects {
		total += h.usage[p]
		shares += s.cfg.Projects[p].ResourceShare
	}
	for p := range s.cfg.Projects {
		if !s.projectHasWork(h, p, gpu) {
			continue
		}
		prio := s.cfg.Projects[p].ResourceShare / shares
		if total > 0 {
			prio -= h.usage[p] / total
		}
		if prio > bestPrio {
			best, bestPrio = p, prio
		}
	}
	return best
}

func (s *Sim) projectHasWork(h *hostState, p int, gpu bool) bool {
	for ai := range s.apps {
		if s.apps[ai].proj == p && s.bestVersion(h, ai, gpu) >= 0 {
			return true
		}
	}
	return false
}

// projectedFlops is the server's speed estimate for a (host, version):
// from the host's runtime statistics once it has 10 samples, else peak.
func (s *Sim) projectedFlops(h *hostState, vid int) float64 {
	hv := &h.havs[vid]
	if hv.et.N >= 10 && hv.et.Avg > 0 {
		return 1 / hv.et.Avg
	}
	return s.flopsEstimate(h, vid)
}

// flopsEstimate is the peak FLOPS the scheduler assumes for a job of
// version vid on the host (host_usage.peak_flops): CPU usage x capped
// p_fpops, plus GPU usage x the GPU's peak for GPU versions.
func (s *Sim) flopsEstimate(h *hostState, vid int) float64 {
	v := &s.versions[vid]
	f := v.CPUUsage * s.cappedFpops(h.pf)
	if v.Resource.IsGPU() {
		f += v.GPUUsage * h.gpuPeak
	}
	return f
}

// bestVersion returns the usable version of app ai on a resource with the
// fastest projected speed, or -1.
func (s *Sim) bestVersion(h *hostState, ai int, gpu bool) int {
	a := &s.apps[ai]
	anon := false
	if a.hasAnon {
		for _, vid := range a.versions {
			if h.havs[vid].anon && s.usable(h, vid, gpu) {
				anon = true
				break
			}
		}
	}
	best, bestF := -1, 0.0
	for _, vid := range a.versions {
		if !s.usable(h, vid, gpu) || s.versions[vid].Anonymous && !h.havs[vid].anon || anon && !s.versions[vid].Anonymous {
			continue
		}
		if f := s.projectedFlops(h, vid); f > bestF {
			best, bestF = vid, f
		}
	}
	return best
}

// usable reports whether version vid runs on the host's platform and
// device for the resource kind and has been released.
func (s *Sim) usable(h *hostState, vid int, gpu bool) bool {
	v := &s.versions[vid]
	if v.Resource.IsGPU() != gpu || v.Platform != h.h.Platform || float64(s.verCfg[vid].Release) > s.now {
		return false
	}
	return !gpu || h.h.HasGPU(v.Resource)
}

// dailyLimit is the effective daily job limit of a (host, version):
// max_jobs_per_day x CPUs (or GPUs), except that 1 stays 1.
func (s *Sim) dailyLimit(h *hostState, vid int) int {
	hv := &h.havs[vid]
	if hv.mjd == 1 {
		return 1
	}
	n := h.h.NCPUs
	if s.versions[vid].Resource.IsGPU() {
		n = h.h.NGPUs
	}
	return hv.mjd * n
}

// requestWork fills the host's buffers; it returns the jobs sent. No work
// is sent in the last (longest) delay bound, so every result sent can
// resolve before the end (DESIGN section 10).
func (s *Sim) requestWork(i int) int {
	if s.now >= s.stopSending {
		return 0
	}
	h := &s.hosts[i]
	sent := 0
	for _, gpu := range [2]bool{false, true} {
		if gpu && h.h.NGPUs == 0 {
			continue
		}
		target := float64(s.cfg.Hosts.WorkBuffer)
		if s.queuedSeconds(h, gpu) >= float64(s.cfg.Hosts.WorkBufferMin) {
			continue
		}
		p := s.projectFor(h, gpu)
		if p < 0 {
			continue
		}
		room := s.inProgressRoom(h, gpu)
		for sent < s.cfg.Server.MaxJobsPerRPC && room > 0 && s.queuedSeconds(h, gpu) < target {
			ai := s.pickApp(h, p, gpu)
			if ai < 0 {
				break
			}
			vid := s.bestVersion(h, ai, gpu)
			hv := &h.havs[vid]
			if hv.mjd == 0 {
				hv.mjd = s.cfg.Server.DailyResultQuota
			}
			if hv.nToday >= s.dailyLimit(h, vid) {
				break
			}
			ri := s.takeResult(ai, i)
			if ri < 0 {
				break
			}
			s.send(i, ri, vid)
			hv.nToday++
			sent++
			room--
		}
	}
	return sent
}

// inProgressRoom is how many more jobs of the resource kind the host may
// hold under max_wus_in_progress (per CPU core) or max_wus_in_progress_gpu
// (per GPU); MaxInt without a limit.
func (s *Sim) inProgressRoom(h *hostState, gpu bool) int {
	per, n := s.cfg.Server.MaxJobsInProgress, h.h.NCPUs
	if gpu {
		per, n = s.cfg.Server.MaxJobsInProgressGPU, h.h.NGPUs
	}
	if per == 0 {
		return math.MaxInt
	}
	held := 0
	for _, lst := range [2][]int32{h.queue, h.running} {
		for _, ri := range lst {
			if s.versions[s.res(ri).vid].Resource.IsGPU() == gpu {
				held++
			}
		}
	}
	return per*n - held
}

// pickApp chooses among the project's apps usable on the resource by weight.
func (s *Sim) pickApp(h *hostState, p int, gpu bool) int {
	total := 0.0
	for ai := range s.apps {
		if s.apps[ai].proj == p && s.bestVersion(h, ai, gpu) >= 0 {
			total += s.apps[ai].cfg.Weight
		}
	}
	if total == 0 {
		return -1
	}
	u := h.rng.Float64() * total
	last := -1
	for ai := range s.apps {
		if s.apps[ai].proj == p && s.bestVersion(h, ai, gpu) >= 0 {
			last = ai
			if u < s.apps[ai].cfg.Weight {
				return ai
			}
			u -= s.apps[ai].cfg.Weight
		}
	}
	return last
}

// takeResult removes from the app's feeder the first unsent result whose
// workunit has no other result on this host's user (BOINC's
// one-result-per-user-per-workunit rule), generating a workunit when none
// of the first 64 fits.
func (s *Sim) takeResult(ai, host int) int32 {
	a := &s.apps[ai]
	if a.head > 1024 && a.head*2 > len(a.feeder) {
		a.feeder = append(a.feeder[:0], a.feeder[a.head:]...)
		a.head = 0
	}
	user := s.hosts[host].h.UserID
	for k := a.head; k < len(a.feeder) && k < a.head+64; k++ {
		ri := a.feeder[k]
		r := s.res(ri)
		if r.st != stUnsent {
			// Cancelled while waiting: its workunit is gone.
			s.takeAt(a, k)
			r.gen++
			s.freeRes = append(s.freeRes, ri)
			continue
		}
		if !s.userHasResult(r.wu, user) {
			s.takeAt(a, k)
			return ri
		}
	}
	wi := s.generate(ai)
	k := len(a.feeder) - len(s.wus[wi].results)
	ri := a.feeder[k]
	s.takeAt(a, k)
	return ri
}

// takeAt removes feeder entry k, keeping the order of the others.
func (s *Sim) takeAt(a *appState, k int) {
	copy(a.feeder[a.head+1:k+1], a.feeder[a.head:k])
	a.head++
}

func (s *Sim) userHasResult(wi int32, user int) bool {
	for _, ri := range s.wus[wi].results {
		r := s.res(ri)
		if r.st != stUnsent && r.st != stCancelled && r.view.UserID == user {
			return true
		}
	}
	return false
}

// generate creates one workunit of app ai and its initial results.
func (s *Sim) generate(ai int) int32 {
	a := &s.apps[ai]
	var wi int32
	if n := len(s.freeWU); n > 0 {
		wi = s.freeWU[n-1]
		s.freeWU = s.freeWU[:n-1]
	} else {
		wi = int32(len(s.wus))
		s.wus = append(s.wus, workunit{})
		for p := 0; p < s.npol; p++ {
			s.credit = append(s.credit, 0)
		}
	}
	w := &s.wus[wi]
	res := w.results[:0]
	*w = workunit{app: int32(ai), w: a.stream.Next(), canonical: -1, gen: w.gen + 1, results: res,
		quorum: a.cfg.MinQuorum, target: a.cfg.TargetNResults}
	if a.cfg.AdaptiveReplication {
		// Created unreplicated; raised to the app's settings when the first
		// result goes to an untrusted host.
		w.quorum, w.target, w.unrepl = 1, 1, true
	}
	for k := 0; k < w.target; k++ {
		s.newResult(wi)
	}
	return wi
}

// newResult adds an unsent result to workunit wi and the feeder.
func (s *Sim) newResult(wi int32) int32 {
	var ri int32
	if n := len(s.freeRes); n > 0 {
		ri = s.freeRes[n-1]
		s.freeRes = s.freeRes[:n-1]
	} else {
		ri = s.results.add()
	}
	r := s.res(ri)
	gen := r.gen + 1
	*r = result{wu: wi, host: -1, gen: gen, st: stUnsent}
	s.clearPaid(ri)
	w := &s.wus[wi]
	w.results = append(w.results, ri)
	s.apps[w.app].feeder = append(s.apps[w.app].feeder, ri)
	return ri
}

// send gives result ri to host i with version vid.
func (s *Sim) send(i int, ri int32, vid int) {
	h := &s.hosts[i]
	r := s.res(ri)
	w := &s.wus[r.wu]
	a := s.apps[w.app].cfg
	hv := &h.havs[vid]
	if w.unrepl {
		// Adaptive replication: a trusted host (10 consecutive valid, then
		// with probability 1 - 1/n) keeps the job unreplicated.
		trusted := hv.consecValid >= 10 && s.srvRng.Float64() > 1/float64(hv.consecValid)
		if !trusted {
			w.unrepl = false
			w.quorum, w.target = a.MinQuorum, a.TargetNResults
			for k := len(w.results); k < w.target; k++ {
				s.newResult(r.wu)
			}
			r = s.res(ri)
		}
	}
	s.nResults++
	v := &s.versions[vid]
	r.st = stQueued
	r.host = int32(i)
	r.vid = int32(vid)
	r.view = policy.Result{
		ID: s.nResults, WorkunitID: int64(r.wu)<<32 | int64(w.gen), HostID: i, UserID: h.h.UserID, TeamID: h.h.TeamID,
		ProjectID: v.ProjectID, AppID: v.AppID, VersionID: vid,
		HostNCPUs: h.h.NCPUs, HostPFpops: h.pf, HostPIops: h.pi, HostNGPUs: h.h.NGPUs, HostGPUPeak: h.gpuPeak,
		SentTime: s.now, FlopsEstimate: s.flopsEstimate(h, vid),
		RscFpopsEst: w.w.Est, RscFpopsBound: w.w.Bound,
		HAV: policy.HAVState{ConsecutiveValid: hv.consecValid, MaxJobsPerDay: hv.mjd},
	}
	s.oneTimeClaim(h, r, v)
	r.estRun = w.w.Est / s.projectedFlops(h, vid)
	if v.Resource.IsGPU() {
		h.est[1] += r.estRun
	} else {
		h.est[0] += r.estRun
	}
	s.prepare(i, ri)
	h.queue = append(h.queue, ri)
	s.addDeadline(int(w.app), ri, r.gen, s.now+float64(a.DelayBound))
	for _, p := range s.pols {
		p.Sent(&r.view)
	}
}

// report is the server receiving a finished result (scheduler side).
func (s *Sim) report(ri int32) {
	r := s.res(ri)

	h := &s.hosts[r.host]
	w := &s.wus[r.wu]
	r.st = stReported
	r.view.ReceivedTime = s.now
	// Clamp as the scheduler does: elapsed to the turnaround, CPU time to
	// elapsed x CPUs.
	r.view.ElapsedTime = math.Min(r.view.ElapsedTime, s.now-r.view.SentTime)
	r.view.CPUTime = math.Min(r.view.CPUTime, r.view.ElapsedTime*float64(h.h.NCPUs))
	hv := &h.havs[r.view.VersionID]
	q := s.cfg.Server.DailyResultQuota
	r.ok = r.view.Outcome == policy.Success
	if r.ok {
		if hv.mjd < q {
			hv.mjd = min(2*hv.mjd, q)
		}
		if est := r.view.RscFpopsEst; est > 0 {
			hv.et.Update(r.view.ElapsedTime/est, policy.HAVParams)
		}
		w.nSuccess++
	} else {
		hv.mjd = max(1, min(hv.mjd, q)-1)
		hv.consecValid = 0
		w.nError++
	}
	r.view.HAV = policy.HAVState{ConsecutiveValid: hv.consecValid, MaxJobsPerDay: hv.mjd}
	for _, p := range s.pols {
		p.Reported(&r.view)
	}
	if r.view.Outcome != policy.Success {
		s.finish(ri)
		s.retry(r.wu)
		return
	}
	if w.failed {
		s.finish(ri)
		s.maybeFree(r.wu)
		return
	}
	if !w.queued && !w.failed {
		w.queued = true
		s.valQueue = append(s.valQueue, r.wu)
	}
}

// timeout is the transitioner finding a result past its deadline.
func (s *Sim) timeout(ri int, gen uint32) {
	r := s.res(int32(ri))
	if r.gen != gen || (r.st != stQueued && r.st != stRunning && r.st != stDone) {
		return
	}
	if r.host >= 0 {
		h := &s.hosts[r.host]
		if r.st == stRunning && h.on {
			r.ran += s.now - r.startedAt
		}
		if r.st == stRunning {
			v := &s.versions[r.view.VersionID]
			h.addEstimated(r.ran, &r.view, v)
			if v.Resource.IsGPU() {
				h.gpuFree += v.GPUUsage
			} else {
				h.cpuFree += math.Min(v.CPUUsage, float64(h.h.NCPUs))
			}
		}
		if r.st == stQueued || r.st == stRunning {
			s.dropEstimate(h, r)
		}
		h.queue = remove(h.queue, int32(ri))
		h.running = remove(h.running, int32(ri))
		h.done = remove(h.done, int32(ri))
		hv := &h.havs[r.view.VersionID]
		q := s.cfg.Server.DailyResultQuota
		if hv.mjd == 0 {
			hv.mjd = q
		}
		hv.mjd = max(1, min(hv.mjd, q)-1)
		hv.consecValid = 0
		r.view.HAV = policy.HAVState{ConsecutiveValid: hv.consecValid, MaxJobsPerDay: hv.mjd}
		if r.runTotal > 0 && s.hosts[r.host].h.Behaviour.DoesWork() {
			r.flopsDone = s.wus[r.wu].w.Flops * math.Min(r.ran/r.runTotal, 1)
		}
		s.startJobs(int(r.host))
	}
	r.view.Outcome = policy.NoReply
	r.view.ReceivedTime = s.now
	for _, p := range s.pols {
		p.Reported(&r.view)
	}
	s.wus[r.wu].nError++
	s.finish(int32(ri))
	s.retry(r.wu)
}

func remove(l []int32, x int32) []int32 {
	for k, y := range l {
		if y == x {
			return append(l[:k], l[k+1:]...)
		}
	}
	return l
}

// retry issues another result after an error, unless the workunit has
// failed or no longer needs one.
func (s *Sim) retry(wi int32) {
	w := &s.wus[wi]
	a := s.apps[w.app].cfg
	if w.failed {
		s.maybeFree(wi)
		return
	}
	if w.nError >= a.MaxErrorResults || len(w.results) >= a.MaxTotalResults {
		s.failWU(wi)
		return
	}
	if w.assim {
		s.maybeFree(wi)
		return
	}
	// Results still able to succeed.
	alive := 0
	for _, ri := range w.results {
		st := s.res(ri).st
		if st == stUnsent || st == stQueued || st == stRunning || st == stDone ||
			st == stReported && s.res(ri).ok && s.res(ri).view.ValidateState != policy.Invalid {
			alive++
		}
	}
	if alive < w.target {
		s.newResult(wi)
	}
}

// failWU marks a workunit failed: unsent results are cancelled; results
// in progress still count for their hosts but grant nothing.
func (s *Sim) failWU(wi int32) {
	w := &s.wus[wi]
	w.failed = true
	for _, ri := range w.results {
		switch s.res(ri).st {
		case stUnsent:
			s.res(ri).st = stCancelled
		case stReported:
			s.finish(ri)
		}
	}
	s.maybeFree(wi)
}

// oneTimeClaim lets a one_time_claim host put its absurd value into the
// first job it is sent at or after its time, through its channel: the
// GPU peak or CPU benchmark the scheduler sees (so flops_estimate, with
// the CPU speed still capped at 1.1 x the 95th percentile), or the FLOP
// count the job will report.
func (s *Sim) oneTimeClaim(h *hostState, r *result, v *policy.AppVersion) {
	b := &h.h.Behaviour
	if b.Kind != hosts.OneTimeClaim || h.oneTimeDone || s.now < b.At {
		return
	}
	switch {
	case b.Channel == "gpu_peak" && v.Resource.IsGPU():
		r.view.HostGPUPeak = b.Claim
		r.view.FlopsEstimate = v.CPUUsage*s.cappedFpops(h.pf) + v.GPUUsage*b.Claim
	case b.Channel == "cpu_benchmark":
		r.view.HostPFpops, r.view.HostPIops = b.Claim, b.Claim
		r.view.FlopsEstimate = v.CPUUsage * s.cappedFpops(b.Claim)
		if v.Resource.IsGPU() {
			r.view.FlopsEstimate += v.GPUUsage * h.gpuPeak
		}
	case b.Channel == "flop_count" && v.CountsFlops:
		r.oneTime = true
	default:
		return
	}
	h.oneTimeDone = true
}

// finish records a result's final fate and frees what can be freed. A
// result whose runtime Science United-style accounting has yet to pay
// for waits for its host's next account-manager call (or its departure)
// before it is recorded.
func (s *Sim) finish(ri int32) {
	r := s.res(ri)
	r.st = stOver
	r.resolvedAt = s.now
	if len(s.ras) > 0 && r.host >= 0 && r.ran > r.amRan {
		r.settling = true
		return
	}
	s.record(ri)
}

// record gives the observer a final result's truth and the credit each
// policy granted it: the workunit's credit if valid, for runtime
// accounting what it paid for the result's runtime, whatever its fate.
func (s *Sim) record(ri int32) {
	if s.cfg.Observer == nil {
		return
	}
	r := s.res(ri)
	v := &s.versions[r.view.VersionID]
	g := s.grantBuf
	if r.view.ValidateState == policy.Valid {
		copy(g, s.credit[int(r.wu)*s.npol:int(r.wu+1)*s.npol])
	} else {
		clear(g)
	}
	for k, p := range s.ras {
		g[p] = 0
		if j := int(ri)*len(s.ras) + k; j < len(s.paid) {
			g[p] = s.paid[j] // a result that never ran has no slot
		}
	}
	s.rec = Record{View: &r.view, Host: s.hosts[r.view.HostID].h, Version: v, Flops: r.flopsDone,
		Efficiency: r.eff, DeviceSeconds: r.ran * (v.CPUUsage + v.GPUUsage), Granted: g,
		EstRuntime: r.estRun, Runtime: r.ran, Replicas: s.wus[r.wu].target, Time: r.resolvedAt}
	s.cfg.Observer.ResultDone(&s.rec)
}

// maybeFree returns a workunit and its results to the pools once nothing
// refers to them any more.
func (s *Sim) maybeFree(wi int32) {
	w := &s.wus[wi]
	if !w.assim && !w.failed {
		return
	}
	for _, ri := range w.results {
		r := s.res(ri)
		if r.st != stOver && r.st != stCancelled && r.st != stUnsent || r.settling {
			return
		}
	}
	for _, ri := range w.results {
		r := s.res(ri)
		if r.st == stUnsent || r.st == stCancelled {
			// Still in the feeder: freed when taken. Freeing it here too
			// would hand the slot out twice.
			r.st = stCancelled
			continue
		}
		r.gen++
		s.freeRes = append(s.freeRes, ri)
	}
	w.results = w.results[:0]
	w.gen++
	s.freeWU = append(s.freeWU, wi)
}

type deadline struct {
	t   float64
	ri  int32
	gen uint32
}

// addDeadline records a sent result's deadline in its app's FIFO and arms
// the app's timeout event if none is pending.
func (s *Sim) addDeadline(ai int, ri int32, gen uint32, t float64) {
	a := &s.apps[ai]
	a.deadlines.push(deadline{t: t, ri: ri, gen: gen})
	if !a.dlArmed {
		a.dlArmed = true
		s.q.push(event{t: t, kind: evTimeout, a: int32(ai)})
	}
}

// expire times out every result of app ai whose deadline has come, in
// send order, and re-arms the event for the next deadline.
func (s *Sim) expire(ai int) {
	a := &s.apps[ai]
	a.dlArmed = false
	for !a.deadlines.empty() && a.deadlines.front().t <= s.now {
		d := *a.deadlines.front()
		a.deadlines.pop()
		s.timeout(int(d.ri), d.gen)
	}
	if !a.deadlines.empty() {
		a.dlArmed = true
		s.q.push(event{t: a.deadlines.front().t, kind: evTimeout, a: int32(ai)})
	}
}
