package stock

import (
	"fmt"
	"strings"
)

// Kind is a kind of project the verdict answers for: a built-in world
// whose apps stand for it, with the overrides that make it that kind.
type Kind struct {
	Name  string   // short, for progress lines
	Says  string   // "CPU apps": the one-line answer's subject
	World string   // the built-in world
	Sets  []string // overrides of the world, before the threats
	// SizesKnown: each job's size is known when it is made, so fixed
	// credit per job is an option. Measures: the project's validator
	// measures the work in each output, so post-assigned credit is one.
	SizesKnown, Measures bool
}

// Kinds are the kinds of project the verdict answers for. None of them
// measures the work in each output: post-assigned credit is shown, not
// recommended (a project whose validator does is told what it would
// give, and `creditsim advise --measures-work` recommends it).
var Kinds = []Kind{
	{Name: "cpu", Says: "CPU apps whose jobs' sizes are known", World: "baseline", SizesKnown: true},
	{Name: "sizes", Says: "CPU apps whose jobs' sizes are not known in advance", World: "job-size-variance"},
	{Name: "gpu", Says: "apps with GPU versions", World: "gpu-mix", SizesKnown: true},
	{Name: "vm", Says: "multi-threaded VM apps beside other projects", World: "mt-idle", SizesKnown: true,
		Sets: []string{"projects[1].apps[0].versions[0].multi_thread=true"}},
}

// KindsNamed are the kinds a comma-separated list of names (Kind.Name)
// names, in Kinds' order; "" is every kind.
func KindsNamed(list string) ([]Kind, error) {
	if strings.TrimSpace(list) == "" {
		return Kinds, nil
	}
	want := map[string]bool{}
	for _, n := range strings.Split(list, ",") {
		n = strings.TrimSpace(n)
		known := false
		for _, k := range Kinds {
			known = known || k.Name == n
		}
		if !known {
			return nil, fmt.Errorf("%q is not a kind of project (want %s)", n, strings.Join(KindNames(), ", "))
		}
		want[n] = true
	}
	var out []Kind
	for _, k := range Kinds {
		if want[k.Name] {
			out = append(out, k)
		}
	}
	return out, nil
}

// KindNames are the kinds' names, in order.
func KindNames() []string {
	var out []string
	for _, k := range Kinds {
		out = append(out, k.Name)
	}
	return out
}

// AttackSets are the overrides of an attack on r, k's recommended
// configuration (Row.AttackSets), in k's world capped at hosts as the
// verdict ran it (0: uncapped).
func (k Kind) AttackSets(r *Row, hosts int) []string {
	sets := append(append([]string(nil), k.Sets...), r.AttackSets()...)
	if hosts > 0 {
		sets = append(sets, fmt.Sprintf("hosts.initial=%d", hosts))
	}
	return sets
}
