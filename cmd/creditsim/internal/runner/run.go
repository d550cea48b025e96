package runner

import (
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/creditsim/creditsim/boinc"
	"github.com/creditsim/creditsim/cmd/creditsim/internal/replay"
	"github.com/creditsim/creditsim/internal/usage"
	"github.com/creditsim/creditsim/policy"
	"github.com/creditsim/creditsim/results"
	"github.com/creditsim/creditsim/results/plot"
	"github.com/creditsim/creditsim/results/report"
	"github.com/creditsim/creditsim/scenarios"
	"github.com/creditsim/creditsim/sim"
	"github.com/creditsim/creditsim/world"
	"github.com/klauspost/compress/gzip"
)

// ErrOutputExists is returned when the output folder exists without Force.
var ErrOutputExists = results.ErrOutputExists

// Version is the tool version written into summaries.
const Version = "creditsim 0.1.0"

// Options control a run.
type Options struct {
	Out   string // output folder
	Force bool   // replace an existing output folder
	// Key names the command and options that write Out (results.Replace):
	// a folder written for the same Key is replaced without Force; ""
	// replaces any folder creditsim wrote.
	Key     string
	Workers int // parallel replications; 0 = GOMAXPROCS
	// Progress, if set, is called with the fraction of simulated time done
	// over all replications (0..1) and how many replications are done.
	Progress func(fraction float64, done, total int)
	// CommandLine is recorded in run-info.json.
	CommandLine []string
	// Protect lists inputs the output folder must not hold (the
	// scenario file): --force never replaces such a folder.
	Protect []string
	// NoPlots skips the PNG plots and report.html (sweeps, quick runs).
	NoPlots bool
	// Trace, if set, is a file to write replication 1's results to in
	// replay's CSV form (run --trace); an existing file is replaced only
	// with Force, and never an input in Protect.
	Trace string
	// ExportStats, if set, is a folder to write replication 1's host
	// table into as a project's statistics export (host.gz, db_dump's
	// format), which creditsim fit reads (run --export-stats).
	ExportStats string
	// ExportTables, if set, is a folder to write replication 1's world
	// and results into as a project's database tables (the files
	// `mysql --batch` prints, with schema.sql and load.sql), which
	// creditsim fit reads (run --export-tables).
	ExportTables string
	// Slots, if set, is shared by several runs (a sweep's points): a
	// replication holds one of its buffered places while it runs, so
	// the runs together use at most cap(Slots) cores.
	Slots chan struct{}
	// Extra, if set, gives more files to write into the output folder
	// with the run's own, all or nothing (creditsim ablate's table).
	Extra func(s *results.Summary, policies []string) (map[string][]byte, error)
	// NoTwin skips the honest twins of a scenario with agents: no gain
	// or harm figures, and the summary says so (run --no-twin).
	NoTwin bool
	// Twins, if set, are the honest twins of the run's replications,
	// made by Twins for the same world, seed and replications: a twin
	// does not depend on which accounts are agents, so an attack's
	// candidates share them instead of each running its own.
	Twins []*results.Twin
}

// Outcome is what a run produced.
type Outcome struct {
	Summary  *results.Summary
	Policies []string
	Wall     time.Duration
	// PerReplication wall times and counts, for run-info.json.
	RepWall []time.Duration
}

type repOut struct {
	col    *results.Collector
	sim    *sim.Sim
	wall   time.Duration
	scales []float64
	engine int64 // the engine's footprint at its largest (sim.Footprint)
}

