package sweep

import (
	"bytes"
	"cmp"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"go.yaml.in/yaml/v3"

	"github.com/creditsim/creditsim/results"
	"github.com/creditsim/creditsim/results/plot"
	"github.com/creditsim/creditsim/results/report"
)

// manifest is the sweep section of sweep.resolved.yaml: all that merging
// and the final tables need, without the base scenario's file.
type manifest struct {
	Name         string          `yaml:"name"`
	Seed         uint64          `yaml:"seed"`
	Replications int             `yaml:"replications"`
	Combine      string          `yaml:"combine"`
	Parameters   []manifestParam `yaml:"parameters"`
	Plots        []string        `yaml:"plots"`
	Points       []struct {
		ID     string `yaml:"id"`
		Seed   uint64 `yaml:"seed"`
		Values string `yaml:"values"`
	} `yaml:"points"`
}

// manifestParam is a swept parameter as sweep.resolved.yaml has it.
type manifestParam struct {
	Path   string   `yaml:"path"`
	Name   string   `yaml:"name"`
	Values []string `yaml:"values"`
	Labels []string `yaml:"labels"`
}

// axis is the parameter's name in words for a plot's axis, or its path.
func (p manifestParam) axis() string { return cmp.Or(p.Name, p.Path) }

// label is value's label in words, or the value itself.
func (p manifestParam) label(value string) string {
	for i, v := range p.Values {
		if v == value && i < len(p.Labels) {
			return p.Labels[i]
		}
	}
	return value
}

// pointLabel names a point by what it sets, in words where the sweep
// gives them: its parameters' labels joined, or its ID when a value
// has no label and is too long to read on a plot.
func (m *manifest) pointLabel(pd pointData) string {
	var parts []string
	for i, p := range m.Parameters {
		if i >= len(pd.Values) {
			break
		}
		l := p.label(pd.Values[i])
		if len(l) > maxTickLabel && len(p.Labels) == 0 {
			return pd.ID
		}
		parts = append(parts, l)
	}
	return strings.Join(parts, ", ")
}

func parseManifest(b []byte) (*manifest, error) {
	var doc struct {
		Sweep manifest `yaml:"sweep"`
	}
	if err := yaml.Unmarshal(b, &doc); err != nil {
		return nil, fmt.Errorf("%s: %v", manifestFile, err)
	}
	if len(doc.Sweep.Points) == 0 || len(doc.Sweep.Parameters) == 0 {
		return nil, fmt.Errorf("%s: no points", manifestFile)
	}
	return &doc.Sweep, nil
}

// pointData is one point as read back from its folder.
type pointData struct {
	ID     string
	Seed   uint64
	Values []string // per parameter
	Sum    *results.Summary
}

// Finalize reads every point's folder in dir and writes the sweep's
// tables (sweep.csv, sweep.json) and plots; all points must be present.
func Finalize(dir string, jobs int) error {
	man, err := os.ReadFile(filepath.Join(dir, manifestFile))
	if err != nil {
		return err
	}
	m, err := parseManifest(man)
	if err != nil {
		return err
	}
	pts := make([]pointData, len(m.Points))
	for k := range m.Points {
		if err := readPoint(dir, m.Points[k].ID, m.Points[k].Seed, m.Points[k].Values, &pts[k]); err != nil {
			return err
		}
	}
	files := map[string][]byte{}
	files["sweep.csv"] = sweepCSV(m, pts)
	js, err := sweepJSON(m, pts)
	if err != nil {
		return err
	}
	files["sweep.json"] = js
	plots, err := sweepPlots(m, pts, jobs)
	if err != nil {
		return err
	}
	for _, pl := range plots {
		files[pl.File] = pl.PNG
	}
	html, err := sweepReport(m, pts, plots, man)
	if err != nil {
		return err
	}
	files["sweep.html"] = html
	for _, name := range results.SortedKeys(files) {
		if err := results.WriteFileAtomic(filepath.Join(dir, name), files[name]); err != nil {
			return err
		}
	}
	return nil
}

