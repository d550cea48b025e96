package policy_test

import (
	"fmt"

	"github.com/creditsim/creditsim/policy"
)

// flat is a credit system that pays every valid job the same: the
// smallest a policy can be. Embedding policy.Base gives it the events it
// ignores (Sent, Reported, Tick, ClientReport).
type flat struct {
	policy.Base
	credit float64
}

func (f *flat) decls() []policy.Decl {
	return []policy.Decl{
		// Each option is declared once: name, default, range, text, field.
		policy.Float(&f.credit, "credit", 50, policy.Positive, "credit per valid job"),
	}
}

func (f *flat) Init(*policy.World)                     {}
func (f *flat) Scale() float64                         { return policy.ScaleServer }
func (f *flat) Validated(v *policy.Validation) float64 { return f.credit }

// Example shows how a credit system is added: declare its options,
// register its kind (from an init function in its own package), and
// every command can run it by name.
func Example() {
	if _, _, err := policy.Resolve(policy.Spec{Name: "flat-example"}); err != nil {
		policy.Register(&policy.Kind{
			Name:    "flat-example",
			Doc:     "the same credit for every valid job",
			Options: policy.Docs((&flat{}).decls()),
			Needs:   nil, // it reads nothing of a result: a replay can always run it
			New: func(opts policy.Options) (policy.Policy, error) {
				f := &flat{}
				return f, policy.ParseOptions(opts, f.decls())
			},
		})
	}
	p, err := policy.New(policy.Spec{Name: "my-flat", Base: "flat-example", Options: policy.Options{"credit": "20"}})
	if err != nil {
		fmt.Println(err)
		return
	}
	p.Init(&policy.World{})
	job := &policy.Validation{Valid: []*policy.Result{{ID: 1}, {ID: 2}}}
	fmt.Println("each replica gets", p.Validated(job))
	_, err = policy.New(policy.Spec{Name: "bad", Base: "flat-example", Options: policy.Options{"credit": "-1"}})
	fmt.Println(err)
	// Output:
	// each replica gets 20
	// option credit: "-1": must be above 0
}