// Run simulates every replication of s and writes the outputs to
// opts.Out. Outputs do not depend on Workers. Its stages: check the
// places it will write, simulate (each replication and its honest twin
// as jobs of a pool), write the trace, summarise, write the outputs.
func Run(s *scenarios.Scenario, opts Options) (*Outcome, error) {
	start := time.Now()
	resolved, sum, err := scenarios.Resolved(s)
	if err != nil {
		return nil, err
	}
	if err := checkPlaces(s, opts); err != nil {
		return nil, err
	}
	win := world.Window(s)
	if win.To <= win.From {
		return nil, fmt.Errorf("nothing can be counted: warm-up (%gd) plus the longest delay bound leave no time before the end (%gd)",
			float64(s.Warmup)/boinc.SecondsPerDay, float64(s.Duration)/boinc.SecondsPerDay)
	}
	names := make([]string, len(s.Policies))
	for i, p := range s.Policies {
		names[i] = p.Name
	}
	var tracer *replay.Tracer
	if opts.Trace != "" || opts.ExportTables != "" {
		tracer = replay.NewTracer(names)
	}
	sm, err := simulate(s, opts, win, tracer)
	if err != nil {
		return nil, err
	}
	if err := writeExports(s, opts, tracer, sm.outs[0].sim); err != nil {
		return nil, err
	}
	summary := summarize(s, sum, win, sm, names)
	oc := &Outcome{Summary: summary, Policies: names}
	for _, o := range sm.outs {
		oc.RepWall = append(oc.RepWall, o.wall)
	}
	if opts.Out == "" {
		oc.Wall = time.Since(start)
		return oc, nil
	}
	if err := writeOutputs(s, opts, resolved, sm, oc, start); err != nil {
		return nil, err
	}
	return oc, nil
}

// writeExports writes replication 1's table export, trace and
// statistics export, those opts asks for.
func writeExports(s *scenarios.Scenario, opts Options, tracer *replay.Tracer, first *sim.Sim) error {
	if opts.ExportTables != "" {
		if err := exportTables(s, opts.ExportTables, first, tracer); err != nil {
			return err
		}
		if err := results.MarkFolder(opts.ExportTables, opts.Key); err != nil {
			return fmt.Errorf("--export-tables: %w", err)
		}
	}
	if opts.Trace != "" {
		if err := writeTrace(s, opts.Trace, tracer, first); err != nil {
			return err
		}
	}
	if opts.ExportStats != "" {
		if err := exportStats(s, opts.ExportStats, first); err != nil {
			return err
		}
		if err := results.MarkFolder(opts.ExportStats, opts.Key); err != nil {
			return fmt.Errorf("--export-stats: %w", err)
		}
	}
	return nil
}

// checkPlaces checks the output folder and the trace's path before
// anything runs.
func checkPlaces(s *scenarios.Scenario, opts Options) error {
	if opts.Out != "" {
		if err := results.CheckOutDir(opts.Out, results.Replace{Force: opts.Force, Key: opts.Key}, opts.Protect...); err != nil {
			return err
		}
		if err := results.CheckRoom(opts.Out, outputBytes(s, opts)); err != nil {
			return err
		}
	}
	for _, x := range []struct{ flag, dir, file string }{
		// host.gz: about 100 bytes a host, compressed; MinRoom covers it.
		{"--export-stats", opts.ExportStats, "host.gz"},
		// The result table: about 200 bytes a result.
		{"--export-tables", opts.ExportTables, "result.tsv"},
	} {
		if x.dir == "" {
			continue
		}
		// An export folder follows -o's rule: a folder of the user's own
		// files (their host.tsv) is not written into without --force.
		if err := results.CheckOutDir(x.dir, results.Replace{Force: opts.Force, Key: opts.Key}, opts.Protect...); err != nil {
			// The refusal's "or -o for another folder" is this flag's.
			return results.Refused("%s: %s", x.flag, strings.Replace(err.Error(), "-o for another", x.flag+" for another", 1))
		}
		if err := results.CheckRoom(filepath.Join(x.dir, x.file), results.MinRoom); err != nil {
			return fmt.Errorf("%s: %w", x.flag, err)
		}
	}
	if opts.Trace != "" {
		if err := checkTrace(opts.Trace, opts.Out, opts.Force, opts.Protect); err != nil {
			return err
		}
		return results.CheckRoom(opts.Trace, results.MinRoom)
	}
	return nil
}

// outputBytes estimates what a run writes: the plots and report, and
// hosts.csv, a row per host and replication that grows with the
// policies (about 200 bytes and 60 per policy, measured on baseline).
func outputBytes(s *scenarios.Scenario, opts Options) int64 {
	hosts := float64(s.Hosts.Initial) + s.Hosts.ArrivalsPerDay*float64(s.Duration)/boinc.SecondsPerDay
	row := 200 + 60*float64(len(s.Policies))
	return results.MinRoom + int64(float64(s.Replications)*hosts*row)
}

// simulation is what simulate made: each replication's engine and
// collector, and what simulating cost.
type simulation struct {
	outs     []repOut
	withTwin bool // each replication has its honest twin (set on outs' collectors)
	workers  int
	cpu      float64 // CPU seconds spent simulating
	peak     usage.Peak
}

