package sim

import (
	"math"
	"math/rand/v2"

	"github.com/creditsim/creditsim/boinc"
	"github.com/creditsim/creditsim/boinc/rng"
	"github.com/creditsim/creditsim/internal/chunked"
	"github.com/creditsim/creditsim/internal/hugepage"
	"github.com/creditsim/creditsim/model/hosts"
	"github.com/creditsim/creditsim/model/jobs"
	"github.com/creditsim/creditsim/policy"
)

// Result states on the client/server path.
const (
	stUnsent uint8 = iota
	stQueued       // on the host, not started
	stRunning
	stDone     // finished on the host, not reported
	stReported // reported, waiting for validation or final
	stOver     // final: recorded
	stCancelled
)

type result struct {
	// The fields the client loop reads on every event come first, in the
	// record's first 64 bytes; the rest of the server view comes last.
	wu     int32
	host   int32  // the host it was sent to, -1 while unsent
	vid    int32  // the app version it was sent for
	output uint32 // 0 is the correct output
	// id is the low 32 bits of the view's ID (viewID): no result in
	// flight is 2^32 sends older than the latest.
	id    uint32
	st    uint8
	ov    uint8 // the view's Outcome (low 4 bits) and ValidateState (high 4)
	flags resultFlags
	// Truth, and three slots whose meaning changes as the result moves
	// on (a field is reused only once its first meaning is dead):
	//
	// runTotal is, until the server has the result, the seconds of
	// running the job needs on this host; from then on (fReceived) the
	// view's ReceivedTime.
	runTotal float64
	// remaining is, while the result is on its host, the seconds of
	// running left when it last (re)started; once the job has ended on
	// its host (fTimes), the view's CountedFlops.
	remaining float64
	// startedAt is, while the job is on its host, the wall time of its
	// last (re)start (NaN when paused); once the result is final, when
	// its fate became final (resolvedAt).
	startedAt float64
	ran       float64 // seconds run so far (true elapsed)
	// flopsDone is the FLOPs the job did once ended; before, from the
	// moment it is sent, the FLOPs it will have done when it ends on its
	// host (all of the job's, or up to its error), so that ending it
	// needs no load of the workunit.
	flopsDone float64
	estRun    float64    // the client's runtime estimate
	sentTime  float64    // the report deadline is this + the app's delay bound
	view      serverView // a record is 96 bytes (TestResultRecordSize)
}

// resultFlags are a result's flags.
type resultFlags uint16

const (
	// fFails: the job ends in an error (or an abort) before its end.
	fFails resultFlags = 1 << iota
	// fAborted: the error is a cherry picker's abort.
	fAborted
	// fOneTime: it carries a one_time_claim host's absurd value as its
	// FLOP count.
	fOneTime
	// fClaimed: the view's host benchmarks or GPU peak are the
	// one_time_claim host's absurd value, not the host's own.
	fClaimed
	// fOutput: the job ran to its end on a host that does the work: the
	// view's OutputFlops is the workunit's FLOPs.
	fOutput
	// fReceived: the server has the result (reported or timed out);
	// runTotal holds when.
	fReceived
	// fOrphan: its host has left; host still names it, for the view.
	fOrphan
	// fDanger: the client predicts it will miss its deadline.
	fDanger
	// fSettling: final, but runtime accounting has not yet paid for all
	// the time it ran; its record waits for the host's next call.
	fSettling
	// fEnded: flopsDone is final (the job ended on its host, or was cut
	// short by its host leaving or its deadline).
	fEnded
	// fTimes: the job has ended on its host, which has set the times it
	// reports: the view's ElapsedTime and CPUTime are no longer 0, and
	// remaining holds its CountedFlops.
	fTimes
	// fAltTimes: the host reported times other than those it ran (a
	// cheater's), kept in Sim.altTimes under the result's id; without
	// it, they are computed from ran (reportedTimes).
	fAltTimes
	// fHeld: valid, its credit in escrow until the server trusts its host
	// (Server.Trust.Escrow); final but not yet recorded.
	fHeld
	// fRevoked: valid, but its credit was never granted: revoked from
	// escrow, or still held when the run ended.
	fRevoked
	// fFake: a sleeper, awake when its host received the job, returns
	// colluders' garbage for it after WorkFraction of its runtime.
	fFake
	// fVerified: held, and the project's audit found its output right:
	// paid when its hold ends, whatever its host's trust, never revoked.
	fVerified
)

