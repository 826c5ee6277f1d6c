package exhaustive

import (
	"slices"

	"github.com/nip-rs/harness/internal/offheap"
)

// tupleMap is a worker's bounded memo from a short tuple of int32 (one
// word per device) to a value: open addressing over the tuple's hash, the
// tuples themselves stored inline and compared whole, so a lookup is exact
// and allocates nothing. Only a cache whose values are recomputed exactly
// may use it: when it holds limit entries it is emptied (by put, or by its
// user first when something else goes with the entries).
type tupleMap[V any] struct {
	mem   *offheap.Arena // where the keys, values and slots live
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

func newTupleMap[V any](mem *offheap.Arena, width, limit int) *tupleMap[V] {
	m := &tupleMap[V]{mem: mem, width: width, limit: limit}
	m.slots = offheap.Make[tupleSlot](mem, 1<<10)
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
		offheap.Release(m.mem, m.slots)
		m.slots = offheap.Make[tupleSlot](m.mem, 2*len(m.slots))
		m.mask = uint64(len(m.slots) - 1)
		for i := range m.vals {
			m.place(hashTuple(m.keys[i*m.width:(i+1)*m.width]), int32(i+1))
		}
	}
	m.keys = append(offheap.Grow(m.mem, m.keys, len(k)), k...)
	m.vals = append(offheap.Grow(m.mem, m.vals, 1), v)
	m.place(hashTuple(k), int32(len(m.vals)))
}

func (m *tupleMap[V]) place(h uint64, at int32) {
	p := h & m.mask
	for m.slots[p].at != 0 {
		p = (p + 1) & m.mask
	}
	m.slots[p] = tupleSlot{uint32(h), at}
}

// Memos of the transitions' steps, each keyed by everything its step
// reads.

// actionCounters are the tally names of the actions, made once.
var actionCounters = func() (out [len(kindNames)]string) {
	for k := range out {
		out[k] = actionCoverage + Kind(k).String()
	}
	return out
}()

func actionCounter(k Kind) string {
	if int(k) < len(actionCounters) {
		return actionCounters[k]
	}
	return actionCoverage + k.String()
}

// knowEvent is makeKnowEvent memoised.
func (w *netWorld) knowEvent(c *cache, kn int32, i, dev int, ev localEvent) int32 {
	key, ok := w.knowEventKey(kn, i, dev, ev)
	if !ok {
		return w.makeKnowEvent(kn, i, dev, ev)
	}
	nc := w.nc(c)
	if r, ok := nc.kevent.get(key); ok {
		return r
	}
	r := w.makeKnowEvent(kn, i, dev, ev)
	nc.kevent.put(key, r)
	return r
}

// knowEventKey packs knowEvent's arguments into one word: the knowledge
// in the high half, then the context, the device, the event's kind and the
// position of its baseline among 0 and the universe's values; false when
// one does not fit (such an event is not memoised).
func (w *netWorld) knowEventKey(kn int32, i, dev int, ev localEvent) (uint64, bool) {
	b := slices.Index(w.baselines, ev.b)
	if b < 0 || b > 0xff || i > 0xff || dev > 0xff {
		return 0, false
	}
	return uint64(uint32(kn))<<32 | uint64(i)<<24 | uint64(dev)<<16 | uint64(ev.kind)<<8 | uint64(b), true
}

// knowResetMemo is knowReset memoised on the knowledge.
func (w *netWorld) knowResetMemo(c *cache, kn int32) int32 {
	nc := w.nc(c)
	if r, ok := nc.kreset.get(uint64(uint32(kn))); ok {
		return r
	}
	r := w.knowReset(kn)
	nc.kreset.put(uint64(uint32(kn)), r)
	return r
}

// chanAddMemo is chanAdd memoised on (channel, messages) for a
// publication of at most two parts.
func (w *netWorld) chanAddMemo(c *cache, ch int32, ms []int32) (int32, bool) {
	if len(ms) > 2 {
		return w.chanAdd(ch, ms)
	}
	nc := w.nc(c)
	key := [3]int32{ch, ms[0], -1}
	if len(ms) == 2 {
		key[2] = ms[1]
	}
	if r, ok := nc.chanAdd.get(key[:]); ok {
		return r, r >= 0
	}
	r, ok := w.chanAdd(ch, ms)
	if !ok {
		r = -1
	}
	nc.chanAdd.put(key[:], r)
	return r, ok
}

// chanRemoveMemo is chanRemove of channel ch's messages msgs, memoised on
// (channel, position).
func (w *netWorld) chanRemoveMemo(c *cache, ch int32, msgs []int32, pos int) int32 {
	nc := w.nc(c)
	key := uint64(uint32(ch))<<32 | uint64(uint32(pos))
	if r, ok := nc.chanDel.get(key); ok {
		return r
	}
	r := w.chanRemove(msgs, pos)
	nc.chanDel.put(key, r)
	return r
}
