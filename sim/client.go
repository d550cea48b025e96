package sim

import (
	"math"
	"unsafe"

	"github.com/creditsim/creditsim/boinc"
	"github.com/creditsim/creditsim/boinc/rng"
	"github.com/creditsim/creditsim/model/hosts"
	"github.com/creditsim/creditsim/policy"
)

var (
	streamClient         = rng.String("client")
	streamAnonymous      = rng.String("anonymous")
	streamAccountManager = rng.String("account-manager")
)

func (s *Sim) arrive(i int) {
	h := &s.hosts[i]
	h.arrived = true
	h.rng = rng.New(rng.Hash(s.cfg.Seed, streamClient, uint64(i)))
	// Availability and efficiency are the machine's: a new identity of
	// a host (new_identity) continues its origin's periods.
	first := h.h.Origin == i || s.hosts[h.h.Origin].periods == nil
	if first {
		h.periods = hosts.NewPeriods(&s.cfg.Hosts.Availability, s.cfg.Seed, h.h.Origin)
	} else {
		h.periods = s.hosts[h.h.Origin].periods
	}
	h.cpuFree = float64(h.h.NCPUs)
	h.gpuFree = float64(h.h.NGPUs)
	h.pf, h.pi = h.h.Behaviour.ReportedCPU(h.h.Whetstone, h.h.Dhrystone)
	h.ncpus = h.h.Behaviour.ReportedNCPUs(h.h.NCPUs)
	h.gpuPeak = h.h.Behaviour.ReportedGPUPeak(h.h.GPUPeak)
	hr := &s.reported[i]
	hr.ncpus, hr.ngpus = policy.Count32(h.ncpus), policy.Count32(h.h.NGPUs)
	hr.pf, hr.pi, hr.gpuPeak = h.pf, h.pi, h.gpuPeak
	hr.trueNCPUs = policy.Count32(h.h.NCPUs)
	done, claim := h.h.Behaviour.Forged()
	hr.outFactor = claim * done
	h.havs = make([]hav, len(s.versions))
	for j := range h.havs {
		h.havs[j].eff = -1
		if c := s.verCfg[j]; c.Anonymous {
			// A per-(host, version) hashed draw: whether a volunteer uses
			// app_info.xml does not depend on anything else in the run.
			u := rng.New(rng.Hash(s.cfg.Seed, streamAnonymous, uint64(i), uint64(j))).Float64()
			h.havs[j].anon = u < c.AnonymousShare
		}
	}
	// The usage and estimated credit share an allocation, since a job's
	// end adds to both: one line for a host of one project (its 32 bytes
	// never cross a line), prefetched at once (prefetchHostParts).
	n := len(s.cfg.Projects)
	acct := make([]float64, max(4*n, 1)) // &acct[n] must exist
	h.usage = acct[:n:n]
	h.estFlops = unsafe.Slice((*[2]float64)(unsafe.Pointer(&acct[n])), n)
	// Account-manager calls at a per-host phase, so hosts do not call in step.
	am := float64(s.cfg.Hosts.AccountManagerInterval)
	if t := s.now + am*rng.New(rng.Hash(s.cfg.Seed, streamAccountManager, uint64(i))).Float64(); t < s.cfg.Duration {
		s.q.push(event{t: t, kind: evAccountManager, a: int32(i)})
	}
	if h.h.Departure < s.cfg.Duration {
		s.q.push(event{t: h.h.Departure, kind: evHostDepart, a: int32(i)})
	}
	if first {
		s.toggle(i, h.epoch)
	} else {
		s.continueMachine(i)
	}
}

// continueMachine starts a new identity of a machine in the machine's
// current availability period, drawing the periods it missed if it
// arrives after that period ended.
func (s *Sim) continueMachine(i int) {
	h := &s.hosts[i]
	o := &s.hosts[h.h.Origin]
	on, end := o.availOn, o.availEnd
	for end < s.now {
		d, next := h.periods.Next()
		on, end = next, end+d
	}
	s.setAvailability(i, on, end-s.now)
}