func (r *result) has(f resultFlags) bool { return r.flags&f != 0 }

// set sets flag f if on, else clears it.
func (r *result) set(f resultFlags, on bool) {
	if on {
		r.flags |= f
	} else {
		r.flags &^= f
	}
}

func (r *result) outcome() policy.Outcome { return policy.Outcome(r.ov & 0xf) }

func (r *result) setOutcome(o policy.Outcome) { r.ov = r.ov&0xf0 | uint8(o) }

func (r *result) validateState() policy.ValidateState { return policy.ValidateState(r.ov >> 4) }

func (r *result) setValidateState(v policy.ValidateState) { r.ov = r.ov&0xf | uint8(v)<<4 }

// receivedTime is the view's ReceivedTime: 0 until the server has it.
func (r *result) receivedTime() float64 {
	if r.has(fReceived) {
		return r.runTotal
	}
	return 0
}

// receive records that the server has the result from now on. The job's
// runtime is then no longer needed.
func (r *result) receive(now float64) {
	r.runTotal = now
	r.flags |= fReceived
}

// countedFlops is the view's CountedFlops: 0 until the job has ended on
// its host.
func (r *result) countedFlops() float64 {
	if r.has(fTimes) {
		return r.remaining
	}
	return 0
}

// resolvedAt is when a final result's fate became final.
func (r *result) resolvedAt() float64 { return r.startedAt }

// resultRef names a result slot in one of its lives.
type resultRef struct {
	ri  int32
	gen uint32
}

// workunit is a workunit's record on the server: 64 bytes, one cache
// line. What can be derived is not stored: rsc_fpops_bound is the app's
// bound factor times rsc_fpops_est, and min_quorum and target_nresults
// are the app's, or 1 and 1 while adaptive replication keeps it
// unreplicated (quorum, target).
type workunit struct {
	gen       uint32
	app       int32
	est       float64  // rsc_fpops_est
	flops     float64  // FLOPs the job really takes
	reps      replicas // its results, in the order they were created
	nError    int32    // client errors, which max_error_results limits (not aborts or time-outs)
	canonical int32
	credit    int32 // 1 + its row of credit per policy, once its canonical result is found; 0 before
	nreps     uint8 // results in reps.in, while they fit
	// users has bit u mod 8 set for each user u a result was sent to:
	// where a user's bit is clear, none of the results is theirs, and
	// the scheduler need not read them to know (userHasResult).
	users  uint8
	sent   bool // a result was sent (results stay in reps until it is freed)
	assim  bool // canonical found, credit granted
	failed bool // too many errors or results
	queued bool // waiting for the validator
	unrepl bool // sent once by adaptive replication
	// untrusted: a result was sent to a host the server did not trust
	// (server trust only).
	untrusted bool
}

type hav struct {
	consecValid int
	mjd         int
	nToday      int
	et          policy.AverageVar
	eff         float64 // true efficiency, drawn on first use
	anon        bool    // the host runs this anonymous-platform version
}

