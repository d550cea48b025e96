package runner

import (
	"github.com/creditsim/creditsim/model/hosts"
	"github.com/creditsim/creditsim/sim"
)

func simHosts(c *sim.Config) []*hosts.Host { return sim.New(c).Hosts() }
