package sim

import (
	"github.com/creditsim/creditsim/boinc"
	"github.com/creditsim/creditsim/policy"
)

// Account is an entity's credit: total and recent average (RAC).
type Account struct {
	Total float64
	RAC   policy.RAC
}

// Ledger is one policy's accounts, kept by sim from what the policy
// grants: per host, user and team as BOINC's grant_credit does (three
// independent averages updated with the same now and start = sent time),
// and per app version and project.
type Ledger struct {
	Hosts    []Account
	Users    []Account
	Teams    []Account
	Versions []Account
	Projects []Account
	// Day is the credit granted since the last day boundary.
	Day float64
}

func (l *Ledger) init(hosts, users, teams, versions, projects int) {
	l.Hosts = make([]Account, hosts)
	l.Users = make([]Account, users)
	l.Teams = make([]Account, teams)
	l.Versions = make([]Account, versions)
	l.Projects = make([]Account, projects)
}

func (a *Account) add(now, start, c float64) {
	a.Total += c
	a.RAC.UpdateAverage(now, start, c, policy.CreditHalfLife)
}

func (l *Ledger) grant(r *policy.Result, now, c float64) {
	if c == 0 {
		return
	}
	l.Hosts[r.HostID].add(now, r.SentTime, c)
	l.Users[r.UserID].add(now, r.SentTime, c)
	if r.TeamID > 0 {
		l.Teams[r.TeamID].add(now, r.SentTime, c)
	}
	l.Versions[r.VersionID].add(now, r.SentTime, c)
	l.Projects[r.ProjectID].add(now, r.SentTime, c)
	l.Day += c
}

// decayIdle is update_stats: decay RACs above 0.1 (0 for versions and
// projects) not updated for a day.
func (l *Ledger) decayIdle(now float64) {
	for _, set := range [][]Account{l.Hosts, l.Users, l.Teams} {
		for i := range set {
			set[i].RAC.DecayIdle(now, 0.1, policy.SecondsPerDay, policy.CreditHalfLife)
		}
	}
	for _, set := range [][]Account{l.Versions, l.Projects} {
		for i := range set {
			set[i].RAC.DecayIdle(now, 0, policy.SecondsPerDay, policy.CreditHalfLife)
		}
	}
}

// grantClient adds credit from an account-manager call to the host's,
// user's, team's and project's accounts. update_average's work start is
// the call time less a day, as the trickle-credit path does.
func (l *Ledger) grantClient(c *policy.ClientReport, credit float64) {
	start := c.Time - boinc.SecondsPerDay
	l.Hosts[c.HostID].add(c.Time, start, credit)
	l.Users[c.UserID].add(c.Time, start, credit)
	if c.TeamID > 0 {
		l.Teams[c.TeamID].add(c.Time, start, credit)
	}
	l.Projects[c.ProjectID].add(c.Time, start, credit)
	l.Day += credit
}
