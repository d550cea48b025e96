package stock

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync"

	"github.com/creditsim/creditsim/cmd/creditsim/internal/runner"
	"github.com/creditsim/creditsim/results"
	"github.com/creditsim/creditsim/scenarios"
)

// Subject is what a search judges configurations for: a world that can
// be opened with overrides, and what its project can do.
type Subject struct {
	Name, Says string
	// Open opens the world with sets applied after its own overrides.
	Open                 func(sets []string) (*scenarios.Scenario, error)
	SizesKnown, Measures bool
	// Current, if not "", is the credit option (an Option's Policy) the
	// project runs now: its world as given (its own replication and
	// quotas) is searched too, as "as it runs now", and judged beside the
	// others (Answer.Current).
	Current string
}

// Subject is k's world as a search subject.
func (k Kind) Subject() Subject {
	return Subject{Name: k.Name, Says: k.Says, SizesKnown: k.SizesKnown, Measures: k.Measures,
		Open: func(sets []string) (*scenarios.Scenario, error) {
			return scenarios.Open(k.World, append(append([]string(nil), k.Sets...), sets...))
		}}
}

// Settings size a search.
type Settings struct {
	// Hosts caps each world's initial hosts (0: DefaultHosts); a world
	// with fewer keeps its own.
	Hosts int
	// Replications per configuration (0: DefaultReplications); intervals
	// need at least 3.
	Replications int
	Threats      *Threats // nil: the standard threat model
	Jobs         int      // runs at once (0: 1)
	// Progress, if set, is told each run done: what ran, and how many
	// of total are done.
	Progress func(what string, done, total int)
}

// Defaults of Settings.
const (
	DefaultHosts        = 400
	DefaultReplications = 3
)

// Fig is a figure's mean and 95% interval (NaN bounds: no interval).
type Fig struct{ Mean, Lo, Hi float64 }

// Row is one credit option under one server configuration.
type Row struct {
	Server Server
	Option Option
	Score  results.ScoreRow
	// Figs are the row's figures by scorecard column, with intervals.
	Figs [results.NumScoreColumns]Fig
	// Holds: the bound holds (results.ScoreRow.Holds) and honest
	// accounts keep at least 95% of their credit (results.HarmFloor).
	Holds bool
	// Price is the results computed (sent, and the project's own checks)
	// per validated workunit; DaysToPay the mean days until a new honest
	// host is paid in full (NaN where credit is paid at validation).
	Price, DaysToPay float64
	// PriceCI and DaysCI are their 95% intervals (NaN: none).
	PriceCI, DaysCI [2]float64
	// Allowed: the project can choose it (its needs are met) and BOINC
	// ships it; beyond-BOINC rows are never Allowed.
	Allowed bool
	order   int // its option's place, then its server's: the last tie-break
}

// Stock reports whether r is BOINC as it ships: its server and its credit
// option.
func (r *Row) Stock() bool { return !r.Server.Beyond && !r.Option.Beyond }

// AttackSets are the overrides an attack on r's configuration runs with
// (after the world's own): its server, its credit option as the only
// policy, and no cheaters, which the search puts in itself.
func (r *Row) AttackSets() []string {
	return append(append([]string(nil), r.Server.Sets...), "policies=["+r.Option.Spec+"]", "hosts.agents=[]")
}

// Answer is a search's result for one subject.
type Answer struct {
	Subject Subject
	Hosts   int // the hosts its worlds ran with
	Reps    int
	Cap     float64
	Threats []Threat
	Rows    []Row
	// Best is the recommended stock row; NoneHolds says no stock row
	// holds the bound (Best is then the nearest). Ties are the rows the
	// data cannot tell from Best (tied), at its price or dearer.
	Best      *Row
	NoneHolds bool
	Ties      []*Row
	// BestOnce is the best stock row whose jobs are sent once (for a
	// project that cannot replicate), nil if Best is one.
	BestOnce *Row
	// Beyond are the rows beyond BOINC: the fourth system on Best's
	// server, and every option under the server with trust.
	Beyond []*Row
	// Current is the project's configuration as it runs now (nil unless
	// the subject names it).
	Current *Row
}

// Now is the server configuration of a world as given.
var Now = Server{Name: "as it runs now", Config: []string{"your workunits and config.xml as they are"}}

