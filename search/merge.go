package search

import (
	"sort"
	"sync"
	"sync/atomic"

	"github.com/nip-rs/harness/internal/offheap"
)

// mergeBlock stores the new rows a block's pieces found (outs, in piece
// order). The result is exactly that of adding the candidates one by one
// in generation order (addHashed): the first occurrence of a row takes the
// next index, a later one gets the first's. With withIDs it returns every
// candidate's state index, by generation index (candidate k of piece p is
// off[p]+k). The work is split over the workers, so that storing a block
// no longer leaves all but one of them idle:
//
//   - the candidates are de-duplicated among themselves in buckets by hash
//     (every candidate is absent from the store: the pieces looked each up
//     in the store as it was before the block, and nothing was added
//     since; and each piece hands over a row once), each bucket in
//     generation order;
//   - counting the first occurrences of each piece numbers them;
//   - the records are written and the index slots inserted in parallel: the
//     rows are distinct and absent, so an insertion only has to claim an
//     empty slot, by compare-and-swap, and lookups find a row whatever the
//     order the slots were claimed in.
func (x *explorer[C]) mergeBlock(outs []pieceOut, withIDs bool) (ids []int32, off []int) {
	s := x.store
	off = make([]int, len(outs)+1)
	for p, o := range outs {
		off[p+1] = off[p] + len(o.parents)
	}
	total := off[len(outs)]
	if total == 0 {
		return nil, off
	}
	// first[g] is 0 when candidate g is the first occurrence of its row,
	// or the first occurrence's generation index plus one.
	first := make([]uint32, total)
	buckets := 4 * x.cfg.Workers
	tabs := x.dedupTables(outs, buckets)
	needs := parallel(x, buckets, func(_ C, b int) []uint8 {
		return x.dedupBucket(outs, off, first, tabs[b], b, buckets)
	})
	wd := make([]uint8, s.width)
	for _, nd := range needs {
		for k, v := range nd {
			wd[k] = max(wd[k], v)
		}
	}
	// start[p] is the index of piece p's first new row.
	start := make([]int, len(outs)+1)
	start[0] = s.n
	for p := range outs {
		start[p+1] = start[p]
		for _, f := range first[off[p]:off[p+1]] {
			if f == 0 {
				start[p+1]++
			}
		}
	}
	n := start[len(outs)]
	s.reserve(n, wd, func(tasks int, fn func(int)) {
		parallel(x, tasks, func(_ C, t int) struct{} { fn(t); return struct{}{} })
	})
	if withIDs {
		ids = make([]int32, total)
	}
	w := s.width
	parallel(x, len(outs), func(_ C, p int) struct{} {
		o, i := outs[p], start[p]
		for k, par := range o.parents {
			if first[off[p]+k] != 0 {
				continue
			}
			s.put(i, o.rows[k*w:(k+1)*w], o.hashes[k], par, o.trans[k])
			if ids != nil {
				ids[off[p]+k] = int32(i)
			}
			i++
		}
		return struct{}{}
	})
	if ids != nil {
		for g, f := range first {
			if f != 0 {
				ids[g] = ids[f-1]
			}
		}
	}
	s.n = n
	return ids, off
}

// dedupTables cuts one block outside the Go heap, kept for the next
// block (and level, unless checks come first: releaseBuffers), into a
// table per bucket, each a power of two at least
// twice its candidates. (One block rather than one per bucket: it is
// large enough to be mapped in huge pages, and each bucket's table alone
// often is not.)
func (x *explorer[C]) dedupTables(outs []pieceOut, nb int) [][]uint64 {
	counts := make([]int, nb)
	for _, o := range outs {
		for _, h := range o.hashes {
			counts[h%uint64(nb)]++
		}
	}
	total := 0
	for b, c := range counts {
		size := 1 << 8
		for size < 2*c {
			size *= 2
		}
		counts[b] = size
		total += size
	}
	if len(x.dedup) < total {
		offheap.Release(x.store.mem, x.dedup)
		x.dedup = offheap.Make[uint64](x.store.mem, total+total/2)
	}
	tabs := make([][]uint64, nb)
	at := 0
	for b, size := range counts {
		tabs[b] = x.dedup[at : at+size : at+size]
		at += size
	}
	return tabs
}

