package search

import (
	"runtime"

	"github.com/nip-rs/harness/internal/offheap"
)

// Store holds every distinct global state, in discovery order, as a row of
// words, with the transition that first reached it; a hash index over the
// rows is the visited set. The key is exact: rows are compared word for
// word, the hash only locates them.
//
// A row is kept as a fixed-width record of bytes: each column (row word)
// takes 2, 3 or 4 bytes, as few as its largest value needs (row words are
// interned ids, dense from 0, and most columns stay below 2^16), followed
// by the parent (4 bytes) and the transition (2 bytes). The first value a
// column cannot hold widens that column in every record. Either way a row
// reads back exactly as it was added.
//
// Records live in fixed chunks and the index in one block, both outside
// the Go heap (offheap.go): the garbage collector neither scans them nor
// counts them towards its next goal, so a deep run's resident memory is
// the store once, not twice, and growth never copies the rows.
type Store struct {
	width    int
	wd       []uint8 // bytes per column: 2, 3 or 4 (4: any int32)
	off      []int   // column offsets in a record
	rec      int     // record bytes
	perChunk int     // records per chunk
	chunks   [][]byte
	n        int
	// index is open addressing with linear probing; a slot is row+1 in
	// its high 32 bits (0: empty) and the top 32 bits of the row's hash in
	// its low 32 bits. A slot's position is the top bits of that tag, so a
	// probe compares a row only when the tags agree, and a resize moves
	// slots without reading a record.
	index []uint64
	mask  uint64
	shift uint // 64 - log2(len(index))
	mem   *offheap.Arena
	// ext, when set, holds the rows instead (the runs store, runs.go): the
	// store then only reads them back, by index.
	ext *runsStore
}

// chunkBytes is the size of a record chunk: a few huge pages (offheap), so
// that records fault in 2 MiB at a time where the kernel allows.
const chunkBytes = 4 << 20

// newStore is an empty store whose record chunks are backed by files in
// dir, or by anonymous memory when dir is "".
func newStore(width int, dir string) *Store {
	s := &Store{width: width, wd: make([]uint8, width), off: make([]int, width), mem: &offheap.Arena{Dir: dir}}
	for k := range s.wd {
		s.wd[k] = 2
	}
	s.layout()
	// The mapped memory is released once the store is unreachable: it
	// lives as long as the Run that holds it.
	runtime.AddCleanup(s, func(m *offheap.Arena) { m.FreeAll() }, s.mem)
	s.resize(1 << 12)
	return s
}

// layout computes the column offsets and the record size from wd.
func (s *Store) layout() {
	o := 0
	for k, w := range s.wd {
		s.off[k] = o
		o += int(w)
	}
	s.rec = o + 6
	s.perChunk = max(1, chunkBytes/s.rec)
}

// Len is the number of stored states.
func (s *Store) Len() int { return s.n }

func (s *Store) record(i int) []byte {
	c, j := i/s.perChunk, i%s.perChunk
	return s.chunks[c][j*s.rec : (j+1)*s.rec]
}

// Row is stored state i, in a new slice.
func (s *Store) Row(i int) []int32 { return s.RowInto(i, make([]int32, s.width)) }

// RowInto writes stored state i into buf (of the store's width) and
// returns it.
func (s *Store) RowInto(i int, buf []int32) []int32 {
	if s.ext != nil {
		s.ext.rowInto(i, buf)
		return buf
	}
	b := s.record(i)
	for k := range buf[:s.width] {
		buf[k] = s.word(b, k)
	}
	return buf
}

// word is column k of record b.
func (s *Store) word(b []byte, k int) int32 {
	o := s.off[k]
	switch s.wd[k] {
	case 2:
		return int32(uint32(b[o]) | uint32(b[o+1])<<8)
	case 3:
		return int32(uint32(b[o]) | uint32(b[o+1])<<8 | uint32(b[o+2])<<16)
	}
	return int32(uint32(b[o]) | uint32(b[o+1])<<8 | uint32(b[o+2])<<16 | uint32(b[o+3])<<24)
}

