package plot

import (
	"fmt"
	"image/color"
	"math"
	"strings"

	"github.com/creditsim/creditsim/results"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// badness is how far a scorecard value is from its ideal, in units of
// its bound (1 = at the bound): neutralities by |log x| over log 1.1,
// cheat ratios and the worst account by how far they exceed 1 the same
// way (the account's gain over what chance gives, as the scorecard
// judges it), credit per day without work over its bound of 0.1, host spread
// over 0.1. NaN for calibration and undefined values.
func badness(c int, x float64) float64 {
	if !results.Defined(x) {
		return math.NaN()
	}
	lb := math.Log(results.CheatBound)
	switch c {
	case results.ColHarm:
		return results.HarmUnits(x)
	case results.ColDevice, results.ColProject:
		if x <= 0 {
			return math.Inf(1)
		}
		return math.Abs(math.Log(x)) / lb
	case results.ColGain, results.ColAccountGain:
		if x <= 0 {
			return 0
		}
		return max(0, math.Log(x)/lb)
	case results.ColHostCV:
		return x / 0.1
	}
	return math.NaN()
}

// scoreShort are the scorecard's column names on the picture.
var scoreShort = [results.NumScoreColumns]string{"host CV", "device", "project", "worst gain", "account\ngain", "harm", "honest G/D"}

// ScorecardPlot draws the scorecard as one picture: a row per policy, a
// column per scorecard figure, each cell coloured by how far its value
// is from the ideal (green at it, yellow at the bound, red at three
// times the bound and beyond; grey for calibration and undefined) and
// labelled with the value. Nil for a summary without policies.
func ScorecardPlot(sc *results.Scorecard) (*plot.Plot, error) {
	return scorecardPlot(sc, "Scorecard: every policy on the scorecard's figures (green = ideal, yellow = at the bound, red = 3 x past it)")
}

// VerdictPNG draws the verdict's scorecard (each figure at its worst
// over the worlds) as ScorecardPlot does, as PNG bytes.
func VerdictPNG(v *results.Verdict) ([]byte, error) {
	p, err := scorecardPlot(v.Card, fmt.Sprintf("Each system at its worst: fairness over the %d built-in worlds without cheaters, cheating over the %d with them\n(green = ideal, yellow = at the bound, red = 3 x past it)", v.Worlds-v.CheatWorlds, v.CheatWorlds))
	if err != nil || p == nil {
		return nil, err
	}
	return render(p)
}

func scorecardPlot(sc *results.Scorecard, title string) (*plot.Plot, error) {
	if len(sc.Rows) == 0 {
		return nil, nil
	}
	nr := len(sc.Rows)
	p := plot.New()
	p.Title.Text = title
	p.Title.TextStyle.Font.Size = vg.Points(11)
	var cells plotter.XYLabels
	var inks []color.Color
	cols := sc.Shown
	if cols == nil {
		for c := 0; c < results.NumScoreColumns; c++ {
			cols = append(cols, c)
		}
	}
	var heads []string
	for x, c := range cols {
		heads = append(heads, scoreShort[c])
		for i, r := range sc.Rows {
			y := float64(nr - 1 - i) // first policy on top
			b := badness(c, r.Values[c])
			if c == results.ColAccountGain && results.Defined(r.AccountNoise) {
				// The bound's judgement: an account's gain beyond what
				// honest accounts reach by chance at its rank.
				b = badness(c, r.Values[c]/max(1, r.AccountNoise))
			}
			box, err := plotter.NewPolygon(plotter.XYs{{X: float64(x) - 0.48, Y: y - 0.45}, {X: float64(x) + 0.48, Y: y - 0.45},
				{X: float64(x) + 0.48, Y: y + 0.45}, {X: float64(x) - 0.48, Y: y + 0.45}})
			if err != nil {
				return nil, err
			}
			box.Color = badnessColor(b)
			box.LineStyle.Width = 0
			p.Add(box)
			label := results.FormatScore(r.Values[c])
			if c == results.ColGain && r.GainKind != "" {
				label += "\n" + r.GainKind
			}
			if c == results.ColAccountGain && results.Defined(r.AccountNoise) && results.Defined(r.Values[c]) {
				label += "\nchance " + results.FormatScore(r.AccountNoise)
			}
			cells.XYs = append(cells.XYs, plotter.XY{X: float64(x), Y: y})
			cells.Labels = append(cells.Labels, label)
			inks = append(inks, color.Black)
		}
	}
	labels, err := centredLabels(cells, inks, 8)
	if err != nil {
		return nil, err
	}
	p.Add(labels)
	p.NominalX(heads...)
	var names []string
	for i := nr - 1; i >= 0; i-- {
		names = append(names, sc.Rows[i].Policy)
	}
	p.NominalY(names...)
	p.X.Min, p.X.Max = -0.5, float64(len(cols))-0.5
	if len(sc.NotMeasured) > 0 {
		p.X.Label.Text = strings.Join(sc.NotMeasured, "\n")
		p.X.Label.TextStyle.Font.Size = vg.Points(8)
	}
	p.Y.Min, p.Y.Max = -0.5, float64(nr)-0.5
	p.X.Tick.Label.Font.Size = vg.Points(10)
	p.Y.Tick.Label.Font.Size = vg.Points(10)
	return p, nil
}

// badnessColor is green at 0, yellow at 1 (the bound), red from 3 on;
// light grey for NaN.
func badnessColor(b float64) color.Color {
	if math.IsNaN(b) {
		return color.RGBA{R: 225, G: 225, B: 225, A: 255}
	}
	lerp := func(a, z uint8, t float64) uint8 { return uint8(float64(a) + (float64(z)-float64(a))*t) }
	green, yellow, red := [3]uint8{120, 200, 120}, [3]uint8{250, 220, 90}, [3]uint8{230, 100, 90}
	from, to, t := green, yellow, b
	if b > 1 {
		from, to, t = yellow, red, min((b-1)/2, 1)
	}
	return color.RGBA{R: lerp(from[0], to[0], t), G: lerp(from[1], to[1], t), B: lerp(from[2], to[2], t), A: 255}
}
