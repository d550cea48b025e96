package results

import (
	"fmt"
	"math"
	"slices"

	"github.com/creditsim/creditsim/model/hosts"
)

// Twin is what a replication's figures read of its honest twin: the
// same world, seed and streams with every behaviour switched off, so
// that each host keeps its hardware, availability, errors and account.
// It holds, per host and per account, the credit each policy granted to
// counted results, and per host its counted results and those found
// invalid. Which hosts form a group is read from the run, not the twin:
// one twin serves every labelling of its accounts (an attack's
// candidates).
type Twin struct {
	npol               int
	hostG, userG       []float64 // npol per host, per account
	hostN, hostInvalid []int32
	userN              []int32
}

// Twin returns what a run's figures read of this collector's replication
// as its honest twin.
func (c *Collector) Twin() *Twin {
	t := &Twin{npol: c.npol, hostG: append([]float64(nil), c.hostG...), userG: append([]float64(nil), c.userG...),
		hostN: make([]int32, len(c.hosts)), hostInvalid: make([]int32, len(c.hosts)), userN: make([]int32, len(c.users))}
	for i := range c.hosts {
		t.hostN[i], t.hostInvalid[i] = int32(c.hosts[i].n), int32(c.hosts[i].invalid)
	}
	for i := range c.users {
		t.userN[i] = int32(c.users[i].n)
	}
	return t
}

// TwinData is a Twin in a form that can be stored and read back exactly
// (JSON keeps every float64 as it was): an attack's shards share their
// seed's twins through a file instead of each simulating them.
type TwinData struct {
	Policies int `json:"policies"`
	// HostCredit and AccountCredit hold Policies values per host and per
	// account; HostResults, HostInvalid and AccountResults one each.
	HostCredit     []float64 `json:"host_credit"`
	AccountCredit  []float64 `json:"account_credit"`
	HostResults    []int32   `json:"host_results"`
	HostInvalid    []int32   `json:"host_invalid"`
	AccountResults []int32   `json:"account_results"`
}

// Data returns the twin as TwinData.
func (t *Twin) Data() TwinData {
	return TwinData{Policies: t.npol, HostCredit: t.hostG, AccountCredit: t.userG, HostResults: t.hostN,
		HostInvalid: t.hostInvalid, AccountResults: t.userN}
}

// TwinFrom returns the twin d holds, or an error if its parts do not fit
// one another (a file cut short or edited).
func TwinFrom(d TwinData) (*Twin, error) {
	switch {
	case d.Policies < 1:
		return nil, fmt.Errorf("twin: %d policies", d.Policies)
	case len(d.HostCredit) != d.Policies*len(d.HostResults) || len(d.HostInvalid) != len(d.HostResults):
		return nil, fmt.Errorf("twin: %d host credits and %d invalid counts for %d hosts of %d policies",
			len(d.HostCredit), len(d.HostInvalid), len(d.HostResults), d.Policies)
	case len(d.AccountCredit) != d.Policies*len(d.AccountResults):
		return nil, fmt.Errorf("twin: %d account credits for %d accounts of %d policies", len(d.AccountCredit), len(d.AccountResults), d.Policies)
	}
	for _, x := range append(d.HostCredit[:len(d.HostCredit):len(d.HostCredit)], d.AccountCredit...) {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return nil, fmt.Errorf("twin: credit %g is not a finite number", x)
		}
	}
	return &Twin{npol: d.Policies, hostG: d.HostCredit, userG: d.AccountCredit, hostN: d.HostResults,
		hostInvalid: d.HostInvalid, userN: d.AccountResults}, nil
}

// SetTwin gives the collector its replication's honest twin, which the
// gain and harm figures and the twin's invalid share read.
func (c *Collector) SetTwin(t *Twin) { c.twin = t }

// cheatGroup reports whether group g is a behaviour whose gain is judged:
// not honest, and not failed_benchmark alone (a fault, reported apart).
func cheatGroup(g hosts.Group) bool {
	return g != hosts.Group(hosts.Honest) && g != hosts.Group(hosts.FailedBenchmark)
}

// gainSums returns, per group, the credit policy p granted the group's
// hosts in the run and in the twin, over counted results. A host's later
// identities (new_identity) come after every other host in the run and
// are not in the twin: their credit counts in the run, the machine's in
// the twin under its first ID.
func (in *figureInputs) gainSums() (run, twin [hosts.NumGroups]float64) {
	c, t, n := in.c, in.c.twin, in.c.npol
	for i := range c.hosts {
		g := c.hostInfo[i].Group
		run[g] += c.hostG[i*n+in.p]
		if i < len(t.hostN) {
			twin[g] += t.hostG[i*n+in.p]
		}
	}
	return run, twin
}

// gains returns gain.<group> per group of agents present: its credit
// per host-day over the same hosts' credit per host-day in the twin (the
// hosts and so the host-days are the same). Where the twin paid the
// group nothing it is +Inf (unbounded) if the run paid it something, NaN
// if the run did not either. Nil without a twin.
func (in *figureInputs) gains() map[hosts.Group]float64 {
	if in.c.twin == nil {
		return nil
	}
	run, twin := in.gainSums()
	days := in.c.groupHostDays()
	out := map[hosts.Group]float64{}
	for g := hosts.Group(1); int(g) < hosts.NumGroups; g++ {
		if days[g] <= 0 {
			continue
		}
		switch {
		case twin[g] > 0:
			out[g] = run[g] / twin[g]
		case run[g] > 0:
			out[g] = math.Inf(1)
		default:
			out[g] = math.NaN()
		}
	}
	return out
}

