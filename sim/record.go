package sim

// What the engine tells the observer about each result when its fate is final.

import (
	"github.com/creditsim/creditsim/policy"
)

// finish records a result's final fate and frees what can be freed. A
// result whose runtime Science United-style accounting has yet to pay
// for waits for its host's next account-manager call (or its departure)
// before it is recorded.
func (s *Sim) finish(ri int32) {
	r := s.res(ri)
	r.st = stOver
	r.startedAt = s.now // from now on, resolvedAt
	if len(s.ras) > 0 && !r.has(fOrphan) && r.ran > s.amRan(ri) {
		r.set(fSettling, true)
		return
	}
	s.record(ri)
}

// record gives the observer a final result's truth and the credit each
// policy granted it: the workunit's credit if valid, for runtime
// accounting what it paid for the result's runtime, whatever its fate.
func (s *Sim) record(ri int32) {
	if s.cfg.Observer == nil {
		return
	}
	r := s.res(ri)
	v := &s.versions[r.vid]
	g := s.grantBuf
	if r.validateState() == policy.Valid && !r.has(fRevoked) {
		copy(g, s.creditRow(r.wu))
	} else {
		clear(g)
	}
	paid := s.paidRow(ri) // nil for a result that never ran
	for k, p := range s.ras {
		g[p] = 0
		if paid != nil {
			g[p] = paid[k]
		}
	}
	flops := 0.0
	if r.has(fEnded) {
		flops = r.flopsDone
	}
	s.rec = Record{View: s.shown(r), Host: s.hosts[r.host].h, Version: v, Flops: flops,
		Efficiency: s.hosts[r.host].havs[r.vid].eff, DeviceSeconds: r.ran * (s.hosts[r.host].cpusRun(v) + v.GPUUsage), Granted: g,
		EstRuntime: r.estRun, Runtime: r.ran, Replicas: int(s.target(s.wu(r.wu))), Time: r.resolvedAt(),
		Slot: r.wu, SlotGen: s.wu(r.wu).gen}
	s.cfg.Observer.ResultDone(&s.rec)
}
