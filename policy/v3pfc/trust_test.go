package v3pfc

import (
	"maps"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/creditsim/creditsim/policy"
)

// TestQuantile: linear interpolation between order statistics, the median
// at 0.5 for odd and even counts, the extremes at 0 and 1.
func TestQuantile(t *testing.T) {
	for _, c := range []struct {
		v    []float64
		q    float64
		want float64
	}{
		{nil, 0.5, 0},
		{[]float64{7}, 0.25, 7},
		{[]float64{3, 1, 2}, 0.5, 2},
		{[]float64{4, 1, 3, 2}, 0.5, 2.5},
		{[]float64{4, 1, 3, 2}, 0, 1},
		{[]float64{4, 1, 3, 2}, 1, 4},
		{[]float64{5, 1, 3, 2, 4}, 0.25, 2},
		{[]float64{4, 1, 3, 2}, 0.25, 1.75}, // h = 0.75 between 1 and 2
	} {
		v := append([]float64(nil), c.v...)
		if got := quantile(v, c.q); got != c.want {
			t.Errorf("quantile(%v, %g) = %g, want %g", c.v, c.q, got, c.want)
		}
	}
}

// TestQuantileMatchesSort: selecting the order statistics gives exactly
// what sorting gave, for sizes across the partitioning's cut-off, with
// many ties, in order, in reverse and all equal.
func TestQuantileMatchesSort(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	byOrder := func(v []float64, q float64) float64 {
		s := slices.Clone(v)
		slices.Sort(s)
		h := float64(len(s)-1) * q
		lo := int(h)
		if lo >= len(s)-1 {
			return s[len(s)-1]
		}
		return s[lo] + (h-float64(lo))*(s[lo+1]-s[lo])
	}
	for trial := 0; trial < 3000; trial++ {
		n := 1 + r.IntN(2000)
		v := make([]float64, n)
		for i := range v {
			switch trial % 5 {
			case 0:
				v[i] = r.ExpFloat64()
			case 1:
				v[i] = float64(r.IntN(7)) // many ties
			case 2:
				v[i] = float64(i)
			case 3:
				v[i] = float64(n - i)
			default:
				v[i] = 3
			}
		}
		for _, q := range []float64{0, 0.1, 0.5, 0.95, 1, r.Float64()} {
			want := byOrder(v, q)
			if got := quantile(slices.Clone(v), q); got != want {
				t.Fatalf("trial %d (n %d), q %g: %v, sorting gives %v", trial, n, q, got, want)
			}
		}
	}
}

// TestQuantileOfWindow: the quantile read through a window around the
// last tick's value is bit for bit quantile over all positive values,
// tick after tick, while the values drift slowly (the window holds the
// order statistics), jump (it misses them and reads all), tie on the
// window's edges, and thin out to none; both paths are taken (but for
// q = 1: the greatest value has none above it to find in a window).
func TestQuantileOfWindow(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	for _, q := range []float64{0.5, 0.25, 0.9, 1, 0} {
		p := &Policy{c: &Config{HostQuantile: q}}
		xs := make([]float64, 3000)
		for i := range xs {
			xs[i] = 1 + r.Float64()
		}
		last, width := 0.0, 0.0
		windowed, full := 0, 0
		for tick := 0; tick < 400; tick++ {
			switch {
			case tick%50 == 49: // a jump
				f := 0.2 + 5*r.Float64()
				for i := range xs {
					xs[i] *= f
				}
			case tick%70 == 69: // ties on the last value and its window's edges
				for i := 0; i < 200; i++ {
					xs[r.IntN(len(xs))] = [3]float64{last, last * (1 - width), last * (1 + width)}[i%3]
				}
			default: // drift: a few hosts' averages move a little
				for i := 0; i < 100; i++ {
					k := r.IntN(len(xs))
					xs[k] *= 1 + 0.02*(r.Float64()-0.5)
				}
			}
			if tick%90 == 30 { // hosts without enough samples add zeros
				for i := 0; i < 500; i++ {
					xs[r.IntN(len(xs))] = 0
				}
			}
			if tick == 300 {
				clear(xs[:len(xs)-1]) // one host left
			}
			if tick == 350 {
				clear(xs) // none
			}
			var pos []float64
			for _, x := range xs {
				if x != 0 {
					pos = append(pos, x)
				}
			}
			want := quantile(pos, q)
			got := p.quantileOf(xs, last, &width)
			if math.Float64bits(got) != math.Float64bits(want) {
				t.Fatalf("q %g, tick %d: %v through the window, %v over all", q, tick, got, want)
			}
			if len(p.medBuf) < len(pos) { // it read only the window's values
				windowed++
			} else {
				full++
			}
			last = got
		}
		t.Logf("q %g: %d ticks through the window, %d over all", q, windowed, full)
		if (windowed == 0 && q != 1) || full == 0 {
			t.Errorf("q %g: %d ticks through the window, %d over all; want both", q, windowed, full)
		}
	}
}

