package fit

import (
	"fmt"
	"math"
	"sort"
	"strings"
	"time"

	"github.com/creditsim/creditsim/cmd/creditsim/internal/statsdump"
	"github.com/creditsim/creditsim/results"
	"github.com/creditsim/creditsim/scenarios"
)

// Window bounds the fit: hosts present at From are the initial ones,
// hosts created in (From, To) the arrivals; To is the export's date (the
// last contact in it, unless given), From DefaultDays before it or the
// export's first creation, whichever is later.
type Window struct{ From, To float64 }

// filled completes w from n hosts' creation and last-contact times
// (times(i)): its end the last contact, unless given; its start
// DefaultDays before the end, or the first creation when the data are
// younger (their first hosts are then the initial ones), unless given.
func (w Window) filled(n int, times func(i int) (created, seen float64)) Window {
	if w.To == 0 {
		for i := 0; i < n; i++ {
			_, seen := times(i)
			w.To = max(w.To, seen)
		}
	}
	if w.From == 0 {
		first := math.Inf(1)
		for i := 0; i < n; i++ {
			created, _ := times(i)
			first = min(first, created)
		}
		w.From = max(w.To-DefaultDays*86400, first)
	}
	return w
}

// DefaultDays is the window's length when only its end is known.
const DefaultDays = 90

// goneAfter is how long a host may be silent before the fit counts it
// gone: BOINC clients contact the server at least every few days.
const goneAfter = 7 * 86400.0

// Hosts is the fitted host population, each field with how it was
// found (Notes) and what the export could not tell (Assumed).
type Hosts struct {
	Window                          Window
	Rows                            int // hosts in the export
	Initial                         int
	ArrivalsPerDay                  float64
	LifetimeDays                    float64 // mean of an exponential, censored at the export's date
	Cores                           choice
	WhetstoneGFLOPS, DhrystoneRatio lognormal
	// PeakRatio is a GPU's peak over its host's Whetstone x CPUs, fitted
	// where the GPU's model is known (PeakHosts of GPUHosts hosts).
	PeakRatio           lognormal
	PeakHosts, GPUHosts int
	GPUShare            float64
	Vendors             map[string]float64
	GPUCount            choice
	Platforms           map[string]float64
	HostsPerUser        choice // empty when the export hides users
	// Teams and TeamShare are fitted over TeamUsers users with a host
	// present, where a user table says their teams (FitTeams).
	Teams, TeamUsers int
	TeamShare        float64
	Notes, Assumed   []string
	// Unidentified are the fields the hosts' rows could not identify
	// (too few values within their domain): the baseline's are written,
	// and the header says so under "Not identified".
	Unidentified []string
	domainNotes  []string // values left out of a field that was fitted
	// Family is how Whetstone and the Dhrystone ratio are written:
	// "empirical" (default: 20 quantile classes of the hosts' values) or
	// "lognormal" (the fitted family).
	Family      string
	src         hostSource
	present     map[int]bool // users with a host present
	whet, ratio []float64    // the hosts' values
}

// Families are the ways a fit writes the hosts' benchmarks.
var Families = []string{"empirical", "lognormal"}

// quantiles is how many classes an empirical distribution has.
const quantiles = 20

// benchNote says how the benchmarks were written.
func (f *Hosts) benchNote() string {
	switch {
	case len(f.whet) == 0:
		return "whetstone_gflops and dhrystone_ratio: not identified (below): the baseline's"
	case len(f.ratio) == 0:
		return "whetstone_gflops: as below; dhrystone_ratio: not identified (below): the baseline's"
	}
	if f.Family == "lognormal" {
		return "whetstone_gflops and dhrystone_ratio: lognormal with the mean and CV of p_fpops and p_iops / p_fpops, failed benchmarks (1e9) left out"
	}
	return fmt.Sprintf("whetstone_gflops and dhrystone_ratio: empirical, the hosts' p_fpops and p_iops / p_fpops in %d classes of equal share (each its mean), failed benchmarks (1e9) left out (--family lognormal fits a lognormal instead)", quantiles)
}

