package sim_test

import (
	"testing"
	"time"

	_ "github.com/creditsim/creditsim/policy/all" // every credit system

	"github.com/creditsim/creditsim/scenarios"
	"github.com/creditsim/creditsim/sim"
	"github.com/creditsim/creditsim/world"
)

type counter struct {
	n, valid int
	g, d     float64
}

func (c *counter) ResultDone(r *sim.Record) {
	c.n++
	if r.Granted[0] > 0 {
		c.valid++
	}
	c.g += r.Granted[0]
	c.d += r.Flops
}
func (c *counter) Day(*sim.DayState) {}

func TestSmoke(t *testing.T) {
	t.Parallel()
	s, err := scenarios.Open("baseline", []string{"hosts.initial=300", "duration=10d", "warmup=1d"})
	if err != nil {
		t.Fatal(err)
	}
	c := &counter{}
	cfg, err := world.Config(s, 0, c)
	if err != nil {
		t.Fatal(err)
	}
	x := sim.New(cfg)
	start := time.Now()
	x.Run(nil)
	t.Logf("%d results sent, %d finished (%d valid), %d events in %v; G %.4g, D flops %.4g",
		x.Results(), c.n, c.valid, x.Events(), time.Since(start), c.g, c.d)
	t.Log(x.PoolSizes())
	if c.valid == 0 {
		t.Fatal("nothing validated")
	}
}