// TestHostQuantileOption: host_quantile above 1 is an option error.
func TestHostQuantileOption(t *testing.T) {
	if _, err := policy.New(policy.Spec{Name: "q", Base: "v3pfc", Options: policy.Options{"host_quantile": "1.5"}}); err == nil {
		t.Error("host_quantile 1.5 accepted")
	}
}

// TestTrustCap: an untrusted host's scale is cut to untrusted_cap; a
// trusted one keeps it; a scale below the cap is never raised.
func TestTrustCap(t *testing.T) {
	cfg := &Config{HostNorm: true, HostSamples: 10, VersionSamples: 100, HostCap: 10, Averaging: "boinc", HostTrust: 20, UntrustedCap: 1}
	v := &Version{PFC: policy.Average{N: 100, Avg: 2}}
	for _, c := range []struct {
		hostAvg float64
		trusted bool
		want    float64
	}{{1, false, 1}, {1, true, 2}, {4, false, 0.5}, {4, true, 0.5}, {0.1, true, 10}} {
		hv := &HostVersion{PFC: policy.Average{N: 10, Avg: c.hostAvg}}
		if got := cfg.hostScale(&Job{Trusted: c.trusted}, hv, v, 0); !near(got, c.want, 1e-12) {
			t.Errorf("host avg %g trusted %v: scale %g, want %g", c.hostAvg, c.trusted, got, c.want)
		}
	}
	// Without the gate (host_trust 0) an untrusted job is scaled in full.
	cfg.HostTrust = 0
	hv := &HostVersion{PFC: policy.Average{N: 10, Avg: 1}}
	if got := cfg.hostScale(&Job{}, hv, v, 0); got != 2 {
		t.Errorf("no gate: scale %g, want 2", got)
	}
}

// TestTrustRun: trust comes from a run of valid results confirmed by
// another host's replica (or, late, by the canonical result), and an
// invalid result, an error or a timeout starts the run again. Lone
// results and replicas of the host's own do not count.
func TestTrustRun(t *testing.T) {
	p := newPolicy(t, "v3pfc", policy.Options{"host_trust": "3"})
	pair := func(h int) {
		validate(p, 1e5, result(h, 0, 2500, 4e9, 0), result(9, 0, 2500, 4e9, 0))
	}
	trusted := func(want bool, when string) {
		t.Helper()
		if got := p.trusted(1); got != want {
			t.Errorf("%s: trusted %v, want %v", when, got, want)
		}
	}
	trusted(false, "at the start")
	pair(1)
	pair(1)
	validate(p, 1e5, result(1, 0, 2500, 4e9, 0))                             // alone
	validate(p, 1e5, result(1, 0, 2500, 4e9, 0), result(1, 0, 2500, 4e9, 0)) // its own replicas
	trusted(false, "after 2 confirmed, a lone result and a self-replica")
	pair(1)
	trusted(true, "after 3 confirmed")

	p.Validated(&policy.Validation{Time: 1e5, Valid: []*policy.Result{result(9, 0, 2500, 4e9, 0)}, Invalid: []*policy.Result{result(1, 0, 2500, 4e9, 0)}})
	trusted(false, "after an invalid result")
	for k := 0; k < 3; k++ {
		pair(1)
	}
	trusted(true, "after 3 more")
	for _, o := range []policy.Outcome{policy.ClientError, policy.Aborted, policy.NoReply} {
		r := result(1, 0, 2500, 4e9, 0)
		r.Outcome = o
		p.Reported(r)
		trusted(false, "after outcome "+o.String())
		for k := 0; k < 2; k++ {
			pair(1)
		}
		p.Validated(&policy.Validation{Time: 1e5, Late: true, CanonicalCredit: 1, Valid: []*policy.Result{result(1, 0, 2500, 4e9, 0)}})
		trusted(true, "after 2 confirmed and a late one")
	}
	ok := result(1, 0, 2500, 4e9, 0)
	ok.Outcome = policy.Success
	p.Reported(ok)
	trusted(true, "after a success")
}

