package sim_test

import (
	"math"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/creditsim/creditsim/scenarios"
	"github.com/creditsim/creditsim/sim"
)

// TestFootprint: the engine's footprint is the same for the same
// scenario and seed (what makes it a measure of a change), is the sum of
// its parts, grows with the world, and counts at least the first chunk
// of result records.
func TestFootprint(t *testing.T) {
	run := func(hosts string) ([]int64, int64) {
		x := newBaseline(t, []string{"replications=1", "hosts.initial=" + hosts, "duration=10d", "warmup=2d", "policies=[v1peak, sciunited]"})
		var daily []int64
		x.Run(func(float64) {
			fp := x.Footprint()
			daily = append(daily, fp)
			sum := int64(0)
			seen := map[string]bool{}
			for _, p := range x.FootprintParts() {
				if p.Bytes < 0 || seen[p.Store] || p.Store == "" {
					t.Fatalf("part %q of %d bytes (seen before: %v)", p.Store, p.Bytes, seen[p.Store])
				}
				seen[p.Store] = true
				sum += p.Bytes
			}
			if sum != fp {
				t.Fatalf("parts add up to %d bytes, footprint %d", sum, fp)
			}
		})
		return daily, x.Results()
	}
	a, n := run("60")
	b, _ := run("60")
	if len(a) == 0 || len(a) != len(b) {
		t.Fatalf("%d and %d daily samples", len(a), len(b))
	}
	for d := range a {
		if a[d] != b[d] {
			t.Fatalf("day %d: footprint %d, then %d for the same scenario and seed", d, a[d], b[d])
		}
	}
	if n == 0 || a[len(a)-1] < 1<<20 {
		t.Fatalf("%d results, footprint %d bytes: less than the first chunk of result records", n, a[len(a)-1])
	}
	big, _ := run("600")
	if big[len(big)-1] <= a[len(a)-1] {
		t.Errorf("600 hosts hold %d bytes, 60 hosts %d", big[len(big)-1], a[len(a)-1])
	}
}

// TestRelease: a released run keeps what is read once it is over
// (counts, hosts, accounts, policies' state) and gives up its records.
func TestRelease(t *testing.T) {
	x := newBaseline(t, []string{"replications=1", "hosts.initial=200", "duration=10d", "warmup=2d", "policies=[v1peak, sciunited]"})
	x.Run(nil)
	before := x.Footprint()
	results, events, refused, now := x.Results(), x.Events(), x.DeadlineRefusals(), x.Now()
	hosts, sample, pols := len(x.Hosts()), len(x.SampleHosts()), len(x.Policies())
	var credit []float64
	for p := range pols {
		l := x.Ledger(p)
		for h := range hosts {
			credit = append(credit, l.Host(h).Total)
		}
	}
	x.Release()
	if after := x.Footprint(); after > before/4 {
		t.Errorf("footprint %d bytes after Release, %d before", after, before)
	}
	if x.Results() != results || x.Events() != events || x.DeadlineRefusals() != refused || x.Now() != now {
		t.Errorf("counts changed by Release")
	}
	if len(x.Hosts()) != hosts || len(x.SampleHosts()) != sample || len(x.Policies()) != pols || x.World() == nil {
		t.Errorf("hosts, sample hosts, policies or world changed by Release")
	}
	k := 0
	for p := range pols {
		l := x.Ledger(p)
		for h := range hosts {
			if got := l.Host(h).Total; got != credit[k] {
				t.Fatalf("policy %d host %d: total credit %v after Release, %v before", p, h, got, credit[k])
			}
			k++
		}
	}
	sum := 0.0
	for _, c := range credit {
		sum += c
	}
	if sum == 0 {
		t.Errorf("no credit to compare")
	}
}