// readPoint reads point id's folder into pd: its values, which must be
// values (what the sweep file gives it), and its summary, which with
// point.json must match the digest written beside them.
func readPoint(dir, id string, seed uint64, values string, pd *pointData) error {
	pd.ID, pd.Seed = id, seed
	var info struct {
		Values []struct {
			Path  string `json:"path"`
			Value string `json:"value"`
		} `json:"values"`
	}
	point, err := os.ReadFile(filepath.Join(dir, "points", id, "point.json"))
	if err == nil {
		err = json.Unmarshal(point, &info)
	}
	if err != nil {
		return fmt.Errorf("point %s: %v", id, err)
	}
	var said []string
	for _, v := range info.Values {
		pd.Values = append(pd.Values, v.Value)
		said = append(said, v.Path+"="+v.Value)
	}
	// The digest proves the files unedited since written, not that they
	// belong to this sweep: the point's values must be the sweep file's.
	if got := strings.Join(said, ", "); got != values {
		return &Error{File: filepath.Join(dir, "points", id, "point.json"),
			Reason: fmt.Sprintf("its values (%s) are not the sweep's for point %s (%s in %s); run that point again", got, id, values, manifestFile)}
	}
	sum, err := os.ReadFile(filepath.Join(dir, "points", id, "summary.json"))
	if err == nil {
		pd.Sum = &results.Summary{}
		err = json.Unmarshal(sum, pd.Sum)
	}
	if err != nil {
		return fmt.Errorf("point %s: %v", id, err)
	}
	d, err := os.ReadFile(filepath.Join(dir, "points", id, digestFile))
	if err != nil || strings.TrimSpace(string(d)) != pointDigest(id, seed, point, sum) {
		return &Error{File: filepath.Join(dir, "points", id),
			Reason: "its point.json or summary.json was edited, or swapped with another point's, since it was written (the digest does not match); run that point again"}
	}
	return nil
}

// policyNames returns the policies of a sweep's points, sorted.
func policyNames(pts []pointData) []string {
	set := map[string]bool{}
	for _, p := range pts {
		for n := range p.Sum.Policies {
			set[n] = true
		}
	}
	return results.SortedKeys(set)
}

func sweepCSV(m *manifest, pts []pointData) []byte {
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	head := []string{"point"}
	for _, p := range m.Parameters {
		head = append(head, p.Path)
	}
	w.Write(append(head, "policy", "figure", "mean", "ci95_low", "ci95_high", "replications"))
	for _, pd := range pts {
		for _, name := range policyNames(pts) {
			ps := pd.Sum.Policies[name]
			if ps == nil {
				continue
			}
			flat := ps.Flat()
			for _, fig := range results.SortedKeys(flat) {
				row := append([]string{pd.ID}, pd.Values...)
				lo, hi := "", ""
				if ci, ok := ps.CI95[fig]; ok {
					lo, hi = results.FormatFloat(float64(ci[0])), results.FormatFloat(float64(ci[1]))
				}
				w.Write(append(row, name, fig, results.FormatFloat(float64(flat[fig])), lo, hi, strconv.Itoa(pd.Sum.Replications)))
			}
		}
	}
	w.Flush()
	return b.Bytes()
}

