package plot

import (
	"fmt"
	"image/color"
	"math"
	"sort"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/creditsim/creditsim/boinc"
	"github.com/creditsim/creditsim/model/hosts"
	"github.com/creditsim/creditsim/results"
)

// Plot is one PNG figure of a run or a sweep.
type Plot struct {
	File    string // name in the output folder
	Title   string
	Caption string // what it shows and what 1 means
	PNG     []byte
}

const (
	plotW = 8 * vg.Inch
	plotH = 5 * vg.Inch
)

// hostPoint is one honest host's figures for one policy.
type hostPoint struct {
	gd, eff float64
	gpu     bool
}

// hostPoints returns, per policy, the honest hosts with enough counted
// results over all replications.
func hostPoints(cols []*results.Collector, npol int) [][]hostPoint {
	out := make([][]hostPoint, npol)
	for _, c := range cols {
		for _, h := range c.HonestHosts() {
			for p := 0; p < npol; p++ {
				out[p] = append(out[p], hostPoint{gd: h.GD[p], eff: h.Eff, gpu: h.GPU})
			}
		}
	}
	return out
}

// Plots draws every figure of a run: cols are the replications'
// collectors, names the policy instances, s the summary.
func Plots(cols []*results.Collector, names []string, s *results.Summary) ([]Plot, error) {
	var out []Plot
	addWith := func(draw func(*plot.Plot) ([]byte, error), file, title, caption string, p *plot.Plot, err error) error {
		if err != nil {
			return fmt.Errorf("%s: %w", file, err)
		}
		if p == nil {
			return nil
		}
		png, err := draw(p)
		if err != nil {
			return fmt.Errorf("%s: %w", file, err)
		}
		out = append(out, Plot{File: file, Title: title, Caption: caption, PNG: png})
		return nil
	}
	add := func(file, title, caption string, p *plot.Plot, err error) error {
		return addWith(render, file, title, caption, p, err)
	}
	if sp, err := ScorecardPlot(results.NewScorecard(s, names)); err != nil || sp != nil {
		if err := add("scorecard.png", "Scorecard",
			"Every policy (rows) on the scorecard's figures (columns): each cell is coloured by how far its value is from the figure's ideal, green at it, yellow at the bound (1.1 for neutralities and cheat ratios, 0.1 host-days per day for behaviours that do no work, 0.1 for host spread), red at three times past it; grey cells are calibration or undefined.",
			sp, err); err != nil {
			return nil, err
		}
	}
	pts := hostPoints(cols, len(names))
	p, err := hostBoxes("Host neutrality: per-host G/D of honest hosts", "G/D (granted / deserved credit)", pts, names)
	if err := add("host-neutrality.png", "Host neutrality",
		"Per-host G/D of honest hosts (granted over deserved credit, each host's sums) per policy: a neutral system gives every host the same G/D, a narrow box. Its level is the policy's scale over the reference scale divided by what the system pays for.",
		p, err); err != nil {
		return nil, err
	}
	p, err = deviceBoxes(pts, names)
	if err := add("device-neutrality.png", "Device neutrality",
		"Per-host G/D of honest hosts by the device that did most of their work: CPU and GPU boxes at the same height mean device neutrality (1 = the GPU/CPU ratio in the summary).",
		p, err); err != nil {
		return nil, err
	}
	p, err = efficiencyScatter(pts, names)
	if err := addWith(renderSideLegend, "gd-efficiency.png", "G/D against efficiency",
		"Each honest host's G/D against its mean efficiency (actual over peak FLOPS): a system that pays for work done shows no slope; one that pays for peak speed x time pays inefficient hosts more.",
		p, err); err != nil {
		return nil, err
	}
	p, err = projectBars(cols, names)
	if err := addWith(renderSideLegend, "project-neutrality.png", "Project neutrality",
		"Each project's G/D (granted over deserved credit of its counted results) per policy, log scale: a policy is project-neutral when its marks stand level across projects (the summary's figure is the largest over the smallest). Values beyond 0.01 to 1000 are drawn at the edge.",
		p, err); err != nil {
		return nil, err
	}
	p, err = cheatBars(s, names)
	if err := addWith(renderSideLegend, "cheat-resistance.png", "Cheat resistance",
		"Each agent kind's gain: its credit per host-day over the same hosts' credit per host-day in the honest twin (the same world with every behaviour switched off), log scale. 1 = the behaviour gained nothing; the dashed line is the CreditNew design's 1.1 bound, the one bound for every kind, doing work or not. Values above 1000 or below 0.01 are drawn at the edge with their value written by them.",
		p, err); err != nil {
		return nil, err
	}
	for k, name := range names {
		png, err := dynamics(cols[0], k, name)
		if err != nil {
			return nil, fmt.Errorf("dynamics-%s.png: %w", name, err)
		}
		if png != nil {
			out = append(out, Plot{File: "dynamics-" + name + ".png", Title: "Dynamics: " + name, PNG: png,
				Caption: "Replication 1 day by day, in panels: the policy's scales and calibration factors (Scale(V) per version; 1 = unscaled); CreditNew's averages PFC/E(J) per version and min_avg_pfc per app; the sample hosts' Scale(H) once host scaling applies; and every valid job of the sample hosts, its granted credit (coloured) beside its deserved credit D (grey). Flat lines mean the scales have settled; coloured dots on the grey ones mean G = D."})
		}
		p, err = racPlot(cols[0], k, name)
		if err := addWith(renderSideLegend, "rac-"+name+".png", "RAC: "+name,
			"Recent average credit of the sample hosts of replication 1, converted to GFLOPS at the policy's scale (RAC / scale), against each host's true average GFLOPS over the counted window (dashed). RAC tracks true speed when the lines meet.",
			p, err); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// headroom raises a linear Y axis so that the legend, drawn at the top,
// does not hide the data: one legend row takes about 5% of the height.
func headroom(p *plot.Plot, rows int) {
	span := p.Y.Max - p.Y.Min
	if span <= 0 {
		span = math.Abs(p.Y.Max) + 1
	}
	p.Y.Max += span * min(0.06*float64(rows), 1.5)
}

func newPlot(title, x, y string) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = x
	p.Y.Label.Text = y
	p.Legend.Top = true
	p.X.Tick.Marker = distinctTicks{}
	p.Y.Tick.Marker = distinctTicks{}
	return p
}

// distinctTicks are gonum's default ticks labelled with the fewest
// significant digits that keep the labels apart ("0.99, 1, 1.01", not
// "1, 1, 0.99"; "25", not "25.00").
type distinctTicks struct{}

// Ticks implements plot.Ticker.
func (distinctTicks) Ticks(lo, hi float64) []plot.Tick {
	ts := plot.DefaultTicks{}.Ticks(lo, hi)
	big := max(math.Abs(lo), math.Abs(hi))
	format := func(v float64, digits int) string {
		if big >= 1e-3 && big < 1e6 {
			return strconv.FormatFloat(v, 'f', digits-1, 64) // decimals, no exponent
		}
		return strconv.FormatFloat(v, 'g', digits, 64)
	}
	for digits := 1; digits <= 9; digits++ {
		seen := map[string]bool{}
		ok := true
		for i := range ts {
			if ts[i].Label == "" {
				continue
			}
			l := format(ts[i].Value, digits)
			if seen[l] || math.Abs(ts[i].Value) > 0 && parse(l) == 0 {
				ok = false
				break
			}
			seen[l] = true
		}
		if ok {
			for i := range ts {
				if ts[i].Label != "" {
					ts[i].Label = format(ts[i].Value, digits)
				}
			}
			break
		}
	}
	return ts
}

func parse(s string) float64 {
	v, _ := strconv.ParseFloat(s, 64)
	return v
}

// markDays draws, on day axes, where the warm-up ends (counting starts)
// and where the server stops sending work, named in the first panel's
// legend.
func markDays(panels []*plot.Plot, win results.Window) error {
	for i, p := range panels {
		for j, m := range []struct {
			day   float64
			label string
		}{{win.From / boinc.SecondsPerDay, "warm-up ends"}, {win.To / boinc.SecondsPerDay, "sending stops"}} {
			if m.day <= p.X.Min || m.day >= p.X.Max {
				continue
			}
			lo, hi := p.Y.Min, p.Y.Max
			if !(hi > lo) {
				// A flat panel: gonum widens its axis by 1 either way.
				lo, hi = lo-1, hi+1
			}
			l, err := plotter.NewLine(plotter.XYs{{X: m.day, Y: lo}, {X: m.day, Y: hi}})
			if err != nil {
				return err
			}
			l.Color = color.Gray{Y: 110}
			l.Dashes = []vg.Length{vg.Points(2), vg.Points(2 + 2*float64(j))}
			p.Add(l)
			if i == 0 {
				p.Legend.Add(fmt.Sprintf("%s (day %g)", m.label, math.Round(m.day*10)/10), l)
			}
		}
	}
	return nil
}

// gdRange is the robust range of per-host G/D the box plots draw on a
// log axis: from the 1st to the 99th percentile of all values, widened
// by half, within 0.001 to 1000 (a whole group far from the rest stays
// in view; a lone absurd host does not squash the others). Values
// outside are drawn at its edge and counted.
type gdRange struct {
	lo, hi float64
	off    int
}

func newGDRange(pts [][]hostPoint) *gdRange {
	var all []float64
	for _, ps := range pts {
		for _, h := range ps {
			if h.gd > 0 {
				all = append(all, h.gd)
			}
		}
	}
	r := &gdRange{lo: 0.5, hi: 2}
	if len(all) == 0 {
		return r
	}
	sort.Float64s(all)
	p1, p99 := all[len(all)/100], all[(len(all)-1)*99/100]
	r.lo = max(1e-3, min(r.lo, p1/1.5))
	r.hi = min(1e3, max(r.hi, p99*1.5))
	return r
}

// clamp puts v in the range, counting what it moves.
func (r *gdRange) clamp(v float64) float64 {
	if v < r.lo || v > r.hi {
		r.off++
		return min(max(v, r.lo), r.hi)
	}
	return v
}

// apply gives p the log axis, its ticks and the count of points off-scale.
func (r *gdRange) apply(p *plot.Plot) {
	p.Y.Scale = plot.LogScale{}
	p.Y.Min, p.Y.Max = r.lo, r.hi
	p.Y.Tick.Marker = logTicks{}
	p.Y.Label.Text += ", log scale"
	if r.off > 0 {
		p.Title.Text += fmt.Sprintf(" (%d hosts off-scale, drawn at the edge)", r.off)
	}
	p.X.Tick.Label.Rotation = math.Pi / 8
	p.X.Tick.Label.XAlign = draw.XRight
	p.X.Tick.Label.YAlign = draw.YCenter
}

// logTicks labels the decades of a log axis that spans one or more, and
// a few readable values inside a narrower one.
type logTicks struct{}

// Ticks implements plot.Ticker.
func (logTicks) Ticks(min, max float64) []plot.Tick {
	if d := (decadeTicks{}).Ticks(min, max); len(d) >= 2 {
		return d
	}
	// A narrow range: 1-2-5 steps, or finer when they give too few.
	for _, ms := range [][]float64{{1, 2, 5}, {1, 1.5, 2, 3, 5, 7}, {1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 7, 8, 9}} {
		var out []plot.Tick
		for e := math.Floor(math.Log10(min)); e <= math.Ceil(math.Log10(max)); e++ {
			for _, m := range ms {
				if v := m * math.Pow(10, e); v >= min && v <= max {
					out = append(out, plot.Tick{Value: v, Label: strconv.FormatFloat(v, 'g', 4, 64)})
				}
			}
		}
		if len(out) >= 3 {
			return out
		}
	}
	return (distinctTicks{}).Ticks(min, max)
}

func hostBoxes(title, yLabel string, pts [][]hostPoint, names []string) (*plot.Plot, error) {
	p := newPlot(title, "", yLabel)
	r := newGDRange(pts)
	any := false
	for k := range names {
		var v plotter.Values
		for _, h := range pts[k] {
			v = append(v, r.clamp(h.gd))
		}
		if len(v) == 0 {
			continue
		}
		b, err := plotter.NewBoxPlot(vg.Points(20), float64(k), v)
		if err != nil {
			return nil, err
		}
		b.FillColor = seriesColor(k)
		p.Add(b)
		any = true
	}
	if !any {
		return nil, nil
	}
	p.NominalX(names...)
	r.apply(p)
	return p, nil
}

func deviceBoxes(pts [][]hostPoint, names []string) (*plot.Plot, error) {
	both := false
	for _, h := range pts[0] {
		if h.gpu {
			both = true
			break
		}
	}
	if !both {
		return nil, nil
	}
	p := newPlot("Device neutrality: per-host G/D by device", "", "G/D (granted / deserved credit)")
	r := newGDRange(pts)
	for c, label := range []string{"CPU hosts", "GPU hosts"} {
		added := false
		for k := range names {
			var v plotter.Values
			for _, h := range pts[k] {
				if h.gpu == (c == 1) {
					v = append(v, r.clamp(h.gd))
				}
			}
			if len(v) == 0 {
				continue
			}
			b, err := plotter.NewBoxPlot(vg.Points(14), float64(k), v)
			if err != nil {
				return nil, err
			}
			b.Offset = vg.Points(float64(16*(2*c-1)) / 2)
			b.FillColor = seriesColor(c)
			p.Add(b)
			added = true
		}
		if added {
			p.Legend.Add(label, swatch{seriesColor(c)})
		}
	}
	p.NominalX(names...)
	r.apply(p)
	p.Y.Max *= 3 // room for the legend
	return p, nil
}

// maxHostDots bounds the hosts the G/D-efficiency scatter draws per
// policy.
const maxHostDots = 3000

func efficiencyScatter(pts [][]hostPoint, names []string) (*plot.Plot, error) {
	p := newPlot("Honest hosts: G/D against efficiency", "host efficiency (actual / peak FLOPS)", "G/D (granted / deserved credit)")
	// The box plots' robust log range: one host paid 1000 x does not
	// flatten the others onto a line.
	r := newGDRange(pts)
	any := false
	// Thousands of dots per policy read as well as all of them (a 100,000
	// host run would draw a million); past maxHostDots every stride-th
	// host is drawn, the same hosts for every policy.
	stride := 1
	if len(pts) > 0 {
		stride = max(1, (len(pts[0])+maxHostDots-1)/maxHostDots)
	}
	if stride > 1 {
		p.Title.Text += fmt.Sprintf(" (every %d%s host)", stride, ordinalSuffix(stride))
	}
	for k, name := range names {
		var xy plotter.XYs
		for i := 0; i < len(pts[k]); i += stride {
			h := pts[k][i]
			xy = append(xy, plotter.XY{X: h.eff, Y: r.clamp(h.gd)})
		}
		if len(xy) == 0 {
			continue
		}
		sc, err := marks(xy, k, vg.Points(1.5))
		if err != nil {
			return nil, err
		}
		p.Add(sc)
		p.Legend.Add(name, sc)
		any = true
	}
	if !any {
		return nil, nil
	}
	r.apply(p)
	p.X.Tick.Label.Rotation = 0
	p.X.Tick.Label.XAlign, p.X.Tick.Label.YAlign = draw.XCenter, draw.YTop
	if r.off > 0 {
		p.Title.Text = strings.Replace(p.Title.Text, "hosts off-scale", "points off-scale", 1)
	}
	return p, nil
}

func projectBars(cols []*results.Collector, names []string) (*plot.Plot, error) {
	projects := make([][]results.ProjectSums, len(cols))
	for i, c := range cols {
		projects[i] = c.Projects()
	}
	nproj := len(projects[0])
	if nproj < 2 {
		return nil, nil // one project: nothing to compare
	}
	projNames := make([]string, nproj)
	for i := range projNames {
		projNames[i] = projects[0][i].Name
	}
	values := make([][]float64, len(names))
	for k := range names {
		values[k] = make([]float64, nproj)
		for pi := range projNames {
			g, d := 0.0, 0.0
			for _, pr := range projects {
				g += pr[pi].G[k]
				d += pr[pi].D
			}
			values[k][pi] = g / d
		}
	}
	p, err := groupDots("Project neutrality: G/D per project", "G/D (granted / deserved credit)", projNames, names, values, true, "")
	if p != nil {
		p.X.Tick.Label.Rotation = 0
		p.X.Tick.Label.XAlign, p.X.Tick.Label.YAlign = draw.XCenter, draw.YTop
	}
	return p, err
}

// marks returns a scatter of xy in series k's colour and shape.
func marks(xy plotter.XYs, k int, radius vg.Length) (*plotter.Scatter, error) {
	sc, err := plotter.NewScatter(xy)
	if err != nil {
		return nil, err
	}
	sc.GlyphStyle.Color = seriesColor(k)
	sc.GlyphStyle.Shape = plotutil.Shape(k)
	sc.GlyphStyle.Radius = radius
	return sc, nil
}

// The cheat plot's sane range: values beyond it are drawn at its edge,
// with their value written beside them (a 1e304 claim would otherwise
// squash every other point onto one row).
const (
	cheatLow  = 0.01
	cheatHigh = 1000
)

// cheatBars draws each agent kind's gain over the honest twin per
// policy against the one bound, 1.1; nil without a twin.
func cheatBars(s *results.Summary, names []string) (*plot.Plot, error) {
	kindSet := map[string]bool{}
	for _, n := range names {
		for k, v := range s.Policies[n].Gain {
			if !math.IsNaN(float64(v)) && k != "failed_benchmark" {
				kindSet[k] = true
			}
		}
	}
	if len(kindSet) == 0 {
		return nil, nil
	}
	kinds := make([]string, 0, len(kindSet))
	for k := range kindSet {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	p := newPlot("Cheat resistance: each kind's gain over the honest twin", "", "gain (1 = gained nothing)")
	p.Y.Scale = plot.LogScale{}
	lo, hi := 0.5, 2.0
	step := 0.7 / float64(len(names))
	var top, bottom plotter.XYLabels // values past the axis, drawn at its edges
	for k, name := range names {
		ps := s.Policies[name]
		var xy plotter.XYs
		for i, kind := range kinds {
			x := math.NaN()
			if n, ok := ps.Gain[kind]; ok {
				x = float64(n)
			}
			if math.IsNaN(x) {
				continue
			}
			pos := float64(i) + step*(float64(k)-float64(len(names)-1)/2)
			y := min(max(x, cheatLow), cheatHigh)
			switch {
			case x > cheatHigh:
				top.XYs = append(top.XYs, plotter.XY{X: pos, Y: y})
				top.Labels = append(top.Labels, results.FormatScore(x))
			case x < cheatLow:
				bottom.XYs = append(bottom.XYs, plotter.XY{X: pos, Y: y})
				bottom.Labels = append(bottom.Labels, results.FormatScore(x))
			}
			lo, hi = min(lo, y), max(hi, y)
			xy = append(xy, plotter.XY{X: pos, Y: y})
		}
		if len(xy) == 0 {
			continue
		}
		sc, err := plotter.NewScatter(xy)
		if err != nil {
			return nil, err
		}
		sc.GlyphStyle.Color = seriesColor(k)
		sc.GlyphStyle.Shape = plotutil.Shape(k)
		sc.GlyphStyle.Radius = vg.Points(4)
		p.Add(sc)
		p.Legend.Add(name, sc)
	}
	// Level with the axis, centred under a marker at the top edge and
	// over one at the bottom, so neither covers it.
	for _, e := range []struct {
		labels plotter.XYLabels
		align  draw.YAlignment
		dy     vg.Length
	}{{top, draw.YTop, -vg.Points(7)}, {bottom, draw.YBottom, vg.Points(7)}} {
		if len(e.labels.XYs) == 0 {
			continue
		}
		l, err := plotter.NewLabels(e.labels)
		if err != nil {
			return nil, err
		}
		for i := range l.TextStyle {
			l.TextStyle[i].Font.Size = vg.Points(8)
			l.TextStyle[i].XAlign = draw.XCenter
			l.TextStyle[i].YAlign = e.align
		}
		l.Offset = vg.Point{Y: e.dy}
		p.Add(l)
	}
	bound := plotter.NewFunction(func(float64) float64 { return results.CheatBound })
	bound.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
	bound.Color = color.Black
	p.Add(bound)
	p.Legend.Add("bound 1.1", bound)
	p.NominalX(kinds...)
	p.X.Tick.Label.Rotation = math.Pi / 6
	p.X.Tick.Label.XAlign = draw.XRight
	p.X.Tick.Label.YAlign = draw.YCenter
	p.Y.Min, p.Y.Max = lo/1.5, hi*1.5
	p.Y.Tick.Marker = decadeTicks{}
	return p, nil
}

// decadeTicks labels each power of ten in the axis' range, so a log axis
// has a handful of readable labels whatever its span.
type decadeTicks struct{}

// Ticks implements plot.Ticker.
func (decadeTicks) Ticks(min, max float64) []plot.Tick {
	var out []plot.Tick
	for e := math.Floor(math.Log10(min)); e <= math.Ceil(math.Log10(max)); e++ {
		v := math.Pow(10, e)
		if v >= min && v <= max {
			out = append(out, plot.Tick{Value: v, Label: strconv.FormatFloat(v, 'g', -1, 64)})
		}
	}
	return out
}

// seriesColor is plotutil's palette for the first series, then darker
// and lighter variants, so that a dozen series never repeat a colour.
func seriesColor(k int) color.Color {
	c := plotutil.Color(k % len(plotutil.SoftColors))
	if k < len(plotutil.SoftColors) {
		return c
	}
	r, g, b, _ := c.RGBA()
	f := 0.6
	if (k/len(plotutil.SoftColors))%2 == 0 {
		f = 1.3
	}
	ch := func(x uint32) uint8 { return uint8(min(255, float64(x>>8)*f)) }
	return color.RGBA{R: ch(r), G: ch(g), B: ch(b), A: 255}
}

// racPlot draws the sample hosts' RAC in GFLOPS at the policy's scale
// against their true GFLOPS.
func racPlot(c *results.Collector, k int, name string) (*plot.Plot, error) {
	sample := c.Sim().SampleHosts()
	days := c.Days()
	if len(sample) == 0 || len(days) == 0 {
		return nil, nil
	}
	scale := c.Sim().Policies()[k].Scale()
	p := newPlot("RAC of sample hosts under "+name, "day", "GFLOPS (RAC / scale)")
	for j, h := range sample {
		var xy plotter.XYs
		for _, d := range days {
			xy = append(xy, plotter.XY{X: float64(d.Day), Y: d.RAC[k][j] / scale})
		}
		l, err := plotter.NewLine(xy)
		if err != nil {
			return nil, err
		}
		l.Color = seriesColor(j)
		p.Add(l)
		p.Legend.Add(sampleLabel(c, h), l)
		if truth := c.TrueGFLOPS(h); !math.IsNaN(truth) {
			f := plotter.NewFunction(func(float64) float64 { return truth })
			f.Color = seriesColor(j)
			f.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
			p.Add(f)
		}
	}
	p.X.Min, p.X.Max = 0, float64(days[len(days)-1].Day)
	if err := markDays([]*plot.Plot{p}, c.Window()); err != nil {
		return nil, err
	}
	return p, nil
}

// swatch is a legend entry filled with one colour.
type swatch struct{ c color.Color }

// Thumbnail implements plot.Thumbnailer.
func (s swatch) Thumbnail(c *draw.Canvas) {
	r := c.Rectangle
	c.FillPolygon(s.c, []vg.Point{r.Min, {X: r.Max.X, Y: r.Min.Y}, r.Max, {X: r.Min.X, Y: r.Max.Y}})
}

// sampleLabel names a sample host in a legend: its index and kind.
func sampleLabel(c *results.Collector, h int) string {
	return fmt.Sprintf("host %d (%s)", h, hosts.SampleKey(c.Host(h)))
}
