package exhaustive

// u64map is an open-addressing hash map from non-zero-based uint64 keys to
// steps, for the workers' private delivery caches (the hottest lookup of
// the search). Keys are stored plus one so that zero marks an empty slot.
type u64map struct {
	keys []uint64
	vals []step
	n    int
	mask uint64
}

func newU64map() *u64map {
	m := &u64map{}
	m.init(1 << 10)
	return m
}

func (m *u64map) init(size int) {
	m.keys = make([]uint64, size)
	m.vals = make([]step, size)
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
		switch m.keys[p] {
		case k:
			return m.vals[p], true
		case 0:
			return step{}, false
		}
	}
}

func (m *u64map) put(k uint64, v step) {
	if (m.n+1)*2 > len(m.keys) {
		oldK, oldV := m.keys, m.vals
		m.init(len(oldK) * 2)
		for i, ok := range oldK {
			if ok != 0 {
				m.put(ok-1, oldV[i])
			}
		}
	}
	k++
	p := mix64(k) & m.mask
	for m.keys[p] != 0 && m.keys[p] != k {
		p = (p + 1) & m.mask
	}
	if m.keys[p] == 0 {
		m.n++
	}
	m.keys[p] = k
	m.vals[p] = v
}