// simulate runs every replication of s, and with agents each one's
// honest twin as a job of its own (twinJob) unless opts gives the twins
// or skips them; replication 1 feeds tracer if set.
func simulate(s *scenarios.Scenario, opts Options, win results.Window, tracer *replay.Tracer) (*simulation, error) {
	sm := &simulation{workers: opts.Workers, withTwin: len(s.Hosts.Agents) > 0 && !opts.NoTwin}
	if sm.workers <= 0 {
		sm.workers = runtime.GOMAXPROCS(0)
	}
	given := sm.withTwin && len(opts.Twins) == s.Replications
	perRep := 1
	if sm.withTwin && !given {
		perRep = 2
	}
	sm.outs = make([]repOut, s.Replications)
	twins := make([]*results.Twin, s.Replications)
	copy(twins, opts.Twins) // used only when given
	errs := make([]error, s.Replications*perRep)
	tell := progressOf(opts.Progress, s.Replications*perRep, perRep)
	// The cost of simulating, apart from writing: CPU time (the machine
	// may be shared) and the live heap at its largest, sampled once a
	// simulated day in every replication.
	cpu0 := usage.CPUSeconds()
	inParallel(s.Replications*perRep, sm.workers, opts.Slots, func(j int) {
		r := j / perRep
		prog := func(f float64) { sm.peak.Sample(); tell(j, f) }
		if perRep == 2 && j%perRep == twinJob {
			twins[r], errs[j] = runTwin(s, r, win, prog)
		} else {
			var tr *replay.Tracer
			if r == 0 {
				tr = tracer
			}
			sm.outs[r], errs[j] = runOne(s, r, win, prog, tr)
		}
		tell(j, 1)
	})
	sm.cpu = usage.CPUSeconds() - cpu0
	// The replications' released records are garbage now, but the
	// collector would wait for the heap to grow by a quarter of what was
	// live before taking them back: collect now, so that the outputs are
	// built in that memory, not beside it.
	runtime.GC()
	if err := firstError(errs); err != nil {
		return nil, err
	}
	if sm.withTwin {
		for r := range sm.outs {
			sm.outs[r].col.SetTwin(twins[r])
		}
	}
	return sm, nil
}

