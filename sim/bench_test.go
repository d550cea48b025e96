package sim_test

import (
	"flag"
	"fmt"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"

	_ "github.com/creditsim/creditsim/policy/all" // every credit system

	"github.com/creditsim/creditsim/internal/usage"
	"github.com/creditsim/creditsim/results"
	"github.com/creditsim/creditsim/scenarios"
	"github.com/creditsim/creditsim/sim"
	"github.com/creditsim/creditsim/world"
)

// BenchmarkBaselineV1Peak runs one replication of the baseline scenario
// (2,000 hosts, 30 days) with the first credit system and the results
// collector, on one goroutine. It reports results per second (and per
// CPU-second), heap allocations per result, the live heap per host at its
// largest, the engine's own stores per host at their largest (exact, see
// sim.Footprint) and peak RSS over that live heap.
func BenchmarkBaselineV1Peak(b *testing.B) { benchBaseline(b, "[v1peak]") }

// BenchmarkBaselineAllPolicies is the same run with the first system and
// every CreditNew preset granting credit side by side.
func BenchmarkBaselineAllPolicies(b *testing.B) {
	benchBaseline(b, "[v1peak, v3pfc-boinc, v3pfc-boinc-classic, v3pfc-design-v29, v3pfc-design-v2]")
}

// BenchmarkBaselineSeven runs the first round's seven standard
// instances side by side, the set performance targets name.
func BenchmarkBaselineSeven(b *testing.B) { benchBaseline(b, seven) }

// BenchmarkBaselineStandard runs every standard instance (the set a
// scenario runs when it names none), the second round's three credit
// options included.
func BenchmarkBaselineStandard(b *testing.B) { benchBaseline(b, "") }

// The worlds BenchmarkScale runs, and the policies: "seven" (the first
// round's instances, the set performance targets name), "standard" (every
// standard instance) or a policy list.
var (
	scaleHosts    = flag.String("scale.hosts", "1000,10000", "BenchmarkScale: comma-separated host counts")
	scaleDays     = flag.String("scale.days", "30", "BenchmarkScale: comma-separated simulated days")
	scalePolicies = flag.String("scale.policies", "seven", "BenchmarkScale: seven, standard or a YAML policy list")
)

const seven = "[v1peak, v2actual, sciunited, v3pfc-boinc, v3pfc-boinc-classic, v3pfc-design-v29, v3pfc-design-v2]"

// BenchmarkScale runs the baseline world at each host count and length
// given by -scale.hosts and -scale.days (one replication each), for the
// cost per result against the size of a project. The defaults are
// small; a project's size is a run by hand, e.g.
//
//	go test -run '^$' -bench Scale -benchtime 1x ./sim -args -scale.hosts 100000 -scale.days 90 -scale.policies standard
func BenchmarkScale(b *testing.B) {
	pols := *scalePolicies
	switch pols {
	case "seven":
		pols = seven
	case "standard":
		pols = ""
	}
	for _, h := range strings.Split(*scaleHosts, ",") {
		for _, d := range strings.Split(*scaleDays, ",") {
			nh, err1 := strconv.Atoi(strings.TrimSpace(h))
			nd, err2 := strconv.Atoi(strings.TrimSpace(d))
			if err1 != nil || err2 != nil || nh < 1 || nd < 8 {
				b.Fatalf("-scale.hosts %q, -scale.days %q: want whole numbers, hosts at least 1 and days at least 8 (a week's delay bound)", h, d)
			}
			b.Run(fmt.Sprintf("hosts=%d/days=%d", nh, nd), func(b *testing.B) {
				benchBaseline(b, pols, scaleWorld(nh, nd)...)
			})
		}
	}
}

// scaleWorld is the baseline world of hosts hosts for days simulated
// days (at least 8) that BenchmarkScale runs, as scenario settings: a
// week's warm-up, less in a run too short to leave a delay bound after it.
func scaleWorld(hosts, days int) []string {
	return []string{fmt.Sprintf("hosts.initial=%d", hosts), fmt.Sprintf("duration=%dd", days), fmt.Sprintf("warmup=%dd", min(7, days-8))}
}