// linkIdentities links each host that registers anew by count to its
// first identity made ahead (hosts.Dormant), and each of those to the
// next: they follow every other host in ID order, a machine's in turn.
func (s *Sim) linkIdentities() {
	last := map[int]int32{}
	for i := range s.hosts {
		h := &s.hosts[i]
		h.successor = -1
		if h.h.Arrival == hosts.Dormant {
			if prev, ok := last[h.h.Origin]; ok {
				s.hosts[prev].successor = int32(i)
			}
		}
		if h.h.Behaviour.ReregistersAfter() > 0 {
			last[h.h.Origin] = int32(i)
		}
	}
}

// reidentify: host i has reported its count of results as one identity
// and holds nothing more, so it registers anew: this identity departs
// and the next, made ahead, arrives now. Without one left it stays.
func (s *Sim) reidentify(i int) {
	next := s.hosts[i].successor
	if next < 0 {
		return
	}
	// The identity's days end here, as a time-based one's do where the
	// population sets them: host-days count each identity's own span.
	s.hosts[i].h.Departure = s.now
	s.depart(i)
	s.hosts[next].h.Arrival = s.now
	s.q.push(event{t: s.now, kind: evHostArrive, a: next})
}

// depart: the host leaves for good; what it holds times out on the
// server. The FLOPs its running jobs did are theirs (a job finished but
// never reported did all of its own, recorded when it finished), and
// runtime since its last account-manager call is never paid.
func (s *Sim) depart(i int) {
	h := &s.hosts[i]
	if h.gone {
		return // an identity left early for the next (reidentify)
	}
	s.pause(h)
	h.gone = true
	h.closeOn(s.now)
	h.epoch++
	for _, ri := range h.running {
		r := s.res(ri)
		if r.runTotal > 0 && jobDoesWork(h, r) {
			r.flopsDone = s.wu(r.wu).flops * min(r.ran/r.runTotal, 1)
			r.set(fEnded, true)
		}
	}
	s.settle(i, false)
	for _, lst := range [][]int32{h.queue, h.running, h.done} {
		for _, ri := range lst {
			r := s.res(ri)
			if r.st == stRunning || r.st == stQueued || r.st == stDone {
				r.st = stQueued // abandoned; the deadline will find it
			}
			r.set(fOrphan, true)
		}
	}
	h.queue, h.running, h.done = h.qbuf[:0], h.running[:0], h.done[:0]
	h.est, h.queued = [2]float64{}, [2]float64{}
}

// toggle starts the host's next availability period.
func (s *Sim) toggle(i int, gen uint32) {
	h := &s.hosts[i]
	if h.gone || gen != h.epoch {
		return
	}
	d, on := h.periods.Next()
	s.setAvailability(i, on, d)
}

// setAvailability puts host i on or off for the next d seconds and
// notes the period as its machine's.
func (s *Sim) setAvailability(i int, on bool, d float64) {
	h := &s.hosts[i]
	o := &s.hosts[h.h.Origin]
	o.availOn, o.availEnd = on, s.now+d
	if on {
		if !h.on {
			h.onSince = s.now
		}
		h.on = true
		h.epoch++
		s.resume(i)
		if h.amDue {
			s.accountManagerCall(i)
		}
		s.maybeContact(i)
	} else {
		s.pause(h)
		h.closeOn(s.now)
		h.epoch++
	}
	if !math.IsInf(d, 1) && s.now+d < s.cfg.Duration {
		s.q.push(event{t: s.now + d, kind: evAvailability, a: int32(i), gen: h.epoch})
	}
}

// closeOn ends the host's on period at t.
func (h *hostState) closeOn(t float64) {
	if h.on {
		h.onTime += t - h.onSince
	}
	h.on = false
}

// OnFraction is the fraction of its time in the run host i has been on
// (BOINC's host.on_frac as the client measures it): its time on over its
// time from arrival to departure or now; 0 before it arrives.
func (s *Sim) OnFraction(i int) float64 {
	h := &s.hosts[i]
	if !h.arrived {
		return 0
	}
	on := h.onTime
	if h.on {
		on += s.now - h.onSince
	}
	span := min(s.now, h.h.Departure) - h.h.Arrival
	if !(span > 0) {
		return 0
	}
	return min(1, on/span)
}

// pause stops the running jobs' clocks (the host is off).
func (s *Sim) pause(h *hostState) {
	if !h.on {
		return
	}
	for _, ri := range h.running {
		r := s.res(ri)
		run := s.now - r.startedAt
		r.ran += run
		r.remaining -= run
		r.startedAt = math.NaN()
	}
}

