package exhaustive

// tupleMap is a worker's bounded memo from a short tuple of int32 (one
// word per device) to a value: open addressing over the tuple's hash, the
// tuples themselves stored inline and compared whole, so a lookup is exact
// and allocates nothing. Only a cache whose values are recomputed exactly
// may use it: when it holds limit entries it is emptied (by put, or by its
// user first when something else goes with the entries).
type tupleMap[V any] struct {
	width int
	limit int
	keys  []int32 // width words per entry
	vals  []V
	slots []tupleSlot // the entry index plus one, 0 when empty
	mask  uint64
}

type tupleSlot struct {
	hash uint32
	at   int32
}

func newTupleMap[V any](width, limit int) *tupleMap[V] {
	m := &tupleMap[V]{width: width, limit: limit}
	m.slots = make([]tupleSlot, 1<<10)
	m.mask = 1<<10 - 1
	return m
}

func hashTuple(k []int32) uint64 {
	h := uint64(len(k))
	for _, x := range k {
		h = mix64(h ^ uint64(uint32(x)) + 0x9e3779b97f4a7c15)
	}
	return h
}

func (m *tupleMap[V]) get(k []int32) (V, bool) {
	h := hashTuple(k)
	for p := h & m.mask; ; p = (p + 1) & m.mask {
		s := m.slots[p]
		if s.at == 0 {
			var zero V
			return zero, false
		}
		if s.hash == uint32(h) && m.equal(int(s.at-1), k) {
			return m.vals[s.at-1], true
		}
	}
}

func (m *tupleMap[V]) equal(i int, k []int32) bool {
	for j, x := range m.keys[i*m.width : (i+1)*m.width] {
		if k[j] != x {
			return false
		}
	}
	return true
}

// full reports whether the map holds its limit of entries.
func (m *tupleMap[V]) full() bool { return len(m.vals) >= m.limit }

// reset empties the map.
func (m *tupleMap[V]) reset() {
	clear(m.vals)
	m.keys, m.vals = m.keys[:0], m.vals[:0]
	clear(m.slots)
}

// put stores v for k, which the caller has found absent; a full map is
// emptied first.
func (m *tupleMap[V]) put(k []int32, v V) {
	if m.full() {
		m.reset()
	}
	if (len(m.vals)+1)*2 > len(m.slots) {
		m.slots = make([]tupleSlot, 2*len(m.slots))
		m.mask = uint64(len(m.slots) - 1)
		for i := range m.vals {
			m.place(hashTuple(m.keys[i*m.width:(i+1)*m.width]), int32(i+1))
		}
	}
	m.keys = append(m.keys, k...)
	m.vals = append(m.vals, v)
	m.place(hashTuple(k), int32(len(m.vals)))
}

func (m *tupleMap[V]) place(h uint64, at int32) {
	p := h & m.mask
	for m.slots[p].at != 0 {
		p = (p + 1) & m.mask
	}
	m.slots[p] = tupleSlot{uint32(h), at}
}
