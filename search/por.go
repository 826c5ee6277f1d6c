package search

// Partial-order reduction by sleep sets (Config.POR). A World that can say
// which of its transitions commute implements Reducer; the engine then
// skips a transition at a state when an equally long path through the
// other order of the same two transitions is explored anyway. Every state
// is still stored at its minimal depth, so the state checks, Distinct and
// PerDepth are exactly those of the unreduced search; what shrinks is the
// number of transitions executed (and so the transition checks' counts,
// never which of them fail: NOTE.md, "Partial-order reduction").
//
// The rules, for state s with sleep set Z, exploring its enabled
// transitions t_1 < t_2 < ... not in Z: the successor s·t_i gets the sleep
// set {t in Z ∪ {t_1..t_(i-1)} : t independent of t_i}. A state reached
// at its minimal depth from several parents keeps the intersection of the
// sets they give it (the engine generates a whole level before expanding
// any state of it, so every such parent has been seen); a state reached
// again at a greater depth keeps what it had. When the World stores a
// renamed image of the successor (a symmetry's representative), it renames
// the set with it: the set is of the concrete successor's transitions.

// Reducer is a World whose transitions' independence is known.
type Reducer[C any] interface {
	World[C]
	// Independent reports whether transitions a and b commute at every
	// state where both are enabled: neither changes what the other reads
	// (its enabledness, its successor and its checks' findings are
	// functions of row words the other does not write), and they write
	// disjoint words. It must be symmetric and false for a == b.
	Independent(a, b int) bool
	// SuccessorSleep is Successor given the sleep set of the concrete
	// successor; when the World writes a renamed image of it into next, it
	// rewrites sleep in place as the image's set (dropping a transition
	// from it is always sound, adding one never is).
	SuccessorSleep(c C, cur []int32, t int, next []int32, sleep []uint64, tl *Tally) (bool, []Finding)
}

// sleepSets are the sleep sets of a run of consecutive states, one fixed
// width bit set per state.
type sleepSets struct {
	words int // uint64 words per set
	bits  []uint64
}

func (s *sleepSets) set(i int) []uint64 { return s.bits[i*s.words : (i+1)*s.words] }

// grow makes room for n sets; a new set starts full, the identity of
// intersection, and is narrowed by the first parent that gives it one.
func (s *sleepSets) grow(n int) {
	for len(s.bits) < n*s.words {
		s.bits = append(s.bits, ^uint64(0))
	}
}

func hasBit(set []uint64, t int) bool { return set[t/64]&(1<<(t%64)) != 0 }
func setBit(set []uint64, t int)      { set[t/64] |= 1 << (t % 64) }

// independence is the Reducer's relation as one bit set per transition.
func independence[C any](r Reducer[C]) [][]uint64 {
	nt := r.Transitions()
	words := (nt + 63) / 64
	out := make([][]uint64, nt)
	for a := range nt {
		out[a] = make([]uint64, words)
		for b := range nt {
			if a != b && r.Independent(a, b) {
				setBit(out[a], b)
			}
		}
	}
	return out
}
