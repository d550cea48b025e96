package plot

import (
	"image/color"
	"slices"
	"testing"

	"github.com/creditsim/creditsim/policy"
	_ "github.com/creditsim/creditsim/policy/all"
)

// TestPolicyColors: the fixed order is the standard instances', each
// standard instance keeps its colour and mark whatever order a scenario
// lists the policies in, and no two of a dozen policies share a colour.
func TestPolicyColors(t *testing.T) {
	if std := policy.Standard(); !slices.Equal(std, standardOrder) {
		t.Fatalf("standardOrder %v, policy.Standard() %v", standardOrder, std)
	}
	forward := append([]string{}, standardOrder...)
	backward := slices.Clone(forward)
	slices.Reverse(backward)
	withOthers := append([]string{"mine", "v1peak-cputime"}, forward...)
	for k, n := range forward {
		j := slices.Index(backward, n)
		i := slices.Index(withOthers, n)
		if policyColor(forward, k) != policyColor(backward, j) || policyColor(forward, k) != policyColor(withOthers, i) ||
			policyShape(forward, k) != policyShape(withOthers, i) {
			t.Errorf("%s changes colour or mark with the order of the names", n)
		}
	}
	seen := map[color.Color]string{}
	for k, n := range withOthers {
		c := policyColor(withOthers, k)
		if other, ok := seen[c]; ok {
			t.Errorf("%s and %s share a colour", n, other)
		}
		seen[c] = n
	}
}