// empirical is xs as a choice of at most quantiles classes of equal
// share, each its mean.
func empirical(xs []float64) choice {
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	n := min(quantiles, len(s))
	c := choice{}
	for k := 0; k < n; k++ {
		part := s[k*len(s)/n : (k+1)*len(s)/n]
		m := 0.0
		for _, x := range part {
			m += x
		}
		c.Values = append(c.Values, round(m/float64(len(part))))
		c.Weights = append(c.Weights, round(float64(len(part))/float64(len(s))))
	}
	return c
}

type choice struct {
	Values, Weights []float64
}

type lognormal struct{ Mean, CV float64 }

// platformOf maps an operating system name to the BOINC platform of the
// baseline's app versions; "" for one it has no version for.
func platformOf(os string) string {
	switch s := strings.ToLower(os); {
	case strings.Contains(s, "windows"):
		return "windows_x86_64"
	case strings.Contains(s, "linux"):
		return "x86_64-pc-linux-gnu"
	}
	return ""
}

// baselineVersions are the baseline app's versions by platform, kept for
// the platforms the export has hosts of.
var baselineVersions = map[string]string{
	"windows_x86_64":      "{name: win-cpu, platform: windows_x86_64, efficiency: {dist: lognormal, mean: 0.5, cv: 0.2, max: 1}, counts_flops: true}",
	"x86_64-pc-linux-gnu": "{name: linux-cpu, platform: x86_64-pc-linux-gnu, efficiency: {dist: lognormal, mean: 0.5, cv: 0.2, max: 1}, counts_flops: true}",
}

// vendorOf maps a BOINC GPU type to the scenario's vendor name.
var vendorOf = map[string]string{"nvidia": "nvidia", "amd": "amd", "intel": "intel_gpu", "apple": "apple_gpu"}

// FitHosts fits the host population of a statistics export's hosts
// over w (To 0: the last contact in the export; From 0: DefaultDays
// before To).
func FitHosts(hs []statsdump.Host, w Window) (*Hosts, error) {
	return fitHosts(hs, w, hostSource{
		platform: func(i int) string { return platformOf(hs[i].OSName) },
		gpuPeak: func(i int) (float64, bool) {
			if len(hs[i].GPUs) == 0 {
				return 0, false
			}
			return gpuPeak(hs[i].GPUs[0].Model)
		},
	})
}

// hostSource is what a source tells beyond the hosts' rows: host i's
// platform ("" for one the fitted world has no version for) and the
// peak FLOPS of one of its GPUs, where known.
type hostSource struct {
	platform func(i int) string
	gpuPeak  func(i int) (float64, bool)
	tables   bool // the project's host table, not its statistics export
}

func fitHosts(hs []statsdump.Host, w Window, src hostSource) (*Hosts, error) {
	if len(hs) == 0 {
		return nil, fmt.Errorf("no host rows: the %s has a header and nothing else", map[bool]string{false: "export", true: "host table"}[src.tables])
	}
	w = w.filled(len(hs), func(i int) (float64, float64) { return hs[i].CreateTime, hs[i].RPCTime })
	if !(w.From < w.To) {
		return nil, fmt.Errorf("the window from %s to %s is empty", day(w.From), day(w.To))
	}
	f := &Hosts{Window: w, Rows: len(hs), Vendors: map[string]float64{}, Platforms: map[string]float64{}, src: src}
	var present []int
	arrivals := 0
	for i := range hs {
		h := &hs[i]
		switch {
		case h.CreateTime <= w.From && h.RPCTime >= w.From:
			f.Initial++
			present = append(present, i)
		case h.CreateTime > w.From && h.CreateTime < w.To:
			arrivals++
			present = append(present, i)
		}
	}
	if len(present) == 0 {
		return nil, fmt.Errorf("no host of the export was present from %s to %s", day(w.From), day(w.To))
	}
	f.hardware(hs, present)
	f.created(hs)
	if err := f.mostlyOutOfDomain(); err != nil {
		return nil, err
	}
	if len(f.Platforms) == 0 {
		return nil, fmt.Errorf("none of the %d hosts present runs on a platform the fitted app has a version for", len(present))
	}
	f.ArrivalsPerDay = arrivalRate(hs, w, src.tables)
	f.lifetime(hs, w)
	f.users(hs, present)
	f.notes(arrivals)
	return f, nil
}