// firstError is the first error of errs that is not nil.
func firstError(errs []error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// progressOf returns a function that records job j's fraction done and
// tells report (if set) the mean over the jobs, with whole replications
// done out of all (perRep jobs each).
func progressOf(report func(fraction float64, done, total int), jobs, perRep int) func(j int, f float64) {
	if report == nil {
		return func(int, float64) {}
	}
	var mu sync.Mutex
	progress := make([]float64, jobs)
	return func(j int, f float64) {
		mu.Lock()
		defer mu.Unlock()
		progress[j] = f
		t, done := 0.0, 0
		for _, x := range progress {
			t += x
			if x >= 1 {
				done++
			}
		}
		report(t/float64(len(progress)), done/perRep, len(progress)/perRep)
	}
}

// writeTrace writes the trace of replication 1 to path, gzip-compressed
// if the name ends in .gz.
func writeTrace(s *scenarios.Scenario, path string, tracer *replay.Tracer, first *sim.Sim) error {
	h := replay.Header{ValidatorPeriod: float64(s.Server.ValidatorPeriod), FeederPeriod: float64(s.Server.FeederPeriod),
		End: float64(s.Duration), World: first.World()}
	err := results.StreamFileAtomic(path, func(w io.Writer) error {
		if !strings.HasSuffix(path, ".gz") {
			return tracer.Write(w, h)
		}
		// The text is formatted on one core while it is compressed on
		// another, at gzip's fastest level: a trace is written once.
		z, err := gzip.NewWriterLevel(w, gzip.BestSpeed)
		if err != nil {
			return err
		}
		pr, pw := io.Pipe()
		go func() { pw.CloseWithError(tracer.Write(pw, h)) }()
		if _, err := io.Copy(z, pr); err != nil {
			pr.CloseWithError(err) // stops the writer
			return err
		}
		return z.Close()
	})
	if err != nil {
		return fmt.Errorf("trace %s: %w", path, err)
	}
	return nil
}

// summarize builds summary.json's content from the replications.
func summarize(s *scenarios.Scenario, sha string, win results.Window, sm *simulation, names []string) *results.Summary {
	summary := &results.Summary{
		Tool: Version, Scenario: s.Name, ScenarioSHA256: sha, Seed: s.Seed, Replications: s.Replications,
		CobblestonePerGFLOPSDay: results.Num(s.ReferenceScale),
		SimulatedDays:           results.Num(float64(s.Duration) / boinc.SecondsPerDay),
		WarmupDays:              results.Num(float64(s.Warmup) / boinc.SecondsPerDay),
		CountedFromDay:          results.Num(win.From / boinc.SecondsPerDay),
		CountedToDay:            results.Num(win.To / boinc.SecondsPerDay),
		Policies:                map[string]*results.PolicySummary{},
	}
	summary.Twin = "none (no agents)"
	switch {
	case sm.withTwin:
		summary.Twin = "ran"
	case len(s.Hosts.Agents) > 0:
		summary.Twin = "skipped (--no-twin)"
	}
	var estErr, outcomes, regimes, prices []results.Figures
	var validated int64
	for _, o := range sm.outs {
		regimes = append(regimes, o.col.Regime(o.sim.Quorums()))
		prices = append(prices, price(o.sim, s.Server.Trust.Confirmations > 0, s.Server.Trust.Escrow))
		summary.Results += o.sim.Results()
		summary.Events += o.sim.Events()
		summary.CountedResults += o.col.Counted()
		estErr = append(estErr, results.Figures{"e": o.col.RuntimeEstimateError()})
		outcomes = append(outcomes, o.col.Outcomes())
		for _, q := range o.sim.Quorums() {
			validated += q[0]
		}
	}
	summary.RuntimeEstimateError = results.Num(results.AggregateArithmetic(estErr)["e"].Mean)
	summary.Outcomes = means(outcomes)
	summary.Regime = means(regimes)
	summary.Price = means(prices)
	summary.PriceCI95 = priceIntervals(prices)
	if validated == 0 && summary.Results > 0 {
		summary.Warnings = append(summary.Warnings, noValidation(s))
	} else {
		summary.Warnings = append(summary.Warnings, appsUnvalidated(s, sm.outs)...)
	}
	for p, name := range names {
		var reps []results.Figures
		for _, o := range sm.outs {
			reps = append(reps, o.col.PolicyFigures(p))
		}
		ps := results.NewPolicySummary(sm.outs[0].scales[p], float64(s.Duration)/boinc.SecondsPerDay, reps)
		ps.Requires, ps.Oracle = policy.Needed(s.Policies[p].Spec(), agentKinds(s))
		summary.Policies[name] = ps
	}
	return summary
}

// means is each figure's arithmetic mean over replications.
// priceIntervals are the 95% intervals of each replication's price
// figures, and of results sent plus the project's checks per validated
// workunit (results.ComputedPerValidated), where there is one; nil if
// none.
func priceIntervals(prices []results.Figures) map[string][2]results.Num {
	reps := make([]results.Figures, len(prices))
	for i, p := range prices {
		reps[i] = results.Figures{}
		for k, v := range p {
			reps[i][k] = v
		}
		if x, ok := p["results_per_validated_workunit"]; ok {
			reps[i][results.ComputedPerValidated] = x + p["project_checks_per_validated_workunit"]
		}
	}
	var out map[string][2]results.Num
	for k, a := range results.AggregateArithmetic(reps) {
		if math.IsNaN(a.Low) || math.IsNaN(a.Hi) {
			continue
		}
		if out == nil {
			out = map[string][2]results.Num{}
		}
		out[k] = [2]results.Num{results.Num(a.Low), results.Num(a.Hi)}
	}
	return out
}

func means(reps []results.Figures) map[string]results.Num {
	out := map[string]results.Num{}
	for k, a := range results.AggregateArithmetic(reps) {
		out[k] = results.Num(a.Mean)
	}
	return out
}

// writeOutputs writes the run's files into a temporary folder and moves
// it into place: tables, plots and report, summary.json, the caller's
// extra files, run-info.json. Nothing is left behind on an error.
func writeOutputs(s *scenarios.Scenario, opts Options, resolved []byte, sm *simulation, oc *Outcome, start time.Time) error {
	dir, err := results.NewOutDir(opts.Out, results.Replace{Force: opts.Force, Key: opts.Key}, opts.Protect...)
	if err != nil {
		return err
	}
	w := &outWriter{dir: dir}
	summary, names := oc.Summary, oc.Policies
	w.write("scenario.resolved.yaml", resolved)
	writeTables(w, sm.outs, names)
	if !opts.NoPlots && w.err == nil {
		cols := make([]*results.Collector, len(sm.outs))
		for r, o := range sm.outs {
			cols[r] = o.col
		}
		plots, err := plot.Plots(cols, names, summary)
		w.fail(err)
		for _, pl := range plots {
			w.write(pl.File, pl.PNG)
		}
		if w.err == nil {
			html, err := report.Report(summary, names, s.Description, plots, resolved)
			w.fail(err)
			w.write("report.html", html)
		}
	}
	js, err := results.JSON(summary)
	w.fail(err)
	w.write("summary.json", js)
	if opts.Extra != nil && w.err == nil {
		files, err := opts.Extra(summary, names)
		w.fail(err)
		for _, name := range results.SortedKeys(files) {
			w.write(name, files[name])
		}
	}
	oc.Wall = time.Since(start)
	ij, _ := results.JSON(runInfo(opts, sm, oc))
	w.write("run-info.json", ij)
	if w.err != nil {
		dir.Abort()
		return w.err
	}
	if err := dir.Commit(); err != nil {
		dir.Abort()
		return err
	}
	return nil
}

// outWriter writes files into an output folder until the first error,
// which it keeps.
type outWriter struct {
	dir *results.OutDir
	err error
}

func (w *outWriter) fail(err error) {
	if w.err == nil {
		w.err = err
	}
}

func (w *outWriter) write(name string, data []byte) {
	if w.err == nil {
		w.err = w.dir.Write(name, data)
	}
}

// stream writes one of the tables that grow with the world (a row per
// host, a row per user, project and day) as fill makes it, not whole.
func (w *outWriter) stream(name string, fill func(cw *csv.Writer)) {
	if w.err == nil {
		w.err = w.dir.Stream(name, func(f io.Writer) error {
			cw := csv.NewWriter(f)
			fill(cw)
			cw.Flush()
			return cw.Error()
		})
	}
}

// writeTables writes hosts.csv, sample-jobs.csv, and per policy its time
// series and (Science United) its history.
func writeTables(w *outWriter, outs []repOut, names []string) {
	w.stream("hosts.csv", func(cw *csv.Writer) {
		cw.Write(results.HostHeader(names))
		for r, o := range outs {
			o.col.HostRows(cw, r, names)
		}
	})
	w.write("sample-jobs.csv", outs[0].col.SampleJobs(names))
	for p, name := range names {
		w.write("timeseries-"+name+".csv", outs[0].col.TimeSeries(p))
		if _, ok := outs[0].sim.Policies()[p].(policy.Historian); ok {
			w.stream("history-"+name+".csv", func(cw *csv.Writer) {
				var line []string
				for r, o := range outs {
					h := o.sim.Policies()[p].(policy.Historian)
					if r == 0 {
						cw.Write(append([]string{"replication"}, h.HistoryHeader()...))
					}
					rep := strconv.Itoa(r)
					for row := range h.History {
						line = append(append(line[:0], rep), row...)
						cw.Write(line)
					}
				}
			})
		}
	}
}

// runInfo is run-info.json: what the run cost and what made it.
func runInfo(opts Options, sm *simulation, oc *Outcome) map[string]any {
	sum := oc.Summary
	info := map[string]any{"tool": Version, "go": runtime.Version(), "gomaxprocs": runtime.GOMAXPROCS(0), "workers": sm.workers,
		"wall_seconds": oc.Wall.Seconds(), "results": sum.Results, "events": sum.Events,
		"results_per_second": float64(sum.Results) / oc.Wall.Seconds()}
	var reps []float64
	for _, d := range oc.RepWall {
		reps = append(reps, d.Seconds())
	}
	info["replication_wall_seconds"] = reps
	info["simulation_cpu_seconds"] = sm.cpu
	if sm.cpu > 0 {
		info["results_per_cpu_second"] = float64(sum.Results) / sm.cpu
	}
	info["peak_live_heap_bytes"] = sm.peak.Bytes()
	var engine int64
	for _, o := range sm.outs {
		engine = max(engine, o.engine)
	}
	info["peak_engine_bytes"] = engine
	info["peak_rss_bytes"] = usage.PeakRSS()
	info["command_line"] = opts.CommandLine
	info["revision"] = Revision()
	return info
}

func runOne(s *scenarios.Scenario, r int, win results.Window, progress func(float64), tr *replay.Tracer) (repOut, error) {
	t := time.Now()
	col := results.NewCollector(win, s.ReferenceScale, len(s.Policies))
	if r == 0 {
		col.KeepSampleJobs() // the outputs show replication 1's
	}
	cfg, err := world.Config(s, r, col)
	if err != nil {
		return repOut{}, err
	}
	if tr != nil {
		cfg.Tracer = tr
		cfg.Observer = observers{col, tr}
	}
	x := sim.New(cfg)
	col.Attach(x)
	var engine int64
	x.Run(func(f float64) {
		engine = max(engine, x.Footprint())
		if progress != nil {
			progress(f)
		}
	})
	// The outputs are built from the collector, the ledgers and the
	// policies: the engine's records can go, so that building them
	// reuses that memory instead of adding to it.
	x.Release()
	var scales []float64
	for _, p := range cfg.Policies {
		scales = append(scales, p.Scale())
	}
	return repOut{col: col, sim: x, wall: time.Since(t), scales: scales, engine: engine}, nil
}

// noValidation says why a world whose results were never validated has
// no credit figures.
func noValidation(s *scenarios.Scenario) string {
	quorum := 0
	for _, p := range s.Projects {
		for _, a := range p.Apps {
			quorum = max(quorum, a.MinQuorum)
		}
	}
	who := "hosts"
	if s.Server.OneResultPerUserPerWU {
		who = "users (one_result_per_user_per_wu)"
	}
	return fmt.Sprintf("no workunit was validated, so no credit was granted and the credit figures are undefined: "+
		"a quorum of %d needs that many %s to return agreeing results before the end (%s at the start)", quorum, who, hostCount(s.Hosts.Initial))
}

// appsUnvalidated names each app that validated no workunit in any
// replication while others did: its figures are missing from the
// credit figures, and a user who set its quorum should hear why.
func appsUnvalidated(s *scenarios.Scenario, outs []repOut) []string {
	var warns []string
	i := 0
	for _, p := range s.Projects {
		for _, a := range p.Apps {
			var n int64
			for _, o := range outs {
				n += o.sim.Validated()[i]
			}
			if n == 0 {
				warns = append(warns, fmt.Sprintf("app %s of project %s validated no workunit, so none of its results was granted credit: "+
					"a quorum of %d needs that many hosts able to run it to return agreeing results before the end", a.Name, p.Name, a.MinQuorum))
			}
			i++
		}
	}
	return warns
}

// hostCount is "1 host" or "N hosts".
func hostCount(n int) string {
	if n == 1 {
		return "1 host"
	}
	return fmt.Sprintf("%d hosts", n)
}

// agentKinds lists the kinds of s's agents, combined ones' both.
func agentKinds(s *scenarios.Scenario) []string {
	var out []string
	for _, a := range s.Hosts.Agents {
		out = append(out, a.Kind)
		if a.And != nil {
			out = append(out, a.And.Kind)
		}
	}
	return out
}

// inParallel calls do(j) for j from 0 to n-1, on at most workers
// goroutines, each call holding a place of slots (if set) while it runs.
func inParallel(n, workers int, slots chan struct{}, do func(j int)) {
	jobs := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				if slots != nil {
					slots <- struct{}{}
				}
				do(j)
				if slots != nil {
					<-slots
				}
			}
		}()
	}
	for j := 0; j < n; j++ {
		jobs <- j
	}
	close(jobs)
	wg.Wait()
}