// gainFamily adds gain.<group> (gains).
func gainFamily(in *figureInputs, f Figures) {
	for g, x := range in.gains() {
		f["gain."+g.String()] = x
	}
}

// worstGain is the largest gain over groups but failed_benchmark (+Inf
// if one is unbounded).
func worstGain(in *figureInputs) float64 {
	worst := math.NaN()
	for g, x := range in.gains() {
		if cheatGroup(g) && !math.IsNaN(x) && (math.IsNaN(worst) || x > worst) {
			worst = x
		}
	}
	return worst
}

// harm is the honest accounts' credit over theirs in the twin.
func harm(in *figureInputs) float64 {
	if in.c.twin == nil {
		return math.NaN()
	}
	run, twin := in.gainSums()
	if h := hosts.Group(hosts.Honest); twin[h] > 0 {
		return run[h] / twin[h]
	}
	return math.NaN()
}

// accountGains returns, over accounts with at least MinHostResults
// counted results in the twin and credit there, each agent account's gain
// (its credit over its own in the twin) and each honest account's; nil
// without a twin.
func accountGains(in *figureInputs) (agents, honest []float64) {
	c, t, n := in.c, in.c.twin, in.c.npol
	if t == nil {
		return nil, nil
	}
	// An account's group is its hosts' (every host of an account has its
	// behaviour).
	group := make([]hosts.Group, len(c.users))
	for i := range c.hostInfo {
		group[c.hostInfo[i].UserID] = c.hostInfo[i].Group
	}
	for u := range c.users {
		if t.userN[u] < MinHostResults {
			continue
		}
		tg := t.userG[u*n+in.p]
		if !(tg > 0) {
			continue
		}
		x := c.userG[u*n+in.p] / tg
		switch {
		case group[u] == hosts.Group(hosts.Honest):
			honest = append(honest, x)
		case cheatGroup(group[u]):
			agents = append(agents, x)
		}
	}
	return agents, honest
}

// accountGainNoise is honest accounts' gain at the rank where the largest
// of as many accounts as worstAccountGain compares falls: the quantile
// 1 − 1/(n+1) (linear between order statistics) of honest accounts'
// gains, n the agents' accounts compared. NaN without agents' accounts or
// with fewer than two honest ones.
func accountGainNoise(in *figureInputs) float64 {
	agents, honest := accountGains(in)
	if len(agents) == 0 || len(honest) < 2 {
		return math.NaN()
	}
	slices.Sort(honest)
	return largestOfRank(honest, len(agents))
}

// largestOfRank is where the largest of n draws from sorted's
// distribution falls on average: its quantile 1 − 1/(n+1), linear
// between order statistics. sorted holds at least two values, ascending;
// n is at least 1.
func largestOfRank(sorted []float64, n int) float64 {
	pos := (1 - 1/float64(n+1)) * float64(len(sorted)-1)
	i := int(pos)
	if i >= len(sorted)-1 {
		return sorted[len(sorted)-1]
	}
	return sorted[i] + (pos-float64(i))*(sorted[i+1]-sorted[i])
}

// worstAccountGain is the largest gain of one agent's account (a cheating
// group's) over accounts with at least MinHostResults counted results in
// the twin: the CreditNew design's per-account bound.
func worstAccountGain(in *figureInputs) float64 {
	agents, _ := accountGains(in)
	worst := math.NaN()
	for _, x := range agents {
		if math.IsNaN(worst) || x > worst {
			worst = x
		}
	}
	return worst
}

// Regime returns the figures of the run's regime, the same for every
// policy: per group, its share of the counted results (sent_share.<group>)
// and of those found valid (validated_share.<group>); the share of
// workunits validated whose valid results all came from agents
// (agents_only_quorum_share, from quorums: per day a workunit's first
// valid result was sent on, validations and agents-only ones); and the
// share of honest hosts' counted successes found invalid, in the run and
// in the twin (honest_invalid_share, honest_invalid_share_twin).
func (c *Collector) Regime(quorums [][2]int64) Figures {
	f := Figures{}
	var sent, valid int64
	for g := range c.groupSent {
		sent += c.groupSent[g]
		valid += c.groupValid[g]
	}
	for g := hosts.Group(0); int(g) < hosts.NumGroups; g++ {
		if c.groupSent[g] == 0 {
			continue
		}
		f["sent_share."+g.String()] = float64(c.groupSent[g]) / float64(sent)
		if valid > 0 {
			f["validated_share."+g.String()] = float64(c.groupValid[g]) / float64(valid)
		}
	}
	var all, agents int64
	for day, q := range quorums {
		if t := float64(day) * 86400; t >= c.win.From && t < c.win.To {
			all += q[0]
			agents += q[1]
		}
	}
	if all > 0 {
		f["agents_only_quorum_share"] = float64(agents) / float64(all)
	}
	share := func(hostsIn int, n, invalid func(i int) int) float64 {
		var tn, ti int
		for i := range c.hostInfo[:hostsIn] {
			if c.hostInfo[i].Group == hosts.Group(hosts.Honest) {
				tn += n(i)
				ti += invalid(i)
			}
		}
		if tn == 0 {
			return math.NaN()
		}
		return float64(ti) / float64(tn)
	}
	f["honest_invalid_share"] = share(len(c.hosts), func(i int) int { return c.hosts[i].n }, func(i int) int { return c.hosts[i].invalid })
	if t := c.twin; t != nil {
		f["honest_invalid_share_twin"] = share(min(len(t.hostN), len(c.hosts)),
			func(i int) int { return int(t.hostN[i]) }, func(i int) int { return int(t.hostInvalid[i]) })
	}
	return f
}
