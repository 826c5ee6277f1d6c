package search

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// grid is a toy world: two counters in 0..n-1, each transition increments
// one of them. It violates "sum below limit" at every state whose sum
// reaches the limit, and counts transitions and states as its units.
type grid struct {
	n, limit int
}

const (
	unitStep Unit = iota
	unitState
)

func (g grid) Width() int { return 2 }
func (g grid) Invariants() []Invariant {
	return []Invariant{
		{ID: "T1-step", Label: "T1", Doc: "no step reaches the limit from below", Unit: unitStep},
		{ID: "T2-sum", Label: "T2", Doc: "the sum stays below the limit", Unit: unitState},
	}
}
func (g grid) Units() []string      { return []string{"steps", "states"} }
func (g grid) NewWorker() *int      { return new(int) }
func (g grid) Initial(*int) []int32 { return []int32{0, 0} }
func (g grid) Transitions() int     { return 2 }
func (g grid) sum(r []int32) int    { return int(r[0] + r[1]) }
func (g grid) Check(c *int, row []int32, tl *Tally) []Finding {
	*c++
	tl.Add(unitState, 1)
	if g.sum(row) >= g.limit {
		return []Finding{{1, fmt.Sprintf("sum %d", g.sum(row))}}
	}
	return nil
}
func (g grid) Successor(_ *int, cur []int32, t int, next []int32, tl *Tally) (bool, []Finding) {
	if int(cur[t]) == g.n-1 {
		return false, nil
	}
	copy(next, cur)
	next[t]++
	tl.Add(unitStep, 1)
	tl.Count(fmt.Sprintf("counter %d", t), 1)
	if g.sum(next) == g.limit {
		return true, []Finding{{0, "reached"}}
	}
	return true, nil
}

func TestExploreCountsAndSmallestHit(t *testing.T) {
	var first *Run
	for _, workers := range []int{1, 2, 7} {
		r, err := Explore[*int](grid{n: 40, limit: 30}, Config{Depth: 100, Workers: workers})
		if err != nil {
			t.Fatal(err)
		}
		// 40x40 grid: sums 0..78, states at depth d are those of sum d.
		if r.Distinct != 1600 || len(r.PerDepth) != 79 || r.PerDepth[10] != 11 || r.PerDepth[50] != 29 {
			t.Fatalf("workers %d: distinct %d per depth %v", workers, r.Distinct, r.PerDepth)
		}
		if r.Status != StatusViolation || r.Checked != 1600 {
			t.Fatalf("status %v checked %d", r.Status, r.Checked)
		}
		h := r.Tally.Best()
		// The first violation: at depth 30, the step check (precedence 0)
		// on the first trace, before the state check of the same state.
		if h.Depth != 30 || h.Finding.Inv != 0 || h.Trans != 0 || !slices.Equal(r.Store.Path(h.Parent), slices.Repeat([]int{0}, 29)) {
			t.Fatalf("best hit %+v path %v", h, r.Store.Path(h.Parent))
		}
		if got := r.Tally.Units(unitState); got != 1600 {
			t.Fatalf("states counted %d", got)
		}
		if first == nil {
			first = r
			continue
		}
		if r.Tally.Units(unitStep) != first.Tally.Units(unitStep) || r.Tally.Violations(0) != first.Tally.Violations(0) ||
			r.Tally.Counter("counter 1") != first.Tally.Counter("counter 1") || *r.Tally.Best() != *first.Tally.Best() {
			t.Fatalf("workers %d disagree with 1 worker", workers)
		}
	}
}

