package search

// Store holds every distinct global state, in discovery order, as a row of
// words, with the transition that first reached it; a hash index over the
// rows is the visited set. The key is exact: rows are compared word for
// word, the hash only locates them.
//
// While every word stored fits in 16 bits the rows are kept in half the
// space; the first word that does not fit widens the whole store to 32
// bits. Either way a row reads back exactly as it was added.
type Store struct {
	width  int
	narrow []uint16 // row i is narrow[i*width : (i+1)*width], while wide is nil
	words  []int32  // row i is words[i*width : (i+1)*width], once widened
	wide   bool
	parent []int32 // -1 for the initial state
	trans  []uint16
	index  []int32 // open addressing; row+1, 0 empty
	mask   uint64
}

func newStore(width int) *Store {
	s := &Store{width: width}
	s.resize(1 << 12)
	return s
}

// Len is the number of stored states.
func (s *Store) Len() int { return len(s.parent) }

// Row is stored state i, in a new slice.
func (s *Store) Row(i int) []int32 { return s.RowInto(i, make([]int32, s.width)) }

// RowInto writes stored state i into buf (of the store's width) and
// returns it.
func (s *Store) RowInto(i int, buf []int32) []int32 {
	if s.wide {
		copy(buf, s.words[i*s.width:(i+1)*s.width])
		return buf
	}
	for k, x := range s.narrow[i*s.width : (i+1)*s.width] {
		buf[k] = int32(x)
	}
	return buf
}

// rowHash is the hash of stored row i, as hashRow of its words.
func (s *Store) rowHash(i int) uint64 {
	if s.wide {
		return hashRow(s.words[i*s.width : (i+1)*s.width])
	}
	h := hashSeed
	for _, x := range s.narrow[i*s.width : (i+1)*s.width] {
		h = hashWord(h, int32(x))
	}
	return hashFinish(h)
}

func fitsNarrow(r []int32) bool {
	for _, x := range r {
		if x < 0 || x > 0xffff {
			return false
		}
	}
	return true
}

// widen moves the rows to 32-bit words.
func (s *Store) widen() {
	s.words = make([]int32, len(s.narrow), cap(s.narrow))
	for k, x := range s.narrow {
		s.words[k] = int32(x)
	}
	s.narrow, s.wide = nil, true
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

func (s *Store) equal(i int32, r []int32) bool {
	lo := int(i) * s.width
	if s.wide {
		for k, x := range s.words[lo : lo+s.width] {
			if r[k] != x {
				return false
			}
		}
		return true
	}
	for k, x := range s.narrow[lo : lo+s.width] {
		if r[k] != int32(x) {
			return false
		}
	}
	return true
}

// has reports whether row r is stored. It only reads, so workers may call
// it concurrently while nothing is added.
func (s *Store) has(r []int32) bool {
	for p := hashRow(r) & s.mask; ; p = (p + 1) & s.mask {
		v := s.index[p]
		if v == 0 {
			return false
		}
		if s.equal(v-1, r) {
			return true
		}
	}
}

// add stores r unless present; it reports whether r was new.
func (s *Store) add(r []int32, parent int32, trans uint16) bool {
	if uint64(s.Len()+1)*2 > s.mask+1 {
		s.resize(int(s.mask+1) * 2)
	}
	p := hashRow(r) & s.mask
	for ; ; p = (p + 1) & s.mask {
		v := s.index[p]
		if v == 0 {
			break
		}
		if s.equal(v-1, r) {
			return false
		}
	}
	s.index[p] = int32(s.Len() + 1)
	if !s.wide && !fitsNarrow(r) {
		s.widen()
	}
	if s.wide {
		s.words = append(s.words, r...)
	} else {
		for _, x := range r {
			s.narrow = append(s.narrow, uint16(x))
		}
	}
	s.parent = append(s.parent, parent)
	s.trans = append(s.trans, trans)
	return true
}

func (s *Store) resize(n int) {
	s.index = make([]int32, n)
	s.mask = uint64(n - 1)
	for i := range s.Len() {
		p := s.rowHash(i) & s.mask
		for s.index[p] != 0 {
			p = (p + 1) & s.mask
		}
		s.index[p] = int32(i + 1)
	}
}

// Path is the transition sequence that first reached state i.
func (s *Store) Path(i int32) []int {
	var p []int
	for ; s.parent[i] >= 0; i = s.parent[i] {
		p = append(p, int(s.trans[i]))
	}
	for a, b := 0, len(p)-1; a < b; a, b = a+1, b-1 {
		p[a], p[b] = p[b], p[a]
	}
	return p
}

// Parent is the state from which state i was first reached, -1 for the
// initial state.
func (s *Store) Parent(i int32) int32 { return s.parent[i] }

// Trans is the transition that first reached state i (meaningless for the
// initial state).
func (s *Store) Trans(i int32) int { return int(s.trans[i]) }