// Search runs every server configuration of subj's world with the threat
// model, every credit option side by side in each run, with honest twins,
// and judges the rows.
func Search(subj Subject, st Settings) (*Answer, error) {
	as, err := SearchAll([]Subject{subj}, st)
	if err != nil {
		return nil, err
	}
	return as[0], nil
}

// job is one run of a search: a subject's world under one server.
type job struct {
	subj, server int
	world        *scenarios.Scenario
	sum          *results.Summary
	err          error
}

// SearchAll searches every subject, all their runs sharing st.Jobs
// goroutines; the answers are in subjects' order.
func SearchAll(subjects []Subject, st Settings) ([]*Answer, error) {
	if st.Hosts <= 0 {
		st.Hosts = DefaultHosts
	}
	if st.Replications <= 0 {
		st.Replications = DefaultReplications
	}
	if st.Threats == nil {
		var err error
		if st.Threats, err = ReadThreats(""); err != nil {
			return nil, err
		}
	}
	answers := make([]*Answer, len(subjects))
	servers := make([][]Server, len(subjects))
	opts := make([][]Option, len(subjects))
	var jobs []*job
	for k, subj := range subjects {
		var js []*job
		var err error
		if answers[k], servers[k], opts[k], js, err = prepare(k, subj, st); err != nil {
			return nil, err
		}
		jobs = append(jobs, js...)
	}
	var mu sync.Mutex
	done := 0
	each(len(jobs), st.Jobs, func(i int) {
		j := jobs[i]
		name := subjects[j.subj].Name + ", " + servers[j.subj][j.server].Name
		oc, err := runner.Run(j.world, runner.Options{Workers: 1, NoPlots: true})
		if err != nil {
			j.err = fmt.Errorf("%s: %w", name, err)
			return
		}
		j.sum = oc.Summary
		if st.Progress != nil {
			mu.Lock()
			done++
			st.Progress(name, done, len(jobs))
			mu.Unlock()
		}
	})
	for _, j := range jobs {
		if j.err != nil {
			return nil, j.err
		}
	}
	for _, j := range jobs {
		answers[j.subj].addRows(j, servers[j.subj], opts[j.subj])
	}
	for _, a := range answers {
		a.judge()
	}
	return answers, nil
}

// addRows adds run j's rows, one per option, judged by its scorecard.
func (a *Answer) addRows(j *job, servers []Server, opts []Option) {
	names := make([]string, len(opts))
	for i, o := range opts {
		names[i] = o.Policy
	}
	sc := results.NewScorecard(j.sum, names)
	for i, o := range opts {
		r := newRow(servers[j.server], o, sc.Rows[i], j.sum, a.Subject)
		r.order = i*len(servers) + j.server
		a.Rows = append(a.Rows, r)
	}
}

// prepare opens subject k's world under each of its servers, with the
// threats and every option: its answer (rows to come), servers, options
// and runs.
func prepare(k int, subj Subject, st Settings) (*Answer, []Server, []Option, []*job, error) {
	plain, err := subj.Open(nil)
	if err != nil {
		return nil, nil, nil, nil, err
	}
	servers, err := Servers(plain)
	if err != nil {
		return nil, nil, nil, nil, err
	}
	if subj.Current != "" {
		// Last: where the data cannot tell it from a named configuration,
		// the named one is said.
		servers = append(servers, Now)
	}
	opts := Options(plain)
	var specs []string
	for _, o := range opts {
		specs = append(specs, o.Spec)
	}
	apps := AppsOf(plain)
	base := []string{st.Threats.Override(apps), "replications=" + strconv.Itoa(st.Replications),
		"policies=[" + strings.Join(specs, ", ") + "]"}
	hosts := plain.Hosts.Initial
	if hosts > st.Hosts {
		hosts = st.Hosts
		base = append(base, "hosts.initial="+strconv.Itoa(hosts))
	}
	a := &Answer{Subject: subj, Hosts: hosts, Reps: st.Replications, Cap: Cap(plain), Threats: st.Threats.For(apps)}
	var jobs []*job
	for i, sv := range servers {
		w, err := subj.Open(append(append([]string(nil), base...), sv.Sets...))
		if err != nil {
			return nil, nil, nil, nil, fmt.Errorf("%s, %s: %w", subj.Name, sv.Name, err)
		}
		jobs = append(jobs, &job{subj: k, server: i, world: w})
	}
	return a, servers, opts, jobs, nil
}