type hostState struct {
	rpcDay      int  // the day of the host's last scheduler RPC
	oneTimeDone bool // a one_time_claim host has made its claim
	// estFlops is the client's estimated credit per project, in FLOPs
	// (runtime x reported peak FLOPS of the devices), CPU and GPU apart,
	// for jobs that have stopped running; running jobs are added at each
	// account-manager call.
	estFlops [][2]float64
	// unpaid lists the results sent to the host whose runtime account-
	// manager calls may not have settled yet (only with runtime accounting).
	unpaid  []resultRef
	h       *hosts.Host
	arrived bool
	gone    bool
	on      bool
	trusted bool // the server trusts the host now (Server.Trust)
	availOn bool
	epoch   uint32
	periods *hosts.Periods
	// availEnd and availOn are the machine's current availability
	// period (when it ends, and on or off), kept on its first identity's
	// record so that a new identity (new_identity) continues the
	// machine's periods instead of starting them again.
	availEnd float64
	rng      *rand.Rand
	cpuFree  float64
	gpuFree  float64
	// queue lies in qbuf, from the first queued job on: starting the
	// first job moves the queue's start instead of copying the rest
	// down (takeQueued), and queueJob slides it back when it reaches
	// the buffer's end.
	queue []int32
	qbuf  []int32
	// next is queue[0] as of the last send or job start: only a hint
	// for prefetching (another change to the queue may leave it stale).
	next    int32
	running []int32
	done    []int32
	// done0 and done0WU are done[0] and its workunit when it was added,
	// hints like next: the contact that reports it reads both.
	done0, done0WU int32
	contact        bool // a contact event is scheduled
	amDue          bool // an account-manager call fell due while the host was off
	// rrNext is, per resource (CPU, GPU), when the client's round-robin
	// simulation must next run: before it, no job can be late.
	rrNext  [2]float64
	backoff float64
	nextTry float64
	pf, pi  float64   // reported benchmarks
	ncpus   int       // reported CPU count
	gpuPeak float64   // reported
	havs    []hav     // by version ID
	usage   []float64 // device seconds per project, for resource share
	// est is the estimated runtime of queued and running jobs (CPU,
	// GPU), whole: only the deadline check's next look reads it. queued
	// is the queued jobs' estimated instance-seconds, kept as jobs come
	// and go so that the work fetch needs no pass over the queue.
	est    [2]float64
	queued [2]float64
	// successor is the identity a host that registers anew by count
	// (new_identity with results) takes next (-1: none), and reportedN
	// the results this identity has reported.
	successor int32
	reportedN int32
	// Server trust (Server.Trust): confirmed results in a row, when the
	// server first trusted the host (0: never) and when it last took its
	// trust away for an abort; trusted is beside on.
	confirmed   int32
	firstTrust  float64
	untrustedAt float64
	// onTime is the time the host has been on before its current period,
	// which began at onSince if it is on (OnFraction).
	onTime, onSince float64
}

type appState struct {
	cfg    *jobs.App
	proj   int
	stream *jobs.Stream
	feeder []int32 // unsent result indices
	// deadlines holds the app's distinct deadline times in send order
	// (with one delay bound per app they are in order too), so one queued
	// event per app, for the earliest, replaces an event per result; the
	// results of each are in dlRefs, in the same order. Results freed
	// since they were sent are dropped from dlRefs now and then
	// (compactDeadlines), but their times stay, as each still fires its
	// timeout event.
	deadlines fifo[deadlineRun]
	dlRefs    fifo[resultRef]
	dlCompact int // compact dlRefs when it holds this many
	expiring  bool
	dlArmed   bool
	head      int
	// quorum and target are min_quorum and target_nresults as 32-bit
	// counts, for the workunits adaptive replication has not kept unreplicated.
	quorum, target int32
	// validated counts the app's workunits validated, so a run can name
	// an app that never validated one.
	validated int64
	versions  []int
	hasAnon   bool // some version is anonymous-platform
	// The scheduler's scan of the app's slots in the work array: the
	// request it belongs to, the slot it started at, how many slots it
	// has looked at, and the slot of the result it took last.
	rpc                    uint64
	scanAt, scanned, taken int
}

