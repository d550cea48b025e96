package plot

import (
	"bytes"
	"fmt"
	"image/color"
	"math"
	"strconv"

	"github.com/creditsim/creditsim/results"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/palette/moreland"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// SweepSeries is one policy's figure over a sweep's points: the mean and
// its 95% interval (NaN where undefined).
type SweepSeries struct {
	Name         string
	Mean, Lo, Hi []float64
}

// figureAxis says how a sweep plots a figure of summary.json (a dotted
// name as in sweep.csv), from the figure registry: its axis label,
// whether its axis is logarithmic from the start, and a reference line
// (0: none).
func figureAxis(fig string) (label string, logY bool, ref float64, refLabel string) {
	f, _, ok := results.Lookup(fig)
	if !ok {
		return fig, false, 0, ""
	}
	if math.IsNaN(f.Ref) {
		return f.Axis, f.LogAxis, 0, ""
	}
	return f.Axis, f.LogAxis, f.Ref, f.RefLabel
}

// refInk draws a sweep's reference lines (a bound, a floor) in grey, so
// that no one takes them for a series (v4trust's is black and dashed).
var refInk = color.Gray{Y: 110}

// figureFloor is a figure's floor (the harm floor, 0.95), 0 if none.
func figureFloor(fig string) float64 {
	if f, _, ok := results.Lookup(fig); ok && f.Floor > 0 {
		return f.Floor
	}
	return 0
}

// SweepLines plots a figure (a dotted summary name) against the swept
// values xs (numbers are placed by value, other values evenly with their
// text as labels), one line per series with its interval as a
// translucent band. Cheat figures get a logarithmic Y axis and the 1.1
// bound; other Y axes are logarithmic when the values are positive and
// span more than 3 orders of magnitude.
func SweepLines(title, xLabel, fig string, xs []string, series []SweepSeries) ([]byte, error) {
	yLabel, logY, ref, refLabel := figureAxis(fig)
	p := newPlot(title, xLabel, yLabel)
	x := sweepX(p, xs)
	// A cheat figure past the cheat plot's range (a 1e304 claim) is drawn
	// at its edge with its value, so that it flattens no other line.
	var edges *edgeMarks
	if ref == results.CheatBound {
		edges = &edgeMarks{lo: cheatLow, hi: cheatHigh}
		series = clampSeries(series, x, edges)
	}
	// The axis follows the means: an interval's low end may be 0 or
	// below with few replications, and is cut at half the lowest mean on
	// a log axis.
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, s := range series {
		for _, v := range s.Mean {
			if !math.IsNaN(v) && !math.IsInf(v, 0) {
				lo, hi = min(lo, v), max(hi, v)
			}
		}
	}
	if math.IsInf(lo, 1) {
		return nil, nil
	}
	logY = lo > 0 && (logY || hi/lo > 1e3)
	floor := math.Inf(-1)
	if logY {
		p.Y.Scale = plot.LogScale{}
		p.Y.Tick.Marker = logTicks{}
		floor = lo / 2
	}
	names := make([]string, len(series))
	for k, s := range series {
		names[k] = s.Name
	}
	for k := range series {
		if err := addSeries(p, series, names, k, dodge(x, k, len(series)), floor); err != nil {
			return nil, err
		}
	}
	if ref != 0 && (!logY || ref > 0) {
		line := plotter.NewFunction(func(float64) float64 { return ref })
		line.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
		line.Color = refInk
		p.Add(line)
		p.Legend.Add(refLabel, line)
		p.Y.Min, p.Y.Max = min(p.Y.Min, ref), max(p.Y.Max, ref)
	}
	if fl := figureFloor(fig); fl > 0 && (!logY || fl > 0) {
		// The harm floor: honest accounts below it lost more than 5%.
		line := plotter.NewFunction(func(float64) float64 { return fl })
		line.Dashes = []vg.Length{vg.Points(1), vg.Points(3)}
		line.Color = refInk
		p.Add(line)
		p.Legend.Add(fmt.Sprintf("floor %g", fl), line)
		p.Y.Min, p.Y.Max = min(p.Y.Min, fl), max(p.Y.Max, fl)
	}
	if logY && p.Y.Max/p.Y.Min < 100 {
		// Two decades at least, so that labelled ticks show the scale.
		mid := math.Sqrt(p.Y.Max * p.Y.Min)
		p.Y.Min, p.Y.Max = min(p.Y.Min, mid/10), max(p.Y.Max, mid*10)
	}
	if edges != nil {
		if err := edges.add(p); err != nil {
			return nil, err
		}
	}
	return renderSideLegend(p)
}

// dodge is x for series k of n: systems with the same value at a point
// (several at a gain of 1) would hide one another, so each is set a
// little to its own side of the point, within a third of the gap to the
// next.
func dodge(x []float64, k, n int) []float64 {
	gap := math.Inf(1)
	for i := 1; i < len(x); i++ {
		if d := math.Abs(x[i] - x[i-1]); d > 0 {
			gap = min(gap, d)
		}
	}
	if math.IsInf(gap, 1) {
		gap = 1
	}
	dx := 0.0
	if n > 1 {
		dx = gap / 3 * (float64(k)/float64(n-1) - 0.5)
	}
	out := make([]float64, len(x))
	for i := range x {
		out[i] = x[i] + dx
	}
	return out
}

// sweepX places the swept values on p's X axis: numbers by value, other
// values evenly with their text as labels.
func sweepX(p *plot.Plot, xs []string) []float64 {
	x := make([]float64, len(xs))
	for i, s := range xs {
		v, err := strconv.ParseFloat(s, 64)
		if err != nil || !finite(v) {
			for i := range x {
				x[i] = float64(i)
			}
			p.NominalX(xs...)
			return x
		}
		x[i] = v
	}
	return x
}

// clampSeries is series with every mean and interval end within the
// edges' range, the means clamped noted (at x) to be labelled.
func clampSeries(series []SweepSeries, x []float64, e *edgeMarks) []SweepSeries {
	out := make([]SweepSeries, len(series))
	for k, s := range series {
		c := SweepSeries{Name: s.Name}
		for i, m := range s.Mean {
			if !math.IsNaN(m) {
				m = e.clamp(x[i], m)
			}
			c.Mean = append(c.Mean, m)
			c.Lo = append(c.Lo, min(max(s.Lo[i], e.lo), e.hi))
			c.Hi = append(c.Hi, min(max(s.Hi[i], e.lo), e.hi))
		}
		out[k] = c
	}
	return out
}

// addSeries adds series k to p: its means as a line with marks in the
// policy's colour and dash, its 95% interval as a translucent band (cut
// at floor on a log axis), and its legend entry, which names an earlier
// identical series it is drawn over.
func addSeries(p *plot.Plot, series []SweepSeries, names []string, k int, x []float64, floor float64) error {
	s := series[k]
	c := policyColor(names, k)
	var line, band, upper plotter.XYs
	for i := range x {
		if m := s.Mean[i]; !math.IsNaN(m) && !math.IsInf(m, 0) {
			line = append(line, plotter.XY{X: x[i], Y: m})
		}
		// An interval with an unbounded end (a cheater's 1e304 claim)
		// draws no band: the mean's mark says it.
		if l, h := s.Lo[i], s.Hi[i]; finite(l) && finite(h) && h > floor {
			band = append(band, plotter.XY{X: x[i], Y: max(l, floor)})
			upper = append(upper, plotter.XY{X: x[i], Y: h})
		}
	}
	if err := addBand(p, band, upper, c); err != nil {
		return err
	}
	if len(line) == 0 {
		return nil
	}
	l, pts, err := plotter.NewLinePoints(line)
	if err != nil {
		return err
	}
	l.Color = c
	l.Width = vg.Points(1.5)
	l.Dashes = plotutil.Dashes(policySlot(names, k))
	pts.Color = c
	pts.Shape = policyShape(names, k)
	name := s.Name
	if j := sameAs(series, k); j >= 0 {
		// Drawn over an identical series: say so, and draw it larger
		// so that both stay visible.
		name += " (= " + series[j].Name + ")"
		pts.Radius = vg.Points(5)
		l.Width = vg.Points(3)
	}
	p.Add(l, pts)
	p.Legend.Add(name, l, pts)
	return nil
}

// addBand adds an interval's band, between lower and upper (points of
// the same x, in order), in a translucent c; none with fewer than two.
func addBand(p *plot.Plot, lower, upper plotter.XYs, c color.Color) error {
	if len(lower) < 2 {
		return nil
	}
	band := append(plotter.XYs(nil), lower...)
	for i := len(upper) - 1; i >= 0; i-- {
		band = append(band, upper[i])
	}
	poly, err := plotter.NewPolygon(band)
	if err != nil {
		return err
	}
	r, g, b, _ := c.RGBA()
	poly.Color = color.NRGBA{R: uint8(r >> 8), G: uint8(g >> 8), B: uint8(b >> 8), A: 48}
	poly.LineStyle.Width = 0
	p.Add(poly)
	return nil
}

// renderSideLegend draws p with its legend in a column right of the data
// (the canvas widened by the legend's width), so that however many lines
// there are, none is hidden by it.
func renderSideLegend(p *plot.Plot) ([]byte, error) {
	leg := p.Legend
	p.Legend = plot.NewLegend()
	w := leg.Rectangle(draw.Canvas{}).Size().X + vg.Points(12)
	c, err := draw.NewFormattedCanvas(plotW+w, plotH, "png")
	if err != nil {
		return nil, err
	}
	dc := draw.New(c)
	p.Draw(draw.Crop(dc, 0, -w, 0, 0))
	title := p.Title.TextStyle.Rectangle(p.Title.Text).Size().Y + p.Title.Padding
	leg.Top, leg.Left = true, true
	leg.Draw(draw.Crop(dc, plotW+vg.Points(6), 0, 0, -title))
	return encode(c)
}

// encode writes a drawn canvas out as PNG bytes.
func encode(c vg.CanvasWriterTo) ([]byte, error) {
	var b bytes.Buffer
	if _, err := c.WriteTo(&b); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// SweepHeat draws z[i][j] (x value i, y value j) as a heat map with the
// values' range in the title; nil when no cell is defined.
func SweepHeat(title, xLabel, yLabel string, xs, ys []string, z [][]float64) ([]byte, error) {
	lo, hi := finiteRange(z)
	if math.IsInf(lo, 1) {
		return nil, nil
	}
	p := newPlot(title+" (blue "+short(lo)+", red "+short(hi)+"; grey undefined)", xLabel, yLabel)
	pal := moreland.SmoothBlueRed()
	pal.SetMin(0)
	pal.SetMax(1)
	h := plotter.NewHeatMap(grid{z}, pal.Palette(64))
	h.Min, h.Max = lo, hi
	if hi == lo {
		h.Min, h.Max = lo-0.5, hi+0.5
	}
	h.NaN = color.Gray{Y: 200}
	p.Add(h)
	// Each cell carries its value: colours alone exaggerate small
	// differences, since the palette spans whatever range there is.
	var cells plotter.XYLabels
	var inks []color.Color
	for i, col := range z {
		for j, v := range col {
			label, ink := "undefined", color.Color(color.Black)
			if !math.IsNaN(v) && !math.IsInf(v, 0) {
				label = short(v)
				if f := (v - h.Min) / (h.Max - h.Min); f < 0.2 || f > 0.8 {
					ink = color.White // on the palette's dark ends
				}
			}
			cells.XYs = append(cells.XYs, plotter.XY{X: float64(i), Y: float64(j)})
			cells.Labels = append(cells.Labels, label)
			inks = append(inks, ink)
		}
	}
	labels, err := centredLabels(cells, inks, 11)
	if err != nil {
		return nil, err
	}
	p.Add(labels)
	p.NominalX(xs...)
	p.NominalY(ys...)
	p.Legend.Top = false
	return render(p)
}

// finite reports whether v is neither NaN nor infinite.
func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// finiteRange is the least and largest finite value of z (+Inf and -Inf
// when it has none).
func finiteRange(z [][]float64) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, col := range z {
		for _, v := range col {
			if !math.IsNaN(v) && !math.IsInf(v, 0) {
				lo, hi = min(lo, v), max(hi, v)
			}
		}
	}
	return lo, hi
}

// grid adapts z to gonum's GridXYZ, cells at integer positions.
type grid struct{ z [][]float64 }

func (g grid) Dims() (c, r int)   { return len(g.z), len(g.z[0]) }
func (g grid) Z(c, r int) float64 { return g.z[c][r] }
func (g grid) X(c int) float64    { return float64(c) }
func (g grid) Y(r int) float64    { return float64(r) }

func render(p *plot.Plot) ([]byte, error) {
	c, err := draw.NewFormattedCanvas(plotW, plotH, "png")
	if err != nil {
		return nil, err
	}
	p.Draw(draw.New(c))
	return encode(c)
}

// short formats v to 4 significant digits for labels on a plot.
func short(v float64) string { return strconv.FormatFloat(v, 'g', 4, 64) }

// sameAs is the index of an earlier series with the same means as series
// k (within 1e-9 relative at every point), or -1.
func sameAs(series []SweepSeries, k int) int {
	for j := 0; j < k; j++ {
		same := len(series[j].Mean) == len(series[k].Mean)
		for i := 0; same && i < len(series[k].Mean); i++ {
			a, b := series[j].Mean[i], series[k].Mean[i]
			same = a == b || math.IsNaN(a) && math.IsNaN(b) || math.Abs(a-b) <= 1e-9*max(math.Abs(a), math.Abs(b))
		}
		if same {
			return j
		}
	}
	return -1
}

// centredLabels writes each cell's label centred on its point, in its
// ink and at size points.
func centredLabels(cells plotter.XYLabels, inks []color.Color, size float64) (*plotter.Labels, error) {
	labels, err := plotter.NewLabels(cells)
	if err != nil {
		return nil, err
	}
	for i := range labels.TextStyle {
		labels.TextStyle[i] = text.Style{Color: inks[i], Font: font.From(plot.DefaultFont, vg.Length(size)),
			XAlign: draw.XCenter, YAlign: draw.YCenter, Handler: plot.DefaultTextHandler}
	}
	return labels, nil
}