// resume restarts the running jobs and starts queued ones.
func (s *Sim) resume(i int) {
	h := &s.hosts[i]
	for _, ri := range h.running {
		r := s.res(ri)
		r.startedAt = s.now
		s.q.push(event{t: s.now + max(r.remaining, 0), kind: evJobDone, a: int32(i), b: ri, gen: h.epoch})
	}
	s.startJobs(i)
}

// startJobs starts queued jobs while devices are free, each time the one
// the client's CPU scheduler picks (pickJob).
func (s *Sim) startJobs(i int) {
	h := &s.hosts[i]
	if !h.on || len(h.queue) == 0 {
		return
	}
	for _, gpu := range [2]bool{false, true} {
		for len(h.queue) > 0 && (gpu && h.gpuFree > 1e-6 || !gpu && h.cpuFree > 1e-6) {
			k := s.pickJob(h, gpu)
			if k < 0 {
				break
			}
			ri := h.takeQueued(k)
			s.queueWork(h, s.res(ri), -1)
			if len(h.queue) > 0 {
				h.next = h.queue[0]
			}
			r := s.res(ri)
			v := &s.versions[r.vid]
			if gpu {
				h.gpuFree -= v.GPUUsage
			} else {
				h.cpuFree -= h.cpusUsed(v)
			}
			r.st = stRunning
			r.startedAt = s.now
			s.q.push(event{t: s.now + r.remaining, kind: evJobDone, a: int32(i), b: ri, gen: h.epoch})
			h.running = append(h.running, ri)
			s.trackRuntime(h, ri)
		}
	}
}

// takeQueued removes the host's queued job k and returns it, keeping the
// others in order: the jobs before it move up one place and the queue
// starts one later, so taking the first job, the usual case, moves
// nothing.
func (h *hostState) takeQueued(k int) int32 {
	q := h.queue
	ri := q[k]
	if k < len(q)/2 {
		copy(q[1:k+1], q[:k])
		h.queue = q[1:]
	} else {
		h.queue = append(q[:k], q[k+1:]...)
	}
	return ri
}

// queueJob adds job ri at the end of the host's queue. When the queue
// reaches its buffer's end it moves to the buffer's start if more than
// half the buffer lies before it, or else to a buffer twice as large,
// so that each job is moved about once while it waits.
func (h *hostState) queueJob(ri int32) {
	if n := len(h.queue); n == cap(h.queue) {
		if free := cap(h.qbuf) - n; free > n {
			h.queue = h.qbuf[:copy(h.qbuf[:n], h.queue)]
		} else {
			h.qbuf = make([]int32, 0, max(2*cap(h.qbuf), 8))
			h.queue = h.qbuf[:copy(h.qbuf[:n], h.queue)]
		}
	}
	h.queue = append(h.queue, ri)
}

// fits reports whether a job of version v can start on the host's free
// devices.
func fits(h *hostState, v *policy.AppVersion) bool {
	if v.Resource.IsGPU() {
		return h.gpuFree+1e-9 >= v.GPUUsage
	}
	return h.cpuFree+1e-9 >= h.cpusUsed(v)
}

// pickJob returns the index in the host's queue of the job its CPU
// scheduler starts next on a resource (cpu_sched.cpp), -1 when none
// fits: first the jobs its round-robin simulation predicts will miss
// their deadlines, earliest deadline first; then by project priority
// (resource share against the device time the project has had), in
// list order within a project.
func (s *Sim) pickJob(h *hostState, gpu bool) int {
	best := -1
	if s.clientDelay(h, gpu) > 0 {
		for k, ri := range h.queue {
			r := s.res(ri)
			v := &s.versions[r.vid]
			if r.has(fDanger) && v.Resource.IsGPU() == gpu && fits(h, v) && (best < 0 || s.deadline(r) < s.deadline(s.res(h.queue[best]))) {
				best = k
			}
		}
		if best >= 0 {
			return best
		}
	}
	if len(s.cfg.Projects) == 1 {
		for k, ri := range h.queue {
			if v := &s.versions[s.res(ri).vid]; v.Resource.IsGPU() == gpu && fits(h, v) {
				return k
			}
		}
		return -1
	}
	prio := s.projectPriorities(h)
	top := 0
	for p := range prio {
		if prio[p] > prio[top] {
			top = p
		}
	}
	for k, ri := range h.queue {
		v := &s.versions[s.res(ri).vid]
		if v.Resource.IsGPU() != gpu || !fits(h, v) {
			continue
		}
		if best < 0 || prio[v.ProjectID] > prio[s.versions[s.res(h.queue[best]).vid].ProjectID] {
			best = k
			if v.ProjectID == top {
				break // nothing can beat the first job of the top project
			}
		}
	}
	return best
}

