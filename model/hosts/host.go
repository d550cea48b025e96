package hosts

import (
	"math"
	"math/rand/v2"

	"github.com/creditsim/creditsim/boinc"
	"github.com/creditsim/creditsim/boinc/rng"
)

// Host is one volunteer computer. Benchmarks here are the truth; what the
// client reports goes through Behaviour.
type Host struct {
	ID       int
	UserID   int
	TeamID   int // 0: no team
	Platform string

	NCPUs     int
	Whetstone float64 // true peak FLOPS per CPU
	Dhrystone float64 // true integer ops per second per CPU

	GPUVendor boinc.Resource // CPU when the host has no GPU
	NGPUs     int
	GPUPeak   float64 // true peak FLOPS per GPU

	ErrorRate   float64
	InvalidRate float64

	Arrival   float64 // seconds from the start
	Departure float64 // may lie past the end of the run

	Behaviour Behaviour
	// Group is the group of the behaviour the host's account was drawn
	// into: Behaviour.Group(), except in an honest twin, where Behaviour
	// is honest and Group still says which agents' twin the host is.
	Group Group
	// Origin is the physical host's ID: the host's own, or for an
	// identity a new_identity host registered later, the first one's.
	// Its hardware, availability and efficiency are the origin's.
	Origin int
	// made counts the identities made ahead for this host (nextDormant).
	made int
}

// HasGPU reports whether the host has a GPU of type r.
func (h *Host) HasGPU(r boinc.Resource) bool { return h.NGPUs > 0 && h.GPUVendor == r }

// Stream names.
var (
	streamHost    = rng.String("host")
	streamUser    = rng.String("user")
	streamArrival = rng.String("arrivals")
	// streamIdentity: when an initial new_identity host first registers anew.
	streamIdentity = rng.String("identity")
)

// Population generates hosts in arrival order for one replication.
type Population struct {
	cfg      *Config
	seed     uint64
	horizon  float64
	arrivals *rand.Rand
	nextT    float64
	nextID   int
	// users: user u owns hosts [userStart[u], userStart[u+1]).
	userStart []int
	userKind  []Behaviour
	// agents: each configured agent's behaviour, shared by its accounts.
	agents   []Behaviour
	userTeam []int
	// renew holds the hosts that will register as new hosts
	// (new_identity); their later identities follow every other host,
	// so that no other host's ID or draws change.
	renew []renewal
	// dormant holds the hosts that register anew after a count of
	// results (new_identity with results): the sim wakes their
	// identities, made ahead after every other host, as it needs them.
	dormant     []*Host
	dormantMade int
}

// Dormant is the Arrival of an identity made ahead that has not
// registered yet (new_identity by count): the engine sets its arrival
// when the host before it has reported its count of results.
var Dormant = math.Inf(1)

// A host that registers anew every n results is given ahead, per day of
// the run, enough identities for IdentityResultsPerDay results a day
// (identitiesFor), at most MaxIdentities in all, and the run at most
// MaxDormant; a host that runs out keeps its last identity.
const (
	IdentityResultsPerDay = 40
	MaxIdentities         = 500
	MaxDormant            = 200000
)

// identitiesFor is how many identities are made ahead for a host that
// registers anew every n results, over days days.
func identitiesFor(n int, days float64) int {
	perDay := (IdentityResultsPerDay + n - 1) / n
	return min(MaxIdentities, int(math.Ceil(days))*perDay)
}

// renewal is a new_identity host: its first identity, its latest, when
// the next one registers, and when the machine leaves the project.
type renewal struct {
	first, last *Host
	next, end   float64
}

// NewPopulation prepares host generation for a replication seed; hosts
// arriving after horizon (seconds) are not generated.
func NewPopulation(cfg *Config, seed uint64, horizon float64) *Population {
	p := &Population{cfg: cfg, seed: seed, horizon: horizon,
		arrivals: rng.New(rng.Hash(seed, streamArrival))}
	for i := range cfg.Agents {
		p.agents = append(p.agents, cfg.Agents[i].Behaviour())
	}
	p.advanceArrival()
	return p
}