// TestTrustFromServer: with trust_from: server the gate reads the
// server's trust from the results it is shown, whatever replicas
// confirmed: confirmed pairs do not make a host the server does not
// trust trusted, and the server's word does at once.
func TestTrustFromServer(t *testing.T) {
	p := newPolicy(t, "v3pfc", policy.Options{"host_trust": "3", "trust_from": "server"})
	pair := func(serverTrusts bool) {
		a, b := result(1, 0, 2500, 4e9, 0), result(9, 0, 2500, 4e9, 0)
		a.ServerTrusted = serverTrusts
		validate(p, 1e5, a, b)
	}
	for k := 0; k < 5; k++ {
		pair(false)
	}
	if p.trusted(1) {
		t.Error("trusted after 5 confirmed pairs the server did not vouch for")
	}
	pair(true)
	if !p.trusted(1) {
		t.Error("not trusted when the server trusts the host")
	}
	pair(false)
	if p.trusted(1) {
		t.Error("still trusted after the server withdrew its trust")
	}
}

// TestV4TrustPaysFakesNoMore: under v4trust a host that reports a
// twentieth of the work per job (a fake) is paid for what it reports,
// where CreditNew's host scale multiplies it by up to 10.
func TestV4TrustPaysFakesNoMore(t *testing.T) {
	credit := func(base string) (honest, fake float64) {
		p := newPolicy(t, base, policy.Options{"timing": "continuous", "version_samples": "10"})
		// 12 honest hosts (0-11 in a larger world) at PFC/E 1 to set the
		// version's statistics; host 12 fakes at PFC/E 0.05.
		p.Init(&policy.World{Apps: p.world.Apps, Versions: p.world.Versions, MaxHosts: 20})
		for k := 0; k < 30; k++ {
			for h := 0; h < 12; h++ {
				honest = validate(p, 1e5, result(h, 0, 2500, 4e9, 0))
			}
			p.Tick(policy.Tick{Kind: policy.FeederTick, Time: 1e5})
			fake = validate(p, 1e5, result(12, 0, 125, 4e9, 0))
		}
		return honest, fake
	}
	h3, f3 := credit("v3pfc-boinc")
	h4, f4 := credit("v4trust")
	if r := f3 / h3; !(r > 0.45 && r < 0.55) {
		t.Errorf("v3pfc-boinc: fake %g against honest %g (ratio %g); want 10 x its 0.05 (the host scale's cap)", f3, h3, r)
	}
	if r := f4 / h4; !(r > 0.04 && r < 0.06) || math.IsNaN(r) {
		t.Errorf("v4trust: fake %g against honest %g (ratio %g); want 0.05, what it did", f4, h4, r)
	}
}

// TestUntrustedUnscaledCap: before its host scale applies, an untrusted
// host's claim is at most untrusted_cap x the version mean's claim for
// the job; a trusted one, or one without the gate, keeps its raw claim.
func TestUntrustedUnscaledCap(t *testing.T) {
	c := &Config{HostNorm: true, HostSamples: 10, VersionSamples: 100, HostCap: 10, Averaging: "boinc",
		FailedBench: FailedNone, Sanity: SanityNone, Timing: TimingContinuous, AVCache: AVCacheFresh, UntrustedCap: 1}
	v := &Version{PFC: policy.Average{N: 200, Avg: 2}, Scale: 0.5}
	a := &App{MinAvgPFC: 1, Defined: true}
	for _, tc := range []struct {
		trust   float64
		trusted bool
		want    float64
	}{{20, false, 2 * est * 0.5}, {20, true, 10 * est * 0.5}, {0, false, 10 * est * 0.5}} {
		c.HostTrust = tc.trust
		// An idle VM's first result: PFC/E 10 where the version's mean is 2.
		j := &Job{Elapsed: 2500, FlopsEstimate: 4e10, Est: est, Bound: 100 * est, Trusted: tc.trusted}
		got, _ := c.PFC(j, a, &HostVersion{}, v, 0)
		if !near(got, tc.want, 1e-12) {
			t.Errorf("host_trust %g trusted %v: PFC %g, want %g", tc.trust, tc.trusted, got, tc.want)
		}
	}
}