// projectPriorities is each project's priority on the host: its share
// of the resource shares less its share of the device time the host has
// given the projects so far.
func (s *Sim) projectPriorities(h *hostState) []float64 {
	total, shares := 0.0, 0.0
	for p := range s.cfg.Projects {
		total += h.usage[p]
		shares += s.cfg.Projects[p].ResourceShare
	}
	prio := s.prioBuf[:0]
	for p := range s.cfg.Projects {
		x := s.cfg.Projects[p].ResourceShare / shares
		if total > 0 {
			x -= h.usage[p] / total
		}
		prio = append(prio, x)
	}
	s.prioBuf = prio
	return prio
}

// prepare draws how long result ri will run on host i, and whether it
// fails, when the host receives it.
func (s *Sim) prepare(i int, ri int32) {
	h := &s.hosts[i]
	r := s.res(ri)
	w := s.wu(r.wu)
	vid := r.vid
	v := &s.versions[vid]
	hv := &h.havs[vid]
	if hv.eff < 0 {
		// Efficiency of this (host, version), drawn from its own stream.
		er := rng.New(rng.Hash(s.cfg.Seed, rng.String("efficiency"), uint64(h.h.Origin), uint64(vid)))
		hv.eff = s.verCfg[vid].Efficiency.Sample(er)
	}
	peak := h.cpusRun(v) * h.h.Whetstone
	if v.Resource.IsGPU() {
		peak = v.GPUUsage * h.h.GPUPeak
	}
	noise := 1.0
	if cv := s.cfg.Hosts.RuntimeNoise; cv > 0 {
		noise = max(0.2, 1+cv*h.rng.NormFloat64())
	}
	run := h.h.Behaviour.RunFraction()
	if h.h.Behaviour.Sleeps() && s.awake(i) {
		r.flags |= fFake
		run *= h.h.Behaviour.Find(hosts.Sleeper).WorkFraction
	}
	r.runTotal = w.flops / (peak * hv.eff) * noise * run
	failAt := 2.0 // the fraction of the job after which it errors; >1 none
	if h.rng.Float64() < h.h.ErrorRate {
		failAt = h.rng.Float64()
	}
	if t := h.h.Behaviour.AbortAfter(); r.runTotal*min(failAt, 1) > t {
		// A cherry picker aborts a job still running after t seconds.
		failAt = t / r.runTotal
		r.flags |= fAborted
	}
	if failAt <= 1 {
		r.flags |= fFails
	}
	r.remaining = r.runTotal * min(failAt, 1)
	r.flopsDone = w.flops * min(failAt, 1)
	done, claim := h.h.Behaviour.Forged()
	if done < 1 {
		r.flopsDone *= done
	}
	r.ran = 0
	switch b := &h.h.Behaviour; {
	case b.Colludes() || r.has(fFake):
		// The colluders' agreed garbage for this workunit: the same for
		// all of them, unlike any honest or random wrong answer.
		r.output = 1<<31 | uint32(rng.Hash(uint64(r.wu), uint64(w.gen)))
	case b.Forges() && (s.cfg.Server.ValidatorComparesWork && done*claim != 1 || done < 1):
		// A work measure other than the work (or a partial job's wrong
		// result): the forgers' output for this workunit, the same for
		// all of them, unlike an honest one or the colluders'. A forger
		// that does all the work and claims exactly it is an honest host:
		// the validator sees the size of the claim, not the intent.
		r.output = 1<<30 | uint32(rng.Hash(uint64(r.wu), uint64(w.gen)))>>2
	case jobDoesWork(h, r) && h.rng.Float64() >= h.h.InvalidRate:
		r.output = 0
	default:
		r.output = 1 + uint32(h.rng.Uint32()>>2) // a wrong answer, unlike any other (below 1<<30)
	}
}