func sweepJSON(m *manifest, pts []pointData) ([]byte, error) {
	type figure struct {
		Mean results.Num     `json:"mean"`
		CI95 *[2]results.Num `json:"ci95,omitempty"`
	}
	type point struct {
		ID       string                       `json:"id"`
		Seed     uint64                       `json:"seed"`
		Values   map[string]string            `json:"values"`
		Results  int64                        `json:"results"`
		Policies map[string]map[string]figure `json:"policies"`
	}
	type param struct {
		Path   string   `json:"path"`
		Values []string `json:"values"`
	}
	doc := struct {
		Sweep        string  `json:"sweep"`
		Seed         uint64  `json:"seed"`
		Replications int     `json:"replications"`
		Combine      string  `json:"combine"`
		Parameters   []param `json:"parameters"`
		Points       []point `json:"points"`
	}{Sweep: m.Name, Seed: m.Seed, Replications: m.Replications, Combine: m.Combine}
	for _, p := range m.Parameters {
		doc.Parameters = append(doc.Parameters, param{p.Path, p.Values})
	}
	for _, pd := range pts {
		pt := point{ID: pd.ID, Seed: pd.Seed, Values: map[string]string{}, Results: pd.Sum.Results, Policies: map[string]map[string]figure{}}
		for i, p := range m.Parameters {
			pt.Values[p.Path] = pd.Values[i]
		}
		for name, ps := range pd.Sum.Policies {
			figs := map[string]figure{}
			for k, v := range ps.Flat() {
				f := figure{Mean: v}
				if ci, ok := ps.CI95[k]; ok {
					f.CI95 = &ci
				}
				figs[k] = f
			}
			pt.Policies[name] = figs
		}
		doc.Points = append(doc.Points, pt)
	}
	return results.JSON(doc)
}

// plotFigures are what a sweep plots: the figures its spec names, else
// the registry's headline figures with every member of a headline family
// (cheat figures) the points define.
func plotFigures(m *manifest, pts []pointData) []string {
	if len(m.Plots) > 0 {
		return slices.DeleteFunc(slices.Clone(m.Plots), func(f string) bool { return f == FrontierPlot })
	}
	figs := results.HeadlineFigures()
	family := map[string]bool{}
	for _, pd := range pts {
		for _, ps := range pd.Sum.Policies {
			for k := range ps.Flat() {
				if results.HeadlineFamily(k) {
					family[k] = true
				}
			}
		}
	}
	return append(figs, results.SortedKeys(family)...)
}

// sweepPlots draws each plotted figure against the parameter (one
// parameter or zipped ones: lines with 95% bands, one per policy) or, for
// a two-parameter grid, a heat map per policy. Larger grids are not
// plotted (sweep.csv has them).
func sweepPlots(m *manifest, pts []pointData, jobs int) ([]plot.Plot, error) {
	names := policyNames(pts)
	var tasks []plotTask
	if slices.Contains(m.Plots, FrontierPlot) {
		tasks = append(tasks, frontierTask(m, pts, names))
	}
	oneD := len(m.Parameters) == 1 || m.Combine == "zip"
	if !oneD && len(m.Parameters) != 2 {
		return drawAll(tasks, jobs)
	}
	for _, fig := range plotFigures(m, pts) {
		if !definedAnywhere(pts, names, fig) {
			continue
		}
		if oneD {
			tasks = append(tasks, lineTask(m, pts, names, fig))
		} else {
			tasks = append(tasks, heatTasks(m, pts, names, fig)...)
		}
	}
	return drawAll(tasks, jobs)
}

// plotTask is one PNG of a sweep, drawn as a task of its own.
type plotTask struct {
	name, title, caption string
	draw                 func() ([]byte, error)
}

// figureAt is policy name's figure fig at point pd: its mean and 95%
// interval, NaN where undefined.
func figureAt(pd pointData, name, fig string) (mean, lo, hi float64) {
	mean, lo, hi = math.NaN(), math.NaN(), math.NaN()
	ps := pd.Sum.Policies[name]
	if ps == nil {
		return
	}
	if v, ok := ps.Flat()[fig]; ok {
		mean = float64(v)
	}
	if ci, ok := ps.CI95[fig]; ok {
		lo, hi = float64(ci[0]), float64(ci[1])
	}
	return
}

// definedAnywhere reports whether some policy has fig at some point.
func definedAnywhere(pts []pointData, names []string, fig string) bool {
	for _, pd := range pts {
		for _, n := range names {
			if x, _, _ := figureAt(pd, n, fig); !math.IsNaN(x) {
				return true
			}
		}
	}
	return false
}

