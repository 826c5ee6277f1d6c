package search

import (
	"cmp"
	"math/bits"
	"slices"

	"github.com/nip-rs/harness/internal/offheap"
)

// runBuffer holds records (row, parent, transition) in memory outside the
// Go heap, up to a fixed count set by the memory budget, to be sorted and
// written out as one run file. It serves two sorts in turn: candidates by
// (hash, row), de-duplicated as they come in (insert), and new states by
// (parent, transition) (push).
type runBuffer struct {
	width   int
	max     int // records it holds when full
	n       int
	rows    []int32
	parents []int32
	trans   []uint16
	keys    []uint64 // row hash (insert) or parent<<16|transition (push)
	index   []int32  // open addressing over entries (insert), entry+1, 0 empty
	mask    uint64
	hashed  bool    // whether index holds the entries
	perm    []int32 // the sort permutation
}

// minBufferRecords keeps a tiny budget workable: it only makes more runs.
const minBufferRecords = 16

// newRunBuffer sizes a buffer to about budget bytes.
func newRunBuffer(width int, budget int64, mem *offheap.Arena) *runBuffer {
	per := int64(4*width + 4 + 2 + 8 + 4 + 16) // record, key, permutation, and up to 4 index slots
	max := int(min(max(budget/per, minBufferRecords), 1<<30))
	slots := 1
	for slots < 2*max {
		slots *= 2
	}
	b := &runBuffer{width: width, max: max, mask: uint64(slots - 1)}
	b.rows = offheap.Make[int32](mem, width*max)
	b.parents = offheap.Make[int32](mem, max)
	b.trans = offheap.Make[uint16](mem, max)
	b.keys = offheap.Make[uint64](mem, max)
	b.index = offheap.Make[int32](mem, slots)
	b.perm = offheap.Make[int32](mem, max)
	return b
}

func (b *runBuffer) full() bool { return b.n == b.max }

func (b *runBuffer) row(e int) []int32 { return b.rows[e*b.width : (e+1)*b.width] }

// insert adds a candidate successor with hash h = hashRow(row), or, when
// the row is already buffered, keeps the smaller (parent, transition) of
// the two. The buffer must not be full.
func (b *runBuffer) insert(row []int32, h uint64, parent int32, trans uint16) {
	p := h & b.mask
	for ; b.index[p] != 0; p = (p + 1) & b.mask {
		e := int(b.index[p] - 1)
		if b.keys[e] == h && slices.Equal(b.row(e), row) {
			if refLess(parent, trans, b.parents[e], b.trans[e]) {
				b.parents[e], b.trans[e] = parent, trans
			}
			return
		}
	}
	b.index[p] = int32(b.n + 1)
	b.hashed = true
	b.set(row, h, parent, trans)
}

// has reports whether a row with hash h is buffered. It only reads, so
// workers may call it concurrently while nothing is added.
func (b *runBuffer) has(row []int32, h uint64) bool {
	for p := h & b.mask; b.index[p] != 0; p = (p + 1) & b.mask {
		e := int(b.index[p] - 1)
		if b.keys[e] == h && slices.Equal(b.row(e), row) {
			return true
		}
	}
	return false
}

// push adds a new state, keyed by its (parent, transition), which no other
// state of the level shares. The buffer must not be full.
func (b *runBuffer) push(row []int32, parent int32, trans uint16) {
	b.set(row, uint64(parent)<<16|uint64(trans), parent, trans)
}

func (b *runBuffer) set(row []int32, key uint64, parent int32, trans uint16) {
	copy(b.row(b.n), row)
	b.keys[b.n], b.parents[b.n], b.trans[b.n] = key, parent, trans
	b.n++
}

func refLess(p1 int32, t1 uint16, p2 int32, t2 uint16) bool {
	return p1 < p2 || p1 == p2 && t1 < t2
}

// writeSorted writes the buffered records to f sorted by key (then row,
// for equal hashes), and empties the buffer.
func (b *runBuffer) writeSorted(f *runFile) error {
	for _, e := range b.sorted() {
		f.append(b.row(int(e)), b.parents[e], b.trans[e])
	}
	b.reset()
	return f.finish()
}

// sorted is the permutation of the entries by (key, row). A counting pass
// first places them in 2^16 buckets by their key's leading bits (hashes
// are uniform, and a level's (parent, transition) keys nearly so), then
// each small bucket is sorted by comparison.
func (b *runBuffer) sorted() []int32 {
	perm, keys := b.perm[:b.n], b.keys[:b.n]
	if b.n == 0 {
		return perm
	}
	lo, hi := slices.Min(keys), slices.Max(keys)
	shift := max(bits.Len64(hi-lo)-16, 0)
	ends := make([]int, 1<<16+1)
	for _, k := range keys {
		ends[(k-lo)>>shift+1]++
	}
	for i := 1; i < len(ends); i++ {
		ends[i] += ends[i-1]
	}
	for e, k := range keys {
		j := (k - lo) >> shift
		perm[ends[j]] = int32(e)
		ends[j]++
	}
	// ends[j] is now the end of bucket j, and so the start of bucket j+1.
	start := 0
	for _, end := range ends[:1<<16] {
		if end-start > 1 {
			slices.SortFunc(perm[start:end], func(x, y int32) int {
				if c := cmp.Compare(b.keys[x], b.keys[y]); c != 0 {
					return c
				}
				return slices.Compare(b.row(int(x)), b.row(int(y)))
			})
		}
		start = end
	}
	return perm
}

// reset empties the buffer. A nearly empty index is cleared entry by
// entry, latest first: with linear probing an entry's probe sequence only
// crosses slots of entries added before it, which are still in place.
func (b *runBuffer) reset() {
	switch {
	case !b.hashed:
	case uint64(b.n)*8 > b.mask:
		clear(b.index)
	default:
		for e := b.n - 1; e >= 0; e-- {
			p := b.keys[e] & b.mask
			for b.index[p] != int32(e+1) {
				p = (p + 1) & b.mask
			}
			b.index[p] = 0
		}
	}
	b.n, b.hashed = 0, false
}
