package results

import (
	"bytes"
	"image/color"
	"math"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/palette/moreland"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
)

// SweepSeries is one policy's figure over a sweep's points: the mean and
// its 95% interval (NaN where undefined).
type SweepSeries struct {
	Name         string
	Mean, Lo, Hi []float64
}

// SweepLines plots series against the swept values xs (numbers are
// placed by value, other values evenly with their text as labels), one
// line per series with its interval as a translucent band. The Y axis is
// logarithmic when the values are positive and span more than 3 orders of
// magnitude.
func SweepLines(title, xLabel, yLabel string, xs []string, series []SweepSeries) ([]byte, error) {
	p := newPlot(title, xLabel, yLabel)
	x := make([]float64, len(xs))
	numeric := true
	for i, s := range xs {
		v, err := strconv.ParseFloat(s, 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
			numeric = false
			break
		}
		x[i] = v
	}
	if !numeric {
		for i := range x {
			x[i] = float64(i)
		}
		p.NominalX(xs...)
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, s := range series {
		for _, vs := range [][]float64{s.Mean, s.Lo, s.Hi} {
			for _, v := range vs {
				if !math.IsNaN(v) && !math.IsInf(v, 0) {
					lo, hi = math.Min(lo, v), math.Max(hi, v)
				}
			}
		}
	}
	logY := lo > 0 && hi/lo > 1e3
	if logY {
		p.Y.Scale = plot.LogScale{}
		p.Y.Tick.Marker = plot.LogTicks{Prec: -1}
	}
	for k, s := range series {
		c := plotutil.Color(k)
		var line, band plotter.XYs
		var upper plotter.XYs
		for i := range x {
			if m := s.Mean[i]; !math.IsNaN(m) && !math.IsInf(m, 0) {
				line = append(line, plotter.XY{X: x[i], Y: m})
			}
			if l, h := s.Lo[i], s.Hi[i]; !math.IsNaN(l) && !math.IsNaN(h) && (!logY || l > 0) {
				band = append(band, plotter.XY{X: x[i], Y: l})
				upper = append(upper, plotter.XY{X: x[i], Y: h})
			}
		}
		if len(band) >= 2 {
			for i := len(upper) - 1; i >= 0; i-- {
				band = append(band, upper[i])
			}
			poly, err := plotter.NewPolygon(band)
			if err != nil {
				return nil, err
			}
			r, g, b, _ := c.RGBA()
			poly.Color = color.NRGBA{R: uint8(r >> 8), G: uint8(g >> 8), B: uint8(b >> 8), A: 48}
			poly.LineStyle.Width = 0
			p.Add(poly)
		}
		if len(line) == 0 {
			continue
		}
		l, pts, err := plotter.NewLinePoints(line)
		if err != nil {
			return nil, err
		}
		l.Color = c
		l.Width = vg.Points(1.5)
		l.Dashes = plotutil.Dashes(k)
		pts.Color = c
		pts.Shape = plotutil.Shape(k)
		p.Add(l, pts)
		p.Legend.Add(s.Name, l, pts)
	}
	if !logY {
		headroom(p, len(series))
	} else {
		p.Y.Max *= math.Pow(p.Y.Max/p.Y.Min, 0.06*float64(len(series)))
	}
	return render(p)
}

// SweepHeat draws z[i][j] (x value i, y value j) as a heat map with the
// values' range in the title; nil when no cell is defined.
func SweepHeat(title, xLabel, yLabel string, xs, ys []string, z [][]float64) ([]byte, error) {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, col := range z {
		for _, v := range col {
			if !math.IsNaN(v) && !math.IsInf(v, 0) {
				lo, hi = math.Min(lo, v), math.Max(hi, v)
			}
		}
	}
	if math.IsInf(lo, 1) {
		return nil, nil
	}
	p := newPlot(title+" (blue "+FormatFloat(lo)+", red "+FormatFloat(hi)+"; grey undefined)", xLabel, yLabel)
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
	p.NominalX(xs...)
	p.NominalY(ys...)
	p.Legend.Top = false
	return render(p)
}

// grid adapts z to gonum's GridXYZ, cells at integer positions.
type grid struct{ z [][]float64 }

func (g grid) Dims() (c, r int)   { return len(g.z), len(g.z[0]) }
func (g grid) Z(c, r int) float64 { return g.z[c][r] }
func (g grid) X(c int) float64    { return float64(c) }
func (g grid) Y(r int) float64    { return float64(r) }

func render(p *plot.Plot) ([]byte, error) {
	wt, err := p.WriterTo(plotW, plotH, "png")
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	if _, err := wt.WriteTo(&b); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
