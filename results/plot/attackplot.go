package plot

import (
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// AttackPoint is one run of an attack's search, scored for one policy.
type AttackPoint struct {
	Run     int     // the run's index in the search
	Value   float64 // the policy's figure
	Space   string  // the behaviour's kind
	Library bool    // the kind at the scenario's fixed settings
}

// AttackSearch plots an attack's search for one policy: each run's
// figure against the run's index, one colour and mark per kind (the
// kinds' fixed settings ringed), the bound (a dashed line at bound), and
// at the right the worst case's confirmation on fresh seeds with its 95%
// interval. The Y axis is logarithmic from 0.01 to 1000; a figure past
// it is drawn at its edge with its value, and runs that gave 0 are
// counted in the title.
func AttackSearch(title, yLabel string, bound float64, pts []AttackPoint, mean, lo, hi float64) ([]byte, error) {
	g := groupAttack(pts)
	switch {
	case g.zeros == 1:
		title += " (1 run gave 0, not shown)"
	case g.zeros > 1:
		title += fmt.Sprintf(" (%d runs gave 0, not shown)", g.zeros)
	}
	p := newPlot(title, "search run", yLabel)
	p.Y.Scale = plot.LogScale{}
	p.Y.Tick.Marker = logTicks{}
	edge := edgeMarks{lo: cheatLow, hi: cheatHigh}
	ylo, yhi := bound, bound
	clamp := func(xy plotter.XYs) plotter.XYs {
		out := make(plotter.XYs, len(xy))
		for k, q := range xy {
			out[k] = plotter.XY{X: q.X, Y: edge.clamp(q.X, q.Y)}
			ylo, yhi = min(ylo, out[k].Y), max(yhi, out[k].Y)
		}
		return out
	}
	for i, name := range g.spaces {
		sc, err := plotter.NewScatter(clamp(g.bySpace[name]))
		if err != nil {
			return nil, err
		}
		sc.GlyphStyle = draw.GlyphStyle{Color: seriesColor(i), Radius: vg.Points(3), Shape: plotutil.Shape(i)}
		p.Add(sc)
		p.Legend.Add(name, sc)
	}
	if len(g.libs) > 0 {
		ring, err := plotter.NewScatter(clamp(g.libs))
		if err != nil {
			return nil, err
		}
		ring.GlyphStyle = draw.GlyphStyle{Color: color.Black, Radius: vg.Points(6), Shape: draw.RingGlyph{}}
		p.Add(ring)
		p.Legend.Add("fixed settings", ring)
	}
	if mean > 0 && !math.IsInf(mean, 0) {
		x := float64(g.last + 2)
		m := edge.clamp(x, mean)
		ylo, yhi = min(ylo, m), max(yhi, m)
		dot, err := plotter.NewScatter(plotter.XYs{{X: x, Y: m}})
		if err != nil {
			return nil, err
		}
		dot.GlyphStyle = draw.GlyphStyle{Color: color.Black, Radius: vg.Points(4), Shape: draw.PyramidGlyph{}}
		p.Add(dot)
		p.Legend.Add("worst, fresh seeds", dot)
		if lo > 0 && hi >= lo && !math.IsInf(hi, 0) && m == mean {
			l, h := max(lo, cheatLow), min(hi, cheatHigh)
			if bar, err := plotter.NewYErrorBars(errPoint{x, mean, mean - l, h - mean}); err == nil {
				p.Add(bar)
				ylo, yhi = min(ylo, l), max(yhi, h)
			}
		}
	}
	line, err := plotter.NewLine(plotter.XYs{{X: -1, Y: bound}, {X: float64(g.last + 3), Y: bound}})
	if err != nil {
		return nil, err
	}
	line.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
	line.Color = color.Black
	p.Add(line)
	p.Legend.Add("bound "+short(bound), line)
	if err := edge.add(p); err != nil {
		return nil, err
	}
	// Two decades at least, so that labelled ticks show the scale.
	mid := math.Sqrt(ylo * yhi)
	p.Y.Min, p.Y.Max = min(ylo/1.5, mid/10), max(yhi*1.5, mid*10)
	return renderSideLegend(p)
}

// attackGroups are an attack's runs grouped for its plot.
type attackGroups struct {
	spaces  []string // kinds in the order first seen
	bySpace map[string]plotter.XYs
	libs    plotter.XYs // the kinds at their fixed settings
	zeros   int         // runs that gave 0 (or nothing finite)
	last    int         // the largest run index
}

func groupAttack(pts []AttackPoint) attackGroups {
	g := attackGroups{bySpace: map[string]plotter.XYs{}}
	for _, p := range pts {
		g.last = max(g.last, p.Run)
		if !(p.Value > 0) || math.IsInf(p.Value, 0) {
			g.zeros++
			continue
		}
		if _, ok := g.bySpace[p.Space]; !ok {
			g.spaces = append(g.spaces, p.Space)
		}
		xy := plotter.XY{X: float64(p.Run), Y: p.Value}
		g.bySpace[p.Space] = append(g.bySpace[p.Space], xy)
		if p.Library {
			g.libs = append(g.libs, xy)
		}
	}
	return g
}

// errPoint is one point with its error bar below and above.
type errPoint struct{ x, y, lo, hi float64 }

func (e errPoint) Len() int                      { return 1 }
func (e errPoint) XY(int) (float64, float64)     { return e.x, e.y }
func (e errPoint) YError(int) (float64, float64) { return e.lo, e.hi }