func (s *Sim) jobDone(i, ri int, gen uint32) {
	h := &s.hosts[i]
	if gen != h.epoch || h.gone {
		return
	}
	r := s.res(int32(ri))
	if r.st != stRunning || int(r.host) != i {
		return
	}
	r.ran += s.now - r.startedAt
	r.st = stDone
	s.dropEstimate(h, r)
	v := &s.versions[r.vid]
	if v.Resource.IsGPU() {
		h.gpuFree += v.GPUUsage
	} else {
		h.cpuFree += h.cpusUsed(v)
	}
	for k, x := range h.running {
		if int(x) == ri {
			h.running = append(h.running[:k], h.running[k+1:]...)
			break
		}
	}
	r.set(fEnded, jobDoesWork(h, r)) // flopsDone holds what it did
	elapsed := r.ran
	cpu := elapsed * h.cpusRun(v) * s.verCfg[r.vid].CPUTimeFraction
	sinceSent := s.now - r.sentTime
	if e, c := h.h.Behaviour.ReportTimes(elapsed, cpu, sinceSent); !sameBits(e, elapsed) || !sameBits(c, cpu) {
		// A cheater's times: kept aside, as they cannot be computed.
		r.flags |= fAltTimes
		s.altTimes[r.id] = [2]float64{e, c}
	}
	r.flags |= fTimes
	r.remaining = 0 // from now on, the view's CountedFlops
	switch {
	case r.has(fFails) && r.has(fAborted):
		r.setOutcome(policy.Aborted)
	case r.has(fFails):
		r.setOutcome(policy.ClientError)
	default:
		r.setOutcome(policy.Success)
		if jobDoesWork(h, r) {
			r.flags |= fOutput
		}
		if v.CountsFlops {
			// A fake still reports a plausible count.
			count := r.flopsDone * s.verCfg[r.vid].CountError.Sample(h.rng)
			r.remaining = h.h.Behaviour.ReportedCount(count)
			if r.has(fOneTime) {
				r.remaining = h.h.Behaviour.Find(hosts.OneTimeClaim).Claim
			}
		}
	}
	h.usage[v.ProjectID] += r.ran * (h.cpusRun(v) + v.GPUUsage)
	s.addEstimated(h, r.ran, r, v)
	if len(h.done) == 0 {
		h.done0, h.done0WU = int32(ri), r.wu
	}
	h.done = append(h.done, int32(ri))
	s.startJobs(i)
	s.maybeContact(i)
}

// dropEstimate removes a job from the client's work-on-hand estimate.
func (s *Sim) dropEstimate(h *hostState, r *result) {
	c := 0
	if s.versions[r.vid].Resource.IsGPU() {
		c = 1
	}
	h.est[c] = max(0, h.est[c]-r.estRun)
}

// needsWork reports whether a resource's buffer is low: an instance
// would go idle within work_buffer_min (work_fetch.cpp: saturated_time
// below work_buf_min).
func (s *Sim) needsWork(h *hostState) bool {
	return s.bufferLow(h, false) || h.h.NGPUs > 0 && s.bufferLow(h, true)
}

// bufferLow reports whether the client's queued work on a resource
// cannot keep all its instances busy for work_buffer_min, in the
// client's estimates at the fraction of time the host computes (a fluid
// version of rr_sim.cpp's saturated time: queued work goes to whichever
// instances free first).
func (s *Sim) bufferLow(h *hostState, gpu bool) bool {
	lo := float64(s.cfg.Hosts.WorkBufferMin)
	queued := s.queuedWall(h, gpu)
	if queued >= s.instanceCount(h, gpu)*lo {
		return false // enough to fill every instance, however busy
	}
	return s.uncovered(h, gpu, lo) > queued
}

// shortfall is the idle instance-seconds of a resource within horizon
// (rr_sim.cpp's shortfall; the work the client asks for) once its
// queued work fills the earliest idle ones.
func (s *Sim) shortfall(h *hostState, gpu bool, horizon float64) float64 {
	return max(0, s.uncovered(h, gpu, horizon)-s.queuedWall(h, gpu))
}