// twinJob is the place of a replication's honest twin among its jobs.
const twinJob = 1

// Twins simulates the honest twin of every replication of s, at most
// workers at once (holding a place of slots while one runs, if set):
// the same world, seed and replications with every behaviour switched
// off. They do not depend on s's agents, so every scenario that differs
// from s only in its agents can take them (Options.Twins).
func Twins(s *scenarios.Scenario, workers int, slots chan struct{}) ([]*results.Twin, error) {
	win := world.Window(s)
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	twins := make([]*results.Twin, s.Replications)
	errs := make([]error, s.Replications)
	inParallel(s.Replications, workers, slots, func(r int) { twins[r], errs[r] = runTwin(s, r, win, nil) })
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return twins, nil
}

// runTwin simulates replication r's honest twin: the same scenario and
// seed with every behaviour switched off (hosts.Config.Twin), and
// returns what the run's figures read of it.
func runTwin(s *scenarios.Scenario, r int, win results.Window, progress func(float64)) (*results.Twin, error) {
	t := *s
	t.Hosts.Twin = true
	col := results.NewCollector(win, s.ReferenceScale, len(s.Policies))
	cfg, err := world.Config(&t, r, col)
	if err != nil {
		return nil, err
	}
	x := sim.New(cfg)
	col.Attach(x)
	x.Run(progress)
	x.Release()
	return col.Twin(), nil
}

