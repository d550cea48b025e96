package rng

import "math/rand/v2"

// mix is SplitMix64's finaliser, a bijective 64-bit mixer.
func mix(z uint64) uint64 {
	z += 0x9e3779b97f4a7c15
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// Hash combines parts into one 64-bit seed; order matters.
func Hash(parts ...uint64) uint64 {
	h := uint64(0x6a09e667f3bcc908)
	for _, p := range parts {
		h = mix(h ^ mix(p))
	}
	return h
}

// String hashes a component name (FNV-1a) so streams can be named.
func String(s string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= 1099511628211
	}
	return h
}

// New returns a generator seeded by seed.
func New(seed uint64) *rand.Rand {
	return rand.New(rand.NewPCG(seed, mix(seed^0x5851f42d4c957f2d)))
}

// Source is a reusable PCG generator whose state can be reset in place,
// for hot paths that need a fresh stream per item without allocating.
type Source struct {
	pcg rand.PCG
	R   *rand.Rand
}

// NewSource returns a Source seeded by seed.
func NewSource(seed uint64) *Source {
	s := &Source{}
	s.pcg.Seed(seed, mix(seed^0x5851f42d4c957f2d))
	s.R = rand.New(&s.pcg)
	return s
}

// Reseed resets s to the stream of seed.
func (s *Source) Reseed(seed uint64) {
	s.pcg.Seed(seed, mix(seed^0x5851f42d4c957f2d))
}