// queuedWall is the client's estimate of its queued jobs' instance-
// seconds on a resource, in wall time.
func (s *Sim) queuedWall(h *hostState, gpu bool) float64 {
	c := 0
	if gpu {
		c = 1
	}
	return h.queued[c] / s.availFrac
}

// instanceCount is the host's CPUs or GPUs.
func (s *Sim) instanceCount(h *hostState, gpu bool) float64 {
	if gpu {
		return float64(h.h.NGPUs)
	}
	return float64(h.h.NCPUs)
}

// uncovered is the instance-seconds of a resource that the running jobs
// leave idle before horizon (wall time from now), from the client's
// estimates of what they have left.
func (s *Sim) uncovered(h *hostState, gpu bool, horizon float64) float64 {
	free := h.cpuFree
	if gpu {
		free = h.gpuFree
	}
	x := max(0, free) * horizon
	for _, ri := range h.running {
		r := s.res(ri)
		if s.versions[r.vid].Resource.IsGPU() != gpu {
			continue
		}
		if end := s.clientRemaining(h, r) / s.availFrac; end < horizon {
			x += s.instances(h, int(r.vid)) * (horizon - end)
		}
	}
	return x
}

// queueWork adds sign x a queued job's instance-seconds to the client's
// queued work on its resource (0 once nothing is queued, against drift).
func (s *Sim) queueWork(h *hostState, r *result, sign float64) {
	c := 0
	if s.versions[r.vid].Resource.IsGPU() {
		c = 1
	}
	h.queued[c] = max(0, h.queued[c]+sign*r.estRun*s.instances(h, int(r.vid)))
	if len(h.queue) == 0 {
		h.queued = [2]float64{}
	}
}

// maybeContact contacts the scheduler now if the buffer is low (and the
// backoff has passed), or makes sure finished results are reported within
// the report delay. The client looks at its buffer at these calls and
// at each job's end, not in between.
func (s *Sim) maybeContact(i int) {
	h := &s.hosts[i]
	if !h.on || h.gone {
		return
	}
	low := s.needsWork(h)
	if s.now >= h.nextTry && low {
		s.contact(i)
		return
	}
	if h.contact {
		return
	}
	t := math.Inf(1)
	if len(h.done) > 0 {
		t = s.now + float64(s.cfg.Hosts.ReportDelay)
	}
	if low {
		t = min(t, h.nextTry)
	}
	if !math.IsInf(t, 1) && t < s.cfg.Duration {
		h.contact = true
		s.q.push(event{t: t, kind: evContact, a: int32(i)})
	}
}

func (s *Sim) contactEvent(i int) {
	h := &s.hosts[i]
	h.contact = false
	if !h.on || h.gone {
		return // retried when the host comes back on
	}
	if len(h.done) > 0 || (s.now >= h.nextTry && s.needsWork(h)) {
		s.contact(i)
		return
	}
	s.maybeContact(i)
}

// workFetchPeriod is how often the client's work fetch runs (seconds).
const workFetchPeriod = 60

// contact is a scheduler RPC: report finished results, then ask for work.
func (s *Sim) contact(i int) {
	h := &s.hosts[i]
	if day := int(s.now / boinc.SecondsPerDay); day != h.rpcDay {
		// n_jobs_today restarts when the previous RPC was on another day
		// (sched_send.cpp), not at midnight for everyone.
		h.rpcDay = day
		for j := range h.havs {
			h.havs[j].nToday = 0
		}
	}
	for _, ri := range h.done {
		s.prefetchResult(ri)
	}
	for k, ri := range h.done {
		if k+1 < len(h.done) {
			s.prefetchWorkunit(s.res(h.done[k+1]).wu)
		}
		s.report(ri)
	}
	h.reportedN += int32(len(h.done))
	h.done = h.done[:0]
	if n := h.h.Behaviour.ReregistersAfter(); n > 0 && h.reportedN >= int32(n) && h.successor >= 0 {
		// Its count reported: it asks for nothing more (it calls again
		// only to report), and registers anew once it holds nothing.
		h.nextTry = math.Inf(1)
		if len(h.queue) == 0 && len(h.running) == 0 {
			s.reidentify(i)
		}
		return
	}
	got := s.requestWork(i)
	if got == 0 && s.needsWork(h) {
		if h.backoff == 0 {
			h.backoff = 600
		} else {
			h.backoff = min(2*h.backoff, 4*3600)
		}
		h.nextTry = s.now + h.backoff
	} else {
		// The client's work fetch runs once a minute (WORK_FETCH_PERIOD):
		// it asks again for what a reply did not bring only after that.
		h.backoff = 0
		h.nextTry = s.now + workFetchPeriod
	}
	s.startJobs(i)
	s.maybeContact(i)
}

