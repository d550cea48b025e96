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
// figure against the run's index, one colour per kind (the kinds' fixed
// settings as rings), the bound (a dashed line at bound), and at the
// right the worst case's confirmation on fresh seeds with its 95%
// interval. The Y axis is logarithmic; runs that gave 0 are counted in
// the title.
func AttackSearch(title, yLabel string, bound float64, pts []AttackPoint, mean, lo, hi float64) ([]byte, error) {
	ref, refLabel := bound, "bound "+short(bound)
	zeros := 0
	var spaces []string
	bySpace := map[string]plotter.XYs{}
	libs := plotter.XYs{}
	last := 0
	for _, p := range pts {
		last = max(last, p.Run)
		if !(p.Value > 0) || math.IsInf(p.Value, 0) {
			zeros++
			continue
		}
		if _, ok := bySpace[p.Space]; !ok {
			spaces = append(spaces, p.Space)
		}
		bySpace[p.Space] = append(bySpace[p.Space], plotter.XY{X: float64(p.Run), Y: p.Value})
		if p.Library {
			libs = append(libs, plotter.XY{X: float64(p.Run), Y: p.Value})
		}
	}
	switch {
	case zeros == 1:
		title += " (1 run gave 0, not shown)"
	case zeros > 1:
		title += fmt.Sprintf(" (%d runs gave 0, not shown)", zeros)
	}
	p := newPlot(title, "search run", yLabel)
	p.Y.Scale = plot.LogScale{}
	p.Y.Tick.Marker = plot.LogTicks{Prec: -1}
	for i, s := range spaces {
		sc, err := plotter.NewScatter(bySpace[s])
		if err != nil {
			return nil, err
		}
		sc.GlyphStyle.Color = plotutil.Color(i)
		sc.GlyphStyle.Shape = plotutil.Shape(i)
		sc.GlyphStyle.Radius = vg.Points(3)
		p.Add(sc)
		p.Legend.Add(s, sc)
	}
	if len(libs) > 0 {
		ring, err := plotter.NewScatter(libs)
		if err != nil {
			return nil, err
		}
		ring.GlyphStyle = draw.GlyphStyle{Color: color.Black, Radius: vg.Points(6), Shape: draw.RingGlyph{}}
		p.Add(ring)
		p.Legend.Add("fixed settings", ring)
	}
	if mean > 0 && !math.IsInf(mean, 0) {
		x := float64(last + 2)
		c := plotter.XYs{{X: x, Y: mean}}
		dot, err := plotter.NewScatter(c)
		if err != nil {
			return nil, err
		}
		dot.GlyphStyle = draw.GlyphStyle{Color: color.Black, Radius: vg.Points(4), Shape: draw.PyramidGlyph{}}
		p.Add(dot)
		p.Legend.Add("worst, fresh seeds", dot)
		if lo > 0 && hi >= lo && !math.IsInf(hi, 0) {
			bar, err := plotter.NewYErrorBars(errPoint{x, mean, mean - lo, hi - mean})
			if err == nil {
				p.Add(bar)
			}
		}
	}
	if ref > 0 {
		line, err := plotter.NewLine(plotter.XYs{{X: -1, Y: ref}, {X: float64(last + 3), Y: ref}})
		if err != nil {
			return nil, err
		}
		line.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
		line.Color = color.Black
		p.Add(line)
		p.Legend.Add(refLabel, line)
	}
	if p.Y.Min <= 0 || p.Y.Max/p.Y.Min < 100 {
		mid := math.Sqrt(max(p.Y.Max, 1e-300) * max(p.Y.Min, 1e-300))
		p.Y.Min, p.Y.Max = mid/10, mid*10
		if len(pts) > 0 {
			for _, s := range bySpace {
				for _, q := range s {
					p.Y.Min, p.Y.Max = min(p.Y.Min, q.Y), max(p.Y.Max, q.Y)
				}
			}
		}
	}
	return renderSideLegend(p)
}

// errPoint is one point with its error bar below and above.
type errPoint struct{ x, y, lo, hi float64 }

func (e errPoint) Len() int                      { return 1 }
func (e errPoint) XY(int) (float64, float64)     { return e.x, e.y }
func (e errPoint) YError(int) (float64, float64) { return e.lo, e.hi }
