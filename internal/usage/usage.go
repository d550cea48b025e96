package usage

import (
	"runtime/metrics"
	"sync"
)

// liveHeap is the runtime metric of the heap marked live by the last
// garbage collection: what the program holds, without the headroom the
// collector leaves before its next cycle.
const liveHeap = "/gc/heap/live:bytes"

// LiveHeap returns the bytes of heap live at the last garbage collection.
func LiveHeap() uint64 {
	s := []metrics.Sample{{Name: liveHeap}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s[0].Value.Uint64()
}

// Peak keeps the largest live heap seen by Sample. It is safe for
// concurrent use; the zero value is ready.
type Peak struct {
	mu  sync.Mutex
	max uint64
}

// Sample reads the live heap and keeps it if it is the largest so far.
// Reading it is cheap (no stop of the world), so it may be called once a
// simulated day from every replication.
func (p *Peak) Sample() {
	v := LiveHeap()
	p.mu.Lock()
	p.max = max(p.max, v)
	p.mu.Unlock()
}

// Bytes returns the largest live heap sampled.
func (p *Peak) Bytes() uint64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.max
}
