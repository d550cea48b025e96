package plot

import (
	"image/color"

	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg/draw"
)

// palette holds colours that stay apart on white and from one another:
// the Okabe-Ito colours (safe for the common colour blindnesses), then
// more, each of its own hue family so that no two policies share one.
var palette = []color.Color{
	rgb(0x8c, 0x56, 0x4b), // brown
	rgb(0x80, 0x80, 0x00), // olive
	rgb(0x56, 0xb4, 0xe9), // sky blue
	rgb(0xe6, 0x9f, 0x00), // orange
	rgb(0xd6, 0x27, 0x28), // red
	rgb(0xcc, 0x79, 0xa7), // reddish purple
	rgb(0x00, 0x72, 0xb2), // blue
	rgb(0x70, 0x70, 0x70), // grey
	rgb(0x00, 0x9e, 0x73), // bluish green
	rgb(0x5e, 0x35, 0xb1), // indigo
	rgb(0x00, 0x00, 0x00), // black
	rgb(0xe0, 0x40, 0xfb), // magenta
	rgb(0x00, 0xa0, 0xa0), // teal
	rgb(0x80, 0x00, 0x00), // maroon
	rgb(0x7c, 0xb3, 0x42), // lime
	rgb(0xc9, 0xa8, 0x00), // gold
}

func rgb(r, g, b uint8) color.Color { return color.RGBA{R: r, G: g, B: b, A: 255} }

// standardOrder is the standard policy instances in the order their
// colours and marks are fixed, so a policy looks the same in every file
// whatever order a scenario lists it in (a test keeps it equal to
// policy.Standard()).
var standardOrder = []string{
	"credit-from-runtime", "credit-from-wu", "post-assigned-credit", "sciunited", "v1peak", "v2actual",
	"v3pfc-boinc", "v3pfc-boinc-classic", "v3pfc-design-v2", "v3pfc-design-v29", "v4trust",
}

// policySlot is the place of names[k] in the fixed order: a standard
// instance's own, else after every standard one, by its place among the
// other names.
func policySlot(names []string, k int) int {
	for i, n := range standardOrder {
		if n == names[k] {
			return i
		}
	}
	other := 0
	for j := 0; j < k; j++ {
		if !isStandard(names[j]) {
			other++
		}
	}
	return len(standardOrder) + other
}

func isStandard(name string) bool {
	for _, n := range standardOrder {
		if n == name {
			return true
		}
	}
	return false
}

// policyColor and policyShape are the colour and mark of names[k].
func policyColor(names []string, k int) color.Color { return seriesColor(policySlot(names, k)) }
func policyShape(names []string, k int) draw.GlyphDrawer {
	return plotutil.Shape(policySlot(names, k))
}

// lighter mixes c halfway with white: a box's fill, on which its black
// median line stays visible whatever the policy's colour.
func lighter(c color.Color) color.Color {
	r, g, b, _ := c.RGBA()
	mix := func(x uint32) uint8 { return uint8(float64(x>>8) + (255-float64(x>>8))*0.5) }
	return color.RGBA{R: mix(r), G: mix(g), B: mix(b), A: 255}
}

// seriesColor is series k's colour: the palette's, then its colours
// again, lighter (a dashed line or another mark tells them apart).
func seriesColor(k int) color.Color {
	c := palette[k%len(palette)]
	if k < len(palette) {
		return c
	}
	return lighter(c)
}
