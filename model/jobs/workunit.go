package jobs

import (
	"github.com/creditsim/creditsim/boinc/rng"
)

// Workunit is one job as generated: what the server is told (Est, Bound)
// and the truth (Flops).
type Workunit struct {
	Seq   uint64  // index in the app's stream
	Est   float64 // rsc_fpops_est
	Bound float64 // rsc_fpops_bound
	Flops float64 // FLOPs the job really takes
	Class int     // size class index, 0 when the app has none
}

// Stream generates an app's workunits. Workunit k depends only on
// (seed, app key, k).
type Stream struct {
	app *App
	key uint64
	seq uint64
	src *rng.Source
}

// NewStream returns the workunit stream of app, identified by key (for
// example a hash of project and app names), for a replication seed.
func NewStream(app *App, seed, key uint64) *Stream {
	return &Stream{app: app, key: rng.Hash(seed, rng.String("workunits"), key), src: rng.NewSource(0)}
}

// Next returns the next workunit without allocating.
func (s *Stream) Next() Workunit {
	s.src.Reseed(rng.Hash(s.key, s.seq))
	r := s.src.R
	a := s.app
	wu := Workunit{Seq: s.seq, Est: a.RscFpopsEst}
	s.seq++
	factor := 1.0
	if len(a.SizeClasses) > 0 {
		total := 0.0
		for _, c := range a.SizeClasses {
			total += c.Share
		}
		u := r.Float64() * total
		wu.Class = len(a.SizeClasses) - 1
		for i, c := range a.SizeClasses {
			if u < c.Share {
				wu.Class = i
				break
			}
			u -= c.Share
		}
		c := a.SizeClasses[wu.Class]
		factor = c.Factor
		if c.Estimated {
			wu.Est *= c.Factor
		}
	}
	wu.Flops = a.RscFpopsEst * factor * a.SizeError.Sample(r)
	wu.Bound = wu.Est * a.BoundFactor
	return wu
}