// each runs f(0..n-1) on at most jobs goroutines.
func each(n, jobs int, f func(i int)) {
	jobs = max(1, min(jobs, n))
	next := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < jobs; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				f(i)
			}
		}()
	}
	for i := 0; i < n; i++ {
		next <- i
	}
	close(next)
	wg.Wait()
}

// newRow reads option o's figures under server sv from its run's summary.
func newRow(sv Server, o Option, sr results.ScoreRow, sum *results.Summary, subj Subject) Row {
	r := Row{Server: sv, Option: o, Score: sr}
	ps := sum.Policies[o.Policy]
	for c, col := range results.ScoreColumns {
		f := Fig{Mean: sr.Values[c], Lo: math.NaN(), Hi: math.NaN()}
		key := col.Figure
		if key == "gain" {
			// The worst behaviour's own interval: the value shown is its
			// mean, the largest of the behaviours' means.
			key = "gain." + sr.GainKind
		}
		if ci, ok := ps.CI95[key]; ok {
			f.Lo, f.Hi = float64(ci[0]), float64(ci[1])
		}
		r.Figs[c] = f
	}
	ok, measured := sr.Holds()
	r.Holds = ok && measured && !sr.Flag[results.ColHarm]
	r.Price = float64(sum.JobsPerValidatedWorkunit())
	r.PriceCI[0], r.PriceCI[1] = sum.JobsPerValidatedWorkunitCI95()
	r.DaysToPay, r.DaysCI = math.NaN(), [2]float64{math.NaN(), math.NaN()}
	if d, ok := sum.Price["honest_days_to_trust"]; ok && sv.Beyond {
		r.DaysToPay = float64(d)
		if ci, ok := sum.PriceCI95["honest_days_to_trust"]; ok {
			r.DaysCI = [2]float64{float64(ci[0]), float64(ci[1])}
		}
	}
	r.Allowed = r.Stock() && (!o.SizesKnown || subj.SizesKnown) && (!o.Measures || subj.Measures)
	return r
}

// badness is how far a row's figure in column c is from its ideal, in
// units of its bound (1 = at the bound), as the scorecard's picture
// colours it: neutralities by |log x| / log 1.1, harm by
// results.HarmUnits (log x / log 0.95 below 1), a gain by how
// far it exceeds 1 the same way, host spread over 0.1. 0 where the
// figure is not measured.
func badness(r *Row, c int) float64 { return badnessAt(r, c, r.Figs[c].Mean) }

// badnessAt is badness for the value x of row r's column c.
func badnessAt(r *Row, c int, x float64) float64 {
	if math.IsNaN(x) {
		return 0
	}
	lb := math.Log(results.CheatBound)
	switch c {
	case results.ColHarm:
		return results.HarmUnits(x)
	case results.ColDevice, results.ColProject:
		if !(x > 0) {
			return math.Inf(1)
		}
		return math.Abs(math.Log(x)) / lb
	case results.ColGain:
		if math.IsInf(x, 1) {
			return math.Inf(1)
		}
		return max(0, math.Log(x)/lb)
	case results.ColAccountGain:
		// Beyond what honest accounts reach by chance at its rank.
		if math.IsInf(x, 1) {
			return math.Inf(1)
		}
		if n := r.Score.AccountNoise; results.Defined(n) && n > 1 {
			x /= n
		}
		return max(0, math.Log(x)/lb)
	case results.ColHostCV:
		return x / 0.1
	}
	return 0
}

// rankColumns are the figures a row is ranked by: fairness, the worst
// behaviour's gain, the worst account's beyond chance, and the harm.
var rankColumns = []int{results.ColHostCV, results.ColDevice, results.ColProject, results.ColGain, results.ColAccountGain, results.ColHarm}

// worst is a row's largest badness over rankColumns and its column.
func worst(r *Row) (float64, int) {
	b, col := -1.0, -1
	for _, c := range rankColumns {
		if x := badness(r, c); x > b {
			b, col = x, c
		}
	}
	return b, col
}

// better reports whether a is to be recommended before b: a row that
// holds the bound before one that does not; then one whose honest
// accounts keep at least 95% of their credit (a configuration that
// takes credit from every honest volunteer is worse than one a few
// cheaters profit from); then the one whose worst figure (fairness, a
// gain or the harm, in units of its bound) is nearer its ideal, unless
// they tie (Tied); then the cheaper; then the option and server listed
// first (BOINC's default, CreditNew, leads).
func better(a, b *Row) bool {
	if a.Holds != b.Holds {
		return a.Holds
	}
	if ka, kb := keeps(a), keeps(b); ka != kb {
		return ka
	}
	if !tied(a, b) {
		wa, _ := worst(a)
		wb, _ := worst(b)
		return wa < wb
	}
	if a.Price != b.Price && !(math.IsNaN(a.Price) || math.IsNaN(b.Price)) {
		return a.Price < b.Price
	}
	return a.order < b.order
}