// dedupBucket marks, among the candidates whose hash falls in bucket b of
// nb, every later occurrence of a row with its first occurrence, and
// returns the bytes each column needs for the bucket's rows. Rows with
// equal hashes are compared word for word: the key is exact. A slot of the
// bucket's table tab is the hash's top 32 bits, then the first
// occurrence's generation index plus one.
func (x *explorer[C]) dedupBucket(outs []pieceOut, off []int, first []uint32, tab []uint64, b, nb int) []uint8 {
	w := x.store.width
	wd := make([]uint8, w)
	clear(tab)
	mask := uint64(len(tab) - 1)
	for p, o := range outs {
		for k, h := range o.hashes {
			if int(h%uint64(nb)) != b {
				continue
			}
			r := o.rows[k*w : (k+1)*w]
			q := (h >> 32) & mask
			tag := h >> 32 << 32
			for ; tab[q] != 0; q = (q + 1) & mask {
				if tab[q]&^0xffffffff != tag {
					continue
				}
				g := int(uint32(tab[q])) - 1
				fp := sort.SearchInts(off, g+1) - 1
				fk := g - off[fp]
				if outs[fp].hashes[fk] == h && equalRows(outs[fp].rows[fk*w:(fk+1)*w], r) {
					break
				}
			}
			if tab[q] != 0 {
				first[off[p]+k] = uint32(tab[q])
				continue
			}
			tab[q] = tag | uint64(off[p]+k+1)
			for c, v := range r {
				wd[c] = max(wd[c], need(v))
			}
		}
	}
	return wd
}

func equalRows(a, b []int32) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// reserve makes room for n rows whose columns need wd bytes: it widens
// columns, maps record chunks and grows the index (moving its slots on
// the workers run gives it), so that put can then be called concurrently
// for distinct absent rows with indices below n.
func (s *Store) reserve(n int, wd []uint8, run func(tasks int, fn func(int))) {
	for k, w := range wd {
		if w > s.wd[k] {
			s.widen(k, w)
		}
	}
	for len(s.chunks)*s.perChunk < n {
		s.chunks = append(s.chunks, s.mem.FileBytes(s.perChunk*s.rec))
	}
	size := int(s.mask + 1)
	for uint64(n)*2 > uint64(size) {
		size *= 2
	}
	if size == int(s.mask+1) {
		return
	}
	old := s.index
	s.setIndex(size)
	const span = 1 << 16
	run((len(old)+span-1)/span, func(t int) {
		for _, v := range old[t*span : min((t+1)*span, len(old))] {
			if v != 0 {
				s.claim(v)
			}
		}
	})
	offheap.Release(s.mem, old)
}

// put writes row r (with hash h) as record i and claims its index slot;
// r must be absent and i reserved. Distinct rows may be put concurrently.
func (s *Store) put(i int, r []int32, h uint64, parent int32, trans uint16) {
	b := s.record(i)
	for k, x := range r {
		putWord(b[s.off[k]:], s.wd[k], x)
	}
	putWord(b[s.rec-6:], 4, parent)
	putWord(b[s.rec-2:], 2, int32(trans))
	s.claim(slot(i, h))
}

// claim stores slot v in the first empty slot of its probe sequence.
func (s *Store) claim(v uint64) {
	for p := (v << 32) >> s.shift; ; p = (p + 1) & s.mask {
		if atomic.CompareAndSwapUint64(&s.index[p], 0, v) {
			return
		}
	}
}

// pieceSet is the rows a piece has found so far, so that a piece hands
// the merge each new row once: most successors of a few hundred states
// that are new to the store are reached more than once among them.
type pieceSet struct {
	slots []int32 // the row's index in the piece's output, plus one
	mask  uint64
	n     int
}

var pieceSets = sync.Pool{New: func() any { return &pieceSet{} }}

// reset empties the set, keeping the size it grew to: the pieces of a
// level find about as many rows each.
func (s *pieceSet) reset() {
	if s.slots == nil {
		s.slots = make([]int32, 1<<10)
	}
	clear(s.slots)
	s.mask, s.n = uint64(len(s.slots)-1), 0
}

// seen reports whether o already holds row (whose hash is h), with its
// index there; when not, it records that row will be o's next candidate.
func (s *pieceSet) seen(o *pieceOut, row []int32, h uint64) (int, bool) {
	if (s.n+1)*2 > len(s.slots) {
		s.grow(o)
	}
	w := len(row)
	p := (h >> 32) & s.mask
	for ; s.slots[p] != 0; p = (p + 1) & s.mask {
		k := int(s.slots[p] - 1)
		if o.hashes[k] == h && equalRows(o.rows[k*w:(k+1)*w], row) {
			return k, true
		}
	}
	s.slots[p] = int32(len(o.hashes) + 1)
	s.n++
	return 0, false
}

// grow doubles the table.
func (s *pieceSet) grow(o *pieceOut) {
	old := s.slots
	s.slots = make([]int32, 2*len(old))
	s.mask = uint64(len(s.slots) - 1)
	for _, v := range old {
		if v == 0 {
			continue
		}
		p := (o.hashes[v-1] >> 32) & s.mask
		for s.slots[p] != 0 {
			p = (p + 1) & s.mask
		}
		s.slots[p] = v
	}
}