// Revision is the version-control revision the binary was built from
// (with "+modified" for a dirty tree), "unknown" when not recorded.
func Revision() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "unknown"
	}
	rev, dirty := "", false
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if rev == "" {
		return "unknown"
	}
	if dirty {
		rev += "+modified"
	}
	return rev
}

// observers passes each observation to both.
type observers [2]sim.Observer

func (o observers) ResultDone(r *sim.Record) { o[0].ResultDone(r); o[1].ResultDone(r) }
func (o observers) Day(d *sim.DayState)      { o[0].Day(d); o[1].Day(d) }

// checkTrace refuses a trace path that is a folder, an input, a node
// other than a regular file, a place in the output folder (which the
// run replaces), or an existing file without force.
func checkTrace(path, out string, force bool, protect []string) error {
	abs, err := filepath.Abs(path)
	if err != nil {
		return err
	}
	if out != "" {
		if ao, err := filepath.Abs(out); err == nil && (abs == ao || strings.HasPrefix(abs, ao+string(filepath.Separator))) {
			return results.Refused("--trace %s lies in the output folder %s, which the run replaces when it writes it; give a path outside it", path, out)
		}
	}
	for _, p := range protect {
		if ap, err := filepath.Abs(p); err == nil && ap == abs {
			return results.Refused("--trace %s is the input being run; creditsim never replaces it", path)
		}
	}
	if d, err := os.Stat(filepath.Dir(abs)); err != nil || !d.IsDir() {
		return results.Refused("--trace %s: its folder %s does not exist; creditsim makes no folder for a trace", path, filepath.Dir(path))
	}
	fi, err := os.Lstat(path)
	switch {
	case os.IsNotExist(err):
		return nil
	case err != nil:
		return err
	case fi.IsDir():
		return results.Refused("--trace %s is a folder; give a file", path)
	case !fi.Mode().IsRegular():
		// A device, a link or a pipe: renaming a file over it would
		// replace the node itself (a link to /dev/stdout, say).
		return results.Refused("--trace %s is not a regular file; creditsim replaces only regular files, even with --force", path)
	case !force:
		return results.Refused("--trace %s exists (use --force to replace it)", path)
	}
	return nil
}