// TestMediansFollowHosts: the feeder's median of host averages, read
// from means, is the one a scan of every host's record gives, after
// validations, cherry-picking resets (v2's reset of a whole row, v29's
// raise under probation) and hosts that fall below host_samples.
func TestMediansFollowHosts(t *testing.T) {
	for _, tc := range []struct {
		name string
		opts policy.Options
	}{
		{"median", policy.Options{"median_hosts": "true"}},
		{"quartile, weighted, reset", policy.Options{"median_hosts": "true", "host_quantile": "0.25", "averaging": "est_weighted", "cherry": "reset"}},
		{"probation", policy.Options{"median_hosts": "true", "cherry": "probation", "probation_caps_scale": "true"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := newPolicy(t, "v3pfc", tc.opts)
			rng := rand.New(rand.NewPCG(3, 4))
			scan := func(vid int) float64 {
				var xs []float64
				for h := range p.world.MaxHosts {
					if n, avg := p.c.hostMean(p.hav(h, vid)); n >= p.c.HostSamples && avg > 0 {
						xs = append(xs, avg)
					}
				}
				return quantile(xs, p.c.HostQuantile)
			}
			nonzero := 0
			for step := range 3000 {
				h := rng.IntN(p.world.MaxHosts)
				vid := rng.IntN(2)
				switch rng.IntN(10) {
				case 0:
					p.Reported(&policy.Result{HostID: int32(h), VersionID: int32(vid), Outcome: policy.ClientError, ReceivedTime: float64(step)})
				default:
					validate(p, float64(step), result(h, vid, 1000+9000*rng.Float64(), 4e9, 0), result((h+1)%p.world.MaxHosts, vid, 2500, 4e9, 0))
				}
				p.Tick(policy.Tick{Kind: policy.FeederTick, Time: float64(step)})
				for vid := range 2 {
					want := scan(vid)
					if got := p.vers[vid].Median; math.Float64bits(got) != math.Float64bits(want) {
						t.Fatalf("step %d, version %d: median %v, want %v (a scan of the hosts)", step, vid, got, want)
					}
					if want != 0 {
						nonzero++
					}
				}
			}
			if nonzero < 1000 {
				t.Errorf("only %d nonzero medians: the test did not exercise them", nonzero)
			}
		})
	}
}

// BenchmarkQuantileOf: one feeder tick's median over 100,000 hosts, a
// third of which add nothing, the means drifting a little between ticks.
func BenchmarkQuantileOf(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	xs := make([]float64, 100000)
	for i := range xs {
		if r.IntN(3) > 0 {
			xs[i] = math.Exp(r.NormFloat64())
		}
	}
	p := &Policy{c: &Config{HostQuantile: 0.5}}
	last, width := 0.0, 0.0
	for b.Loop() {
		for i := 0; i < 100; i++ {
			xs[r.IntN(len(xs))] *= 1 + 0.02*(r.Float64()-0.5)
		}
		last = p.quantileOf(xs, last, &width)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(xs)), "ns/host")
}

// TestUntrustedReplicaLimit: where the estimate does not follow a job's
// size, a new untrusted host is paid per job under untrusted_limit:
// estimate (its claim capped at the version mean's for the estimate, so
// short jobs pay as much as long ones), and by the job's size under
// replica (its claim capped at the trusted replica's instead): an
// inflated claim on a short job earns nothing over the trusted host's,
// an honest claim on a long job is no longer cut to the estimate.
func TestUntrustedReplicaLimit(t *testing.T) {
	credit := func(limit string, size, inflate float64) (pair, alone float64) {
		p := newPolicy(t, "v4trust", policy.Options{"timing": "continuous", "version_samples": "10",
			"trust_from": "server", "untrusted_limit": limit, "quantile_tenure": "0"}) // the quantile over every host: these span seconds
		p.Init(&policy.World{Apps: p.world.Apps, Versions: p.world.Versions, MaxHosts: 20})
		trusted := func(h int, elapsed float64) *policy.Result {
			r := result(h, 0, elapsed, 4e9, 0)
			r.ServerTrusted = true
			return r
		}
		// 12 trusted hosts at PFC/E 1 set the version's and their own
		// statistics; then host 12, new and untrusted, returns a job of
		// size x the estimate beside host 0, with its benchmark x inflate.
		for k := 0; k < 30; k++ {
			for h := 0; h < 12; h++ {
				validate(p, 1e5, trusted(h, 2500))
			}
			p.Tick(policy.Tick{Kind: policy.FeederTick, Time: 1e5})
		}
		alone = validate(p, 1e5, trusted(1, 2500*size))
		pair = validate(p, 1e5, result(12, 0, 2500*size, 4e9*inflate, 0), trusted(0, 2500*size))
		return pair, alone
	}
	for _, c := range []struct {
		limit         string
		size, inflate float64
		lo, hi        float64 // the pair's credit over the trusted host's alone
	}{
		{"estimate", 0.25, 3, 2, 3},     // paid towards the estimate
		{"replica", 0.25, 3, 1, 1},      // paid the trusted claim
		{"estimate", 4, 1, 0.2, 0.35},   // an honest long job cut towards the estimate
		{"replica", 4, 1, 1, 1},         // paid its size
		{"replica", 4, 3, 1, 1},         // inflation on a long job gains nothing
		{"replica", 1, 0.5, 0.45, 0.99}, // a claim below the trusted one is kept
	} {
		pair, alone := credit(c.limit, c.size, c.inflate)
		if r := pair / alone; !(r >= c.lo*(1-1e-9) && r <= c.hi*(1+1e-9)) {
			t.Errorf("%s, size %g x, benchmark %g x: pair %g, trusted alone %g (ratio %g), want %g to %g",
				c.limit, c.size, c.inflate, pair, alone, r, c.lo, c.hi)
		}
	}
}