// maxTickLabel is the longest value a line plot writes under its axis;
// past it, points are labelled by their IDs.
const maxTickLabel = 16

// wrapTickLabel is the widest line of a label in words under a line
// plot's axis (eight points side by side stay apart).
const wrapTickLabel = 12

// wrapWords breaks s into lines of at most width characters at spaces
// (a longer word keeps its own line).
func wrapWords(s string, width int) string {
	var lines []string
	line := ""
	for _, w := range strings.Fields(s) {
		if line != "" && len(line)+1+len(w) > width {
			lines, line = append(lines, line), w
			continue
		}
		line = strings.TrimPrefix(line+" "+w, " ")
	}
	return strings.Join(append(lines, line), "\n")
}

// lineTask draws fig against the first parameter (zipped with the
// others), a line per policy.
func lineTask(m *manifest, pts []pointData, names []string, fig string) plotTask {
	var series []plot.SweepSeries
	for _, n := range names {
		s := plot.SweepSeries{Name: n}
		for _, pd := range pts {
			mean, lo, hi := figureAt(pd, n, fig)
			s.Mean, s.Lo, s.Hi = append(s.Mean, mean), append(s.Lo, lo), append(s.Hi, hi)
		}
		series = append(series, s)
	}
	var xs []string
	long := false
	p0 := m.Parameters[0]
	for _, pd := range pts {
		l := p0.label(pd.Values[0])
		if len(p0.Labels) > 0 {
			// Labels are words: wrapped under the axis, not replaced.
			l = wrapWords(l, wrapTickLabel)
		}
		xs = append(xs, l)
		long = long || len(p0.Labels) == 0 && len(l) > maxTickLabel
	}
	xl := p0.axis()
	if len(m.Parameters) > 1 {
		var others []string
		for _, p := range m.Parameters[1:] {
			others = append(others, p.axis())
		}
		xl += " (zipped with " + strings.Join(others, ", ") + ")"
	}
	if long { // values such as whole maps would overlap: the points' IDs stand for them
		for i, pd := range pts {
			xs[i] = pd.ID
		}
		xl = "point (" + xl + ": the table gives each point's values; labels in the sweep file name them)"
	}
	caption := results.Definition(fig) + " One line per policy, the mean over replications with its 95% interval as a band."
	return plotTask{"sweep-" + fig + ".png", fig, caption, func() ([]byte, error) {
		return plot.SweepLines(m.Name+": "+fig, xl, fig, xs, series)
	}}
}

// frontierTask draws each point's price in jobs computed per validated
// workunit against each policy's worst gain, each point named by its ID:
// the frontier a project chooses from, whatever the parameters.
func frontierTask(m *manifest, pts []pointData, names []string) plotTask {
	var fp []plot.FrontierPoint
	for _, pd := range pts {
		for _, n := range names {
			if ps := pd.Sum.Policies[n]; ps != nil {
				fp = append(fp, plot.FrontierPoint{Policy: n, Config: m.pointLabel(pd), Cost: pd.Sum.JobsPerValidatedWorkunit(), Gain: float64(ps.WorstGain)})
			}
		}
	}
	caption := "The frontier: each point's price, in jobs computed per validated workunit (the results sent and the project's own checks), " +
		"against each policy's worst gain over the honest twin, the largest over the agent kinds present (bound 1.1). " +
		"Each configuration is named by what it sets (the sweep file's labels, else its ID; the table below gives its values). A project chooses from the points lowest and furthest left."
	return plotTask{"sweep-frontier.png", "frontier", caption, func() ([]byte, error) {
		return plot.Frontier(m.Name+": the price against the worst gain", fp, names)
	}}
}

// labelsOf is each of p's values in words (its label, else the value).
func labelsOf(p manifestParam) []string {
	out := make([]string, len(p.Values))
	for i, v := range p.Values {
		out[i] = p.label(v)
	}
	return out
}

