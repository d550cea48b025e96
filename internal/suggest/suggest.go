package suggest

import "strings"

// Nearest returns the candidate closest to name by edit distance (case
// folded), or "" when none is within a third of the name's length (at
// least 2 edits), or when name is itself a candidate.
func Nearest(name string, candidates []string) string {
	best, bestD := "", len(name)/3
	if bestD < 2 {
		bestD = 2
	}
	bestD++
	for _, c := range candidates {
		if c == name {
			return ""
		}
		if d := distance(strings.ToLower(name), strings.ToLower(c)); d < bestD {
			best, bestD = c, d
		}
	}
	return best
}

// DidYouMean is " (did you mean X?)" for the nearest candidate, or "".
func DidYouMean(name string, candidates []string) string {
	if n := Nearest(name, candidates); n != "" {
		return " (did you mean " + n + "?)"
	}
	return ""
}

// distance is the Levenshtein distance between a and b, in runes.
func distance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}
