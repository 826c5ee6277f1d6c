package exhaustive

import (
	"sync"
	"sync/atomic"

	"github.com/nip-rs/harness/internal/offheap"
)

// recvTable is a device's deliveries, shared by every worker: recvKey(blob
// id, state id) -> the step receiving that blob takes. A delivery is looked
// up millions of times and made once, so reads take no lock: a slot's
// value is stored before its key, and a reader that sees the key sees the
// value. Writes are serialised, by the table's mutex (putIfAbsent) or by
// the caller (putHeld); growing builds a new slot array and
// publishes it whole, so a reader still probing the old one finds every
// entry made before the growth and, for a newer one, misses and asks under
// the mutex. One shared table instead of one per worker keeps memory to
// one entry per delivery.
//
// The slot arrays live outside the Go heap (offheap), where the larger
// ones fault in as huge pages. A reader may still be probing an array
// that growth replaced, so replaced arrays are kept (retired) until no
// worker can be reading: the search's next pause between parallel phases
// (freeRetired, through search.Quiescer), or the end of the run.
type recvTable struct {
	mu      sync.Mutex
	mem     *offheap.Arena
	cur     atomic.Pointer[recvSlots]
	n       int
	retired []*recvSlots
}

// recvSlots keep a key and its value side by side, so a lookup touches
// one cache line.
type recvSlots struct {
	slots []recvSlot
	mask  uint64
}

type recvSlot struct {
	key atomic.Uint64 // key+1; 0 is empty
	val atomic.Uint64 // packStep of the value
}

func newRecvSlots(mem *offheap.Arena, size int) *recvSlots {
	return &recvSlots{slots: offheap.Make[recvSlot](mem, size), mask: uint64(size - 1)}
}

func newRecvTable(mem *offheap.Arena) *recvTable {
	t := &recvTable{mem: mem}
	t.cur.Store(newRecvSlots(mem, 1<<10))
	return t
}

func packStep(s step) uint64 {
	v := uint64(uint32(s.next))
	if s.regress {
		v |= 1 << 32
	}
	return v
}

func unpackStep(v uint64) step { return step{next: int32(uint32(v)), regress: v>>32 != 0} }

func (s *recvSlots) get(k uint64) (step, bool) {
	k++
	for p := mix64(k) & s.mask; ; p = (p + 1) & s.mask {
		switch s.slots[p].key.Load() {
		case k:
			return unpackStep(s.slots[p].val.Load()), true
		case 0:
			return step{}, false
		}
	}
}

// insert stores k's value where no key is yet; the caller holds the mutex
// and has checked that k is absent.
func (s *recvSlots) insert(k uint64, v uint64) {
	k++
	p := mix64(k) & s.mask
	for s.slots[p].key.Load() != 0 {
		p = (p + 1) & s.mask
	}
	s.slots[p].val.Store(v)
	s.slots[p].key.Store(k)
}

// freeRetired frees the slot arrays growth replaced; the caller knows that
// no reader is probing them and no writer is at work.
func (t *recvTable) freeRetired() {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, s := range t.retired {
		offheap.Release(t.mem, s.slots)
	}
	t.retired = nil
}

// get is the step stored for k, without locking.
func (t *recvTable) get(k uint64) (step, bool) { return t.cur.Load().get(k) }

// putIfAbsent stores mk's step for k unless one is there, and returns the
// step stored.
func (t *recvTable) putIfAbsent(k uint64, v step) step {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.putHeld(k, v)
}

// putHeld is putIfAbsent for a caller that serialises every writer of the
// table itself (the engine writes a device's deliveries under the
// device's lock, which it holds anyway to intern the state reached).
func (t *recvTable) putHeld(k uint64, v step) step {
	s := t.cur.Load()
	if old, ok := s.get(k); ok {
		return old
	}
	if (t.n+1)*2 > len(s.slots) {
		grown := newRecvSlots(t.mem, len(s.slots)*2)
		for i := range s.slots {
			if key := s.slots[i].key.Load(); key != 0 {
				grown.insert(key-1, s.slots[i].val.Load())
			}
		}
		t.cur.Store(grown)
		t.retired = append(t.retired, s)
		s = grown
	}
	s.insert(k, packStep(v))
	t.n++
	return v
}