// keeps reports whether honest accounts keep at least 95% of their
// credit (and are paid no more than 1.1 times) under r (or harm is not measured).
func keeps(r *Row) bool { return !r.Score.Flag[results.ColHarm] }

// tied reports whether the data cannot tell a and b apart: on every
// figure they are ranked by, their 95% intervals overlap (or, without
// intervals, they are within 2% of each other).
func tied(a, b *Row) bool {
	for _, c := range rankColumns {
		if !overlap(a, b, c) {
			return false
		}
	}
	return true
}

// overlap reports whether a's and b's intervals of column c overlap, or,
// without intervals, whether their means are within 2%.
func overlap(a, b *Row, c int) bool {
	x, y := a.Figs[c], b.Figs[c]
	if math.IsNaN(x.Mean) && math.IsNaN(y.Mean) {
		return true // measured in neither
	}
	if !results.Defined(x.Mean) || !results.Defined(y.Mean) {
		return x.Mean == y.Mean
	}
	if math.IsNaN(x.Lo) || math.IsNaN(y.Lo) {
		return math.Abs(x.Mean-y.Mean) <= 0.02*max(math.Abs(x.Mean), math.Abs(y.Mean))
	}
	return x.Lo <= y.Hi && y.Lo <= x.Hi
}

// sameFigures reports whether two rows have the same figures (a cap that
// never binds, say).
func sameFigures(a, b *Row) bool {
	for c := range a.Figs {
		if x, y := a.Figs[c].Mean, b.Figs[c].Mean; x != y && !(math.IsNaN(x) && math.IsNaN(y)) {
			return false
		}
	}
	return true
}

// judge picks the recommended stock row, its ties, the best row where
// jobs are sent once, and the rows beyond BOINC to compare with it.
func (a *Answer) judge() {
	var allowed, once []*Row
	for i := range a.Rows {
		if r := &a.Rows[i]; r.Allowed {
			allowed = append(allowed, r)
			if isOnce(r.Server) {
				once = append(once, r)
			}
		}
	}
	best := pick(allowed)
	for i := range a.Rows {
		if r := &a.Rows[i]; r.Server.Name == Now.Name && r.Option.Policy == a.Subject.Current {
			a.Current = r
		}
	}
	a.Best = best
	if best == nil {
		return
	}
	a.NoneHolds = !best.Holds
	for _, r := range allowed {
		if r != best && r.Holds == best.Holds && keeps(r) == keeps(best) && tied(r, best) && !sameFigures(r, best) {
			a.Ties = append(a.Ties, r)
		}
	}
	if !isOnce(best.Server) {
		a.BestOnce = pick(once)
	}
	for i := range a.Rows {
		r := &a.Rows[i]
		if r.Option.Beyond && r.Server.Name == best.Server.Name || r.Server.Beyond && (r.Option.Policy == best.Option.Policy || r.Option.Beyond) {
			a.Beyond = append(a.Beyond, r)
		}
	}
}

// pick is the row to recommend of rows (nil for none): of those that
// hold the bound if any do, else of those whose honest accounts keep
// their credit if any do, the one whose worst figure is nearest its
// ideal; then, of every row the data cannot tell from it (tied), the
// cheapest, then the first listed.
func pick(rows []*Row) *Row {
	var m *Row
	for _, r := range rows {
		switch {
		case m == nil, r.Holds && !m.Holds, r.Holds == m.Holds && keeps(r) && !keeps(m):
			m = r
			continue
		case r.Holds != m.Holds, keeps(r) != keeps(m):
			continue
		}
		wr, _ := worst(r)
		if wm, _ := worst(m); wr < wm {
			m = r
		}
	}
	best := m
	for _, r := range rows {
		if r.Holds != m.Holds || keeps(r) != keeps(m) || !tied(r, m) {
			continue
		}
		if r.Price < best.Price || r.Price == best.Price && r.order < best.order {
			best = r
		}
	}
	return best
}

// isOnce reports whether a server sends every job once.
func isOnce(s Server) bool { return strings.HasPrefix(s.Name, "sent once") }
