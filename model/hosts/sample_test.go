package hosts

import (
	"reflect"
	"testing"

	"go.yaml.in/yaml/v3"
)

func TestSampleSelect(t *testing.T) {
	cheat := func(k Kind) Behaviour { return Behaviour{Kind: k} }
	hs := []*Host{
		{NGPUs: 0}, // 0 honest CPU
		{NGPUs: 1}, // 1 honest GPU
		{NGPUs: 0, Behaviour: cheat(FakeResults)}, // 2
		{NGPUs: 0},             // 3 honest CPU
		{NGPUs: 1, Arrival: 5}, // 4 arrives later: never sampled
		{NGPUs: 0, Behaviour: cheat(CherryPicker)},                                              // 5
		{NGPUs: 0, Behaviour: cheat(FakeResults)},                                               // 6
		{NGPUs: 0, Behaviour: Behaviour{Kind: IdleVM, And: &Behaviour{Kind: RuntimeInflation}}}, // 7: counted as the pair
	}
	for _, c := range []struct {
		yaml string
		want []int
	}{
		{"default", []int{0, 1, 2, 5, 7}},
		{"3", []int{0, 1, 2}},
		{"0", nil},
		{"{honest_cpu: 2, fake_results: 2}", []int{0, 2, 3, 6}},
		{"{cherry_picker: 1, honest_gpu: 3}", []int{1, 5}},
		{"{idle_vm+runtime_inflation: 1}", []int{7}},
		{"{idle_vm: 1}", nil}, // a pair is not its first kind
	} {
		var s SampleSpec
		if err := yaml.Unmarshal([]byte(c.yaml), &s); err != nil {
			t.Fatalf("%s: %v", c.yaml, err)
		}
		if got := s.Select(hs); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: sampled %v, want %v", c.yaml, got, c.want)
		}
		// It round-trips through the resolved scenario.
		b, err := yaml.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		var back SampleSpec
		if err := yaml.Unmarshal(b, &back); err != nil || !reflect.DeepEqual(back.Select(hs), c.want) {
			t.Errorf("%s: written as %q, read back %v (%v)", c.yaml, b, back.Select(hs), err)
		}
	}
}