// hostFields are the fields a host table identifies from its own
// columns: with every one of them not identified (most rows out of
// domain in each), the file is not a host table creditsim can fit.
var hostFields = []string{"cores", "whetstone_gflops", "arrivals_per_day and lifetime"}

// mostlyOutOfDomain refuses a host file whose rows are out of domain in
// most of every column the fit reads; one column or two is a field not
// identified, said and written as such.
func (f *Hosts) mostlyOutOfDomain() error {
	var why []string
	for _, field := range hostFields {
		for _, u := range f.Unidentified {
			if strings.HasPrefix(u, field+": not identified: ") {
				why = append(why, strings.TrimPrefix(u, field+": not identified: "))
			}
		}
	}
	if len(why) < len(hostFields) {
		return nil
	}
	file := map[bool]string{false: "the export", true: "the host table"}[f.src.tables]
	return fmt.Errorf("%s is out of domain in most rows of every column the fit reads, so it is not a host table creditsim can fit: %s", file, strings.Join(why, "; "))
}

// created judges the hosts' create_time, which tells hosts present at
// the window's start from arrivals and how long hosts stay: a row whose
// time is before 1995 (the column missing, or not a date) or after its
// last contact counts as created before the window; with fewer than
// half of the rows in the domain, arrivals and lifetimes are not
// identified (the values written take every such host as present at the
// window's start).
func (f *Hosts) created(hs []statsdump.Host) {
	c := newColumn("create_time", map[bool]string{false: "the export", true: "host"}[f.src.tables])
	c.rows = "hosts"
	for i := range hs {
		checkCreated(c, hs[i].CreateTime, hs[i].RPCTime)
	}
	note, un := c.judge("arrivals_per_day and lifetime", "")
	if note != "" {
		f.domainNotes = append(f.domainNotes, strings.Replace(note, "left out of the fit", "taken as before the window", 1))
	}
	if un != "" {
		un = strings.TrimSuffix(un, "; the baseline's  written") + "; the values written take every such host as present at the window's start"
		f.Unidentified = append(f.Unidentified, un)
	}
}

// arrivalLag is how long a new host may take to earn its first credit:
// the export lists hosts with credit only, so the last days' arrivals
// are mostly missing from it, and the rate is taken before them.
const arrivalLag = 7 * 86400.0

// arrivalRate is the hosts created per day in (From, To - arrivalLag),
// or in the whole window when it is shorter than two lags or the hosts
// are a host table's (which lists hosts without credit too).
func arrivalRate(hs []statsdump.Host, w Window, tables bool) float64 {
	end := w.To - arrivalLag
	if tables || end-w.From < arrivalLag {
		end = w.To
	}
	n := 0
	for _, h := range hs {
		if h.CreateTime > w.From && h.CreateTime < end {
			n++
		}
	}
	return float64(n) / ((end - w.From) / 86400)
}

// minPeakHosts is how many GPU hosts of known models fit peak_ratio.
const minPeakHosts = 10

// lifetime is the exponential lifetime's maximum-likelihood mean with
// censoring: the time every host was seen over the hosts that left. A
// host is known to have left only once it has been silent for goneAfter,
// so every host is censored goneAfter before the export's date: one seen
// since then is counted present until then, not until the date (which
// would count the hosts that left in the last days as staying).
func (f *Hosts) lifetime(hs []statsdump.Host, w Window) {
	seen, gone := 0.0, 0
	censor := w.To - goneAfter
	for _, h := range hs {
		switch {
		case h.CreateTime >= censor:
		case h.RPCTime < censor:
			gone++
			seen += h.RPCTime - h.CreateTime
		default:
			seen += censor - h.CreateTime
		}
	}
	f.LifetimeDays = math.Max(1, seen/86400/math.Max(1, float64(gone)))
}

