package plot

import (
	"fmt"
	"image/color"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
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
	// Policy names the one system a plot is about (dynamics, RAC); ""
	// for a plot that compares them.
	Policy string
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
	p, err = deviceDots(cols, s, names)
	if err := addWith(renderSideLegend, "device-neutrality.png", "Device neutrality",
		"Per policy, the G/D (granted over deserved credit, pooled) of the CPU results (square) and of the GPU results (triangle) of the apps that have versions of both kinds, geometric means over replications; the number above is their ratio, the device-neutrality figure of the summary and scorecard (1 = a GPU FLOP pays as a CPU FLOP).",
		p, err); err != nil {
		return nil, err
	}
	if png, err := efficiencyTiles(pts, names); err != nil {
		return nil, fmt.Errorf("gd-efficiency.png: %w", err)
	} else if png != nil {
		out = append(out, Plot{File: "gd-efficiency.png", Title: "G/D against efficiency", PNG: png,
			Caption: "Each honest host's G/D against its mean efficiency (actual over peak FLOPS), one panel per policy on the same axes: a system that pays for work done shows no slope; one that pays for peak speed x time pays inefficient hosts more."})
	}
	p, err = projectBars(cols, names)
	if err := addWith(renderSideLegend, "project-neutrality.png", "Project neutrality",
		"Each project's G/D (granted over deserved credit of its counted results) per policy, log scale: a policy is project-neutral when its marks stand level across projects (the summary's figure is the largest over the smallest). Values beyond 0.01 to 1000 are drawn at the edge with their value written by them.",
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
		_, worst := results.WorstGain(s.Policies[name].Gain)
		png, caption, err := dynamics(cols[0], k, name, worst)
		if err != nil {
			return nil, fmt.Errorf("dynamics-%s.png: %w", name, err)
		}
		if png != nil {
			out = append(out, Plot{File: "dynamics-" + name + ".png", Title: "Dynamics: " + name, PNG: png, Caption: caption, Policy: name})
		}
		if png, err := racPlot(cols[0], k, name); err != nil {
			return nil, fmt.Errorf("rac-%s.png: %w", name, err)
		} else if png != nil {
			out = append(out, Plot{File: "rac-" + name + ".png", Title: "RAC: " + name, PNG: png, Policy: name,
				Caption: "One panel per sample host of replication 1: its recent average credit (RAC) under " + name + " converted to GFLOPS at the policy's scale (RAC / scale, solid), against the host's true average GFLOPS over the counted window (dashed); the bottom row, labelled \"no credit\", is RAC 0 (before the host's first credit). RAC tracks true speed where the lines meet. The dotted lines mark the end of the warm-up and the day the server stops sending work."})
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
	if d := (decadeTicks{}).Ticks(min, max); len(d) >= 3 {
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
		if len(out) >= 5 {
			return out
		}
	}
	return (distinctTicks{}).Ticks(min, max)
}

func hostBoxes(title, yLabel string, pts [][]hostPoint, names []string) (*plot.Plot, error) {
	p := newPlot(title, "", yLabel)
	r := newGDRange(pts)
	any := false
	// Hosts off the axis' range still count in their box's quartiles
	// (drawn at the edge), but are not drawn as a pile of circles there:
	// their number is written at the edge instead.
	var below, above plotter.XYLabels
	for k := range names {
		var v plotter.Values
		lo, hi := 0, 0
		for _, h := range pts[k] {
			switch {
			case h.gd < r.lo:
				lo++
			case h.gd > r.hi:
				hi++
			}
			v = append(v, r.clamp(h.gd))
		}
		if len(v) == 0 {
			continue
		}
		b, err := plotter.NewBoxPlot(vg.Points(20), float64(k), v)
		if err != nil {
			return nil, err
		}
		b.Outside = slices.DeleteFunc(b.Outside, func(i int) bool { return v[i] <= r.lo || v[i] >= r.hi })
		b.FillColor = lighter(policyColor(names, k))
		p.Add(b)
		if lo > 0 {
			below.XYs = append(below.XYs, plotter.XY{X: float64(k), Y: r.lo})
			below.Labels = append(below.Labels, fmt.Sprintf("%d below", lo))
		}
		if hi > 0 {
			above.XYs = append(above.XYs, plotter.XY{X: float64(k), Y: r.hi})
			above.Labels = append(above.Labels, fmt.Sprintf("%d above", hi))
		}
		any = true
	}
	if !any {
		return nil, nil
	}
	if err := addCounts(p, below, above); err != nil {
		return nil, err
	}
	p.NominalX(names...)
	r.apply(p)
	if r.off > 0 {
		p.Title.Text = strings.Replace(p.Title.Text, "drawn at the edge", "counted at the edge", 1)
	}
	return p, nil
}

// addCounts writes the counts of hosts off the axis under its bottom
// edge and over its top.
func addCounts(p *plot.Plot, below, above plotter.XYLabels) error {
	for _, l := range []struct {
		xy plotter.XYLabels
		y  draw.YAlignment
	}{{below, draw.YTop}, {above, draw.YBottom}} {
		if len(l.xy.XYs) == 0 {
			continue
		}
		labels, err := newLabels(l.xy, 8, draw.XCenter, l.y)
		if err != nil {
			return err
		}
		p.Add(labels)
	}
	return nil
}

// deviceDots draws, per policy, the G/D of the CPU results and of the
// GPU results of the apps that have both (geometric means over
// replications), joined, with the device-neutrality figure (GPU over
// CPU, as the summary has it) written above: the picture shows the
// figure the scorecard reports. Nil when no app has both kinds.
func deviceDots(cols []*results.Collector, s *results.Summary, names []string) (*plot.Plot, error) {
	p := newPlot("Device neutrality: G/D of CPU and GPU results of the apps that have both", "", "G/D (granted / deserved credit), log scale")
	p.Y.Scale = plot.LogScale{}
	p.Y.Tick.Marker = logTicks{}
	edge := edgeMarks{lo: cheatLow, hi: cheatHigh}
	var figs plotter.XYLabels
	var cpuXY, gpuXY plotter.XYs
	lo, hi := math.Inf(1), math.Inf(-1)
	for k, name := range names {
		var lc, lg float64
		n := 0
		for _, c := range cols {
			cpu, gpu := c.DeviceGD(k)
			if cpu > 0 && gpu > 0 {
				lc, lg, n = lc+math.Log(cpu), lg+math.Log(gpu), n+1
			}
		}
		if n == 0 {
			continue
		}
		x := float64(k)
		yc := edge.clamp(x-0.15, math.Exp(lc/float64(n)))
		yg := edge.clamp(x+0.15, math.Exp(lg/float64(n)))
		lo, hi = min(lo, yc, yg), max(hi, yc, yg)
		cpuXY = append(cpuXY, plotter.XY{X: x - 0.15, Y: yc})
		gpuXY = append(gpuXY, plotter.XY{X: x + 0.15, Y: yg})
		join, err := plotter.NewLine(plotter.XYs{{X: x - 0.15, Y: yc}, {X: x + 0.15, Y: yg}})
		if err != nil {
			return nil, err
		}
		join.Color = policyColor(names, k)
		join.Width = vg.Points(2)
		p.Add(join)
		figs.XYs = append(figs.XYs, plotter.XY{X: x, Y: max(yc, yg)})
		figs.Labels = append(figs.Labels, results.FormatScore(float64(s.Policies[name].DeviceNeutrality)))
	}
	if len(cpuXY) == 0 {
		return nil, nil
	}
	for _, d := range []struct {
		xy    plotter.XYs
		label string
		shape draw.GlyphDrawer
	}{{cpuXY, "CPU results", draw.BoxGlyph{}}, {gpuXY, "GPU results", draw.PyramidGlyph{}}} {
		sc, err := plotter.NewScatter(d.xy)
		if err != nil {
			return nil, err
		}
		sc.GlyphStyle = draw.GlyphStyle{Color: color.Black, Radius: vg.Points(4), Shape: d.shape}
		p.Add(sc)
		p.Legend.Add(d.label, sc)
	}
	l, err := plotter.NewLabels(figs)
	if err != nil {
		return nil, err
	}
	for i := range l.TextStyle {
		l.TextStyle[i].Font.Size = vg.Points(9)
		l.TextStyle[i].XAlign, l.TextStyle[i].YAlign = draw.XCenter, draw.YBottom
	}
	l.Offset = vg.Point{Y: vg.Points(7)}
	p.Add(l)
	if err := edge.add(p); err != nil {
		return nil, err
	}
	p.NominalX(names...)
	p.X.Tick.Label.Rotation = math.Pi / 6
	p.X.Tick.Label.XAlign, p.X.Tick.Label.YAlign = draw.XRight, draw.YCenter
	p.X.Min, p.X.Max = -0.6, float64(len(names))-0.4
	p.Y.Min, p.Y.Max = lo/2, hi*3 // room for the figures above
	return p, nil
}

// maxHostDots bounds the hosts the G/D-efficiency scatter draws per
// policy.
const maxHostDots = 3000

// efficiencyTiles draws each honest host's G/D against its efficiency,
// one small panel per policy on the same axes (a dozen policies in one
// panel hide one another), in the policy's colour.
func efficiencyTiles(pts [][]hostPoint, names []string) ([]byte, error) {
	// The box plots' robust log range: one host paid 1000 x does not
	// flatten the others onto a line.
	r := newGDRange(pts)
	// Thousands of dots per policy read as well as all of them (a 100,000
	// host run would draw a million); past maxHostDots every stride-th
	// host is drawn, the same hosts for every policy.
	stride := 1
	if len(pts) > 0 {
		stride = max(1, (len(pts[0])+maxHostDots-1)/maxHostDots)
	}
	effMax := 0.0
	for _, ps := range pts {
		for _, h := range ps {
			effMax = max(effMax, h.eff)
		}
	}
	var panels []*plot.Plot
	for k := range names {
		var xy plotter.XYs
		for i := 0; i < len(pts[k]); i += stride {
			h := pts[k][i]
			xy = append(xy, plotter.XY{X: h.eff, Y: r.clamp(h.gd)})
		}
		if len(xy) == 0 {
			continue
		}
		p, err := efficiencyPanel(xy, names, k, r, effMax)
		if err != nil {
			return nil, err
		}
		panels = append(panels, p)
	}
	if len(panels) == 0 {
		return nil, nil
	}
	title := "Honest hosts: G/D (log scale) against efficiency (actual / peak FLOPS), one panel per policy"
	if stride > 1 {
		title += fmt.Sprintf("; every %d%s host", stride, ordinalSuffix(stride))
	}
	if r.off > 0 {
		title += fmt.Sprintf("; %d points off-scale, drawn at the edge", r.off)
	}
	return tiles(panels, title)
}

// efficiencyPanel is policy k's panel: its hosts' G/D on the shared log
// range r against their efficiency, from 0 to a little past effMax.
func efficiencyPanel(xy plotter.XYs, names []string, k int, r *gdRange, effMax float64) (*plot.Plot, error) {
	p := newPlot(names[k], "efficiency", "G/D")
	p.Title.TextStyle.Font.Size = vg.Points(10)
	p.X.Label.TextStyle.Font.Size = vg.Points(9)
	p.Y.Label.TextStyle.Font.Size = vg.Points(9)
	sc, err := marks(xy, names, k, vg.Points(1.3))
	if err != nil {
		return nil, err
	}
	p.Add(sc)
	p.Y.Scale = plot.LogScale{}
	p.Y.Min, p.Y.Max = r.lo, r.hi
	p.Y.Tick.Marker = logTicks{}
	p.X.Min, p.X.Max = 0, max(effMax*1.05, 0.1)
	return p, nil
}

// tiles draws panels four to a row under one title, aligned on a grid,
// as PNG bytes.
func tiles(panels []*plot.Plot, title string) ([]byte, error) {
	return tilesOf(panels, title, 4)
}

// tilesOf draws panels cols to a row under one title.
func tilesOf(panels []*plot.Plot, title string, cols int) ([]byte, error) {
	rows := (len(panels) + cols - 1) / cols
	height := vg.Points(36) + vg.Length(rows)*vg.Inch*1.9*4/vg.Length(max(cols, 3))
	c, err := draw.NewFormattedCanvas(plotW+2*vg.Inch, height, "png")
	if err != nil {
		return nil, err
	}
	dc := draw.New(c)
	head := panels[0].Title.TextStyle
	head.Font.Size = vg.Points(12)
	head.XAlign, head.YAlign = draw.XCenter, draw.YTop
	dc.FillText(head, vg.Point{X: dc.Center().X, Y: dc.Max.Y - vg.Points(6)}, title)
	grid := make([][]*plot.Plot, rows)
	for i := range grid {
		grid[i] = make([]*plot.Plot, cols)
		for j := range grid[i] {
			if k := i*cols + j; k < len(panels) {
				grid[i][j] = panels[k]
			}
		}
	}
	t := draw.Tiles{Rows: rows, Cols: cols, PadX: vg.Points(6), PadY: vg.Points(6), PadTop: vg.Points(30), PadBottom: vg.Points(4), PadLeft: vg.Points(4), PadRight: vg.Points(10)}
	canvases := plot.Align(grid, t, dc)
	for i := range grid {
		for j, p := range grid[i] {
			if p != nil {
				p.Draw(canvases[i][j])
			}
		}
	}
	return encode(c)
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

// marks returns a scatter of xy in policy names[k]'s colour and shape.
func marks(xy plotter.XYs, names []string, k int, radius vg.Length) (*plotter.Scatter, error) {
	sc, err := plotter.NewScatter(xy)
	if err != nil {
		return nil, err
	}
	sc.GlyphStyle.Color = policyColor(names, k)
	sc.GlyphStyle.Shape = policyShape(names, k)
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

// edgeMarks clamps values to [lo, hi], the axis' range, and keeps those
// it clamped so that their values can be written by their marks at the
// edge: one absurd value must not flatten the others, nor vanish.
type edgeMarks struct {
	lo, hi      float64
	top, bottom plotter.XYLabels
}

// clamp returns v within [lo, hi], noting a v outside at x.
func (e *edgeMarks) clamp(x, v float64) float64 {
	y := min(max(v, e.lo), e.hi)
	switch {
	case v > e.hi:
		label := results.FormatScore(v)
		if math.IsInf(v, 1) {
			label = "unbounded"
		}
		e.top.XYs = append(e.top.XYs, plotter.XY{X: x, Y: y})
		e.top.Labels = append(e.top.Labels, label)
	case v < e.lo:
		e.bottom.XYs = append(e.bottom.XYs, plotter.XY{X: x, Y: y})
		e.bottom.Labels = append(e.bottom.Labels, results.FormatScore(v))
	}
	return y
}

// add writes the clamped values beside their marks: to the right of the
// mark, level with it, in a size that reads ("0", "unbounded", "2e+03").
func (e *edgeMarks) add(p *plot.Plot) error {
	for _, l := range []plotter.XYLabels{e.top, e.bottom} {
		if len(l.XYs) == 0 {
			continue
		}
		labels, err := newLabels(l, 9, draw.XLeft, draw.YCenter)
		if err != nil {
			return err
		}
		labels.Offset = vg.Point{X: vg.Points(6)}
		p.Add(labels)
	}
	return nil
}

// newLabels are text labels at points, in size points, aligned so.
func newLabels(l plotter.XYLabels, size float64, x draw.XAlignment, y draw.YAlignment) (*plotter.Labels, error) {
	labels, err := plotter.NewLabels(l)
	if err != nil {
		return nil, err
	}
	for i := range labels.TextStyle {
		labels.TextStyle[i].Font.Size = vg.Points(size)
		labels.TextStyle[i].XAlign, labels.TextStyle[i].YAlign = x, y
	}
	return labels, nil
}

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
	// Each policy has its own place in a behaviour's band, so that equal
	// gains stand side by side rather than on one another.
	step := 0.84 / float64(len(names))
	edge := edgeMarks{lo: cheatLow, hi: cheatHigh}
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
			y := edge.clamp(pos, x)
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
		sc.GlyphStyle.Color = policyColor(names, k)
		sc.GlyphStyle.Shape = policyShape(names, k)
		sc.GlyphStyle.Radius = vg.Points(3)
		p.Add(sc)
		p.Legend.Add(name, sc)
	}
	if err := bandLines(p, len(kinds)); err != nil {
		return nil, err
	}
	if err := edge.add(p); err != nil {
		return nil, err
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
	p.Y.Tick.Marker = logTicks{}
	return p, nil
}

// bandLines draws faint lines between n nominal bands of p.
func bandLines(p *plot.Plot, n int) error {
	for i := 1; i < n; i++ {
		x := float64(i) - 0.5
		sep, err := plotter.NewLine(plotter.XYs{{X: x, Y: cheatLow / 10}, {X: x, Y: cheatHigh * 10}})
		if err != nil {
			return err
		}
		sep.Color = color.Gray{Y: 225}
		p.Add(sep)
	}
	return nil
}

// decadeTicks labels powers of ten in the axis' range, so a log axis has
// a handful of readable labels whatever its span: every decade up to
// maxLabels of them, else every second, fifth, tenth... decade, the
// others marked without a label (at most 60 marks in all).
type decadeTicks struct{}

// maxLabels is the most labels a log axis gets.
const maxLabels = 8

// Ticks implements plot.Ticker.
func (decadeTicks) Ticks(min, max float64) []plot.Tick {
	if !(min > 0) || !(max >= min) || math.IsInf(max, 0) {
		return nil
	}
	lo, hi := math.Ceil(math.Log10(min)), math.Floor(math.Log10(max))
	n := hi - lo + 1
	step := 1.0
	for _, s := range []float64{1, 2, 5, 10, 20, 50, 100} {
		if step = s; n/s <= maxLabels {
			break
		}
	}
	marks := 1.0
	if n/step > 60 {
		marks = step // too many decades to mark each one
	}
	var out []plot.Tick
	for e := math.Ceil(lo/marks) * marks; e <= hi; e += marks {
		t := plot.Tick{Value: math.Pow(10, e)}
		if t.Value < min || t.Value > max {
			continue // Pow's rounding at the ends
		}
		if math.Mod(e, step) == 0 {
			t.Label = strconv.FormatFloat(t.Value, 'g', -1, 64)
		}
		out = append(out, t)
	}
	return out
}

// racPlot draws, one small panel per sample host (so that a host's RAC
// and its true speed are read together), the host's RAC in GFLOPS at
// the policy's scale against its true average GFLOPS (dashed), on one
// log axis for all panels: a fake host's RAC may be a hundred times an
// honest one's, which a linear axis flattens. RAC 0 (before a host's
// first credit, or when it never gets any) is drawn on the axis' lowest
// row, labelled "no credit", not as a value.
func racPlot(c *results.Collector, k int, name string) ([]byte, error) {
	sample := c.Sim().SampleHosts()
	days := c.Days()
	if len(sample) == 0 || len(days) == 0 {
		return nil, nil
	}
	scale := c.Sim().Policies()[k].Scale()
	low, top := math.Inf(1), 0.0
	for j, h := range sample {
		if t := c.TrueGFLOPS(h); t > 0 && !math.IsInf(t, 0) {
			low, top = min(low, t), max(top, t)
		}
		for _, d := range days {
			if v := d.RAC[k][j] / scale; v > 0 && !math.IsInf(v, 0) {
				low, top = min(low, v), max(top, v)
			}
		}
	}
	if math.IsInf(low, 1) {
		return nil, nil // nothing positive to draw
	}
	// The "no credit" row sits a step below the smallest value drawn.
	low = max(low, top*1e-6)
	floor := low / 3
	var panels []*plot.Plot
	for j, h := range sample {
		p, err := racPanel(c, k, j, h, name, racRange{floor, top, scale})
		if err != nil {
			return nil, err
		}
		if j > 0 {
			p.Legend = plot.NewLegend()
		}
		panels = append(panels, p)
	}
	win := c.Window()
	title := fmt.Sprintf("%s: RAC / %g of the sample hosts (solid) against their true GFLOPS (dashed)", name, scale)
	for _, p := range panels {
		if err := dayLines(p, win); err != nil {
			return nil, err
		}
	}
	return tilesOf(panels, title, min(3, len(panels)))
}

// racRange is the RAC panels' shared axis: the "no credit" row, the
// top, and the policy's scale that converts RAC to GFLOPS.
type racRange struct{ floor, top, scale float64 }

// racPanel is sample host h's (the j-th) panel of policy k's RAC, with
// its legend.
func racPanel(c *results.Collector, k, j, h int, name string, r racRange) (*plot.Plot, error) {
	days := c.Days()
	p := newPlot(sampleLabel(c, h), "day", "GFLOPS")
	p.Title.TextStyle.Font.Size = vg.Points(10)
	p.Y.Scale = plot.LogScale{}
	p.Y.Tick.Marker = noCreditTicks{floor: r.floor}
	p.Y.Min, p.Y.Max = r.floor/1.4, r.top*1.5
	var xy plotter.XYs
	for _, d := range days {
		v := d.RAC[k][j] / r.scale
		if !(v > 0) || math.IsInf(v, 0) {
			v = r.floor
		}
		xy = append(xy, plotter.XY{X: float64(d.Day), Y: min(max(v, r.floor), p.Y.Max)})
	}
	l, err := plotter.NewLine(xy)
	if err != nil {
		return nil, err
	}
	l.Color = policyColor([]string{name}, 0)
	l.Width = vg.Points(1.3)
	p.Add(l)
	p.Legend.Add("RAC / scale", l)
	if truth := c.TrueGFLOPS(h); truth > 0 && !math.IsInf(truth, 0) {
		f := plotter.NewFunction(func(float64) float64 { return truth })
		f.Color, f.Dashes = color.Gray{Y: 60}, []vg.Length{vg.Points(4), vg.Points(3)}
		p.Add(f)
		p.Legend.Add("true GFLOPS", f)
	}
	p.Legend.TextStyle.Font.Size = vg.Points(8)
	p.X.Min, p.X.Max = 0, float64(days[len(days)-1].Day)
	return p, nil
}

// noCreditTicks are a log axis' ticks with the lowest row, where RAC 0
// is drawn, labelled "no credit".
type noCreditTicks struct{ floor float64 }

// Ticks implements plot.Ticker.
func (t noCreditTicks) Ticks(lo, hi float64) []plot.Tick {
	out := (logTicks{}).Ticks(t.floor*1.6, hi)
	return append(out, plot.Tick{Value: t.floor, Label: "no credit"})
}

// dayLines marks, on a day axis, where the warm-up ends and where the
// server stops sending work, unnamed (the figure's title names them).
func dayLines(p *plot.Plot, win results.Window) error {
	for j, day := range []float64{win.From / boinc.SecondsPerDay, win.To / boinc.SecondsPerDay} {
		if day <= p.X.Min || day >= p.X.Max {
			continue
		}
		l, err := plotter.NewLine(plotter.XYs{{X: day, Y: p.Y.Min}, {X: day, Y: p.Y.Max}})
		if err != nil {
			return err
		}
		l.Color = color.Gray{Y: 150}
		l.Dashes = []vg.Length{vg.Points(2), vg.Points(2 + 2*float64(j))}
		p.Add(l)
	}
	return nil
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
