package exhaustive

import (
	"testing"

	"github.com/nip-rs/harness/internal/shortrun"
	"github.com/nip-rs/harness/model"
	"github.com/nip-rs/harness/search"
)

// orderBreakers are rule sets under which delivery order matters: a
// last-writer-wins register join (the gate's M6), and one that keeps the
// incoming baseline whole, each breaking the join's commutativity; spec
// comes first as the control.
func orderBreakers() []namedRules {
	lww := model.Proposed()
	lww.Join = func(a, b model.Reg) model.Reg {
		if b != (model.Reg{}) {
			return b
		}
		return a
	}
	incomingB := model.Proposed()
	join := incomingB.Join
	incomingB.Join = func(a, b model.Reg) model.Reg {
		r := join(a, b)
		if b != (model.Reg{}) {
			r.B = b.B
		}
		return r
	}
	return []namedRules{{"spec", model.Proposed()}, {"last-writer-wins", lww}, {"incoming-baseline", incomingB}}
}

type namedRules struct {
	name  string
	rules *model.Rules
}

// The delivery-order check walks replicas alone (orderFree says why the
// knowledge beside them cannot depend on the order). Walking whole nodes
// instead must give the same run: the same states and, per invariant, the
// same checks and violations, under rules that break order independence as
// under the production rules.
func TestOrderWalkOfReplicasAlone(t *testing.T) {
	depth := shortrun.Size(t, 4, 3)
	for _, name := range []string{"network", "hierarchy"} {
		u, err := NewCatalog().Universe(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, nr := range orderBreakers() {
			rname, rules := nr.name, nr.rules
			t.Run(name+"/"+rname, func(t *testing.T) {
				var runs [2]*search.Run
				for k, whole := range []bool{false, true} {
					w, _, err := newWorld(&u, rules.WithTie(model.ClearWins), depth, true)
					if err != nil {
						t.Fatal(err)
					}
					w.(*netWorld).orderKnowledge = whole
					runs[k], err = search.Explore[*cache](w, search.Config{Depth: depth, Workers: 2})
					if err != nil {
						t.Fatal(err)
					}
				}
				a, b := runs[0], runs[1]
				if a.Distinct != b.Distinct {
					t.Fatalf("replicas alone: %d states, whole nodes: %d", a.Distinct, b.Distinct)
				}
				order := search.Index(networkTable, InvNetOrder)
				for i, inv := range networkTable {
					if x, y := a.Tally.Violations(i), b.Tally.Violations(i); x != y {
						t.Errorf("%s: %d violations walking replicas alone, %d walking whole nodes", inv.ID, x, y)
					}
				}
				// The comparison is only worth something where the order
				// matters: the breakers must violate N2.
				if (rname != "spec") != (a.Tally.Violations(order) > 0) {
					t.Errorf("%s: %d order violations", rname, a.Tally.Violations(order))
				}
			})
		}
	}
}
