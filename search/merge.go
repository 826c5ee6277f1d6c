package search

import (
	"sort"
	"sync/atomic"
	"unsafe"
)

// mergeBlock stores the new rows a block's pieces found (outs, in piece
// order) and returns, per piece, each candidate's state index. The result
// is exactly that of adding the candidates one by one in generation order
// (addHashed): the first occurrence of a row takes the next index, a later
// one gets the first's. The work is split over the workers, so that
// storing a block no longer leaves all but one of them idle:
//
//   - the candidates are de-duplicated among themselves in buckets by hash
//     (every candidate is absent from the store: the pieces looked each up
//     in the store as it was before the block, and nothing was added
//     since), each bucket kept in generation order;
//   - a pass in generation order numbers the first occurrences;
//   - the records are written and the index slots inserted in parallel: the
//     rows are distinct and absent, so an insertion only has to claim an
//     empty slot, by compare-and-swap, and lookups find a row whatever the
//     order the slots were claimed in.
func (x *explorer[C]) mergeBlock(outs []pieceOut) [][]int32 {
	s := x.store
	off := make([]int, len(outs)+1)
	for p, o := range outs {
		off[p+1] = off[p] + len(o.parents)
	}
	total := off[len(outs)]
	ids := make([][]int32, len(outs))
	for p, o := range outs {
		ids[p] = make([]int32, len(o.parents))
	}
	if total == 0 {
		return ids
	}
	// first[g] is the generation index of the first occurrence of
	// candidate g's row, or -1 when g is that first occurrence.
	first := make([]int32, total)
	buckets := 4 * x.cfg.Workers
	needs := parallel(x, buckets, func(_ C, b int) []uint8 {
		return x.dedupBucket(outs, off, first, uint64(b), uint64(buckets))
	})
	wd := make([]uint8, s.width)
	for _, nd := range needs {
		for k, v := range nd {
			wd[k] = max(wd[k], v)
		}
	}
	n := int32(s.n)
	for p, o := range outs {
		for k := range o.parents {
			if f := first[off[p]+k]; f < 0 {
				ids[p][k] = n
				n++
			} else {
				q := sort.SearchInts(off, int(f)+1) - 1
				ids[p][k] = ids[q][int(f)-off[q]]
			}
		}
	}
	s.reserve(int(n), wd, func(tasks int, fn func(int)) {
		parallel(x, tasks, func(_ C, t int) struct{} { fn(t); return struct{}{} })
	})
	w := s.width
	parallel(x, len(outs), func(_ C, p int) struct{} {
		o := outs[p]
		for k, par := range o.parents {
			if first[off[p]+k] >= 0 {
				continue
			}
			s.put(int(ids[p][k]), o.rows[k*w:(k+1)*w], o.hashes[k], par, o.trans[k])
		}
		return struct{}{}
	})
	s.n = int(n)
	return ids
}

// dedupBucket marks, among the candidates whose hash falls in bucket b of
// nb, every later occurrence of a row with its first occurrence, and
// returns the bytes each column needs for the bucket's rows. Rows with
// equal hashes are compared word for word: the key is exact.
func (x *explorer[C]) dedupBucket(outs []pieceOut, off []int, first []int32, b, nb uint64) []uint8 {
	w := x.store.width
	wd := make([]uint8, w)
	seen := map[uint64]int32{}
	var clash map[string]int32 // rows whose hash another row took first
	row := func(g int32) []int32 {
		q := sort.SearchInts(off, int(g)+1) - 1
		k := int(g) - off[q]
		return outs[q].rows[k*w : (k+1)*w]
	}
	for p, o := range outs {
		for k, h := range o.hashes {
			if h%nb != b {
				continue
			}
			g := int32(off[p] + k)
			r := o.rows[k*w : (k+1)*w]
			f, ok := seen[h]
			switch {
			case !ok:
				seen[h] = g
				first[g] = -1
			case equalRows(row(f), r):
				first[g] = f
				continue
			default:
				if clash == nil {
					clash = map[string]int32{}
				}
				key := rowKey(r)
				if f, ok := clash[key]; ok {
					first[g] = f
					continue
				}
				clash[key] = g
				first[g] = -1
			}
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

// rowKey is a row's words as a map key.
func rowKey(r []int32) string {
	return string(unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(r))), 4*len(r)))
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
		s.chunks = append(s.chunks, s.mem.allocFile(s.perChunk*s.rec))
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
	s.mem.freeUint64(old)
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