// Sim is one replication in progress.
type Sim struct {
	cfg      *Config
	now      float64
	q        queue
	pop      *hosts.Population
	hosts    []hostState
	apps     []appState
	world    policy.World
	versions []policy.AppVersion
	verCfg   []*jobs.Version
	delayOf  []float64 // the delay bound by version
	seq      []bool    // policy.AppVersion.Sequential by version
	// reported holds each host as the scheduler sees it, fixed from its
	// arrival: what a result's view shows of its host.
	reported []hostReport
	results  resultPool
	// The free slots, in chunks: the lists grow to millions of slots in
	// a large world just after its start-up peak, and growing one slice
	// by copying would add to the peak.
	freeRes  chunked.Slice[int32]
	wus      wuPool
	credit   creditPool // validated workunits' credit per policy
	freeWU   chunked.Slice[int32]
	valQueue []int32
	pols     []policy.Policy
	// prefetchers are the policies that ask to be told a validator step
	// ahead which results they will see.
	prefetchers []policy.Prefetcher
	// slotPf is the observer, if it asks to be told ahead which
	// workunit slots' results it will see.
	slotPf   SlotPrefetcher
	npol     int
	ledgers  ledgers
	grantBuf []float64
	// avPFC is each version's app_version.pfc as the server keeps it, for
	// runtime estimates; availFrac the fraction of time hosts compute, as
	// the scheduler sees it (on_frac, clamped to [0.1, 1]).
	avPFC     []policy.Average
	availFrac float64
	// deadlineRefusals counts jobs the deadline check kept out of replies.
	deadlineRefusals int64
	prioBuf          []float64
	// Runtime-accounting policies (Science United): their indexes in pols,
	// and per result slot the credit each has paid for its runtime so far,
	// then the runtime settled (paidRow).
	ras     []int
	paid    [][]float64 // in chunks of resultChunk rows
	views   []*policy.Result
	invalid []*policy.Result
	// viewBuf holds the views of a validation's results; scratchView the
	// view a single call is shown.
	viewBuf     []policy.Result
	scratchView policy.Result
	// altTimes holds the times reported for the results in flight of
	// hosts that report other times than they ran (fAltTimes), by id.
	altTimes map[uint32][2]float64
	one      [1]int32
	p50, p95 float64   // reported p_fpops percentiles
	perfBuf  []float64 // refreshPerfInfo's list, kept between calls
	nextPerf float64
	amReport policy.ClientReport // reused by account-manager calls
	// stopSending is the end less the longest delay bound.
	stopSending float64
	events      int64
	nResults    int64
	// spills holds the replica lists of workunit slots that once needed
	// more than fit in the record (replicas.spill); wuLists counts their
	// bytes (Footprint).
	spills  [][]int32
	wuLists int64
	sample  []int
	srvRng  *rand.Rand
	// checks and checksFailed count the project's own checks of agreeing
	// groups under server trust, and those that found the group wrong.
	checks, checksFailed int64
	// nTrusted is how many hosts the server trusts now.
	nTrusted int
	// held lists each untrusted host's results in escrow (Trust.Escrow).
	held map[int32][]int32
	// escrow counts honest hosts' valid results: all, revoked from
	// escrow, and still held at the end.
	escrow struct{ valid, revoked, heldAtEnd int64 }
	// work is the feeder's shared-memory work array; rpc counts the
	// scheduler's scans (one per request and resource); feedRng draws
	// where each scan starts.
	work    workArray
	rpc     uint64
	feedRng *rand.Rand
	// quorums counts validations by the day their first valid result
	// was sent: all, and those of agents' results only (Quorums).
	quorums [][2]int64
	day     int
	rec     Record            // reused for each finished result
	val     policy.Validation // reused for each validation
}