func putWord(b []byte, w uint8, x int32) {
	u := uint32(x)
	b[0], b[1] = byte(u), byte(u>>8)
	if w > 2 {
		b[2] = byte(u >> 16)
	}
	if w > 3 {
		b[3] = byte(u >> 24)
	}
}

// need is the bytes a column needs to hold x.
func need(x int32) uint8 {
	switch {
	case x >= 0 && x <= 0xffff:
		return 2
	case x >= 0 && x <= 0xffffff:
		return 3
	}
	return 4
}

// Parent is the state from which state i was first reached, -1 for the
// initial state.
func (s *Store) Parent(i int32) int32 {
	if s.ext != nil {
		p, _ := s.ext.ref(int(i))
		return p
	}
	b := s.record(int(i))[s.rec-6:]
	return int32(uint32(b[0]) | uint32(b[1])<<8 | uint32(b[2])<<16 | uint32(b[3])<<24)
}

// Trans is the transition that first reached state i (meaningless for the
// initial state).
func (s *Store) Trans(i int32) int {
	if s.ext != nil {
		_, t := s.ext.ref(int(i))
		return int(t)
	}
	b := s.record(int(i))[s.rec-2:]
	return int(uint16(b[0]) | uint16(b[1])<<8)
}

const hashSeed = uint64(0x9e3779b97f4a7c15)

func hashWord(h uint64, x int32) uint64 {
	h ^= uint64(uint32(x))
	h *= 0xff51afd7ed558ccd
	return h ^ h>>32
}

func hashFinish(h uint64) uint64 {
	h ^= h >> 29
	h *= 0xc4ceb9fe1a85ec53
	return h ^ h>>32
}

func hashRow(r []int32) uint64 {
	h := hashSeed
	for _, x := range r {
		h = hashWord(h, x)
	}
	return hashFinish(h)
}

// slot is the index entry of row i with hash h.
func slot(i int, h uint64) uint64 { return uint64(i+1)<<32 | h>>32 }

// encode writes r in the record layout into buf (at least the columns'
// bytes) and returns the columns' bytes; false when a word needs a wider
// column than the store has, so that no stored row can equal r.
func (s *Store) encode(r []int32, buf []byte) ([]byte, bool) {
	for k, x := range r {
		if need(x) > s.wd[k] {
			return nil, false
		}
		putWord(buf[s.off[k]:], s.wd[k], x)
	}
	return buf[:s.rec-6], true
}

// maxStackRecord is the largest record encoded on the stack; wider rows
// take a heap buffer.
const maxStackRecord = 256

// lookup is the index of stored row r, or -1. Like has, it only reads.
func (s *Store) lookup(r []int32) int { return s.lookupHashed(r, hashRow(r)) }

// lookupHashed is lookup given hashRow(r). It only reads, so workers may
// call it concurrently while nothing is added.
func (s *Store) lookupHashed(r []int32, h uint64) int {
	var stack [maxStackRecord]byte
	buf := stack[:]
	if s.rec > len(buf) {
		buf = make([]byte, s.rec)
	}
	enc, ok := s.encode(r, buf)
	if !ok {
		return -1
	}
	return s.find(enc, h)
}

// find is the index of the stored row whose columns are enc, or -1.
func (s *Store) find(enc []byte, h uint64) int {
	tag := h >> 32
	for p := h >> s.shift; ; p = (p + 1) & s.mask {
		v := s.index[p]
		if v == 0 {
			return -1
		}
		if v&0xffffffff == tag {
			i := int(v>>32) - 1
			if string(s.record(i)[:len(enc)]) == string(enc) {
				return i
			}
		}
	}
}

// has reports whether row r is stored. It only reads, so workers may call
// it concurrently while nothing is added.
func (s *Store) has(r []int32) bool { return s.lookup(r) >= 0 }

// add stores r unless present; it reports whether r was new.
func (s *Store) add(r []int32, parent int32, trans uint16) bool {
	_, added := s.addHashed(r, hashRow(r), parent, trans)
	return added
}

