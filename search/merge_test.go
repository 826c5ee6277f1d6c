package search

import (
	"math/rand/v2"
	"slices"
	"sync/atomic"
	"testing"
)

// The parallel merge of a block gives every candidate the index adding the
// candidates one by one in generation order gives, parent and transition
// included, at any worker count, also when distinct rows share a hash (the
// candidates here carry a hash with six values, so that most equal hashes
// are not equal rows) and when a column widens.
func TestMergeBlockIsSerialAdding(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	const width = 3
	var outs []pieceOut
	for range 40 {
		var o pieceOut
		for range rng.IntN(300) {
			r := []int32{int32(rng.IntN(50)), int32(rng.IntN(40)), int32(rng.IntN(3))}
			if rng.IntN(500) == 0 {
				r[1] = 70000 + int32(rng.IntN(3)) // widens the column to 3 bytes
			}
			o.rows = append(o.rows, r...)
			o.hashes = append(o.hashes, uint64((r[0]+r[1]+r[2])%6)*0x9e3779b97f4a7c15)
			o.parents = append(o.parents, int32(rng.IntN(1000)))
			o.trans = append(o.trans, uint16(rng.IntN(9)))
		}
		outs = append(outs, o)
	}
	// The serial store, row by row; the hashes are the candidates' own.
	want := newStore(width, "")
	var wantIDs [][]int32
	for _, o := range outs {
		var ids []int32
		for k := range o.parents {
			j, _ := want.addHashed(o.rows[k*width:(k+1)*width], o.hashes[k], o.parents[k], o.trans[k])
			ids = append(ids, int32(j))
		}
		wantIDs = append(wantIDs, ids)
	}
	for _, workers := range []int{1, 2, 3, 8} {
		x := &explorer[*int]{cfg: Config{Workers: workers}, w: grid{}, store: newStore(width, "")}
		x.workers = []*int{new(int)}
		ids, off := x.mergeBlock(outs, true)
		if !slices.Equal(ids, slices.Concat(wantIDs...)) || len(off) != len(outs)+1 {
			t.Fatalf("workers %d: indices differ from adding one by one", workers)
		}
		got := x.store
		if got.Len() != want.Len() || got.Len() <= 2048 {
			t.Fatalf("workers %d: %d rows, want %d", workers, got.Len(), want.Len())
		}
		for i := range want.Len() {
			if !slices.Equal(got.Row(i), want.Row(i)) || got.Parent(int32(i)) != want.Parent(int32(i)) || got.Trans(int32(i)) != want.Trans(int32(i)) {
				t.Fatalf("workers %d: row %d is %v, want %v", workers, i, got.Row(i), want.Row(i))
			}
		}
		// Every candidate is found again under its hash by the serial
		// path, which probes the index the parallel one built (grown
		// past its first size: the rows are more than 2,048).
		for p, o := range outs {
			for k := range o.parents {
				if j, added := got.addHashed(o.rows[k*width:(k+1)*width], o.hashes[k], 0, 0); added || int32(j) != ids[off[p]+k] {
					t.Fatalf("workers %d: candidate %d/%d not found at %d", workers, p, k, ids[off[p]+k])
				}
			}
		}
		got.Free()
	}
	want.Free()
}

// quietGrid is grid that counts the workers inside it and the pauses the
// engine announces.
type quietGrid struct {
	grid
	inside, pauses, bad *atomic.Int64
}

func (g quietGrid) Successor(c *int, cur []int32, t int, next []int32, tl *Tally) (bool, []Finding) {
	g.inside.Add(1)
	defer g.inside.Add(-1)
	return g.grid.Successor(c, cur, t, next, tl)
}

func (g quietGrid) Check(c *int, row []int32, tl *Tally) []Finding {
	g.inside.Add(1)
	defer g.inside.Add(-1)
	return g.grid.Check(c, row, tl)
}

func (g quietGrid) Quiesce() {
	g.pauses.Add(1)
	if g.inside.Load() != 0 {
		g.bad.Add(1)
	}
}

// A Quiescer is told of every pause between parallel phases, and no
// worker is inside it then.
func TestQuiesceBetweenPhases(t *testing.T) {
	g := quietGrid{grid{n: 300, limit: 1000}, new(atomic.Int64), new(atomic.Int64), new(atomic.Int64)}
	if _, err := Explore[*int](g, Config{Depth: 500, Workers: 4}); err != nil {
		t.Fatal(err)
	}
	// Two phases at least per depth (expand, check) up to the last.
	if g.pauses.Load() < 2*500 || g.bad.Load() != 0 {
		t.Fatalf("%d pauses, %d with a worker inside", g.pauses.Load(), g.bad.Load())
	}
}