// New prepares a replication.
func New(cfg *Config) *Sim {
	s := &Sim{cfg: cfg, pols: cfg.Policies, npol: len(cfg.Policies), altTimes: map[uint32][2]float64{}}
	s.credit.npol = s.npol
	s.pop = hosts.NewPopulation(cfg.Hosts, cfg.Seed, cfg.Duration)
	s.srvRng = rng.New(rng.Hash(cfg.Seed, rng.String("server")))
	s.feedRng = rng.New(rng.Hash(cfg.Seed, rng.String("feeder")))
	for pi := range cfg.Projects {
		p := &cfg.Projects[pi]
		s.world.Projects = append(s.world.Projects, policy.Project{ID: pi, Name: p.Name})
		for ai := range p.Apps {
			a := &p.Apps[ai]
			id := len(s.apps)
			s.world.Apps = append(s.world.Apps, policy.App{ID: id, ProjectID: pi, Name: a.Name,
				MinQuorum: a.MinQuorum, TargetNResults: a.TargetNResults, DelayBound: float64(a.DelayBound)})
			st := appState{cfg: a, proj: pi, stream: jobs.NewStream(a, cfg.Seed, rng.Hash(rng.String(p.Name), rng.String(a.Name))),
				quorum: policy.Count32(a.MinQuorum), target: policy.Count32(a.TargetNResults)}
			for vi := range a.Versions {
				v := &a.Versions[vi]
				r, _ := boinc.ParseResource(v.Resource)
				vid := len(s.versions)
				s.versions = append(s.versions, policy.AppVersion{ID: vid, AppID: id, ProjectID: pi, Name: v.Name,
					Platform: v.Platform, PlanClass: v.PlanClass, Resource: r, CPUUsage: v.CPUUsage,
					GPUUsage: v.GPUUsage, Anonymous: v.Anonymous, CountsFlops: v.CountsFlops, MultiThread: v.MultiThread})
				s.verCfg = append(s.verCfg, v)
				s.delayOf = append(s.delayOf, float64(a.DelayBound))
				s.seq = append(s.seq, s.versions[vid].Sequential())
				st.versions = append(st.versions, vid)
				st.hasAnon = st.hasAnon || v.Anonymous
			}
			s.apps = append(s.apps, st)
		}
	}
	s.world.Versions = s.versions
	weights, projects := make([]float64, len(s.apps)), make([]int, len(s.apps))
	for i := range s.apps {
		weights[i], projects[i] = s.apps[i].cfg.Weight, s.apps[i].proj
	}
	s.work = newWorkArray(cfg.Server.ShmemWorkItems, weights, projects)
	s.avPFC = make([]policy.Average, len(s.versions))
	s.availFrac = min(1, max(0.1, cfg.Hosts.Availability.ExpectedOnFraction()))
	s.world.End = cfg.Duration
	s.stopSending = cfg.Duration
	for _, a := range s.apps {
		s.stopSending = min(s.stopSending, cfg.Duration-float64(a.cfg.DelayBound))
	}
	for {
		h := s.pop.Next()
		if h == nil {
			break
		}
		s.hosts = hugepage.Append(s.hosts, 1024, hostState{h: h})
		s.reported = hugepage.Append(s.reported, 1024, hostReport{user: int32(h.UserID), team: int32(h.TeamID)})
	}
	s.linkIdentities()
	s.world.MaxHosts = len(s.hosts)
	s.world.MaxUsers = s.pop.Users()
	s.world.MaxTeams = cfg.Hosts.Teams + 1
	for _, p := range s.pols {
		p.Init(&s.world)
	}
	s.ledgers = newLedgers(s.npol, len(s.hosts), s.world.MaxUsers, s.world.MaxTeams)
	s.grantBuf = make([]float64, s.npol)
	for p, pol := range s.pols {
		if _, ok := pol.(policy.RuntimeAccounting); ok {
			s.ras = append(s.ras, p)
		}
		if pf, ok := pol.(policy.Prefetcher); ok {
			s.prefetchers = append(s.prefetchers, pf)
		}
	}
	s.slotPf, _ = cfg.Observer.(SlotPrefetcher)
	s.sample = cfg.SampleHosts.Select(s.Hosts())
	return s
}

// World returns the static configuration the policies were given.
func (s *Sim) World() *policy.World { return &s.world }

// Hosts returns every host of the replication, in arrival order.
func (s *Sim) Hosts() []*hosts.Host {
	out := make([]*hosts.Host, len(s.hosts))
	for i := range s.hosts {
		out[i] = s.hosts[i].h
	}
	return out
}

// Ledger returns policy p's accounts.
func (s *Sim) Ledger(p int) Ledger { return Ledger{&s.ledgers, p} }

// Policies returns the policy instances.
func (s *Sim) Policies() []policy.Policy { return s.pols }

// SampleHosts returns the host indexes whose RAC the time series follow.
func (s *Sim) SampleHosts() []int { return s.sample }

// Events returns how many events have been processed.
func (s *Sim) Events() int64 { return s.events }

// Results returns how many results have been sent.
func (s *Sim) Results() int64 { return s.nResults }

// PoolSizes is for tests: results and workunit slots, and feeder lengths.
func (s *Sim) PoolSizes() (results, freeResults, wus, freeWUs, feeder int) {
	for _, a := range s.apps {
		feeder += len(a.feeder) - a.head
	}
	for _, ri := range s.work.slots {
		if ri >= 0 {
			feeder++
		}
	}
	return int(s.results.n), s.freeRes.Len(), int(s.wus.n), s.freeWU.Len(), feeder
}

// DeadlineRefusals returns how many jobs the scheduler's deadline check
// kept out of replies.
func (s *Sim) DeadlineRefusals() int64 { return s.deadlineRefusals }

// Now returns the simulated time.
func (s *Sim) Now() float64 { return s.now }

