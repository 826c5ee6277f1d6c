package exhaustive

// u64map is an open-addressing hash map from uint64 keys to steps, for the
// workers' private delivery caches (the hottest lookup of the search). Key
// and value share a slot so a probe touches one cache line. Keys are stored
// plus one so that zero marks an empty slot.
type u64map struct {
	slots []u64slot
	n     int
	mask  uint64
	// limit, when not zero, is the most slots the map grows to; a map
	// that would grow past it is emptied instead. Only a cache whose
	// values are recomputed exactly may be bounded.
	limit int
}

type u64slot struct {
	key uint64
	val step
}

func newU64map() *u64map {
	m := &u64map{}
	m.init(1 << 10)
	return m
}

func (m *u64map) init(size int) {
	m.slots = make([]u64slot, size)
	m.mask = uint64(size - 1)
	m.n = 0
}

func mix64(k uint64) uint64 {
	k ^= k >> 33
	k *= 0xff51afd7ed558ccd
	k ^= k >> 33
	return k
}

func (m *u64map) get(k uint64) (step, bool) {
	k++
	for p := mix64(k) & m.mask; ; p = (p + 1) & m.mask {
		s := &m.slots[p]
		switch s.key {
		case k:
			return s.val, true
		case 0:
			return step{}, false
		}
	}
}

func (m *u64map) put(k uint64, v step) {
	if (m.n+1)*2 > len(m.slots) && m.limit > 0 && len(m.slots)*2 > m.limit {
		clear(m.slots)
		m.n = 0
	}
	if (m.n+1)*2 > len(m.slots) {
		old := m.slots
		m.init(len(old) * 2)
		for _, s := range old {
			if s.key != 0 {
				m.put(s.key-1, s.val)
			}
		}
	}
	k++
	p := mix64(k) & m.mask
	for m.slots[p].key != 0 && m.slots[p].key != k {
		p = (p + 1) & m.mask
	}
	if m.slots[p].key == 0 {
		m.n++
	}
	m.slots[p] = u64slot{k, v}
}
