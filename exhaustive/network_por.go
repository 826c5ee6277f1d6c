package exhaustive

import "github.com/nip-rs/harness/search"

// The network world's transitions commute when they touch disjoint row
// words: each reads and writes only the words listed by touches, and its
// enabledness, its successor words and its transition checks' findings
// (I3, N5, N6, N7) and sometimes-conditions are functions of the words it
// reads. Two transitions commute when neither writes a word the other
// reads or writes (NOTE.md, "Partial-order reduction").

// touches is the row words transition t reads and writes, as bit masks.
// The delivery-coverage counters (stale, reordered, a split part) also
// read the sender's words; they are counts of executed transitions, not
// verdicts, and are left out, so the reduction changes them.
func (w *netWorld) touches(t int) (read, write uint64) {
	bit := func(word int) uint64 { return 1 << word }
	x := w.decode(t)
	dev := bit(x.dev) | bit(w.knWord(x.dev))
	switch x.kind {
	case KindPublish:
		// Enabled only when every outgoing channel has room; writes them.
		var out uint64
		for d := range w.n {
			if d != x.dev {
				out |= bit(w.chWord(x.dev, d))
			}
		}
		return dev | out, out
	case KindRotate:
		return bit(x.dev), bit(x.dev)
	case KindDeliver, KindDuplicate, KindDrop:
		ch := bit(w.chWord(x.from, x.dev))
		// Every channel action reads the destination (a drop too: the
		// tombstone-meets-live condition reads its replica).
		switch x.kind {
		case KindDrop:
			return dev | ch, ch
		case KindDuplicate:
			return dev | ch, dev
		}
		return dev | ch, dev | ch
	case KindCompact:
		// A compaction that changes a register flags every message in
		// flight to the device.
		var in uint64
		for s := range w.n {
			if s != x.dev {
				in |= bit(w.chWord(s, x.dev))
			}
		}
		return dev | in, dev | in
	}
	return dev, dev
}

// Independent implements search.Reducer.
func (w *netWorld) Independent(a, b int) bool {
	if a == b {
		return false
	}
	ra, wa := w.touches(a)
	rb, wb := w.touches(b)
	return wa&(rb|wb) == 0 && wb&ra == 0
}

// SuccessorRenamed implements search.Reducer.
func (w *netWorld) SuccessorRenamed(c *cache, cur []int32, t int, next []int32, tl *search.Tally) (bool, bool, []search.Finding) {
	ok, fs := w.apply(c, cur, t, next, tl)
	renamed := false
	if ok && w.sym != nil {
		renamed = w.sym.canonicalChanged(c, next)
	}
	return ok, renamed, indexed(networkTable, fs)
}