func (p *Population) advanceArrival() {
	if p.cfg.ArrivalsPerDay <= 0 {
		p.nextT = math.Inf(1)
		return
	}
	p.nextT += p.arrivals.ExpFloat64() * boinc.SecondsPerDay / p.cfg.ArrivalsPerDay
}

// Next returns the next host in arrival order, or nil when no more hosts
// arrive before the horizon.
func (p *Population) Next() *Host {
	var at float64
	if p.nextID < p.cfg.Initial {
		at = 0
	} else {
		if p.nextT > p.horizon {
			return p.nextIdentity()
		}
		at = p.nextT
		p.advanceArrival()
	}
	h := p.generate(p.nextID, at)
	p.nextID++
	if every := h.Behaviour.Reregisters(); every > 0 {
		next := at + every
		if at == 0 {
			// An initial host has been in the project before the run
			// starts: it registers anew at its own point of its period,
			// not with every other initial host at once (which would
			// also line their new identities up with the warm-up's end).
			next = every * (1 - rng.New(rng.Hash(p.seed, streamIdentity, uint64(h.ID))).Float64())
		}
		p.renew = append(p.renew, renewal{first: h, last: h, next: next, end: h.Departure})
	}
	if h.Behaviour.ReregistersAfter() > 0 {
		p.dormant = append(p.dormant, h)
	}
	return h
}

// nextDormant returns the next identity made ahead for a host that
// registers anew by count: its origin's machine, account and behaviour,
// no history, a new ID, and Arrival Dormant; nil when none is left.
func (p *Population) nextDormant() *Host {
	for len(p.dormant) > 0 && p.dormantMade < MaxDormant {
		first := p.dormant[0]
		if first.made >= identitiesFor(first.Behaviour.ReregistersAfter(), p.horizon/boinc.SecondsPerDay) {
			p.dormant = p.dormant[1:]
			continue
		}
		first.made++
		p.dormantMade++
		h := *first
		h.ID, h.Arrival, h.made = p.nextID, Dormant, 0
		p.nextID++
		return &h
	}
	return nil
}

// nextIdentity returns the next identity a new_identity host registers
// as, or nil: every Every seconds from its arrival while it stays, a
// host with a new ID (after all others), the same machine, account and
// behaviour, and no history. The identity before it departs then.
func (p *Population) nextIdentity() *Host {
	for len(p.renew) > 0 {
		r := &p.renew[0]
		at := r.next
		if at >= r.end || at > p.horizon {
			p.renew = p.renew[1:]
			continue
		}
		h := *r.first
		h.ID, h.Arrival, h.Departure = p.nextID, at, r.end
		p.nextID++
		r.last.Departure = at
		r.last = &h
		r.next = at + r.first.Behaviour.Reregisters()
		return &h
	}
	return p.nextDormant()
}

// user returns the user owning host id, drawing users as needed.
func (p *Population) user(id int) int {
	for len(p.userStart) == 0 || p.userStart[len(p.userStart)-1] <= id {
		u := len(p.userStart)
		start := 0
		if u > 0 {
			start = p.userStart[u-1]
		}
		r := rng.New(rng.Hash(p.seed, streamUser, uint64(u)))
		n := int(max(1, math.Round(p.cfg.HostsPerUser.Sample(r))))
		team := 0
		if p.cfg.Teams > 0 && r.Float64() < p.cfg.TeamShare {
			team = 1 + r.IntN(p.cfg.Teams)
		}
		p.userKind = append(p.userKind, p.drawBehaviour(r))
		p.userTeam = append(p.userTeam, team)
		p.userStart = append(p.userStart, start+n)
	}
	for u, end := range p.userStart {
		if id < end {
			return u
		}
	}
	panic("unreachable")
}

func (p *Population) drawBehaviour(r *rand.Rand) Behaviour {
	u := r.Float64()
	for i, a := range p.cfg.Agents {
		if u < a.Share {
			return p.agents[i]
		}
		u -= a.Share
	}
	return Behaviour{}
}

