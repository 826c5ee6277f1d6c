package exhaustive

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/nip-rs/harness/internal/shortrun"
	"github.com/nip-rs/harness/model"
	"github.com/nip-rs/harness/search"
)

// netStates explores a network universe with symmetry off and returns the
// explorer (its store holds every concrete state) and the world.
func netStates(t *testing.T, name string, rules *model.Rules, depth int) (*explored, *netWorld) {
	t.Helper()
	u, err := testCatalog.Universe(name)
	if err != nil {
		t.Fatal(err)
	}
	x := exploreAll(t, u, rules, model.ClearWins, depth, false)
	return x, x.w.(*netWorld)
}

// verdicts is everything the checks conclude about a state, keyed by device
// and context names so that a renaming can be applied to the keys: the
// violated invariants (as a multiset), and per device and context the
// verdict at quiescence and the oracle's expectation.
func verdicts(w *netWorld, c *cache, row []int32) (map[string]string, []string) {
	var invs []string
	for _, f := range w.check(c, row, search.NewTally(len(networkTable))) {
		invs = append(invs, f.Invariant)
	}
	slices.Sort(invs)
	out := map[string]string{}
	q := w.quiesce(c, row)
	for i, ctx := range w.ov {
		if i < len(q.expect) {
			out["oracle "+ctx] = q.expect[i].String()
		}
		for d, nd := range q.final {
			out[fmt.Sprintf("d%d %s", d, ctx)] = verdict(w.replica(d, nd.rep).Live(ctx))
		}
	}
	return out, invs
}

// renameKey applies element el to a verdict key.
func renameKey(w *netWorld, el *symElem, key string) string {
	parts := strings.Fields(key)
	for i, p := range parts {
		var d int
		if _, err := fmt.Sscanf(p, "d%d", &d); err == nil && len(p) == 2 {
			parts[i] = fmt.Sprintf("d%d", el.dev[d])
		} else if j, ok := w.ovAt[p]; ok {
			parts[i] = w.ov[el.ctx[j]]
		}
	}
	return strings.Join(parts, " ")
}

// Every invariant is symmetric: evaluated on a state and on its image under
// each renaming of interchangeable devices and contexts, it gives the
// renamed verdict. Checked on every state of the universe at depth 4, under
// the production rules and under three broken rule sets whose violations
// give the comparison something to disagree about; each image also has the
// state's canonical representative.
func TestEveryInvariantIsSymmetric(t *testing.T) {
	for _, name := range []string{"spec", "test-live-no-baseline", "test-counter-plus-one", "test-lww-join"} {
		rules, err := testCatalog.Rules(name)
		if err != nil {
			t.Fatal(err)
		}
		x, w := netStates(t, "network", rules, shortrun.Size(t, 4, 3))
		sym := newSymmetry(w)
		c := x.e.newCache()
		img, canon := make([]int32, w.Width()), make([]int32, w.Width())
		violations := 0
		for i := range x.store.Len() {
			row := x.store.Row(i)
			want, wantInv := verdicts(w, c, row)
			violations += len(wantInv)
			copy(canon, row)
			sym.canonical(c, canon)
			for k := range sym.elems {
				el := &sym.elems[k]
				sym.image(c, k, row, img)
				got, gotInv := verdicts(w, c, img)
				if !slices.Equal(gotInv, wantInv) {
					t.Fatalf("%s state %d element %v: invariants %v, image %v", name, i, el, wantInv, gotInv)
				}
				for key, v := range want {
					if rk := renameKey(w, el, key); got[rk] != v {
						t.Fatalf("%s state %d element %v: %s is %s, image's %s is %s", name, i, el, key, v, rk, got[rk])
					}
				}
				c2 := slices.Clone(img)
				sym.canonical(c, c2)
				if !slices.Equal(c2, canon) {
					t.Fatalf("%s state %d element %v: the image has another representative", name, i, el)
				}
			}
		}
		if name != "spec" && violations == 0 {
			t.Errorf("%s: no violation to compare", name)
		}
	}
}

// The successors of a state and of its image are the same orbits.
func TestSuccessorsAreSymmetric(t *testing.T) {
	x, w := netStates(t, "network", model.Proposed(), 3)
	sym := newSymmetry(w)
	c := x.e.newCache()
	succ := func(row []int32) map[string]bool {
		out := map[string]bool{}
		next := make([]int32, len(row))
		for tr := range w.Transitions() {
			if ok, _ := w.apply(c, row, tr, next, search.NewTally(len(networkTable))); ok {
				sym.canonical(c, next)
				out[fmt.Sprint(next)] = true
			}
		}
		return out
	}
	img := make([]int32, w.Width())
	for i := range x.store.Len() {
		row := x.store.Row(i)
		want := succ(row)
		for k := range sym.elems {
			sym.image(c, k, row, img)
			got := succ(slices.Clone(img))
			if len(got) != len(want) {
				t.Fatalf("state %d element %d: %d successor orbits, image %d", i, k, len(want), len(got))
			}
			for s := range want {
				if !got[s] {
					t.Fatalf("state %d element %d: successor orbit %s missing from the image's", i, k, s)
				}
			}
		}
	}
}
