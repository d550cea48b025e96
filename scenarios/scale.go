package scenarios

import (
	"fmt"
	"math"

	"github.com/creditsim/creditsim/boinc"
)

// DefaultMaxResults is the largest world run without raising the limit:
// estimated results over all replications. It is well above a 100,000
// host project simulated for a year (about 1.4e9 results at the
// baseline's 38 results per host-day), and the same on every machine.
const DefaultMaxResults = 1e10

// EstimateResults estimates the results a run sends: host-days (hosts
// present from the start plus arrivals, for the whole run) x the jobs a
// host does in a day (its cores at the CPU versions' mean efficiency,
// plus its GPUs at the GPU versions', on the apps' mean job size) x
// replications x the largest target_nresults, with fake-result agents
// counted at the speed they return jobs (1 / work_fraction). It ignores
// downtime, departures and the quotas that hold back hosts with errors,
// so it errs high; it is meant to catch worlds that cannot finish, not to
// predict.
func (s *Scenario) EstimateResults() float64 {
	days := float64(s.Duration) / boinc.SecondsPerDay
	hostDays := (float64(s.Hosts.Initial) + s.Hosts.ArrivalsPerDay*days) * days
	cores := s.Hosts.CPU.Cores.MeanValue()
	whet := s.Hosts.CPU.WhetstoneGFLOPS.MeanValue() * 1e9
	var effCPU, effGPU, nCPU, nGPU float64
	var jobFlops, weights float64
	maxTarget := 1
	for _, p := range s.Projects {
		for _, a := range p.Apps {
			mean, shares := 0.0, 0.0
			for _, c := range a.SizeClasses {
				mean += c.Share * c.Factor
				shares += c.Share
			}
			size := a.RscFpopsEst
			if shares > 0 {
				size *= mean / shares
			}
			jobFlops += a.Weight * size
			weights += a.Weight
			maxTarget = max(maxTarget, a.TargetNResults)
			for _, v := range a.Versions {
				if v.Resource == "" || v.Resource == "cpu" {
					effCPU, nCPU = effCPU+v.Efficiency.MeanValue(), nCPU+1
				} else {
					effGPU, nGPU = effGPU+v.Efficiency.MeanValue(), nGPU+1
				}
			}
		}
	}
	if !(weights > 0) || !(jobFlops > 0) {
		return math.Inf(1)
	}
	flops := 0.0
	if nCPU > 0 {
		flops += cores * whet * effCPU / nCPU
	}
	if nGPU > 0 && s.Hosts.GPU.Share > 0 {
		flops += s.Hosts.GPU.Share * s.Hosts.GPU.Count.MeanValue() * s.Hosts.GPU.PeakRatio.MeanValue() * cores * whet * effGPU / nGPU
	}
	perHostDay := flops * boinc.SecondsPerDay / (jobFlops / weights)
	speed := 1.0 // hosts' mean speed in jobs, relative to honest hosts'
	for _, a := range s.Hosts.Agents {
		if fakes(a.Kind) && a.WorkFraction > 0 {
			speed += a.Share * (1/a.WorkFraction - 1)
		}
	}
	return hostDays * speed * perHostDay * float64(s.Replications) * float64(maxTarget)
}

// EventsPerResult is how many events besides its results' own a run may
// have per result of the limit: hosts switching on and off and calling
// their account manager cost an event each, and a world of short
// availability periods can have far more of them than results.
const EventsPerResult = 10

// EstimateHostEvents estimates the events hosts make by themselves over a
// run: availability switches and account-manager calls, over every
// host-day and replication.
func (s *Scenario) EstimateHostEvents() float64 {
	days := float64(s.Duration) / boinc.SecondsPerDay
	hostDays := (float64(s.Hosts.Initial) + s.Hosts.ArrivalsPerDay*days) * days
	perDay := boinc.SecondsPerDay / float64(s.Hosts.AccountManagerInterval)
	switch a := s.Hosts.Availability; a.Model {
	case "on_fraction":
		perDay += 2 * boinc.SecondsPerDay / float64(a.Period)
	case "weibull":
		perDay += 2 * boinc.SecondsPerDay / (a.OnPeriod.MeanValue() + a.OffPeriod.MeanValue())
	}
	return hostDays * perDay * float64(s.Replications)
}

// CheckScale refuses a world whose estimated results exceed limit, or
// whose hosts' own events exceed EventsPerResult x limit, saying the
// estimate and how to raise the limit.
func (s *Scenario) CheckScale(limit float64) error {
	if n := s.EstimateResults(); !(n <= limit) {
		about := fmt.Sprintf("about %.3g", n)
		if math.IsInf(n, 0) || math.IsNaN(n) {
			about = "an unbounded number of"
		}
		return fmt.Errorf("%s: the run would send %s results (estimated from its hosts, days, speeds and job sizes), above the limit of %.3g; if that is intended, raise it with --max-results", s.Name, about, limit)
	}
	if n := s.EstimateHostEvents(); !(n <= EventsPerResult*limit) {
		return fmt.Errorf("%s: the hosts would switch on and off and call their account manager about %.3g times (from hosts, days, hosts.availability and hosts.account_manager_interval), above the limit of %.3g (%d x the results limit); if that is intended, raise it with --max-results",
			s.Name, n, EventsPerResult*limit, EventsPerResult)
	}
	return nil
}

// fakes reports whether an agent kind returns garbage after a share of
// each job's runtime (a sleeper only while trusted: at worst always).
func fakes(kind string) bool {
	return kind == "fake_results" || kind == "colluding_fakes" || kind == "sleeper"
}