// clientDelay is the delay the client reports for a resource (rrSim),
// without simulating while no job can be late yet: after a simulation
// in which none was, the next is due after half the least slack between
// a job's predicted end and its deadline (sooner if a job is sent).
func (s *Sim) clientDelay(h *hostState, gpu bool) float64 {
	c := 0
	if gpu {
		c = 1
	}
	if s.now < h.rrNext[c] {
		return 0
	}
	delay, slack := s.rrSim(h, gpu)
	h.rrNext[c] = s.now
	if delay == 0 {
		h.rrNext[c] += slack / 2
	}
	return delay
}

// clientRemaining is the client's estimate of the computing time a job
// still needs: the server's estimate for a queued job, the fraction not
// yet done of it for a running one.
func (s *Sim) clientRemaining(h *hostState, r *result) float64 {
	if r.st != stRunning || r.runTotal <= 0 {
		return r.estRun
	}
	ran := r.ran
	if h.on {
		ran += s.now - r.startedAt
	}
	return r.estRun * max(0, 1-ran/r.runTotal)
}

// rrSim is the client's round-robin simulation of one resource
// (rr_sim.cpp), simplified to a fluid: jobs run in the client's order
// (running ones, then the queue) on their share of the instances, at
// the fraction of time the host computes, from the client's estimates.
// A job is predicted to end when both it and all the work before it on
// the resource are done. It marks the jobs predicted to miss their
// deadlines and returns the busy time per instance of those jobs (the
// delay the client reports to the scheduler, 0 when none is late) and
// the least time any job's predicted end is ahead of its deadline.
func (s *Sim) rrSim(h *hostState, gpu bool) (delay, slack float64) {
	work := 0.0
	slack = math.Inf(1)
	for _, lst := range [2][]int32{h.running, h.queue} {
		for _, ri := range lst {
			r := s.res(ri)
			if s.versions[r.vid].Resource.IsGPU() != gpu {
				continue
			}
			left := s.clientRemaining(h, r)
			share := s.instanceShare(h, int(r.vid))
			work += left * share
			end := s.now + max(left, work)/s.availFrac
			r.set(fDanger, end > s.deadline(r))
			if r.has(fDanger) {
				delay += left * share
			}
			slack = min(slack, s.deadline(r)-end)
		}
	}
	return delay, slack
}

// cpus is a job's avg_ncpus as the server sets it: the version's, or for
// a multi-threaded version the CPU count the host reports.
func (h *hostState) cpus(v *policy.AppVersion) float64 {
	if v.MultiThread {
		return float64(h.ncpus)
	}
	return v.CPUUsage
}

// cpusUsed is how many of the host's CPUs a job of version v occupies.
func (h *hostState) cpusUsed(v *policy.AppVersion) float64 {
	return min(h.cpus(v), float64(h.h.NCPUs))
}

// cpusRun is how many CPUs a job of version v runs on on this host.
func (h *hostState) cpusRun(v *policy.AppVersion) float64 {
	return cpusRun(v, float64(h.ncpus), float64(h.h.NCPUs))
}

// cpusRun is how many CPUs a job of version v runs on, on a host that
// reported reported CPUs and has trueN: the version's usage, or for a
// multi-threaded version every CPU the server gave it that the host
// really has (a host that reports more gets no more speed from them).
// The client and, for the times it reports, the server's view use this
// one rule.
func cpusRun(v *policy.AppVersion, reported, trueN float64) float64 {
	if v.MultiThread {
		return min(reported, trueN)
	}
	return v.CPUUsage
}

// sameBits reports whether x and y are the same float64, bit for bit.
func sameBits(x, y float64) bool { return math.Float64bits(x) == math.Float64bits(y) }