// price returns what one replication's defences cost (Summary.Price).
func price(x *sim.Sim, trust, escrow bool) results.Figures {
	var wus int64
	for _, q := range x.Quorums() {
		wus += q[0]
	}
	f := results.Figures{"results_per_validated_workunit": math.NaN()}
	if wus > 0 {
		f["results_per_validated_workunit"] = float64(x.Results()) / float64(wus)
	}
	if !trust {
		return f
	}
	p := x.TrustPrice()
	f["project_checks_per_validated_workunit"], f["failed_check_share"] = math.NaN(), math.NaN()
	f["honest_trusted_share"], f["honest_days_to_trust"] = math.NaN(), p.DaysToTrust
	if wus > 0 {
		f["project_checks_per_validated_workunit"] = float64(p.Checks) / float64(wus)
	}
	if p.Checks > 0 {
		f["failed_check_share"] = float64(p.Failed) / float64(p.Checks)
	}
	if p.HonestHosts > 0 {
		f["honest_trusted_share"] = float64(p.Trusted) / float64(p.HonestHosts)
	}
	if escrow {
		f["honest_revoked_share"], f["honest_escrow_at_end_share"] = math.NaN(), math.NaN()
		if p.HonestValid > 0 {
			f["honest_revoked_share"] = float64(p.Revoked) / float64(p.HonestValid)
			f["honest_escrow_at_end_share"] = float64(p.HeldAtEnd) / float64(p.HonestValid)
		}
	}
	return f
}