// hardware fits CPUs, benchmarks, platforms and GPUs of the hosts
// present, each host column over its values within its domain (domain.go).
func (f *Hosts) hardware(hs []statsdump.Host, present []int) {
	cores := map[float64]float64{}
	counts := map[float64]float64{}
	var whet, ratio, ratios []float64
	gpuHosts := 0
	file := map[bool]string{false: "the export", true: "host"}[f.src.tables]
	ncpus, pf, pi := newColumn("p_ncpus", file), newColumn("p_fpops", file), newColumn("p_iops", file)
	ngpus := newColumn("GPU count (p_ngpus, or the coprocessors')", file)
	ngpus.rows = "GPU hosts present"
	for _, i := range present {
		h := &hs[i]
		okCores := checkCores(ncpus, h.NCPUs)
		if okCores {
			cores[float64(h.NCPUs)]++
		}
		okBench := checkBenchmark(pf, h.PFpops, maxPFpops)
		if okBench {
			whet = append(whet, h.PFpops/1e9)
			if checkBenchmark(pi, h.PIops, maxIopsRatio*h.PFpops) {
				ratio = append(ratio, h.PIops/h.PFpops)
			}
		}
		if p := f.src.platform(i); p != "" {
			f.Platforms[p]++
		}
		if len(h.GPUs) > 0 {
			gpuHosts++
			if r, ok := f.gpu(i, h, counts, ngpus); ok && okBench && okCores {
				ratios = append(ratios, r)
			}
		}
	}
	f.fitGPUs(gpuHosts, len(present), ratios, counts, ngpus)
	f.judgeColumns(ncpus, pf, pi)
	if ncpus.identified() {
		f.Cores = choiceOf(cores, 16)
	}
	if pf.identified() {
		f.WhetstoneGFLOPS, f.whet = fitLognormal(whet, 2.5), whet
		if pi.identified() {
			f.DhrystoneRatio, f.ratio = fitLognormal(ratio, 1.5), ratio
		}
	}
	normalise(f.Vendors)
	normalise(f.Platforms)
}

// fitGPUs fits the GPU hosts' share of the present ones, their peak
// ratios and their counts (not identified where most counts are out of
// the domain).
func (f *Hosts) fitGPUs(gpuHosts, present int, ratios []float64, counts map[float64]float64, ngpus *column) {
	f.GPUHosts, f.PeakHosts = gpuHosts, len(ratios)
	if len(ratios) >= minPeakHosts {
		f.PeakRatio = fitLognormal(ratios, 3)
	}
	f.GPUShare = float64(gpuHosts) / float64(present)
	if gpuHosts == 0 {
		return
	}
	f.judge(ngpus, "gpu count", "GPU counts")
	if ngpus.identified() {
		f.GPUCount = choiceOf(counts, 8)
	}
}

// gpu counts host i's first GPU's vendor and count, and returns its
// peak over the host's Whetstone x CPUs where its peak is known.
func (f *Hosts) gpu(i int, h *statsdump.Host, counts map[float64]float64, ngpus *column) (float64, bool) {
	if v, ok := vendorOf[h.GPUs[0].Vendor]; ok {
		f.Vendors[v]++
	}
	if checkGPUCount(ngpus, h.GPUs[0].Count) {
		counts[float64(h.GPUs[0].Count)]++
	}
	peak, ok := f.src.gpuPeak(i)
	return peak / (h.PFpops * float64(h.NCPUs)), ok && peak > 0 && peak < 1e16
}

// checkCores counts a host's p_ncpus in c and reports whether it is in
// the domain.
func checkCores(c *column, n int) bool {
	switch {
	case n <= 0:
		c.reject("at 0 or less (unset)")
	case n > maxCores:
		c.reject(fmt.Sprintf("above %d (no host has so many)", maxCores))
	default:
		c.used++
		return true
	}
	return false
}

// checkBenchmark counts a benchmark in c and reports whether it is in
// the domain (0, most], not BOINC's failed benchmark.
func checkBenchmark(c *column, x, most float64) bool {
	switch {
	case !(x > 0):
		c.reject("at 0 or less (unset, or the column missing)")
	case x == failedBenchmark:
		c.reject("at 1e9 (BOINC's value for a failed benchmark)")
	case !(x <= most):
		c.reject(fmt.Sprintf("above %g (no CPU is so fast)", most))
	default:
		c.used++
		return true
	}
	return false
}

// judgeColumns writes what the host columns' domains left out into the
// notes, and the columns not identified into Unidentified.
func (f *Hosts) judgeColumns(ncpus, pf, pi *column) {
	for _, j := range []struct {
		c               *column
		field, baseline string
	}{
		{ncpus, "cores", "CPU counts"},
		{pf, "whetstone_gflops", "Whetstone benchmarks"},
		{pi, "dhrystone_ratio", "Dhrystone ratio"},
	} {
		if j.c == pi && !pf.identified() {
			continue // said with p_fpops
		}
		f.judge(j.c, j.field, j.baseline)
	}
}

