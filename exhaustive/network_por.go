package exhaustive

import (
	"math/bits"
	"slices"

	"github.com/nip-rs/harness/search"
)

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

// SuccessorSleep implements search.Reducer: the successor, canonical
// under symmetry, with sleep renamed by the element that made it so.
func (w *netWorld) SuccessorSleep(c *cache, cur []int32, t int, next []int32, sleep []uint64, tl *search.Tally) (bool, []search.Finding) {
	ok, fs := w.apply(c, cur, t, next, tl)
	if ok && w.sym != nil {
		if len(c.symOrig) != len(next) {
			c.symOrig = make([]int32, len(next))
		}
		copy(c.symOrig, next)
		if k := w.sym.canonicalElem(c, next); k >= 0 {
			w.renameSleep(c, k, c.symOrig, next, sleep)
		}
	}
	return ok, indexed(networkTable, fs)
}

// renameSleep rewrites the sleep set of concrete state from as the set of
// its image to under element k: each transition becomes its renamed
// counterpart, which does to the image what it did to the state. A
// transition with no counterpart is dropped, which only makes the search
// explore more.
func (w *netWorld) renameSleep(c *cache, k int, from, to []int32, sleep []uint64) {
	if len(c.sleepTmp) != len(sleep) {
		c.sleepTmp = make([]uint64, len(sleep))
	}
	out := c.sleepTmp
	clear(out)
	for q, word := range sleep {
		for ; word != 0; word &= word - 1 {
			t := q*64 + bits.TrailingZeros64(word)
			if r := w.renameTrans(c, k, from, to, t); r >= 0 {
				out[r/64] |= 1 << (r % 64)
			}
		}
	}
	copy(sleep, out)
}

// renameTrans is transition t of state from renamed by element k for the
// image to, or -1.
func (w *netWorld) renameTrans(c *cache, k int, from, to []int32, t int) int {
	el := &w.sym.elems[k]
	x := w.decode(t)
	y := x
	y.dev = el.dev[x.dev]
	switch x.kind {
	case KindPublish, KindRotate, KindReinstall:
	case KindDeliver, KindDuplicate, KindDrop:
		y.from = el.dev[x.from]
		msgs := w.t.chans.get(from[w.chWord(x.from, x.dev)])
		if x.pos >= len(msgs) {
			return -1
		}
		m := w.sym.mapMsg(c, k, msgs[x.pos])
		y.pos = slices.Index(w.t.chans.get(to[w.chWord(y.from, y.dev)]), m)
		if y.pos < 0 {
			return -1
		}
	default:
		_, ctx := w.u.slot(x.slot)
		if i, ok := w.ovAt[ctx]; ok {
			y.slot = kindsPerCtx*w.uAt[el.ctx[i]] + x.slot%kindsPerCtx
		}
	}
	return w.encode(y)
}