// Release drops what only a running simulation needs: result and
// workunit records, credit and runtime-accounting rows, deadline lists,
// feeders, the event queue and the hosts' job lists, most of a finished
// run's memory. What an observer reads once a run is over stays: World,
// Hosts, Ledger, Policies, SampleHosts, Events, Results,
// DeadlineRefusals and Now. Call it after Run has returned, once no
// result will be asked for; a released Sim cannot run again, and its
// Footprint counts only what is left.
func (s *Sim) Release() {
	s.q = queue{}
	s.results = resultPool{}
	s.wus = wuPool{}
	s.credit = creditPool{}
	s.paid = nil
	s.freeRes, s.freeWU = chunked.Slice[int32]{}, chunked.Slice[int32]{}
	s.valQueue, s.spills, s.wuLists = nil, nil, 0
	s.reported = nil
	s.altTimes = nil
	s.work = workArray{}
	s.perfBuf = nil
	for i := range s.apps {
		a := &s.apps[i]
		a.feeder, a.head = nil, 0
		a.deadlines, a.dlRefs = fifo[deadlineRun]{}, fifo[resultRef]{}
	}
	for i := range s.hosts {
		h := &s.hosts[i]
		h.queue, h.qbuf, h.running, h.done, h.unpaid = nil, nil, nil, nil, nil
	}
}

// Run simulates to the end of the run. progress, if not nil, is called
// with the fraction of simulated time done, at most once a simulated day.
func (s *Sim) Run(progress func(float64)) {
	for i := range s.hosts {
		s.q.push(event{t: s.hosts[i].h.Arrival, kind: evHostArrive, a: int32(i)})
	}
	s.refreshPerfInfo()
	s.nextPerf = s.cfg.Server.PerfInfoPeriod
	s.q.push(event{t: s.cfg.Server.ValidatorPeriod, kind: evValidator})
	s.q.push(event{t: s.cfg.Server.FeederPeriod, kind: evFeeder})
	s.q.push(event{t: boinc.SecondsPerDay, kind: evDay})
	s.q.push(event{t: s.cfg.Duration, kind: evEnd})
	for s.q.Len() > 0 {
		e := s.q.pop()
		s.prefetchEvents()
		s.now = e.t
		s.events++
		switch e.kind {
		case evHostArrive:
			s.arrive(int(e.a))
		case evHostDepart:
			s.depart(int(e.a))
		case evAvailability:
			s.toggle(int(e.a), e.gen)
		case evJobDone:
			s.jobDone(int(e.a), int(e.b), e.gen)
		case evContact:
			s.contactEvent(int(e.a))
		case evTimeout:
			s.expire(int(e.a))
		case evValidator:
			s.validatorPass()
			s.q.push(event{t: s.now + s.cfg.Server.ValidatorPeriod, kind: evValidator})
		case evFeeder:
			for _, p := range s.pols {
				p.Tick(policy.Tick{Kind: policy.FeederTick, Time: s.now})
			}
			if s.cfg.Tracer != nil {
				s.cfg.Tracer.Tick(policy.Tick{Kind: policy.FeederTick, Time: s.now})
			}
			s.q.push(event{t: s.now + s.cfg.Server.FeederPeriod, kind: evFeeder})
		case evAccountManager:
			s.accountManagerCall(int(e.a))
		case evDay:
			s.dayTick()
			if progress != nil {
				progress(s.now / s.cfg.Duration)
			}
			s.q.push(event{t: s.now + boinc.SecondsPerDay, kind: evDay})
		case evEnd:
			s.validatorPass()
			s.escrowAtEnd()
			s.settleAtEnd()
			if s.cfg.Observer != nil {
				s.cfg.Observer.Day(&DayState{Day: int(math.Round(s.now / boinc.SecondsPerDay)), Time: s.now, Final: true, Sim: s})
			}
			return
		}
	}
}

func (s *Sim) dayTick() {
	s.day++
	if s.cfg.Server.Trust.HoldTrusted > 0 {
		s.releaseHeld()
	}
	for _, p := range s.pols {
		p.Tick(policy.Tick{Kind: policy.DayTick, Time: s.now})
	}
	if s.cfg.Tracer != nil {
		s.cfg.Tracer.Tick(policy.Tick{Kind: policy.DayTick, Time: s.now})
	}
	s.ledgers.decayIdle(s.now)
	if s.now >= s.nextPerf {
		s.refreshPerfInfo()
		s.nextPerf = s.now + s.cfg.Server.PerfInfoPeriod
	}
	if s.cfg.Observer != nil {
		s.cfg.Observer.Day(&DayState{Day: s.day, Time: s.now, Sim: s})
	}
	// Each ledger's Day counts the credit of one day: the observer has read it.
	clear(s.ledgers.day)
}