// judge writes what column c's domain left out into the notes, or c into
// Unidentified (the field written as the baseline's).
func (f *Hosts) judge(c *column, field, baseline string) {
	note, un := c.judge(field, baseline)
	if note != "" {
		f.domainNotes = append(f.domainNotes, note)
	}
	if un != "" {
		f.Unidentified = append(f.Unidentified, un)
	}
}

// users fits the hosts per user, where the export names users.
func (f *Hosts) users(hs []statsdump.Host, present []int) {
	per := map[int]float64{}
	f.present = map[int]bool{}
	for _, i := range present {
		if hs[i].UserID != 0 {
			per[hs[i].UserID]++
			f.present[hs[i].UserID] = true
		}
	}
	if len(per) == 0 {
		return
	}
	n := map[float64]float64{}
	for _, c := range per {
		n[math.Min(c, 20)]++
	}
	f.HostsPerUser = choiceOf(n, 12)
}

func (f *Hosts) notes(arrivals int) {
	src := "the export's date"
	if f.src.tables {
		src = "the last contact in the host table"
	}
	f.Notes = []string{
		fmt.Sprintf("window %s to %s: %d hosts present at its start (created by then, seen after it), %d created in it",
			day(f.Window.From), day(f.Window.To), f.Initial, arrivals),
		fmt.Sprintf("arrivals_per_day: hosts created (create_time) per day in the window less its last %g days (a new host needs days to earn the credit that puts it in the export)", arrivalLag/86400),
		fmt.Sprintf("lifetime: exponential, mean the days hosts were seen (create_time to rpc_time) over the hosts that left (silent for %g days before %s; every host censored there)", goneAfter/86400, src),
		"cores: the hosts' CPU counts (p_ncpus) as they reported them, the 16 most common values",
		"whetstone_gflops and dhrystone_ratio: lognormal with the mean and CV of p_fpops and p_iops / p_fpops, failed benchmarks (1e9) left out",
		"gpu share, vendors and count: from each host's first GPU (misc JSON or coprocs)",
		"platforms: Windows and Linux hosts by os_name; others (macOS, Android) have no version of the baseline's app and are left out",
	}
	if f.src.tables {
		f.Notes[1] = "arrivals_per_day: hosts created (create_time) per day in the window (the host table lists every host, with credit or not)"
		f.Notes[5] = "gpu share, vendors and count: from each host's first GPU (host.misc's JSON, else the coprocessor summary in host.serialnum)"
		f.Notes[6] = "platforms: each host's, that of the app versions it ran most results of, else its os_name's (Windows or Linux)"
	}
	if len(f.Cores.Values) == 0 {
		f.Notes[3] = "cores: not identified (below): the baseline's"
	}
	f.Notes = append(f.Notes, f.domainNotes...)
	if len(f.HostsPerUser.Values) > 0 {
		f.Notes = append(f.Notes, "hosts_per_user: how many of the hosts present each user has (userid; users who hide their hosts left out)")
	}
	gpuPeaks := "GPU peak FLOPS (the export names models, not speeds; too few GPU hosts of models creditsim knows: peak_ratio)"
	switch {
	case f.PeakRatio.Mean > 0 && f.src.tables:
		f.Notes = append(f.Notes, fmt.Sprintf("gpu peak_ratio: lognormal over the %d GPU hosts, p_gpu_fpops / p_ngpus over p_fpops x p_ncpus", f.PeakHosts))
	case f.PeakRatio.Mean > 0:
		f.Notes = append(f.Notes, fmt.Sprintf("gpu peak_ratio: lognormal over the %d of %d GPU hosts whose model creditsim knows, its makers' single-precision peak over the host's Whetstone x CPUs", f.PeakHosts, f.GPUHosts))
		gpuPeaks = ""
	}
	if f.src.tables {
		f.Assumed = nil
		if f.GPUHosts > 0 && f.PeakRatio.Mean == 0 {
			f.Unidentified = append(f.Unidentified, fmt.Sprintf("gpu peak_ratio: not identified: fewer than %d GPU hosts report p_gpu_fpops, p_ngpus, p_fpops and p_ncpus; the baseline's written", minPeakHosts))
		}
		return
	}
	f.Assumed = []string{
		"the export lists only hosts with credit, and drops users who did not consent where consent is on: hosts that never earned credit are missing",
		strings.TrimPrefix(gpuPeaks+", ", ", ") + "availability (on_frac and active_frac are not exported), error and invalid rates, apps, versions, job sizes, replication and the server's options: the baseline's",
	}
}

