package sim

// The scheduler: the RPC handler that hands out work (sched_send.cpp, sched_version.cpp) and receives results.

import (
	"math"

	"sort"

	"github.com/creditsim/creditsim/model/hosts"
	"github.com/creditsim/creditsim/policy"
)

// projectFor picks the attached project to ask for work on a resource:
// the one with work for it furthest below its resource share of this
// host's device time.
func (s *Sim) projectFor(h *hostState, gpu bool) int {
	best, bestPrio := -1, math.Inf(-1)
	for p, prio := range s.projectPriorities(h) {
		if prio > bestPrio && s.projectHasWork(h, p, gpu) {
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

// Constants of the scheduler's runtime estimates (sched_version.cpp).
const (
	minHostSamples    = 10  // MIN_HOST_SAMPLES: host statistics used above it
	minVersionSamples = 100 // MIN_VERSION_SAMPLES: version statistics used above it
	etRatioLimit      = 250 // ET_RATIO_LIMIT: host statistics at most this x the entry estimate
	gpuCPURatio       = 10  // GPU_CPU_RATIO: a GPU counts as 10 CPU cores before statistics
)

// projectedFlops is the scheduler's speed estimate for a job of version
// vid on the host (estimate_flops, sched_version.cpp), in three tiers:
// the host's own elapsed-time statistics once it has more than 10
// samples (at most 250 x the peak); else, for a version with more than
// 100 PFC samples, its peak over the version's mean PFC ratio (peak x
// the version's mean efficiency); else a conservative p_fpops x (CPUs +
// 10 x GPUs used). An anonymous-platform version has only the first
// tier, else the speed its app_info.xml states (the device's peak here).
func (s *Sim) projectedFlops(h *hostState, vid int) float64 {
	peak := s.flopsEstimate(h, vid)
	if hv := &h.havs[vid]; hv.et.N > minHostSamples && hv.et.Avg > 0 {
		return min(1/hv.et.Avg, etRatioLimit*peak)
	}
	v := &s.versions[vid]
	if v.Anonymous {
		return peak
	}
	if av := &s.avPFC[vid]; av.N > minVersionSamples && av.Avg > 0 {
		return peak / av.Avg
	}
	pf := h.pf
	if pf <= 0 {
		pf = s.p50
	}
	return pf * (h.cpus(v) + gpuCPURatio*v.GPUUsage)
}

// estimatedDuration is the scheduler's runtime estimate for a job of
// version vid on the host in wall time: rsc_fpops_est (1e12 when not
// positive) over the projected speed, over the fraction of time the host
// computes (clamped to [0.1, 1], sched_send.cpp).
func (s *Sim) estimatedDuration(h *hostState, vid int, est float64) float64 {
	if est <= 0 {
		est = 1e12
	}
	return est / s.projectedFlops(h, vid) / s.availFrac
}

// flopsEstimate is the peak FLOPS the scheduler assumes for a job of
// version vid on the host (host_usage.peak_flops): CPU usage x capped
// p_fpops, plus GPU usage x the GPU's peak for GPU versions.
func (s *Sim) flopsEstimate(h *hostState, vid int) float64 {
	v := &s.versions[vid]
	f := h.cpus(v) * s.cappedFpops(h.pf)
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

// dailyLimit is the effective daily job limit of host i's (host,
// version) row (scaled_max_jobs_per_day, sched_version.cpp):
// max_jobs_per_day x the CPUs the host reports, or x its GPUs and
// gpu_multiplier when set, except that 1 stays 1. With server trust's
// untrusted_quota it is at most that for an untrusted host, and for any
// host in its first quota_tenure.
func (s *Sim) dailyLimit(i int, vid int) int {
	hv := &s.hosts[i].havs[vid]
	mjd := hv.mjd
	if t := &s.cfg.Server.Trust; t.UntrustedQuota > 0 && t.Confirmations > 0 &&
		(!s.hosts[i].trusted || s.now-s.hosts[i].h.Arrival < t.QuotaTenure) {
		mjd = min(mjd, t.UntrustedQuota)
	}
	if mjd == 1 {
		return 1
	}
	hr := &s.reported[i]
	n := max(int(hr.ncpus), 1)
	if s.versions[vid].Resource.IsGPU() {
		n = max(int(hr.ngpus), 1)
		if m := s.cfg.Server.GPUMultiplier; m > 0 {
			n *= m
		}
	}
	return mjd * n
}

// effectiveCPUs is effective_ncpus (get_job_limits, sched_send.cpp): the
// CPUs host i reports, at least 1 and at most max_ncpus and MAX_CPUS.
func (s *Sim) effectiveCPUs(i int) int {
	return min(max(int(s.reported[i].ncpus), 1), s.cfg.Server.MaxNCPUs, maxCPUs)
}

// BOINC's MAX_CPUS and MAX_GPUS (sched_send.h).
const (
	maxCPUs = 4096
	maxGPUs = 64
)

// replyLimit is the most jobs one reply to host i holds:
// max_wus_to_send x (effective CPUs + gpu_multiplier x GPUs); no limit
// when max_wus_to_send is 0.
func (s *Sim) replyLimit(i int) int {
	sv := &s.cfg.Server
	if sv.MaxWUsToSend == 0 {
		return math.MaxInt
	}
	return sv.MaxWUsToSend * (s.effectiveCPUs(i) + sv.GPUMultiplier*min(int(s.reported[i].ngpus), maxGPUs))
}

// requestWork fills the host's buffers; it returns the jobs sent. No work
// is sent in the last (longest) delay bound, so every result sent can
// resolve before the end (DESIGN section 10).
func (s *Sim) requestWork(i int) int {
	if s.now >= s.stopSending {
		return 0
	}
	h := &s.hosts[i]
	if s.escrowFull(i) {
		return 0
	}
	sent, limit := 0, s.replyLimit(i)
	if n := h.h.Behaviour.ReregistersAfter(); n > 0 && h.successor >= 0 {
		// A host that registers anew after n results asks for no more
		// than it will report as this identity (its last one, with no
		// identity left, works on as any host).
		limit = min(limit, n-int(h.reportedN)-len(h.queue)-len(h.running)-len(h.done))
	}
	for _, gpu := range [2]bool{false, true} {
		if gpu && h.h.NGPUs == 0 {
			continue
		}
		s.rpc++ // a scan of the work array per resource (send_work_score_type)
		if !s.bufferLow(h, gpu) {
			continue
		}
		// The client asks for its shortfall; each job sent counts its
		// estimated instance-seconds against it (sched_send.cpp).
		req := s.shortfall(h, gpu, float64(s.cfg.Hosts.WorkBuffer))
		p := s.projectFor(h, gpu)
		if p < 0 {
			continue
		}
		room := s.inProgressRoom(i, gpu)
		// The deadline check (check_deadline): the delay the client
		// reports, from jobs it predicts will miss their deadlines, grows
		// with each job added to the reply; while it is 0 nothing is
		// refused, otherwise a job that would end past its delay bound is.
		delay := s.clientDelay(h, gpu)
		for sent < limit && room > 0 && req > 0 {
			ai := s.pickApp(h, p, gpu)
			if ai < 0 {
				break
			}
			vid := s.bestVersion(h, ai, gpu)
			hv := &h.havs[vid]
			if hv.mjd == 0 {
				hv.mjd = s.cfg.Server.DailyResultQuota
			}
			if hv.nToday >= s.dailyLimit(i, vid) {
				break
			}
			ri := s.takeResult(ai, i)
			if ri < 0 {
				break
			}
			dur := s.estimatedDuration(h, vid, s.wu(s.res(ri).wu).est)
			if delay > 0 && delay+dur > float64(s.apps[ai].cfg.DelayBound) && !s.cfg.Server.IgnoreDelayBound {
				s.untake(ai, ri)
				s.deadlineRefusals++
				break
			}
			delay += dur * s.instanceShare(h, vid)
			s.send(i, ri, vid)
			req -= s.res(ri).estRun / s.availFrac * s.instances(h, vid)
			hv.nToday++
			sent++
			room--
		}
	}
	return sent
}

// inProgressRoom is how many more jobs of the resource kind host i may
// hold under max_wus_in_progress (per CPU core, as effective_ncpus counts
// them) or max_wus_in_progress_gpu (per GPU reported); MaxInt without a
// limit.
func (s *Sim) inProgressRoom(i int, gpu bool) int {
	h := &s.hosts[i]
	per, n := s.cfg.Server.MaxJobsInProgress, s.effectiveCPUs(i)
	if gpu {
		per, n = s.cfg.Server.MaxJobsInProgressGPU, min(int(s.reported[i].ngpus), maxGPUs)
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

// send gives result ri to host i with version vid.
func (s *Sim) send(i int, ri int32, vid int) {
	h := &s.hosts[i]
	r := s.res(ri)
	w := s.wu(r.wu)
	a := s.apps[w.app].cfg
	hv := &h.havs[vid]
	if w.unrepl {
		// Adaptive replication: a trusted host (10 consecutive valid, then
		// with probability 1 - 1/n) keeps the job unreplicated; with
		// server trust on, only a host the server trusts does, so
		// colluders' valid results for one another do not earn it.
		trusted := hv.consecValid >= 10 && s.srvRng.Float64() > 1/float64(hv.consecValid) &&
			(s.cfg.Server.Trust.Confirmations == 0 || h.trusted)
		if !trusted {
			w.unrepl = false
			for k := len(s.reps(w)); k < int(s.target(w)); k++ {
				s.newResult(r.wu)
			}
			r = s.res(ri)
		}
	}
	s.nResults++
	v := &s.versions[vid]
	w.sent = true
	w.untrusted = w.untrusted || s.cfg.Server.Trust.Confirmations > 0 && !h.trusted
	w.users |= userBit(s.reported[i].user)
	r.st = stQueued
	s.setOut(ri, true)
	r.host = int32(i)
	r.vid = int32(vid)
	r.sentTime = s.now
	r.id = uint32(s.nResults)
	r.view = serverView{
		FlopsEstimate: s.flopsEstimate(h, vid),
		HAV:           policy.HAVState{ConsecutiveValid: policy.Count32(hv.consecValid), MaxJobsPerDay: policy.Count32(hv.mjd)},
	}
	s.oneTimeClaim(h, r, v)
	est := w.est
	if est <= 0 {
		est = 1e12
	}
	r.estRun = est / s.projectedFlops(h, vid)
	c := 0
	if v.Resource.IsGPU() {
		c = 1
	}
	h.est[c] += r.estRun
	// The new job ends at the latest when all the host's work on the
	// resource is done: the client must look again before its slack is gone.
	h.rrNext[c] = min(h.rrNext[c], s.now+(float64(a.DelayBound)-h.est[c]/s.availFrac)/2)
	s.prepare(i, ri)
	h.queueJob(ri)
	s.queueWork(h, r, 1)
	h.next = h.queue[0]
	s.addDeadline(int(w.app), ri, *s.gen(ri), s.deadline(r))
	pv := s.shown(r)
	for _, p := range s.pols {
		p.Sent(pv)
	}
	if s.cfg.Tracer != nil {
		s.cfg.Tracer.Sent(pv)
	}
}

// report is the server receiving a finished result (scheduler side).
func (s *Sim) report(ri int32) {
	r := s.res(ri)

	h := &s.hosts[r.host]
	w := s.wu(r.wu)
	r.st = stReported
	r.receive(s.now)
	s.setOut(ri, false)
	// The scheduler checks the times reported (reportedTimes computes
	// the checked times of an honest host's result from now on).
	if r.has(fAltTimes) {
		t := s.altTimes[r.id]
		t[0], t[1] = s.checkTimes(r, t[0], t[1], s.now)
		s.altTimes[r.id] = t
	}
	hv := &h.havs[r.vid]
	q := s.cfg.Server.DailyResultQuota
	if r.outcome() == policy.Success {
		if hv.mjd < q {
			hv.mjd = min(2*hv.mjd, q)
		}
	} else {
		hv.mjd = max(1, min(hv.mjd, q)-1)
		hv.consecValid = 0
		// The transitioner counts a volunteer's abort as no reply, not as
		// an error towards max_error_results (transitioner.cpp).
		if r.outcome() == policy.ClientError {
			w.nError++
		}
		if r.outcome() == policy.Aborted && s.cfg.Server.Trust.AbortUntrusts {
			// Only results sent after the abort count towards trust
			// again: a picker holds many short jobs it kept, and would be
			// trusted again as soon as ten of those were validated.
			s.untrust(int(r.host))
			h.untrustedAt = s.now
		}
	}
	r.view.HAV = policy.HAVState{ConsecutiveValid: policy.Count32(hv.consecValid), MaxJobsPerDay: policy.Count32(hv.mjd)}
	pv := s.shown(r)
	for _, p := range s.pols {
		p.Reported(pv)
	}
	if s.cfg.Tracer != nil {
		s.cfg.Tracer.Reported(pv)
	}
	if r.outcome() != policy.Success {
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

// oneTimeClaim lets a one_time_claim host put its absurd value into the
// first job it is sent at or after its time, through its channel: the
// GPU peak or CPU benchmark the scheduler sees (so flops_estimate, with
// the CPU speed still capped at 1.1 x the 95th percentile), or the FLOP
// count the job will report.
func (s *Sim) oneTimeClaim(h *hostState, r *result, v *policy.AppVersion) {
	b := h.h.Behaviour.Find(hosts.OneTimeClaim)
	if b == nil || h.oneTimeDone || s.now < b.At {
		return
	}
	switch {
	case b.Channel == "gpu_peak" && v.Resource.IsGPU():
		r.flags |= fClaimed
		r.view.FlopsEstimate = h.cpus(v)*s.cappedFpops(h.pf) + v.GPUUsage*b.Claim
	case b.Channel == "cpu_benchmark":
		r.flags |= fClaimed
		r.view.FlopsEstimate = h.cpus(v) * s.cappedFpops(b.Claim)
		if v.Resource.IsGPU() {
			r.view.FlopsEstimate += v.GPUUsage * h.gpuPeak
		}
	case b.Channel == "flop_count" && v.CountsFlops:
		r.flags |= fOneTime
	default:
		return
	}
	h.oneTimeDone = true
}

// refreshPerfInfo recomputes the 50th and 95th percentiles of the reported
// Whetstone of attached hosts, which cap reported CPU speed at send time
// (sched_util.cpp; 3.3e9 until hosts are known).
func (s *Sim) refreshPerfInfo() {
	v := s.perfBuf[:0] // reused: a day's list of 100,000 hosts is 800 KB
	for i := range s.hosts {
		h := &s.hosts[i]
		if h.h.Arrival <= s.now && !h.gone {
			pf, _ := h.h.Behaviour.ReportedCPU(h.h.Whetstone, h.h.Dhrystone)
			if pf > 0 {
				v = append(v, pf)
			}
		}
	}
	if len(v) == 0 {
		s.p50, s.p95 = 3.3e9, 3.3e9
		return
	}
	sort.Float64s(v)
	s.perfBuf = v
	s.p50 = v[int(0.5*float64(len(v)-1))]
	s.p95 = v[int(0.95*float64(len(v)-1))]
}

// cappedFpops is capped_host_fpops: a missing benchmark becomes the
// median, and a reported speed is capped at 1.1 x the 95th percentile.
func (s *Sim) cappedFpops(pf float64) float64 {
	if pf <= 0 {
		return s.p50
	}
	return min(pf, 1.1*s.p95)
}

// instances is how many of the host's instances of its resource a job
// of version vid uses: avg_ncpus, or its GPU usage.
func (s *Sim) instances(h *hostState, vid int) float64 {
	v := &s.versions[vid]
	if v.Resource.IsGPU() {
		return v.GPUUsage
	}
	return h.cpusUsed(v)
}

// instanceShare is the share of the host's instances of its resource a
// job of version vid uses: CPUs used over CPUs, or GPUs over GPUs.
func (s *Sim) instanceShare(h *hostState, vid int) float64 {
	return s.instances(h, vid) / s.instanceCount(h, s.versions[vid].Resource.IsGPU())
}
