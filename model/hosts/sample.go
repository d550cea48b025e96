package hosts

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/creditsim/creditsim/model/param"
	"go.yaml.in/yaml/v3"
)

// Sample keys besides the agent kinds: honest hosts with and without a
// GPU.
const (
	SampleHonestCPU = "honest_cpu"
	SampleHonestGPU = "honest_gpu"
)

// SampleSpec says which hosts the daily time series and the per-job
// plots follow, among the hosts present from the start: by default one
// honest CPU host, one honest GPU host (when there are GPUs) and one host
// of each agent kind present; a number N, the first N; or a mapping of
// keys (honest_cpu, honest_gpu, or an agent kind) to counts.
type SampleSpec struct {
	N      int
	ByKind map[string]int
	set    bool // a number or a mapping was given
}

// SampleCount returns the spec of the first n hosts.
func SampleCount(n int) SampleSpec { return SampleSpec{N: n, set: true} }

// UnmarshalYAML accepts a number, "default", or a mapping of keys to counts.
func (s *SampleSpec) UnmarshalYAML(n *yaml.Node) error {
	switch {
	case n.Kind == yaml.ScalarNode && n.Value == "default":
		*s = SampleSpec{}
		return nil
	case n.Kind == yaml.ScalarNode:
		v, err := strconv.Atoi(n.Value)
		if err != nil {
			return fmt.Errorf("%q: want a number of hosts, default, or a mapping of kinds to counts", n.Value)
		}
		*s = SampleSpec{N: v, set: true}
		return nil
	case n.Kind == yaml.MappingNode:
		m := map[string]int{}
		if err := n.Decode(&m); err != nil {
			return err
		}
		*s = SampleSpec{ByKind: m, set: true}
		return nil
	}
	return fmt.Errorf("want a number of hosts, default, or a mapping of kinds to counts")
}

// MarshalYAML writes the spec back in the form it was given.
func (s SampleSpec) MarshalYAML() (any, error) {
	switch {
	case !s.set:
		return "default", nil
	case s.ByKind != nil:
		return s.ByKind, nil
	}
	return s.N, nil
}

// Validate checks counts and keys.
func (s SampleSpec) Validate(k param.Check) {
	if s.N < 0 {
		k.Fail("sample_hosts", s.N, "must not be negative")
	}
	keys := make([]string, 0, len(s.ByKind))
	for key := range s.ByKind {
		keys = append(keys, key)
	}
	sort.Strings(keys)
	for _, key := range keys {
		_, isKind := ParseGroup(key)
		if key != SampleHonestCPU && key != SampleHonestGPU && (!isKind || key == Honest.String()) {
			k.Fail("sample_hosts", key, "unknown key (known: "+SampleHonestCPU+", "+SampleHonestGPU+", "+strings.Join(KindNames(), ", ")+", or two kinds joined by +)")
		} else if s.ByKind[key] < 0 {
			k.Field("sample_hosts").Fail(key, s.ByKind[key], "must not be negative")
		}
	}
}

// SampleKey is the key a host counts under: its agent kind, or
// honest_cpu / honest_gpu.
func SampleKey(h *Host) string {
	if h.Behaviour.Kind != Honest {
		return h.Behaviour.Name()
	}
	if h.NGPUs > 0 {
		return SampleHonestGPU
	}
	return SampleHonestCPU
}

// Select returns the indexes of the sampled hosts among hs, in order,
// taking only hosts present from the start.
func (s SampleSpec) Select(hs []*Host) []int {
	want := s.ByKind
	if !s.set {
		want = map[string]int{SampleHonestCPU: 1, SampleHonestGPU: 1}
		for _, h := range hs {
			if h.Behaviour.Kind != Honest {
				want[h.Behaviour.Name()] = 1
			}
		}
	}
	var out []int
	got := map[string]int{}
	for i, h := range hs {
		if h.Arrival != 0 {
			continue
		}
		if want == nil {
			if len(out) < s.N {
				out = append(out, i)
			}
			continue
		}
		if key := SampleKey(h); got[key] < want[key] {
			got[key]++
			out = append(out, i)
		}
	}
	return out
}
