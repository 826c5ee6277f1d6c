package exhaustive

import "github.com/nip-rs/harness/internal/offheap"

// u64map is an open-addressing hash map from uint64 keys to small values,
// for the workers' private caches (the hottest lookups of the search: a
// delivery, a knowledge merge, a renaming under symmetry). Key and value
// share a slot so a probe touches one cache line. Keys are stored plus one
// so that zero marks an empty slot.
type u64map[V any] struct {
	mem   *offheap.Arena // where slot arrays of some size live
	slots []u64slot[V]
	n     int
	mask  uint64
	// limit, when not zero, is the most slots the map grows to; a map
	// that would grow past it is emptied instead. Only a cache whose
	// values are recomputed exactly may be bounded.
	limit int
}

type u64slot[V any] struct {
	key uint64
	val V
}

// newU64map is an empty map that grows to at most limit slots (0: no
// bound).
func newU64map[V any](mem *offheap.Arena, limit int) *u64map[V] {
	m := &u64map[V]{mem: mem, limit: limit}
	m.init(1 << 10)
	return m
}

// init gives the map size empty slots; the old ones are returned (a
// worker's map is read by that worker alone, so nothing still probes them).
func (m *u64map[V]) init(size int) {
	offheap.Release(m.mem, m.slots)
	m.slots = offheap.Make[u64slot[V]](m.mem, size)
	m.mask = uint64(size - 1)
	m.n = 0
}

func mix64(k uint64) uint64 {
	k ^= k >> 33
	k *= 0xff51afd7ed558ccd
	k ^= k >> 33
	return k
}

func (m *u64map[V]) get(k uint64) (V, bool) {
	k++
	for p := mix64(k) & m.mask; ; p = (p + 1) & m.mask {
		s := &m.slots[p]
		switch s.key {
		case k:
			return s.val, true
		case 0:
			var zero V
			return zero, false
		}
	}
}

func (m *u64map[V]) put(k uint64, v V) {
	if (m.n+1)*2 > len(m.slots) && m.limit > 0 && len(m.slots)*2 > m.limit {
		clear(m.slots)
		m.n = 0
	}
	if (m.n+1)*2 > len(m.slots) {
		old := m.slots
		m.slots = nil // kept until moved
		m.init(len(old) * 2)
		for _, s := range old {
			if s.key != 0 {
				m.put(s.key-1, s.val)
			}
		}
		offheap.Release(m.mem, old)
	}
	k++
	p := mix64(k) & m.mask
	for m.slots[p].key != 0 && m.slots[p].key != k {
		p = (p + 1) & m.mask
	}
	if m.slots[p].key == 0 {
		m.n++
	}
	m.slots[p] = u64slot[V]{k, v}
}

// reset empties the map, shrinking it first when an earlier use grew it
// far beyond the usual, so that emptying stays cheap.
func (m *u64map[V]) reset() {
	if len(m.slots) > 1<<12 {
		m.init(1 << 10)
		return
	}
	clear(m.slots)
	m.n = 0
}