// FitTeams fits the teams from a user table (user ID to team ID, 0 for
// none): over the users with a host present, how many teams they are in
// and the share of them in one.
func (f *Hosts) FitTeams(team map[int]int, table string) {
	in, n := 0, 0
	teams := map[int]bool{}
	for u := range f.present {
		t, ok := team[u]
		if !ok {
			continue
		}
		n++
		if t != 0 {
			in++
			teams[t] = true
		}
	}
	if n == 0 {
		return
	}
	f.Teams, f.TeamUsers, f.TeamShare = len(teams), n, round(float64(in)/float64(n))
	f.Notes = append(f.Notes, fmt.Sprintf("teams and team_share: the teams the %d users with a host present are in (%s; a team none of them is in is not seen), and the share of them in one", n, table))
}

// teamsAssumed says where the teams came from when no user table gave them.
func (f *Hosts) teamsAssumed() []string {
	if f.TeamUsers > 0 {
		return nil
	}
	return []string{"teams and team_share: no user table (user.gz, or the user table) gave the users' teams: the baseline's"}
}

// choiceOf keeps the at most k most common values of counts, weighted.
func choiceOf(counts map[float64]float64, k int) choice {
	vals := make([]float64, 0, len(counts))
	for v := range counts {
		vals = append(vals, v)
	}
	sort.Slice(vals, func(i, j int) bool {
		if counts[vals[i]] != counts[vals[j]] {
			return counts[vals[i]] > counts[vals[j]]
		}
		return vals[i] < vals[j]
	})
	vals = vals[:min(k, len(vals))]
	sort.Float64s(vals)
	total := 0.0
	for _, v := range vals {
		total += counts[v]
	}
	c := choice{}
	for _, v := range vals {
		c.Values = append(c.Values, v)
		c.Weights = append(c.Weights, round(counts[v]/total))
	}
	return c
}

// fitLognormal is the mean and CV of xs (CV at most maxCV, at least 0.01);
// zero with no sample.
func fitLognormal(xs []float64, maxCV float64) lognormal {
	if len(xs) == 0 {
		return lognormal{}
	}
	m, s := 0.0, 0.0
	for _, x := range xs {
		m += x
	}
	m /= float64(len(xs))
	for _, x := range xs {
		s += (x - m) * (x - m)
	}
	cv := math.Sqrt(s/float64(len(xs))) / m
	return lognormal{Mean: round(m), CV: round(math.Min(math.Max(cv, 0.01), maxCV))}
}

func normalise(m map[string]float64) {
	total := 0.0
	for _, v := range m {
		total += v
	}
	for k, v := range m {
		m[k] = round(v / total)
	}
}

// round keeps 4 significant digits: a fitted scenario reads as data, not noise.
func round(x float64) float64 {
	if x == 0 || math.IsNaN(x) || math.IsInf(x, 0) {
		return x
	}
	e := math.Pow(10, 3-math.Floor(math.Log10(math.Abs(x))))
	return math.Round(x*e) / e
}

func day(t float64) string { return time.Unix(int64(t), 0).UTC().Format("2006-01-02") }

// fittedYAML is the baseline with the fitted settings, resolved: the
// body of a fitted scenario. The baseline's claims describe the
// baseline, not the fitted world, so sets clears them.
func fittedYAML(sets []string) ([]byte, error) {
	s, err := scenarios.Open("baseline", sets)
	if err != nil {
		return nil, fmt.Errorf("the fitted scenario does not validate: %v", err)
	}
	body, _, err := scenarios.Resolved(s)
	return body, err
}