// TestSlotCensus: every slot of the result pool is counted once, the free
// ones as the free list holds them, and the results on hosts as the
// hosts' own lists hold them; with runtime accounting some final results
// wait for an account-manager call, without it none does. Each slot's
// out-on-host bit, which compacting the deadline lists reads, agrees
// with its state.
func TestSlotCensus(t *testing.T) {
	for _, tc := range []struct {
		policies string
		settle   bool
	}{{"[v1peak, sciunited]", true}, {"[v1peak]", false}} {
		x := newBaseline(t, []string{"replications=1", "hosts.initial=80", "duration=10d", "warmup=2d", "policies=" + tc.policies})
		var most sim.SlotCensus // each state's largest count over the days
		x.Run(func(float64) {
			c := x.SlotCensus()
			slots, free, _, _, _ := x.PoolSizes()
			if c.Total() != slots || c.Free != free {
				t.Fatalf("%s: census %+v counts %d slots, %d free; the pool has %d, %d free", tc.policies, c, c.Total(), c.Free, slots, free)
			}
			if n := x.OutBitsWrong(); n > 0 {
				t.Fatalf("%s: %d slots whose out-on-host bit disagrees with their state", tc.policies, n)
			}
			q, r, e := x.HostJobs()
			if c.Queued != q || c.Running != r || c.Ended != e {
				t.Fatalf("%s: census queued %d running %d ended %d; the hosts' lists %d, %d, %d", tc.policies, c.Queued, c.Running, c.Ended, q, r, e)
			}
			most = sim.SlotCensus{Queued: max(most.Queued, c.Queued), Running: max(most.Running, c.Running),
				Reported: max(most.Reported, c.Reported), Held: max(most.Held, c.Held), Settling: max(most.Settling, c.Settling)}
		})
		if most.Queued == 0 || most.Running == 0 || most.Reported == 0 || most.Held == 0 {
			t.Errorf("%s: a state never held a result: %+v", tc.policies, most)
		}
		if (most.Settling > 0) != tc.settle {
			t.Errorf("%s: at most %d results waiting for an account-manager call", tc.policies, most.Settling)
		}
	}
}

// TestReadmeSlotCensus: README's census of the 2,000-host baseline's
// result slots (Where the memory goes) is what a run gives: the days,
// the hosts present and every figure per host, to its one decimal.
func TestReadmeSlotCensus(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the 2,000-host baseline for 30 days: full suite only")
	}
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	row := func(prefix string) (day, hosts int, figs []float64) {
		for _, line := range strings.Split(string(readme), "\n") {
			m := regexp.MustCompile(`^\| day (\d+), ` + regexp.QuoteMeta(prefix) + ` \(([\d,]+) hosts\) \|(.*)\|$`).FindStringSubmatch(line)
			if m == nil {
				continue
			}
			day, _ = strconv.Atoi(m[1])
			hosts, _ = strconv.Atoi(strings.ReplaceAll(m[2], ",", ""))
			for _, f := range strings.Split(m[3], "|") {
				v, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
				if err != nil {
					t.Fatalf("README's census row %q: %v", line, err)
				}
				figs = append(figs, v)
			}
			return day, hosts, figs
		}
		t.Fatalf("README has no census row for the day %s", prefix)
		return
	}
	s, err := scenarios.Open("baseline", []string{"replications=1"})
	if err != nil {
		t.Fatal(err)
	}
	x := newBaseline(t, []string{"replications=1"})
	c := newSlotCensuses(s)
	x.Run(func(done float64) { c.sample(x, done, hostsPresent(x)) })
	for _, k := range []struct {
		prefix     string
		n          sim.SlotCensus
		day, hosts int
	}{{"the most in use", c.atPeak, c.peakDay, c.peakHosts}, {"as sending stops", c.atLastSend, c.lastSendDay, c.lastSendHosts}} {
		day, hosts, want := row(k.prefix)
		n := k.n
		// README's columns: in use, queued, running, ended, reported,
		// held, settling, orphaned, free.
		got := []int{n.Total() - n.Free, n.Queued, n.Running, n.Ended, n.Reported, n.Held, n.Settling, n.Orphaned, n.Free}
		if day != k.day || hosts != k.hosts || len(want) != len(got) {
			t.Fatalf("%s: README says day %d, %d hosts, %d figures; the run gives day %d, %d hosts, %d figures", k.prefix, day, hosts, len(want), k.day, k.hosts, len(got))
		}
		for i := range got {
			if v := float64(got[i]) / float64(hosts); math.Abs(v-want[i]) > 0.05 {
				t.Errorf("%s, column %d: README says %.1f per host, the run gives %.2f", k.prefix, i+1, want[i], v)
			}
		}
	}
}
