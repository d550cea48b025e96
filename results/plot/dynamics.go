package plot

import (
	"fmt"
	"image/color"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/creditsim/creditsim/boinc"
	"github.com/creditsim/creditsim/model/hosts"
	"github.com/creditsim/creditsim/results"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// panelH is the height of one panel of a stacked figure.
const panelH = 3.2 * vg.Inch

// maxJobDots bounds the jobs drawn in the credit-per-job panel.
const maxJobDots = 4000

// jobStride is the step through n jobs that draws at most maxJobDots.
func jobStride(n int) int { return max(1, (n+maxJobDots-1)/maxJobDots) }

// ordinalSuffix is "st", "nd", "rd" or "th" for n.
func ordinalSuffix(n int) string {
	if n%100 >= 11 && n%100 <= 13 {
		return "th"
	}
	switch n % 10 {
	case 1:
		return "st"
	case 2:
		return "nd"
	case 3:
		return "rd"
	}
	return "th"
}

// dynamics draws policy k's state over replication 1 as stacked panels
// sharing the day axis: scales and factors, PFC averages, the sample
// hosts' Scale(H), and the sample hosts' credit per job. Panels with no
// data are left out; nil when none has any. The hosts drawn are the
// honest sample hosts and the one of the behaviour worst gains most
// under the policy (worst, "" for none): ten behaviours' hosts in one
// panel cannot be told apart. The caption says which panels it has.
func dynamics(c *results.Collector, k int, name, worst string) (png []byte, caption string, err error) {
	shown := func(h int) bool {
		key := hosts.SampleKey(c.Host(h))
		return key == hosts.SampleHonestCPU || key == hosts.SampleHonestGPU || key == worst
	}
	series, order := gaugeSeries(c, k, shown)
	panels, parts, err := gaugePanels(c, series, order)
	if err != nil {
		return nil, "", err
	}
	jobs, err := jobPanel(c, k, shown)
	if err != nil {
		return nil, "", err
	}
	if jobs != nil {
		panels = append(panels, jobs)
		parts = append(parts, "every valid job of the sample hosts: its granted credit (coloured by host) beside its deserved credit D (grey); coloured dots on the grey ones mean G = D")
	}
	if len(panels) == 0 {
		return nil, "", nil
	}
	hostsShown := "the honest sample hosts"
	if worst != "" {
		hostsShown += " and the sample host of " + worst + ", the behaviour that gains most under " + name
	}
	caption = fmt.Sprintf("Replication 1 of %s day by day, in %d panel(s), top to bottom: %s. Hosts drawn: %s. The dotted lines mark the end of the warm-up and the day the server stops sending work.",
		name, len(panels), strings.Join(parts, "; "), hostsShown)
	panels[0].Title.Text = name + ": " + panels[0].Title.Text
	days := c.Days()
	last := float64(days[len(days)-1].Day)
	for _, p := range panels {
		p.X.Min, p.X.Max = 0, last
	}
	if err := markDays(panels, c.Window()); err != nil {
		return nil, "", err
	}
	png, err = stack(panels)
	return png, caption, err
}

// The dynamics' gauge panels.
const (
	scales = iota
	averages
	hostScales
	nGauges
)

// gaugeSeries sorts policy k's gauges over replication 1 into the
// dynamics' panels, each series in the order it first has a value; a
// host's gauges only for the hosts shown.
func gaugeSeries(c *results.Collector, k int, shown func(h int) bool) ([nGauges]map[string]plotter.XYs, [nGauges][]string) {
	var series [nGauges]map[string]plotter.XYs
	var order [nGauges][]string
	for i := range series {
		series[i] = map[string]plotter.XYs{}
	}
	days := c.Days()
	for _, d := range days {
		for _, g := range d.Gauges[k] {
			panel := scales
			switch {
			case strings.HasPrefix(g.Name, "pfc_mean."), strings.HasPrefix(g.Name, "min_avg_pfc."):
				panel = averages
			case strings.HasPrefix(g.Name, "host_"):
				panel = hostScales
			}
			// 0 is "no samples yet" (a version not released, a host not
			// yet scaled): a series starts when it has a value.
			if g.Value == 0 || math.IsNaN(g.Value) || math.IsInf(g.Value, 0) {
				continue
			}
			if host, _, ok := hostGauge(g.Name); ok {
				if h, err := strconv.Atoi(host); err == nil && h < c.NumHosts() && !shown(h) {
					continue
				}
			}
			if _, ok := series[panel][g.Name]; !ok {
				order[panel] = append(order[panel], g.Name)
			}
			series[panel][g.Name] = append(series[panel][g.Name], plotter.XY{X: float64(d.Day), Y: g.Value})
		}
	}
	return series, order
}

// gaugePanels draws the gauge panels that have data, and says what each
// shows for the caption.
func gaugePanels(c *results.Collector, series [nGauges]map[string]plotter.XYs, order [nGauges][]string) ([]*plot.Plot, []string, error) {
	titles := [nGauges]string{"scales and calibration factors (1 = unscaled)", "PFC averages, PFC / E(J)", "sample hosts' Scale(H)"}
	says := [nGauges]string{
		"the policy's scales and calibration factors per app version, Scale(V) and the like (1 = unscaled; flat once settled)",
		"CreditNew's running averages of PFC / E(J) per version and min_avg_pfc per app, which version normalisation divides by",
		"the sample hosts' host scale Scale(H) per version, once host normalisation applies (1 = unscaled)",
	}
	var panels []*plot.Plot
	var parts []string
	for i := range series {
		if len(order[i]) == 0 {
			continue
		}
		p, err := gaugePanel(c, titles[i], series[i], order[i], i == hostScales)
		if err != nil {
			return nil, nil, err
		}
		panels = append(panels, p)
		parts = append(parts, says[i])
	}
	return panels, parts, nil
}

// logWhenWide gives panel p a log Y axis when the named series' values
// are all positive and span more than 5 x: fakes whose Scale(H) sits at
// its cap of 10 would otherwise press honest hosts' near 1 flat.
func logWhenWide(p *plot.Plot, series map[string]plotter.XYs, names []string) {
	lo, hi := math.Inf(1), 0.0
	for _, n := range names {
		for _, xy := range series[n] {
			if !(xy.Y > 0) || math.IsInf(xy.Y, 0) {
				return
			}
			lo, hi = min(lo, xy.Y), max(hi, xy.Y)
		}
	}
	if hi/lo > 5 {
		p.Y.Scale = plot.LogScale{}
		p.Y.Tick.Marker = logTicks{}
	}
}

// gaugePanel draws one panel of a policy's gauges: a line per series in
// order, one colour per host and one dash per version in the hosts'
// panel (on a log axis when they span widely), a series equal to an
// earlier one dashed and named so.
func gaugePanel(c *results.Collector, title string, series map[string]plotter.XYs, order []string, hosts bool) (*plot.Plot, error) {
	p := newPlot(title, "day", "")
	if hosts {
		sort.Slice(order, func(a, b int) bool { return hostGaugeLess(order[a], order[b]) })
	}
	hostColour, versionDash := map[string]int{}, map[string]int{}
	var labels []string
	for j, n := range order {
		l, err := plotter.NewLine(series[n])
		if err != nil {
			return nil, err
		}
		l.Color = seriesColor(j)
		l.Dashes = plotutil.Dashes(j / len(plotutil.DefaultColors))
		label, short := n, n
		if host, version, ok := hostGauge(n); ok {
			// One colour per host, one dash pattern per version.
			if _, seen := hostColour[host]; !seen {
				hostColour[host] = len(hostColour)
			}
			if _, seen := versionDash[version]; !seen {
				versionDash[version] = len(versionDash)
			}
			l.Color = seriesColor(hostColour[host])
			l.Dashes = plotutil.Dashes(versionDash[version])
			label = "host " + host + ", " + version
			short = label
			if h, err := strconv.Atoi(host); err == nil && h < c.NumHosts() {
				label = sampleLabel(c, h) + ", " + version
			}
		}
		l.Width = vg.Points(1.2)
		// A series that coincides with an earlier one would hide it:
		// dash it so both show, and say so in the legend.
		for e, earlier := range order[:j] {
			if sameXYs(series[earlier], series[n]) {
				l.Dashes = []vg.Length{vg.Points(5), vg.Points(4)}
				label += " (= " + labels[e] + ")"
				break
			}
		}
		labels = append(labels, short)
		p.Add(l)
		p.Legend.Add(label, l)
	}
	if hosts {
		logWhenWide(p, series, order)
	}
	return p, nil
}

// jobPanel plots every valid job of the sample hosts: granted credit
// under policy k against the day it was granted, one colour per host,
// over the job's deserved credit in grey. The Y axis is logarithmic when
// the credits span more than 30 x.
func jobPanel(c *results.Collector, k int, shown func(h int) bool) (*plot.Plot, error) {
	jobs, granted := c.SampleJobList(k)
	if len(jobs) == 0 {
		return nil, nil
	}
	byHost := map[int]plotter.XYs{}
	seen := map[int]bool{}
	var hostOrder []int
	var deserved plotter.XYs
	lo, hi := math.Inf(1), math.Inf(-1)
	// Thousands of dots read as well as all of them, and gonum's glyph
	// padding costs time and memory per dot: past maxJobDots, every
	// stride-th job is drawn (sample-jobs.csv has them all).
	var keep []int
	for i, j := range jobs {
		if shown(j.Host) {
			keep = append(keep, i)
		}
	}
	stride := jobStride(len(keep))
	for n := 0; n < len(keep); n += stride {
		i := keep[n]
		j := jobs[i]
		g := granted[i]
		if !seen[j.Host] {
			seen[j.Host] = true
			hostOrder = append(hostOrder, j.Host)
		}
		day := j.T / boinc.SecondsPerDay
		if g > 0 && !math.IsInf(g, 0) {
			byHost[j.Host] = append(byHost[j.Host], plotter.XY{X: day, Y: g})
			lo, hi = min(lo, g), max(hi, g)
		}
		if j.D > 0 {
			deserved = append(deserved, plotter.XY{X: day, Y: j.D})
			lo, hi = min(lo, j.D), max(hi, j.D)
		}
	}
	if math.IsInf(lo, 1) {
		return nil, nil
	}
	sort.Ints(hostOrder) // colours as in the Scale(H) panel
	title := "credit per job of the sample hosts"
	if stride > 1 {
		title += fmt.Sprintf(" (every %d%s job)", stride, ordinalSuffix(stride))
	}
	p := newPlot(title, "day", "credit (Cobblestones)")
	if hi/lo > 30 {
		p.Y.Scale = plot.LogScale{}
		p.Y.Tick.Marker = logTicks{}
	}
	d, err := plotter.NewScatter(deserved)
	if err != nil {
		return nil, err
	}
	d.GlyphStyle = draw.GlyphStyle{Color: color.Gray{Y: 170}, Radius: vg.Points(1.6), Shape: draw.CircleGlyph{}}
	p.Add(d)
	p.Legend.Add("deserved D", d)
	for j, h := range hostOrder {
		if len(byHost[h]) == 0 {
			continue
		}
		sc, err := plotter.NewScatter(byHost[h])
		if err != nil {
			return nil, err
		}
		sc.GlyphStyle = draw.GlyphStyle{Color: seriesColor(j), Radius: vg.Points(1.4), Shape: draw.CircleGlyph{}}
		p.Add(sc)
		p.Legend.Add(sampleLabel(c, h), sc)
	}
	return p, nil
}

// stack draws panels one above the other with their day axes aligned and
// each panel's legend in a column at the right.
func stack(panels []*plot.Plot) ([]byte, error) {
	legends := make([]plot.Legend, len(panels))
	var legW vg.Length
	for i, p := range panels {
		legends[i] = p.Legend
		legW = max(legW, p.Legend.Rectangle(draw.Canvas{}).Size().X)
		p.Legend = plot.NewLegend()
	}
	legW += vg.Points(12)
	h := panelH * vg.Length(len(panels))
	c, err := draw.NewFormattedCanvas(plotW+legW, h, "png")
	if err != nil {
		return nil, err
	}
	dc := draw.New(c)
	rows := make([][]*plot.Plot, len(panels))
	for i, p := range panels {
		rows[i] = []*plot.Plot{p}
	}
	tiles := draw.Tiles{Rows: len(panels), Cols: 1, PadY: vg.Points(14), PadBottom: vg.Points(2), PadTop: vg.Points(2)}
	canvases := plot.Align(rows, tiles, draw.Crop(dc, 0, -legW, 0, 0))
	for i, p := range panels {
		pc := canvases[i][0]
		p.Draw(pc)
		title := p.Title.TextStyle.Rectangle(p.Title.Text).Size().Y + p.Title.Padding
		col := draw.Canvas{Canvas: dc.Canvas, Rectangle: vg.Rectangle{
			Min: vg.Point{X: plotW + vg.Points(6), Y: pc.Min.Y},
			Max: vg.Point{X: plotW + legW, Y: pc.Max.Y - title},
		}}
		legends[i].Top, legends[i].Left = true, true
		legends[i].Draw(col)
	}
	return encode(c)
}

// hostGauge splits a sample host's gauge name, host_<id>.host_scale.<version>.
func hostGauge(name string) (host, version string, ok bool) {
	rest, ok := strings.CutPrefix(name, "host_")
	if !ok {
		return "", "", false
	}
	host, version, ok = strings.Cut(rest, ".host_scale.")
	return host, version, ok
}

// hostGaugeLess orders host gauges by host number, then version.
func hostGaugeLess(a, b string) bool {
	ha, va, _ := hostGauge(a)
	hb, vb, _ := hostGauge(b)
	na, ea := strconv.Atoi(ha)
	nb, eb := strconv.Atoi(hb)
	if ea == nil && eb == nil && na != nb {
		return na < nb
	}
	if ha != hb {
		return ha < hb
	}
	return va < vb
}

// sameXYs reports whether two series are the same points.
func sameXYs(a, b plotter.XYs) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
