package search

import (
	"cmp"
	"slices"
)

// byHashRow orders records by (hashRow, row): the order of the visited
// file and of candidate runs. Any total order on exact rows would do; this
// one decides most comparisons on one word.
func byHashRow(a, b *runReader) int {
	if c := cmp.Compare(a.hash, b.hash); c != 0 {
		return c
	}
	return slices.Compare(a.row, b.row)
}

// byRef orders records by (parent, transition): the order of a level's
// states, which is their generation order.
func byRef(a, b *runReader) int {
	if c := cmp.Compare(a.parent, b.parent); c != 0 {
		return c
	}
	return cmp.Compare(a.trans, b.trans)
}

// mergeHeap is a min-heap of run readers by their current records.
type mergeHeap struct {
	rs  []*runReader
	cmp func(a, b *runReader) int
}

// newMergeHeap starts every reader and keeps those with a record; a
// reader's error is returned at once.
func newMergeHeap(rs []*runReader, order func(a, b *runReader) int) (*mergeHeap, error) {
	h := &mergeHeap{cmp: order}
	for _, r := range rs {
		if r.next() {
			h.rs = append(h.rs, r)
		} else if r.err != nil {
			return nil, r.err
		}
	}
	for i := len(h.rs)/2 - 1; i >= 0; i-- {
		h.down(i)
	}
	return h, nil
}

func (h *mergeHeap) less(i, j int) bool {
	c := h.cmp(h.rs[i], h.rs[j])
	return c < 0 || c == 0 && h.rs[i].src < h.rs[j].src
}

func (h *mergeHeap) down(i int) {
	n := len(h.rs)
	for {
		l := 2*i + 1
		if l >= n {
			return
		}
		m := l
		if r := l + 1; r < n && h.less(r, l) {
			m = r
		}
		if !h.less(m, i) {
			return
		}
		h.rs[i], h.rs[m] = h.rs[m], h.rs[i]
		i = m
	}
}

// advance moves the top reader to its next record, dropping it at its
// end.
func (h *mergeHeap) advance() error {
	r := h.rs[0]
	if !r.next() {
		if r.err != nil {
			return r.err
		}
		last := len(h.rs) - 1
		h.rs[0] = h.rs[last]
		h.rs = h.rs[:last]
	}
	h.down(0)
	return nil
}

// mergeLevel merges the visited file (all stored states, source 0) with
// the candidate runs of the next level, both in byHashRow order. A
// candidate row not visited is a new state, with the smallest (parent,
// transition) among its candidates: it goes to emit, in byHashRow order.
// When out is set it receives every distinct row, the next visited file.
func mergeLevel(visited *runFile, runs []*runFile, width int, out *runFile, emit func(row []int32, parent int32, trans uint16) error) error {
	rs := []*runReader{visited.reader(0, width)}
	for k, f := range runs {
		r := f.reader(0, width)
		r.src = k + 1
		rs = append(rs, r)
	}
	h, err := newMergeHeap(rs, byHashRow)
	if err != nil {
		return err
	}
	row := make([]int32, width)
	for len(h.rs) > 0 {
		top := h.rs[0]
		copy(row, top.row)
		hash := top.hash
		seen := false
		parent, trans := int32(-1), uint16(0)
		for len(h.rs) > 0 && h.rs[0].hash == hash && slices.Equal(h.rs[0].row, row) {
			r := h.rs[0]
			switch {
			case r.src == 0:
				seen = true
			case parent < 0 || refLess(r.parent, r.trans, parent, trans):
				parent, trans = r.parent, r.trans
			}
			if err := h.advance(); err != nil {
				return err
			}
		}
		if out != nil {
			out.append(row, 0, 0)
		}
		if !seen {
			if err := emit(row, parent, trans); err != nil {
				return err
			}
		}
	}
	return nil
}

// mergeByRef writes the records of runs, each in byRef order, to out in
// byRef order.
func mergeByRef(runs []*runFile, width int, out *runFile) error {
	var rs []*runReader
	for k, f := range runs {
		r := f.reader(0, width)
		r.src = k
		rs = append(rs, r)
	}
	h, err := newMergeHeap(rs, byRef)
	if err != nil {
		return err
	}
	for len(h.rs) > 0 {
		r := h.rs[0]
		out.append(r.row, r.parent, r.trans)
		if err := h.advance(); err != nil {
			return err
		}
	}
	return nil
}
