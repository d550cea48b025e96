package sim

import (
	"github.com/creditsim/creditsim/boinc"
	"github.com/creditsim/creditsim/internal/hugepage"
	"github.com/creditsim/creditsim/policy"
)

// Account is an entity's credit: total and recent average (RAC).
type Account struct {
	Total float64
	RAC   policy.RAC
}

// ledgers holds every policy's accounts, kept by sim from what the
// policies grant: per host, user and team, as BOINC's grant_credit does
// (three independent averages updated with the same now and start = sent
// time). The accounts of one entity for all policies are side by side
// (entity x policies + p), so granting a result's credit for every policy
// touches one run of memory per entity instead of one per policy.
type ledgers struct {
	npol                int
	hosts, users, teams []Account
	// day is each policy's credit granted since the last day boundary.
	day []float64
}

func newLedgers(npol, hosts, users, teams int) ledgers {
	l := ledgers{npol: npol, hosts: make([]Account, hosts*npol), users: make([]Account, users*npol),
		teams: make([]Account, teams*npol), day: make([]float64, npol)}
	hugepage.Advise(l.hosts)
	hugepage.Advise(l.users)
	return l
}

// Ledger is one policy's view of the accounts.
type Ledger struct {
	l *ledgers
	p int
}

// Host returns host i's account.
func (l Ledger) Host(i int) *Account { return &l.l.hosts[i*l.l.npol+l.p] }

// User returns user i's account.
func (l Ledger) User(i int) *Account { return &l.l.users[i*l.l.npol+l.p] }

// Team returns team i's account (team 0 is no team and is never credited).
func (l Ledger) Team(i int) *Account { return &l.l.teams[i*l.l.npol+l.p] }

// Day returns the credit granted since the last day boundary.
func (l Ledger) Day() float64 { return l.l.day[l.p] }

func (a *Account) add(now, start, c float64, d *policy.Decay) {
	a.Total += c
	a.RAC.UpdateAverageDecay(now, start, c, policy.CreditHalfLife, d)
}

// grant credits a result sent at start to host (hr: its user and team)
// with credit[p] from each policy p; a policy granting 0 leaves its
// accounts untouched.
func (l *ledgers) grant(host int32, hr *hostReport, start, now float64, credit []float64) {
	n := l.npol
	// An entity's accounts were mostly last updated together, so most
	// of a row's updates decay by one factor: one exp for them all.
	var d policy.Decay
	row := func(set []Account, i int) {
		accts := set[i*n : i*n+n]
		for p, c := range credit {
			if c != 0 {
				accts[p].add(now, start, c, &d)
			}
		}
	}
	row(l.hosts, int(host))
	row(l.users, int(hr.user))
	if hr.team > 0 {
		row(l.teams, int(hr.team))
	}
	for p, c := range credit {
		if c != 0 {
			l.day[p] += c
		}
	}
}

// decayIdle is update_stats: decay RACs above 0.1 not updated for a day.
func (l *ledgers) decayIdle(now float64) {
	for _, set := range [][]Account{l.hosts, l.users, l.teams} {
		for i := range set {
			set[i].RAC.DecayIdle(now, 0.1, policy.SecondsPerDay, policy.CreditHalfLife)
		}
	}
}

// grantClient adds policy p's credit from an account-manager call to the
// host's, user's and team's accounts. update_average's work start is the
// call time less a day, as the trickle-credit path does.
func (l *ledgers) grantClient(p int, c *policy.ClientReport, credit float64) {
	start := c.Time - boinc.SecondsPerDay
	v := Ledger{l, p}
	var d policy.Decay
	v.Host(c.HostID).add(c.Time, start, credit, &d)
	v.User(c.UserID).add(c.Time, start, credit, &d)
	if c.TeamID > 0 {
		v.Team(c.TeamID).add(c.Time, start, credit, &d)
	}
	l.day[p] += credit
}