// addHashed is add given hashRow(r), that also returns r's index, new or
// not: one probe finds r or the slot it takes.
func (s *Store) addHashed(r []int32, h uint64, parent int32, trans uint16) (int, bool) {
	if uint64(s.n+1)*2 > s.mask+1 {
		s.resize(int(s.mask+1) * 2)
	}
	for k, x := range r {
		if w := need(x); w > s.wd[k] {
			s.widen(k, w)
		}
	}
	var stack [maxStackRecord]byte
	buf := stack[:]
	if s.rec > len(buf) {
		buf = make([]byte, s.rec)
	}
	enc, _ := s.encode(r, buf)
	tag := h >> 32
	p := h >> s.shift
	for ; s.index[p] != 0; p = (p + 1) & s.mask {
		if v := s.index[p]; v&0xffffffff == tag {
			i := int(v>>32) - 1
			if string(s.record(i)[:len(enc)]) == string(enc) {
				return i, false
			}
		}
	}
	s.index[p] = slot(s.n, h)
	if s.n%s.perChunk == 0 {
		s.chunks = append(s.chunks, s.mem.FileBytes(s.perChunk*s.rec))
	}
	s.n++
	b := s.record(s.n - 1)
	copy(b, enc)
	putWord(b[s.rec-6:], 4, parent)
	putWord(b[s.rec-2:], 2, int32(trans))
	return s.n - 1, true
}

// widen gives column k w bytes, rewriting every record.
func (s *Store) widen(k int, w uint8) {
	old, oldWd, oldOff, oldRec, oldPer := s.chunks, append([]uint8(nil), s.wd...), append([]int(nil), s.off...), s.rec, s.perChunk
	s.wd[k] = w
	s.layout()
	s.chunks = nil
	for c := 0; c*s.perChunk < s.n; c++ {
		s.chunks = append(s.chunks, s.mem.FileBytes(s.perChunk*s.rec))
	}
	tmp := &Store{width: s.width, wd: oldWd, off: oldOff, rec: oldRec, perChunk: oldPer, chunks: old}
	for i := range s.n {
		ob, nb := tmp.record(i), s.record(i)
		for j := range s.width {
			putWord(nb[s.off[j]:], s.wd[j], tmp.word(ob, j))
		}
		copy(nb[s.rec-6:], ob[oldRec-6:])
	}
	for _, c := range old {
		s.mem.Free(c)
	}
}

// resize gives the index n slots (a power of two, at most 2^32), moving
// every slot by its tag.
func (s *Store) resize(n int) {
	old := s.index
	s.setIndex(n)
	for _, v := range old {
		if v != 0 {
			s.claim(v)
		}
	}
	if old != nil {
		offheap.Release(s.mem, old)
	}
}

// setIndex replaces the index by an empty one of n slots (a power of two,
// at most 2^32). A slot's position is the top bits of its tag, the hash's
// top 32 bits, so slots move without their rows.
func (s *Store) setIndex(n int) {
	bits := uint(0)
	for 1<<bits < n {
		bits++
	}
	s.index = offheap.Make[uint64](s.mem, n)
	s.mask = uint64(n - 1)
	s.shift = 64 - bits
}

// Path is the transition sequence that first reached state i.
func (s *Store) Path(i int32) []int {
	var p []int
	for ; s.Parent(i) >= 0; i = s.Parent(i) {
		p = append(p, s.Trans(i))
	}
	for a, b := 0, len(p)-1; a < b; a, b = a+1, b-1 {
		p[a], p[b] = p[b], p[a]
	}
	return p
}

// Free returns the store's memory now instead of when the store becomes
// unreachable; the store is empty and unusable afterwards. A caller that
// runs many searches in a row frees each once it has read what it needs:
// the mapped memory does not count towards the garbage collector's goal,
// so nothing else would hurry its release.
func (s *Store) Free() {
	if s.ext != nil {
		s.ext.close()
	}
	s.mem.FreeAll()
	s.chunks, s.index, s.n, s.mask = nil, nil, 0, 0
}

// DiskBytes is the most the store's files held at once (the runs store;
// 0 otherwise).
func (s *Store) DiskBytes() int64 {
	if s.ext == nil {
		return 0
	}
	return s.ext.peak
}

// Bytes is the memory the store holds: its records and its index.
func (s *Store) Bytes() int64 {
	return int64(len(s.chunks))*int64(s.perChunk*s.rec) + int64(len(s.index))*8
}