func TestExploreBoundsAndTerminalOnly(t *testing.T) {
	r, err := Explore[*int](grid{n: 40, limit: 1000}, Config{Depth: 60, MaxStates: 100})
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != StatusUnknown || r.BoundHit == "" || r.Distinct <= 100 {
		t.Fatalf("status %v bound %q distinct %d", r.Status, r.BoundHit, r.Distinct)
	}
	r, err = Explore[*int](grid{n: 40, limit: 1000}, Config{Depth: 5, TerminalOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	if r.Checked != 6 || r.Status != StatusOK {
		t.Fatalf("terminal-only checked %d states, status %v", r.Checked, r.Status)
	}
	if _, err := Explore[*int](grid{n: 4, limit: 3}, Config{Depth: -1}); err == nil {
		t.Fatal("negative depth accepted")
	}
}

func TestStoreIsExact(t *testing.T) {
	s := newStore(3, "")
	for i := range int32(20000) {
		if !s.add([]int32{i, i * 7, -i}, i-1, uint16(i)) {
			t.Fatalf("row %d reported present", i)
		}
	}
	if s.add([]int32{5, 35, -5}, 0, 0) || !s.has([]int32{19999, 19999 * 7, -19999}) || s.has([]int32{1, 2, 3}) {
		t.Fatal("membership wrong after resizes")
	}
	if s.Len() != 20000 || !slices.Equal(s.Row(3), []int32{3, 21, -3}) || s.Parent(3) != 2 || s.Trans(3) != 3 {
		t.Fatal("rows or parents wrong")
	}
}

// Rows are exact across the store's widening of a column from 16 to 24 and
// 32 bits: words that agree in their low bits stay distinct, before and
// after it, and so do the parents and transitions beside them.
func TestStoreWidensExactly(t *testing.T) {
	for _, tc := range []struct {
		name string
		rows [][]int32
	}{
		{"narrow only", [][]int32{{0, 0}, {65535, 1}, {1, 65535}}},
		{"past 16 bits", [][]int32{{65535, 0}, {65536, 0}, {0, 65535}, {131071, 0}}},
		{"negative", [][]int32{{65535, 2}, {-1, 2}, {2, 65535}, {2, -1}}},
		{"24 then 32 bits", [][]int32{{1, 0xffff}, {1, 0x10000}, {0x1000000, 0x10000}, {0, 0xffffff}, {0xffff, 0x1ffff}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newStore(2, "")
			for i, r := range tc.rows {
				if !s.add(r, int32(i)-1, uint16(i)) {
					t.Fatalf("row %v reported present", r)
				}
				for _, old := range tc.rows[:i+1] {
					if !s.has(old) {
						t.Fatalf("row %v lost after adding %v", old, r)
					}
				}
			}
			for i, r := range tc.rows {
				if got := s.Row(i); !slices.Equal(got, r) {
					t.Errorf("row %d reads %v, want %v", i, got, r)
				}
				if s.add(r, 0, 0) {
					t.Errorf("row %v added twice", r)
				}
				if s.Parent(int32(i)) != int32(i)-1 || s.Trans(int32(i)) != i {
					t.Errorf("row %d: parent %d, transition %d", i, s.Parent(int32(i)), s.Trans(int32(i)))
				}
			}
			if s.has([]int32{65534, 65534}) {
				t.Error("a row never added is present")
			}
		})
	}
}

// A store across many chunks and a widening in the middle reads back every
// row, parent and transition.
func TestStoreChunksAndWidening(t *testing.T) {
	s := newStore(2, "")
	n := int32(3*s.perChunk + 17)
	row := func(i int32) []int32 {
		if i < n/2 {
			return []int32{i % 0xffff, i / 0xffff}
		}
		return []int32{i, -i} // widens both columns half way
	}
	for i := range n {
		if !s.add(row(i), i-1, uint16(i*3)) {
			t.Fatalf("row %d reported present", i)
		}
	}
	for i := range n {
		if got := s.Row(int(i)); !slices.Equal(got, row(i)) || s.Parent(i) != i-1 || s.Trans(i) != int(uint16(i*3)) || !s.has(row(i)) {
			t.Fatalf("row %d reads %v parent %d trans %d", i, got, s.Parent(i), s.Trans(i))
		}
	}
	if s.Bytes() <= 0 {
		t.Fatal("a store holding rows reports no memory")
	}
}

// A store whose records are backed by files reads back exactly what an
// in-memory one does, across chunks and a widening, and leaves no file in
// its directory.
func TestStoreOnFiles(t *testing.T) {
	dir := t.TempDir()
	mem, disk := newStore(3, ""), newStore(3, dir)
	for i := range int32(mem.perChunk + 100) {
		r := []int32{i % 1000, i / 1000, i * 300} // the last column widens to 3, then 4 bytes
		if mem.add(r, i-1, uint16(i)) != disk.add(r, i-1, uint16(i)) {
			t.Fatalf("row %d: stores disagree on novelty", i)
		}
	}
	for i := range mem.Len() {
		if !slices.Equal(mem.Row(i), disk.Row(i)) || mem.Parent(int32(i)) != disk.Parent(int32(i)) || mem.Trans(int32(i)) != disk.Trans(int32(i)) {
			t.Fatalf("row %d: %v in memory, %v on files", i, mem.Row(i), disk.Row(i))
		}
	}
	if ents, err := os.ReadDir(dir); err != nil || len(ents) != 0 {
		t.Fatalf("store directory holds %d entries (%v)", len(ents), err)
	}
	if _, err := Explore[*int](grid{n: 40, limit: 30}, Config{Depth: 100, StoreDir: filepath.Join(dir, "missing")}); err == nil {
		t.Fatal("a store directory that does not exist was accepted")
	}
}

// A freed store is empty and its memory is released at once; the cleanup
// that runs when it becomes unreachable releases nothing twice.
func TestStoreFree(t *testing.T) {
	s := newStore(2, "")
	for i := range int32(1000) {
		s.add([]int32{i, i}, i-1, 0)
	}
	s.Free()
	if s.Len() != 0 || s.Bytes() != 0 || s.mem.Mapped() != 0 {
		t.Fatalf("after Free: %d rows, %d bytes, %d blocks", s.Len(), s.Bytes(), s.mem.Mapped())
	}
	s.mem.FreeAll()
}