func benchBaseline(b *testing.B, policies string, set ...string) {
	usage.SetRunGC() // as the command runs, so that RSS/live is the command's
	// Peak RSS from here on, not that of benchmarks run before in this
	// process (where the system allows a reset).
	debug.FreeOSMemory()
	usage.ResetPeakRSS()
	sets := append([]string{"replications=1"}, set...)
	if policies != "" {
		sets = append(sets, "policies="+policies)
	}
	s, err := scenarios.Open("baseline", sets)
	if err != nil {
		b.Fatal(err)
	}
	win := world.Window(s)
	var sent int64
	var ms0, ms1 runtime.MemStats
	runtime.ReadMemStats(&ms0)
	var peak usage.Peak
	// Per-host figures are per host present (arrived and not yet
	// departed) on the day they are sampled, their largest over the
	// days: a world's hosts come and go, and dividing by every host the
	// run will ever see would count hosts that have not arrived yet.
	var liveHost float64
	var sizes engineSizes
	var census slotCensuses
	cpu0 := usage.CPUSeconds()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		col := results.NewCollector(win, s.ReferenceScale, len(s.Policies))
		cfg, err := world.Config(s, 0, col)
		if err != nil {
			b.Fatal(err)
		}
		x := sim.New(cfg)
		col.Attach(x)
		census = newSlotCensuses(s)
		x.Run(func(done float64) {
			peak.Sample()
			n := hostsPresent(x)
			if n == 0 {
				return
			}
			liveHost = max(liveHost, float64(usage.LiveHeap())/float64(n))
			sizes.sample(x, n)
			census.sample(x, done, n)
		})
		sent += x.Results()
	}
	b.StopTimer()
	cpu := usage.CPUSeconds() - cpu0
	runtime.ReadMemStats(&ms1)
	b.ReportMetric(float64(sent)/b.Elapsed().Seconds(), "results/s")
	b.ReportMetric(float64(sent)/cpu, "results/CPU-s")
	b.ReportMetric(float64(ms1.Mallocs-ms0.Mallocs)/float64(sent), "allocs/result")
	// The live heap at its largest (sampled once a simulated day, as of
	// the last collection), per host present: what a world of many hosts
	// needs.
	b.ReportMetric(liveHost, "live-B/host")
	// The engine's own stores at their largest, per host present: exact,
	// the same in every run (the live heap above depends on when the
	// collector ran).
	b.ReportMetric(sizes.perHost, "engine-B/host")
	// The result pool's size (slots in use or free), per host present at
	// its largest: each slot holds a record, its generation and, with
	// runtime accounting, a row of what was paid.
	b.ReportMetric(sizes.slotsPerHost, "result-slots/host")
	for _, p := range sizes.parts {
		b.Logf("%-34s %7.0f B/host", p.Store, float64(p.Bytes)/float64(sizes.partsHosts))
	}
	b.Logf("result slots per host on the day most were in use (%d hosts): %s", census.peakHosts, census.perHost(census.atPeak, census.peakHosts))
	b.Logf("result slots per host as sending stops (%d hosts): %s", census.lastSendHosts, census.perHost(census.atLastSend, census.lastSendHosts))
	// Peak RSS since the reset above (on Linux; elsewhere the process's,
	// meaningful for one benchmark run alone).
	b.ReportMetric(float64(usage.PeakRSS())/float64(peak.Bytes()), "RSS/live")
}

// hostsPresent counts the hosts that have arrived and not yet left.
func hostsPresent(x *sim.Sim) int {
	n, now := 0, x.Now()
	for _, h := range x.Hosts() {
		if h.Arrival <= now && now < h.Departure {
			n++
		}
	}
	return n
}

// engineSizes keeps, from samples taken once a simulated day, the
// engine's stores (sim.Footprint) and the result pool's slots per host
// present at their largest, and the stores one by one on the day of the
// first. Per host present, not per host of the run: a world's hosts come
// and go, and hosts still to arrive hold nothing.
type engineSizes struct {
	perHost, slotsPerHost float64
	parts                 []sim.FootprintPart
	partsHosts            int // hosts present the day parts was taken
}

// sample is called once a simulated day with the hosts present (> 0).
func (e *engineSizes) sample(x *sim.Sim, hosts int) {
	per := func(v int64) float64 { return float64(v) / float64(hosts) }
	if fp := per(x.Footprint()); fp > e.perHost {
		e.perHost, e.parts, e.partsHosts = fp, x.FootprintParts(), hosts
	}
	slots, _, _, _, _ := x.PoolSizes()
	e.slotsPerHost = max(e.slotsPerHost, per(int64(slots)))
}

// slotCensuses takes the result slots' census (sim.SlotCensus) on the
// day most slots were in use (the pool's size comes from then) and on
// the first day no work is sent (one delay bound before the end), a
// steady state: what holds the results in flight. Counting slots by
// state reads them all, so it counts only when the slots in use pass
// their largest count (a few times, early) and once as sending stops.
type slotCensuses struct {
	days, lastSend           float64 // simulated days; the day sending stops
	inUse                    int
	censused                 bool
	atPeak, atLastSend       sim.SlotCensus
	peakHosts, lastSendHosts int // hosts present then
	peakDay, lastSendDay     int // the simulated day of each
}

func newSlotCensuses(s *scenarios.Scenario) slotCensuses {
	days := float64(s.Duration) / 86400
	bound, _ := s.LongestDelayBound()
	return slotCensuses{days: days, lastSend: days - bound/86400, peakHosts: 1, lastSendHosts: 1}
}

// sample is called once a simulated day with the fraction of the run
// done and the hosts present.
func (c *slotCensuses) sample(x *sim.Sim, done float64, hosts int) {
	if slots, free, _, _, _ := x.PoolSizes(); slots-free > c.inUse {
		c.inUse, c.atPeak, c.peakHosts, c.peakDay = slots-free, x.SlotCensus(), hosts, int(x.Now()/86400)
	}
	if done*c.days >= c.lastSend && !c.censused {
		c.atLastSend, c.lastSendHosts, c.lastSendDay, c.censused = x.SlotCensus(), hosts, int(x.Now()/86400), true
	}
}

// perHost writes census n per host, in use first, then state by state
// in docs/memory-and-speed.md's order: queued, running, ended, reported, held, settling,
// orphaned, free.
func (c *slotCensuses) perHost(n sim.SlotCensus, hosts int) string {
	per := func(k int) float64 { return float64(k) / float64(hosts) }
	return fmt.Sprintf("%.1f in use (queued %.1f, running %.1f, ended %.1f, reported %.1f, held %.1f, settling %.1f, orphaned %.1f, unsent %.1f), free %.1f",
		per(n.Total()-n.Free), per(n.Queued), per(n.Running), per(n.Ended), per(n.Reported), per(n.Held), per(n.Settling), per(n.Orphaned), per(n.Unsent), per(n.Free))
}