// TestQuantileTrusted: with quantile_trusted, a version's lower quartile
// of host means is taken over the hosts the server trusts, so untrusted
// hosts whose means are low (cherry pickers keep the short jobs) cannot
// pull it down for everyone; without it they do. Where the server trusts
// no host, every host counts.
func TestQuantileTrusted(t *testing.T) {
	median := func(opts policy.Options, server bool) (got, trusted float64) {
		p := newPolicy(t, "v3pfc", opts)
		for step := range 40 {
			for h := range p.world.MaxHosts {
				// Hosts 0 to 6 trusted, runtimes 2000 to 3200 s; 7 to 9
				// untrusted, a hundredth of that.
				e := 2000 + 200*float64(h)
				if h >= 7 {
					e /= 100
				}
				r := result(h, 0, e, 4e9, float64(step))
				r.ServerTrusted = server && h < 7
				o := result((h+1)%p.world.MaxHosts, 0, 2500, 4e9, float64(step))
				o.ServerTrusted = server && (h+1)%p.world.MaxHosts < 7
				validate(p, float64(step), r, o)
			}
		}
		p.Tick(policy.Tick{Kind: policy.FeederTick, Time: 100})
		var xs []float64
		for h := range 7 {
			if n, avg := p.c.hostMean(p.hav(h, 0)); n >= p.c.HostSamples && avg > 0 {
				xs = append(xs, avg)
			}
		}
		return p.vers[0].Median, quantile(xs, 0.25)
	}
	base := policy.Options{"median_hosts": "true", "host_quantile": "0.25"}
	all, _ := median(base, true)
	with := policy.Options{"quantile_trusted": "true"}
	maps.Copy(with, base)
	got, want := median(with, true)
	// Where the server trusts no host (no server trust), every host counts.
	if none, _ := median(with, false); math.Float64bits(none) != math.Float64bits(all) {
		t.Errorf("quartile %v with no host trusted, want %v (every host)", none, all)
	}
	t.Logf("lower quartile of host means: %.4g over every host, %.4g over trusted hosts (a scan gives %.4g)", all, got, want)
	if math.Float64bits(got) != math.Float64bits(want) || !(all < 0.8*want) {
		t.Errorf("quartile %v over trusted hosts, want %v (a scan); over all %v, want well below", got, want, all)
	}
}