// Users returns how many users have been drawn so far.
func (p *Population) Users() int { return len(p.userStart) }

func (p *Population) generate(id int, at float64) *Host {
	c := p.cfg
	r := rng.New(rng.Hash(p.seed, streamHost, uint64(id)))
	u := p.user(id)
	h := &Host{ID: id, UserID: u, TeamID: p.userTeam[u], Arrival: at, Behaviour: p.userKind[u], Group: p.userKind[u].Group(), Origin: id}
	if c.Twin {
		h.Behaviour = Behaviour{}
	}
	h.Platform = pickPlatform(c.Platforms, r.Float64())
	h.NCPUs = int(max(1, math.Round(c.CPU.Cores.Sample(r))))
	h.Whetstone = c.CPU.WhetstoneGFLOPS.Sample(r) * 1e9
	h.Dhrystone = h.Whetstone * c.CPU.DhrystoneRatio.Sample(r)
	h.Departure = at + c.Lifetime.Sample(r)
	h.ErrorRate = c.ErrorRate.Sample(r)
	h.InvalidRate = c.InvalidRate.Sample(r)
	// GPU draws come last and are always made, so changing the GPU share
	// does not shift the other attributes.
	gu, gv := r.Float64(), r.Float64()
	gcount, gratio := c.GPU.Count.Sample(r), c.GPU.PeakRatio.Sample(r)
	if gu < c.GPU.Share {
		h.GPUVendor = pickVendor(c.GPU.Vendors, gv)
		h.NGPUs = int(max(1, math.Round(gcount)))
		h.GPUPeak = gratio * h.Whetstone * float64(h.NCPUs)
	}
	return h
}

// pick returns the index chosen by u in [0, 1) among n weights.
func pick(n int, weight func(int) float64, u float64) int {
	total := 0.0
	for i := 0; i < n; i++ {
		total += weight(i)
	}
	u *= total
	for i := 0; i < n; i++ {
		if u < weight(i) {
			return i
		}
		u -= weight(i)
	}
	return n - 1
}

func pickPlatform(ps []PlatformShare, u float64) string {
	return ps[pick(len(ps), func(i int) float64 { return ps[i].Share }, u)].Name
}

func pickVendor(vs []VendorShare, u float64) boinc.Resource {
	r, _ := boinc.ParseResource(vs[pick(len(vs), func(i int) float64 { return vs[i].Share }, u)].Vendor)
	return r
}

// Periods draws a host's availability: alternating on and off periods
// starting on. It returns a generator of period lengths in seconds.
type Periods struct {
	a  *Availability
	r  *rand.Rand
	on bool
}

// NewPeriods returns host id's availability process.
func NewPeriods(a *Availability, seed uint64, id int) *Periods {
	return &Periods{a: a, r: rng.New(rng.Hash(seed, rng.String("availability"), uint64(id)))}
}

// ExpectedOnFraction is the long-run fraction of time a host is on.
func (a *Availability) ExpectedOnFraction() float64 {
	switch a.Model {
	case "always":
		return 1
	case "on_fraction":
		return a.OnFraction
	}
	on, off := a.OnPeriod.MeanValue(), a.OffPeriod.MeanValue()
	return on / (on + off)
}

// Next returns the length of the next period and whether the host is on in it.
func (p *Periods) Next() (float64, bool) {
	p.on = !p.on
	switch p.a.Model {
	case "always":
		return math.Inf(1), true
	case "on_fraction":
		mean := p.a.OnFraction * float64(p.a.Period)
		if !p.on {
			mean = (1 - p.a.OnFraction) * float64(p.a.Period)
		}
		if mean == 0 {
			return 0, p.on
		}
		return mean * p.r.ExpFloat64(), p.on
	default:
		d := p.a.OnPeriod
		if !p.on {
			d = p.a.OffPeriod
		}
		return d.Sample(p.r), p.on
	}
}