// Scenario is the fitted scenario: the baseline with the fitted hosts,
// as YAML, its header naming the source, the window, each method and
// each assumption. It is validated as any scenario is.
func (f *Hosts) Scenario(name, source string) ([]byte, error) {
	body, err := fittedYAML(append([]string{"name=" + name, "claims=[]"}, f.sets()...))
	if err != nil {
		return nil, err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# %s: fitted by creditsim fit from %s (%d hosts in the export).\n", name, source, f.Rows)
	writeSections(&b, f.Provenance(source), "export")
	b.Write(body)
	return []byte(b.String()), nil
}

// sets are the --set overrides that put the fit into the baseline.
func (f *Hosts) sets() []string {
	out := []string{
		fmt.Sprintf("hosts.initial=%d", f.Initial),
		fmt.Sprintf("hosts.arrivals_per_day=%g", round(f.ArrivalsPerDay)),
		fmt.Sprintf("hosts.lifetime={dist: exponential, mean: %gd}", round(f.LifetimeDays)),
		fmt.Sprintf("hosts.gpu.share=%g", round(f.GPUShare)),
		"hosts.platforms=" + shares(f.Platforms, "name"),
	}
	if len(f.Cores.Values) > 0 {
		out = append(out, "hosts.cpu.cores="+f.Cores.yaml())
	}
	switch {
	case f.Family == "lognormal":
		if w := f.WhetstoneGFLOPS; w.Mean > 0 {
			out = append(out, fmt.Sprintf("hosts.cpu.whetstone_gflops={dist: lognormal, mean: %g, cv: %g}", w.Mean, w.CV))
		}
		if r := f.DhrystoneRatio; r.Mean > 0 {
			out = append(out, fmt.Sprintf("hosts.cpu.dhrystone_ratio={dist: lognormal, mean: %g, cv: %g}", r.Mean, r.CV))
		}
	default:
		if len(f.whet) > 0 {
			out = append(out, "hosts.cpu.whetstone_gflops="+empirical(f.whet).yaml())
		}
		if len(f.ratio) > 0 {
			out = append(out, "hosts.cpu.dhrystone_ratio="+empirical(f.ratio).yaml())
		}
	}
	if f.GPUShare > 0 && len(f.Vendors) > 0 {
		out = append(out, "hosts.gpu.vendors="+shares(f.Vendors, "vendor"))
		if len(f.GPUCount.Values) > 0 {
			out = append(out, "hosts.gpu.count="+f.GPUCount.yaml())
		}
	}
	if r := f.PeakRatio; r.Mean > 0 {
		out = append(out, fmt.Sprintf("hosts.gpu.peak_ratio={dist: lognormal, mean: %g, cv: %g}", r.Mean, r.CV))
	}
	if len(f.HostsPerUser.Values) > 0 {
		out = append(out, "hosts.hosts_per_user="+f.HostsPerUser.yaml())
	}
	if f.TeamUsers > 0 {
		out = append(out, fmt.Sprintf("hosts.teams=%d", f.Teams), fmt.Sprintf("hosts.team_share=%g", f.TeamShare))
	}
	var versions []string
	for _, p := range results.SortedKeys(f.Platforms) {
		versions = append(versions, baselineVersions[p])
	}
	return append(out, "projects[0].apps[0].versions=["+strings.Join(versions, ", ")+"]")
}

func (c choice) yaml() string {
	if len(c.Values) == 1 {
		return fmt.Sprintf("{dist: const, mean: %g}", c.Values[0])
	}
	v, w := make([]string, len(c.Values)), make([]string, len(c.Weights))
	for i := range c.Values {
		v[i], w[i] = fmt.Sprintf("%g", c.Values[i]), fmt.Sprintf("%g", c.Weights[i])
	}
	return "{dist: choice, values: [" + strings.Join(v, ", ") + "], weights: [" + strings.Join(w, ", ") + "]}"
}

// shares writes a map of shares as a YAML list of {key: name, share: x},
// names sorted.
func shares(m map[string]float64, key string) string {
	names := make([]string, 0, len(m))
	for k := range m {
		names = append(names, k)
	}
	sort.Strings(names)
	var parts []string
	for _, n := range names {
		parts = append(parts, fmt.Sprintf("{%s: %s, share: %g}", key, n, m[n]))
	}
	return "[" + strings.Join(parts, ", ") + "]"
}
