package community

import (
	"testing"

	"pgregory.net/rapid"
)

// TestRandomWalks drives every universe's own step from random choices,
// far past its exhaustive depth (up to 40 actions): every transition check
// the search runs must hold, under the document's rules (its known
// findings excepted) and under rekey-heal.
func TestRandomWalks(t *testing.T) {
	for _, rules := range []*Rules{Spec(), Heal()} {
		for _, u := range Universes() {
			t.Run(rules.Name+"/"+u.Name, func(t *testing.T) {
				rapid.Check(t, func(t *rapid.T) {
					s := u.Initial()
					steps := rapid.IntRange(1, 40).Draw(t, "steps")
					for i := range steps {
						a := u.Actions[rapid.IntRange(0, len(u.Actions)-1).Draw(t, "action")]
						next, ok, found := u.Step(rules, s, a)
						if !ok {
							continue
						}
						for _, v := range found {
							if !Known(rules, v.Invariant) {
								t.Fatalf("step %d (%s): %s\nfrom %s\nto %s", i, a, v, s, next)
							}
						}
						s = next
					}
				})
			})
		}
	}
}

// TestMissedRotations: a member who missed k rotations (forks among them)
// catches up to min(k, RekeyLookahead) in one watch delivery and one pass,
// one epoch at a time off the key it holds, and to k after one pass per
// lookahead window; every superseded key is kept, retired at its
// rotation's publish time.
func TestMissedRotations(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		k := rapid.IntRange(1, 3*RekeyLookahead).Draw(t, "missed")
		var rots []Rotation
		at := 0
		for e := 1; e <= k; e++ {
			if rapid.Bool().Draw(t, "fork") {
				at++
				rots = append(rots, Rotation{Epoch: e, At: at, Kind: ForkIn})
			}
			at++
			rots = append(rots, Rotation{Epoch: e, At: at, Kind: Deliver})
		}
		r := Spec()
		m := NewMember(0)
		var db []Rotation
		for pass := 1; m.Held < k; pass++ {
			if pass > k {
				t.Fatalf("no progress after %d passes, held %d of %d", pass, m.Held, k)
			}
			for _, e := range r.Watch(m.Held) {
				for _, rot := range rots {
					if rot.Epoch == e {
						db = append(db, rot)
					}
				}
			}
			before := m.Held
			var adopted []Adoption
			m, adopted = Pass(r, m, db, at+pass)
			if want := min(k, before+RekeyLookahead); m.Held != want {
				t.Fatalf("pass %d: held %d, want %d", pass, m.Held, want)
			}
			for i, ad := range adopted {
				if ad.Rotation.Epoch != before+i+1 || ad.Rotation.Kind != Deliver {
					t.Fatalf("pass %d adopted %v at step %d", pass, ad.Rotation, i)
				}
			}
		}
		if len(m.Keys) != k+1 {
			t.Fatalf("%d keys held after %d rotations", len(m.Keys), k)
		}
		for _, key := range m.Keys[:k] {
			var rot Rotation
			for _, r := range rots {
				if r.Epoch == key.Epoch+1 && r.Kind == Deliver {
					rot = r
				}
			}
			if !key.Retired || key.RetiredAt != rot.At {
				t.Fatalf("key %d: retired %v at %d, its rotation was published at %d", key.Epoch, key.Retired, key.RetiredAt, rot.At)
			}
		}
	})
}
