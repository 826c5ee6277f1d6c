package props

import "math/rand/v2"

// Source is where the scenario generators take their choices from. The
// library search draws from a Seeded source; the property tests adapt
// rapid to it, so the same generators run under both. Labels name a
// choice for a source that reports them; a source may ignore them.
type Source interface {
	// IntRange returns an integer in [lo, hi]; lo <= hi.
	IntRange(lo, hi int, label string) int
	// Bool returns a choice between false and true.
	Bool(label string) bool
}

// Pick returns one of items, chosen by src. Items earlier in the list
// count as simpler: a source that shrinks towards small numbers shrinks
// towards the first item. items must not be empty.
func Pick[T any](src Source, label string, items []T) T {
	return items[src.IntRange(0, len(items)-1, label)]
}

// Seeded is a deterministic Source: a PCG stream fixed by a seed and a
// case number. Like a property tester's generator it favours simple
// values: a range's ends and the few smallest values come up far more
// often than a uniform draw would give them, and the early cases of a
// search (a small size) draw from the low part of each range.
type Seeded struct {
	rng *rand.Rand
	// size in (0, 1] scales the uniform part of a draw to the low
	// fraction of its range.
	size float64
}

// sizeRamp is the number of cases over which a search's size grows from
// its smallest to the whole range.
const sizeRamp = 100

// NewSeeded returns the source of case number c (from 0) of the search
// seeded with seed. The same seed and case give the same choices.
func NewSeeded(seed uint64, c int) *Seeded {
	size := float64(c+1) / sizeRamp
	if c < 0 || size > 1 {
		size = 1
	}
	return &Seeded{rng: rand.New(rand.NewPCG(seed, uint64(c))), size: size}
}

// IntRange draws from [lo, hi]: one time in eight lo, one in sixteen hi,
// one in four one of the four lowest values, otherwise a uniform value in
// the low size-th part of the range (at least its four lowest values).
// An empty range (hi < lo) gives lo.
func (s *Seeded) IntRange(lo, hi int, _ string) int {
	if hi <= lo {
		return lo
	}
	n := uint64(hi) - uint64(lo) + 1 // wraps to 0 for the whole int range
	if n == 0 {
		return int(s.rng.Uint64())
	}
	switch r := s.rng.IntN(16); {
	case r < 2:
		return lo
	case r < 3:
		return hi
	case r < 7:
		return lo + int(s.rng.Uint64N(min(n, 4)))
	}
	span := max(min(n, 4), uint64(float64(n)*s.size))
	return lo + int(s.rng.Uint64N(min(span, n)))
}

// Bool draws false or true with equal odds.
func (s *Seeded) Bool(string) bool { return s.rng.IntN(2) == 1 }
