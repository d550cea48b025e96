package plot

import (
	"math"
	"sort"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// maxGroups bounds the categories a group plot draws (the largest
// groups are drawn; the CSV tables have them all).
const maxGroups = 30

// GroupRatios draws, per group (app versions, apps), one mark per policy
// at values[k][g] (policy k, group g), on a log axis. For ratios (how a
// policy's credit compares with what the project granted) a line marks
// 1 and values past 0.01 to 1000 are drawn at the edge; other values
// (credit per hour) keep to four decades either side of their median.
// A value past the range (0 included) is drawn at its edge with its
// value written by it; NaN is not drawn. Nil when nothing can be drawn.
func GroupRatios(title, yLabel string, groups, names []string, values [][]float64, ratios bool) ([]byte, error) {
	ref := ""
	if ratios {
		ref = "= the project's"
	}
	p, err := groupDots(title, yLabel, groups, names, values, ratios, ref)
	if err != nil || p == nil {
		return nil, err
	}
	return renderSideLegend(p)
}

// groupDots is a dot per policy per group on a log axis, values past
// 0.01 to 1000 drawn at the edge when clamp is set, and a dashed line at
// 1 labelled ref unless ref is empty. Nil when nothing can be drawn.
func groupDots(title, yLabel string, groups, names []string, values [][]float64, clamp bool, ref string) (*plot.Plot, error) {
	p := newPlot(title, "", yLabel+", log scale")
	p.Y.Scale = plot.LogScale{}
	n := min(len(groups), maxGroups)
	lo, hi := math.Inf(1), math.Inf(-1)
	step := 0.7 / float64(max(1, len(names)))
	// Ratios keep to 0.01 to 1000; other values to four decades either
	// side of their geometric median, so that one policy paying 1e287
	// does not flatten the others. Values past the range are drawn at
	// its edge with their value.
	edge := edgeMarks{lo: cheatLow, hi: cheatHigh}
	if !clamp {
		var logs []float64
		for k := range names {
			for g := 0; g < n; g++ {
				if v := values[k][g]; v > 0 && !math.IsInf(v, 0) {
					logs = append(logs, math.Log10(v))
				}
			}
		}
		if len(logs) == 0 {
			return nil, nil
		}
		sort.Float64s(logs)
		m := math.Pow(10, logs[len(logs)/2])
		edge.lo, edge.hi = m/1e4, m*1e4
	}
	for k, name := range names {
		var xy plotter.XYs
		for g := 0; g < n; g++ {
			v := values[k][g]
			if !(v >= 0) || math.IsInf(v, -1) {
				continue
			}
			x := float64(g) + step*(float64(k)-float64(len(names)-1)/2)
			y := edge.clamp(x, v)
			lo, hi = min(lo, y), max(hi, y)
			xy = append(xy, plotter.XY{X: x, Y: y})
		}
		if len(xy) == 0 {
			continue
		}
		sc, err := marks(xy, names, k, vg.Points(3.5))
		if err != nil {
			return nil, err
		}
		p.Add(sc)
		p.Legend.Add(name, sc)
	}
	if math.IsInf(lo, 1) {
		return nil, nil
	}
	if ref != "" {
		lo, hi = min(lo, 1), max(hi, 1)
		one := plotter.NewFunction(func(float64) float64 { return 1 })
		one.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
		p.Add(one)
		p.Legend.Add(ref, one)
	}
	if err := edge.add(p); err != nil {
		return nil, err
	}
	p.NominalX(groups[:n]...)
	p.X.Tick.Label.Rotation = math.Pi / 6
	p.X.Tick.Label.XAlign, p.X.Tick.Label.YAlign = -1, -0.5
	p.X.Min, p.X.Max = -0.5, float64(n)-0.5
	p.Y.Min, p.Y.Max = lo/1.5, hi*1.5
	p.Y.Tick.Marker = logTicks{}
	return p, nil
}

// RatioBoxes draws the distribution of values[k] (one value per host,
// say) per policy as box plots on a robust log range, with the count of
// values off-scale in the title. Nil when no policy has values.
func RatioBoxes(title, yLabel string, names []string, values [][]float64) ([]byte, error) {
	pts := make([][]hostPoint, len(names))
	for k := range names {
		for _, v := range values[k] {
			if v > 0 && !math.IsInf(v, 0) {
				pts[k] = append(pts[k], hostPoint{gd: v})
			}
		}
	}
	p, err := hostBoxes(title, yLabel, pts, names)
	if err != nil || p == nil {
		return nil, err
	}
	return render(p)
}
