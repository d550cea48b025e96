package sim_test

import (
	"flag"
	"fmt"
	"math"
	"os"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/creditsim/creditsim/internal/longtest"
	"github.com/creditsim/creditsim/scenarios"
	"github.com/creditsim/creditsim/sim"
)

// TestFootprint: the engine's footprint is the same for the same
// scenario and seed (what makes it a measure of a change), is the sum of
// its parts, grows with the world, and counts at least the first chunk
// of result records.
func TestFootprint(t *testing.T) {
	slowInShort(t)
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

// TestReadmeWorlds: docs/memory-and-speed.md's exact figures of the baseline worlds small
// enough for a test (1,000 and 2,000 hosts, 30 and 90 days) are what
// runs of them give: in the table of cost against a project's size,
// the results sent, the engine's stores and the result slots per host
// present (the speed and heap columns depend on the machine and are not
// checked); for the 2,000-host, 30-day world, the census of result slots
// and the stores one by one. The worlds are BenchmarkScale's, sampled
// the same way.
func TestReadmeWorlds(t *testing.T) {
	longtest.Skip(t, "the baseline world at 1,000 and 2,000 hosts for 30 and 90 days")
	readme, err := os.ReadFile("../docs/memory-and-speed.md")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(readme), "\n")
	// With -update, a figure that differs is rewritten in its docs/memory-and-speed.md
	// cell, to the decimals the cell shows, and docs/memory-and-speed.md is written back
	// once every world has run.
	var mu sync.Mutex
	edited := false
	t.Cleanup(func() {
		if edited {
			if err := os.WriteFile("../docs/memory-and-speed.md", []byte(strings.Join(lines, "\n")), 0o644); err != nil {
				t.Error(err)
			}
		}
	})
	// cell is one submatch of a docs/memory-and-speed.md line: where it is and its text.
	type cell struct {
		line, from, to int
		text           string
	}
	// row returns the cells of docs/memory-and-speed.md's table row that matches re (its
	// submatches), failing when none or several do.
	row := func(t *testing.T, re string) []cell {
		t.Helper()
		mu.Lock()
		defer mu.Unlock()
		var cells []cell
		rx := regexp.MustCompile(re)
		for i, line := range lines {
			if m := rx.FindStringSubmatchIndex(line); m != nil {
				if cells != nil {
					t.Fatalf("docs/memory-and-speed.md has two rows matching %s", re)
				}
				cells = []cell{}
				for k := 2; k < len(m); k += 2 {
					cells = append(cells, cell{i, m[k], m[k+1], line[m[k]:m[k+1]]})
				}
			}
		}
		if cells == nil {
			t.Fatalf("docs/memory-and-speed.md has no row matching %s", re)
		}
		return cells
	}
	number := func(t *testing.T, c cell) float64 {
		t.Helper()
		v, err := strconv.ParseFloat(strings.ReplaceAll(strings.TrimSpace(c.text), ",", ""), 64)
		if err != nil {
			t.Fatalf("docs/memory-and-speed.md's figure %q: %v", c.text, err)
		}
		return v
	}
	// near checks a figure docs/memory-and-speed.md gives to the decimals it shows; with
	// -update it rewrites the cell instead.
	near := func(t *testing.T, what string, c cell, got, half float64) {
		t.Helper()
		readme := number(t, c)
		if math.Abs(got-readme) <= half*1.0001 {
			return
		}
		if !*updateReadme {
			t.Errorf("%s: docs/memory-and-speed.md says %v, the run gives %.3f (go test ./sim -run TestReadmeWorlds -update rewrites it)", what, readme, got)
			return
		}
		text := strings.TrimSpace(c.text)
		decimals := 0
		if _, frac, ok := strings.Cut(text, "."); ok {
			decimals = len(frac)
		}
		out := strconv.FormatFloat(got, 'f', decimals, 64)
		if strings.Contains(text, ",") || got >= 1000 && decimals == 0 && !strings.Contains(what, "(") {
			out = thousands(int(math.Round(got)))
		}
		mu.Lock()
		defer mu.Unlock()
		l := lines[c.line]
		// Cells of one line are rewritten right to left, so the offsets
		// of those still to come hold; a cell moved by an earlier edit
		// is found again by its text.
		at := strings.Index(l[min(c.from, len(l)):], c.text)
		if at < 0 {
			at = strings.Index(l, c.text) - c.from
		}
		from := c.from + at
		lines[c.line] = l[:from] + strings.Replace(c.text, text, out, 1) + l[from+len(c.text):]
		edited = true
		t.Logf("%s: docs/memory-and-speed.md's %s rewritten to %s", what, text, out)
	}
	for _, w := range []struct{ hosts, days int }{{1000, 30}, {2000, 30}, {1000, 90}, {2000, 90}} {
		t.Run(fmt.Sprintf("hosts=%d/days=%d", w.hosts, w.days), func(t *testing.T) {
			t.Parallel()
			set := append([]string{"replications=1"}, scaleWorld(w.hosts, w.days)...)
			s, err := scenarios.Open("baseline", set)
			if err != nil {
				t.Fatal(err)
			}
			x := newBaseline(t, set)
			c := newSlotCensuses(s)
			var e engineSizes
			x.Run(func(done float64) {
				if n := hostsPresent(x); n > 0 {
					e.sample(x, n)
					c.sample(x, done, n)
				}
			})
			// hosts | days | results | results per CPU-second | cost |
			// engine's stores per host | live heap per host | slots per
			// host | peak RSS | RSS / live heap
			cost := row(t, fmt.Sprintf(`^\| %s \| %d \| ([\d.]+) M \|[^|]*\|[^|]*\| ([\d.]+) KB \|[^|]*\| ([\d.]+) \|[^|]*\|[^|]*\|$`,
				regexp.QuoteMeta(thousands(w.hosts)), w.days))
			near(t, "results sent (millions)", cost[0], float64(x.Results())/1e6, 0.05)
			near(t, "engine's stores per host present (KB)", cost[1], e.perHost/1e3, 0.05)
			near(t, "result slots per host present", cost[2], e.slotsPerHost, 0.05)
			if w.hosts != 2000 || w.days != 30 {
				return
			}
			for _, k := range []struct {
				name       string
				n          sim.SlotCensus
				day, hosts int
			}{{"the most in use", c.atPeak, c.peakDay, c.peakHosts}, {"as sending stops", c.atLastSend, c.lastSendDay, c.lastSendHosts}} {
				cells := row(t, `^\| day (\d+), `+regexp.QuoteMeta(k.name)+` \(([\d,]+) hosts\) \|`+strings.Repeat(`([^|]*)\|`, 9)+`$`)
				near(t, "census "+k.name+": day", cells[0], float64(k.day), 0)
				near(t, "census "+k.name+": hosts", cells[1], float64(k.hosts), 0)
				// in use, queued, running, ended, reported, held,
				// settling, orphaned, free
				n := k.n
				got := []int{n.Total() - n.Free, n.Queued, n.Running, n.Ended, n.Reported, n.Held, n.Settling, n.Orphaned, n.Free}
				figs := cells[2:]
				if len(figs) != len(got) {
					t.Fatalf("census %s: docs/memory-and-speed.md has %d figures, the run %d", k.name, len(figs), len(got))
				}
				for i := len(got) - 1; i >= 0; i-- {
					near(t, fmt.Sprintf("census %s, column %d", k.name, i+2), figs[i], float64(got[i])/float64(k.hosts), 0.05)
				}
			}
			// docs/memory-and-speed.md's stores of the 2,000-host world, bytes per host
			// present on the day they were largest.
			sum := 0.0
			for _, p := range e.parts {
				got := float64(p.Bytes) / float64(e.partsHosts)
				near(t, "stores: "+p.Store, row(t, `^\| `+regexp.QuoteMeta(p.Store)+` \| ([\d,]+) \|$`)[0], got, 0.5)
				sum += got
			}
			near(t, "stores: all", row(t, `^\| all the engine's stores \| ([\d,]+) \|$`)[0], sum, 0.5)
			near(t, "stores: hosts present", row(t, `^\| hosts present that day \| ([\d,]+) \|$`)[0], float64(e.partsHosts), 0)
		})
	}
}

var updateReadme = flag.Bool("update", false, "TestReadmeWorlds: rewrite docs/memory-and-speed.md's figures from the runs")

// thousands writes n with commas between groups of three digits, as
// docs/memory-and-speed.md writes counts.
func thousands(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
