package exhaustive

import (
	"math/bits"
	"testing"

	"github.com/nip-rs/harness/model"
)

// TestPORPremise holds what the reduction's independence relation rests
// on, over every transition of every network universe: a transition
// writes only row words it also reads (its effect depends on what it
// overwrites), every word it touches lies in the row, a transition is
// never independent of itself, and two transitions that write a common
// word, or one of which writes a word the other reads, are never
// independent. Independence is symmetric. Some pairs are independent, or
// the reduction would reduce nothing.
func TestPORPremise(t *testing.T) {
	nets := 0
	for _, name := range testCatalog.UniverseNames() {
		u, err := testCatalog.Universe(name)
		if err != nil {
			t.Fatal(err)
		}
		wd, _, err := newWorld(&u, model.Proposed(), u.Depth, false)
		if err != nil {
			continue // a universe this world cannot build is not a network universe
		}
		w, ok := wd.(*netWorld)
		if !ok {
			continue
		}
		nets++
		nt, width := w.Transitions(), w.Width()
		if width > 64 {
			t.Fatalf("%s: %d row words, more than a touch mask holds", name, width)
		}
		reads, writes := make([]uint64, nt), make([]uint64, nt)
		for x := range nt {
			r, wr := w.touches(x)
			reads[x], writes[x] = r, wr
			switch {
			case wr&^r != 0:
				t.Fatalf("%s: %v writes words %b it does not read (reads %b)", name, w.decode(x), wr&^r, r)
			case wr == 0:
				t.Fatalf("%s: %v writes nothing", name, w.decode(x))
			case bits.Len64(r) > width:
				t.Fatalf("%s: %v reads word %d, beyond the row's %d", name, w.decode(x), bits.Len64(r)-1, width)
			}
			if w.Independent(x, x) {
				t.Fatalf("%s: %v independent of itself", name, w.decode(x))
			}
		}
		independent := 0
		for a := range nt {
			for b := a + 1; b < nt; b++ {
				ind := w.Independent(a, b)
				if ind != w.Independent(b, a) {
					t.Fatalf("%s: independence of %v and %v is not symmetric", name, w.decode(a), w.decode(b))
				}
				if !ind {
					continue
				}
				independent++
				if writes[a]&writes[b] != 0 {
					t.Fatalf("%s: %v and %v both write words %b, yet independent", name, w.decode(a), w.decode(b), writes[a]&writes[b])
				}
				if writes[a]&reads[b] != 0 || writes[b]&reads[a] != 0 {
					t.Fatalf("%s: %v and %v: one writes what the other reads, yet independent", name, w.decode(a), w.decode(b))
				}
			}
		}
		if independent == 0 {
			t.Fatalf("%s: no two of %d transitions independent", name, nt)
		}
		t.Logf("%s: %d transitions, %d independent pairs", name, nt, independent)
	}
	if nets < 2 {
		t.Fatalf("%d network universes, want network and network-whole at least", nets)
	}
}