// heatTasks draw fig over a grid of two parameters, a heat map per
// policy.
func heatTasks(m *manifest, pts []pointData, names []string, fig string) []plotTask {
	var tasks []plotTask
	px, py := m.Parameters[0], m.Parameters[1]
	for _, n := range names {
		z := make([][]float64, len(px.Values))
		for i := range z {
			z[i] = make([]float64, len(py.Values))
			for j := range z[i] {
				mean, _, _ := figureAt(pts[i*len(py.Values)+j], n, fig)
				z[i][j] = mean
			}
		}
		title := m.Name + ": " + fig + ", " + n
		caption := results.Definition(fig) + " The mean over replications at each combination, under " + n + "."
		tasks = append(tasks, plotTask{"sweep-" + fig + "-" + n + ".png", fig + ", " + n, caption, func() ([]byte, error) {
			return plot.SweepHeat(title, px.axis(), py.axis(), labelsOf(px), labelsOf(py), z)
		}})
	}
	return tasks
}

// drawAll draws the tasks on jobs cores: a grid's heat maps are many,
// and drawing is the one serial step after the points. Plots come in the
// tasks' order; a task that draws nothing is left out.
func drawAll(tasks []plotTask, jobs int) ([]plot.Plot, error) {
	pngs := make([][]byte, len(tasks))
	errs := make([]error, len(tasks))
	next := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < max(jobs, 1); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range next {
				pngs[k], errs[k] = tasks[k].draw()
			}
		}()
	}
	for k := range tasks {
		next <- k
	}
	close(next)
	wg.Wait()
	var out []plot.Plot
	for k, t := range tasks {
		if errs[k] != nil {
			return nil, fmt.Errorf("%s: %w", t.name, errs[k])
		}
		if pngs[k] != nil {
			out = append(out, plot.Plot{File: t.name, Title: t.title, Caption: t.caption, PNG: pngs[k]})
		}
	}
	return out, nil
}

func pathsFrom(m *manifest, k int) []string {
	var out []string
	for _, p := range m.Parameters[k:] {
		out = append(out, p.Path)
	}
	sort.Strings(out)
	return out
}

// sweepReport is sweep.html: the plotted figures per point and policy
// with their intervals, every plot with its caption, and the sweep as
// run.
func sweepReport(m *manifest, pts []pointData, plots []plot.Plot, spec []byte) ([]byte, error) {
	r := report.SweepReport{Name: m.Name, Points: len(pts), Replications: m.Replications, Seed: m.Seed,
		Figures: plotFigures(m, pts), Plots: plots, Spec: string(spec)}
	for _, p := range m.Parameters {
		r.Parameters = append(r.Parameters, p.Path)
	}
	for _, pd := range pts {
		for _, name := range policyNames(pts) {
			if ps := pd.Sum.Policies[name]; ps != nil {
				r.Rows = append(r.Rows, report.SweepReportRow{Point: pd.ID, Values: pd.Values, Policy: name, Summary: ps})
			}
		}
	}
	return r.HTML()
}

// Summaries reads back the summary of every point of a finished sweep in
// dir, in the manifest's order, and the policy instance names, sorted.
func Summaries(dir string) ([]*results.Summary, []string, error) {
	man, err := os.ReadFile(filepath.Join(dir, manifestFile))
	if err != nil {
		return nil, nil, err
	}
	m, err := parseManifest(man)
	if err != nil {
		return nil, nil, err
	}
	var sums []*results.Summary
	var names []string
	for _, mp := range m.Points {
		b, err := os.ReadFile(filepath.Join(dir, "points", mp.ID, "summary.json"))
		if err != nil {
			return nil, nil, err
		}
		s := &results.Summary{}
		if err := json.Unmarshal(b, s); err != nil {
			return nil, nil, fmt.Errorf("point %s: %v", mp.ID, err)
		}
		sums = append(sums, s)
	}
	if len(sums) > 0 {
		names = results.SortedKeys(sums[0].Policies)
	}
	return sums, names, nil
}
