package plot

import (
	"image/color"
	"math"
	"sort"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/creditsim/creditsim/results"
)

// FrontierPoint is one credit system under one server configuration: what
// the configuration costs (jobs computed per validated workunit: results
// sent and the project's own checks) and the system's worst gain there.
type FrontierPoint struct {
	Policy, Config string
	Cost, Gain     float64
}

// Frontier draws each policy's worst gain over the honest twin against the
// price of each server configuration, on a log gain axis with the 1.1
// bound: the choice a project makes between what it pays in computing
// and what cheaters gain. Each configuration is a dotted line at its
// price, named at the top (configurations of about the same price share
// one); a policy's points sit a little to one side of it so that equal
// gains stay apart. names fixes the policies' colours and order; nil
// when no point has both figures.
func Frontier(title string, pts []FrontierPoint, names []string) ([]byte, error) {
	p := newPlot(title, "jobs computed per validated workunit (results sent + project checks)",
		"worst gain (bottom edge: 0.01 or less)")
	p.Y.Scale = plot.LogScale{}
	xlo, xhi := math.Inf(1), math.Inf(-1)
	for _, pt := range pts {
		if results.Defined(pt.Cost) && results.Defined(pt.Gain) {
			xlo, xhi = min(xlo, pt.Cost), max(xhi, pt.Cost)
		}
	}
	if math.IsInf(xlo, 1) {
		return nil, nil
	}
	span := max(xhi-xlo, 1)
	edge := edgeMarks{lo: cheatLow, hi: cheatHigh}
	lo, hi, unbounded, err := frontierMarks(p, pts, names, span, &edge)
	if err != nil {
		return nil, err
	}
	// Gains of 0 are common here (a defence that holds): they sit on the
	// bottom edge, said in the axis label, not written by each mark.
	// Configurations of one price put their marks side by side: one
	// label says what the marks at the top edge near each other hold.
	edge.bottom = plotter.XYLabels{}
	edge.top = nearbyOnce(edge.top, 0.05*span)
	if err := edge.add(p); err != nil {
		return nil, err
	}
	p.Y.Min, p.Y.Max = lo/1.5, hi*60 // room for the configurations' names
	if err := configLines(p, pts, span); err != nil {
		return nil, err
	}
	bound := plotter.NewFunction(func(float64) float64 { return results.CheatBound })
	bound.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
	bound.Color = color.Black
	p.Add(bound)
	p.Legend.Add("bound 1.1", bound)
	p.X.Min, p.X.Max = max(0, xlo-0.15*span), xhi+0.15*span
	p.Y.Tick.Marker = frontierTicks{unbounded: unbounded}
	return renderSideLegend(p)
}

// unboundedRow is where the frontier draws gains above results.Unbounded
// (a one-time claim paid): a row of their own, a decade above the edge
// where finite gains beyond cheatHigh sit with their values, named once
// on the axis rather than by each mark (neighbours' names would overlap).
const unboundedRow = cheatHigh * 10

// frontierTicks are logTicks up to cheatHigh, and "unbounded" at
// unboundedRow when a gain is drawn there.
type frontierTicks struct{ unbounded bool }

// Ticks implements plot.Ticker.
func (f frontierTicks) Ticks(min, max float64) []plot.Tick {
	ticks := logTicks{}.Ticks(min, max)
	if !f.unbounded {
		return ticks
	}
	var out []plot.Tick
	for _, t := range ticks {
		if t.Value <= cheatHigh {
			out = append(out, t)
		}
	}
	return append(out, plot.Tick{Value: unboundedRow, Label: "unbounded"})
}

// frontierMarks adds each policy's points, set a little to one side of
// their configuration's price by the policy's place in names, and
// returns the range of the gains drawn and whether any is drawn on
// unboundedRow.
func frontierMarks(p *plot.Plot, pts []FrontierPoint, names []string, span float64, edge *edgeMarks) (lo, hi float64, unbounded bool, err error) {
	lo, hi = 0.5, 2.0
	for k, name := range names {
		var xy plotter.XYs
		for _, pt := range pts {
			if pt.Policy == name && results.Defined(pt.Cost) && results.Defined(pt.Gain) {
				x := pt.Cost + 0.012*span*(float64(k)-float64(len(names)-1)/2)
				y := float64(unboundedRow)
				if pt.Gain > results.Unbounded {
					unbounded = true
				} else {
					y = edge.clamp(x, pt.Gain)
				}
				lo, hi = min(lo, y), max(hi, y)
				xy = append(xy, plotter.XY{X: x, Y: y})
			}
		}
		if len(xy) == 0 {
			continue
		}
		sc, err := marks(xy, names, k, vg.Points(4))
		if err != nil {
			return 0, 0, false, err
		}
		p.Add(sc)
		p.Legend.Add(name, sc)
	}
	return lo, hi, unbounded, nil
}

// configLines draws a dotted line at each configuration's price and its
// name at the top, at one of three heights in turn so that neighbours'
// names do not overlap; configurations within 3% of the span of one
// another share a line and a label.
func configLines(p *plot.Plot, pts []FrontierPoint, span float64) error {
	cost := map[string]float64{}
	for _, pt := range pts {
		if results.Defined(pt.Cost) {
			cost[pt.Config] = pt.Cost
		}
	}
	cfgs := results.SortedKeys(cost)
	sort.SliceStable(cfgs, func(i, j int) bool { return cost[cfgs[i]] < cost[cfgs[j]] })
	var labels plotter.XYLabels
	// Both heights lie above the marks' top edge (the gains are drawn up
	// to hi = Y.Max / 60), so no name sits on a mark's label.
	heights := []float64{p.Y.Max / 2, p.Y.Max / 5, p.Y.Max / 12}
	for i, n := 0, 0; i < len(cfgs); n++ {
		j, x := i+1, cost[cfgs[i]]
		for j < len(cfgs) && cost[cfgs[j]]-x < 0.03*span {
			j++
		}
		top := heights[n%len(heights)]
		line, err := plotter.NewLine(plotter.XYs{{X: x, Y: p.Y.Min}, {X: x, Y: top}})
		if err != nil {
			return err
		}
		line.Color = color.Gray{Y: 160}
		line.Dashes = []vg.Length{vg.Points(1), vg.Points(2)}
		p.Add(line)
		labels.XYs = append(labels.XYs, plotter.XY{X: x, Y: top})
		labels.Labels = append(labels.Labels, strings.Join(cfgs[i:j], "\n"))
		i = j
	}
	l, err := newLabels(labels, 8, draw.XCenter, draw.YBottom)
	if err != nil {
		return err
	}
	p.Add(l)
	return nil
}

// nearbyOnce keeps the first of labels with the same text within dx of
// one another.
func nearbyOnce(l plotter.XYLabels, dx float64) plotter.XYLabels {
	var out plotter.XYLabels
	for i, xy := range l.XYs {
		dup := false
		for k, kept := range out.XYs {
			if out.Labels[k] == l.Labels[i] && math.Abs(kept.X-xy.X) < dx {
				dup = true
				break
			}
		}
		if !dup {
			out.XYs = append(out.XYs, xy)
			out.Labels = append(out.Labels, l.Labels[i])
		}
	}
	return out
}