// TestQuantileTenure: quantile_tenure counts a host only once its
// results span the tenure and while it is present, so short-lived
// identities never count and a departed host stops counting.
func TestQuantileTenure(t *testing.T) {
	const day = policy.SecondsPerDay
	// Each host's results: runtime e, sent every 0.1 day over [from, to).
	type host struct{ e, from, to float64 }
	hosts := make([]host, 10)
	for h := range 7 { // established hosts, present throughout
		hosts[h] = host{2000 + 200*float64(h), 0, 20}
	}
	hosts[7] = host{25000, 0, 1}   // an identity that lived a day, gone since
	hosts[8] = host{25000, 18, 20} // a new identity, two days old
	hosts[9] = host{30000, 0, 20}  // an inflator on one identity: counts as one host
	median := func(opts policy.Options, now float64) float64 {
		p := newPolicy(t, "v3pfc", opts)
		for step := 0.0; step < 20; step += 0.1 {
			for h, x := range hosts {
				if step >= x.from && step < x.to && step*day < now {
					validate(p, step*day+x.e, result(h, 0, x.e, 4e9, step*day))
				}
			}
		}
		p.Tick(policy.Tick{Kind: policy.FeederTick, Time: now})
		return p.vers[0].Median
	}
	scan := func(counted ...int) float64 {
		var xs []float64
		for _, h := range counted {
			xs = append(xs, hosts[h].e*4e9/est)
		}
		return quantile(xs, 0.25)
	}
	base := policy.Options{"median_hosts": "true", "host_quantile": "0.25", "host_samples": "5"}
	with := maps.Clone(base)
	with["quantile_tenure"] = "7"
	for _, c := range []struct {
		name string
		opts policy.Options
		now  float64
		want float64
	}{
		{"no tenure: every host, gone or not", base, 20 * day, scan(0, 1, 2, 3, 4, 5, 6, 7, 8, 9)},
		{"tenure 7 d: established hosts, the inflator once", with, 20 * day, scan(0, 1, 2, 3, 4, 5, 6, 9)},
		// On day 1.6 the tenure asked is 0.8 days: every host that has
		// spanned that long and was seen within 2 days.
		{"first days: half the time run", with, 1.6 * day, scan(0, 1, 2, 3, 4, 5, 6, 7, 9)},
	} {
		// Host means are exact here: every sample of a host is the same.
		if got := median(c.opts, c.now); !near(got, c.want, 1e-12) {
			t.Errorf("%s: quartile %.6g, want %.6g", c.name, got, c.want)
		}
	}
}

// TestTrustPerVersion: a host trusted for its results on one app and
// with no scale yet on another it seldom runs had its inflated claims
// there paid whole (no scale to lower them, no cap as it is trusted);
// with trust_per_version it counts as untrusted there until it has a
// scale, and a trusted replica's claim caps its own.
func TestTrustPerVersion(t *testing.T) {
	credit := func(perVersion string) (pair, alone float64) {
		p := newPolicy(t, "v4trust", policy.Options{"timing": "continuous", "version_samples": "10",
			"trust_from": "server", "quantile_tenure": "0", "trust_per_version": perVersion})
		p.Init(&policy.World{
			Apps: []policy.App{{ID: 0, Name: "a", MinQuorum: 1, TargetNResults: 1, DelayBound: 86400},
				{ID: 1, Name: "b", MinQuorum: 2, TargetNResults: 2, DelayBound: 86400}},
			Versions: []policy.AppVersion{{ID: 0, AppID: 0, Name: "cpu", Resource: policy.CPU, CPUUsage: 1},
				{ID: 1, AppID: 1, Name: "cpu", Resource: policy.CPU, CPUUsage: 1}},
			MaxHosts: 20,
		})
		res := func(h, vid int, flops float64) *policy.Result {
			r := result(h, vid, 2500, flops, 0)
			r.AppID, r.ServerTrusted = int32(vid), true
			return r
		}
		val := func(rs ...*policy.Result) float64 {
			return p.Validated(&policy.Validation{Time: 1e5, AppID: int(rs[0].AppID), RscFpopsEst: est, RscFpopsBound: 10 * est, Valid: rs})
		}
		// Hosts 0 to 11 run both apps honestly; host 12, its benchmark
		// 27 x, runs app a only, where its scale takes the inflation out.
		for range 30 {
			for h := range 12 {
				val(res(h, 0, 4e9))
				val(res(h, 1, 4e9))
			}
			val(res(12, 0, 27*4e9))
			p.Tick(policy.Tick{Kind: policy.FeederTick, Time: 1e5})
		}
		alone = val(res(1, 1, 4e9), res(2, 1, 4e9))
		pair = val(res(12, 1, 27*4e9), res(0, 1, 4e9))
		return pair, alone
	}
	for _, c := range []struct {
		perVersion string
		lo, hi     float64 // the pair's credit over two honest hosts'
	}{
		{"false", 1.05, 2}, // the inflated claim raises the pair's credit (pegged weighs it down)
		{"true", 1, 1},     // capped at the trusted replica's claim
	} {
		pair, alone := credit(c.perVersion)
		if r := pair / alone; !(r >= c.lo*(1-1e-9) && r <= c.hi*(1+1e-9)) {
			t.Errorf("trust_per_version %s: inflator's pair %g, honest pair %g (ratio %g), want %g to %g", c.perVersion, pair, alone, r, c.lo, c.hi)
		}
	}
}
