package community

import "testing"

// chain is n complete deliveries, epochs 1..n, published one a second
// after the member joined.
func chain(n int) []Rotation {
	db := make([]Rotation, n)
	for i := range db {
		db[i] = Rotation{Epoch: i + 1, At: epochJoinAt + 1 + i, Kind: Deliver}
	}
	return db
}

// TestLongRekeyChain: a rotator publishes 50,000 rotations and a member
// catches up in one pass. Under the document's rules it keeps every prior
// key (50,001 keys) and its next live REQ addresses every one of them once
// more (50,001 planes). Under rekey-heal it keeps the newest
// MaxPriorEpochs priors, counts the epochs it let go (Member.Dropped, the
// history it can no longer read), and the live REQ addresses at most the
// current plane and those priors.
func TestLongRekeyChain(t *testing.T) {
	const n = 50_000
	db := chain(n)
	for _, tc := range []struct {
		rules         *Rules
		keys, dropped int
	}{{Spec(), n + 1, 0}, {Heal(), MaxPriorEpochs + 1, n - MaxPriorEpochs}} {
		m, adopted := Pass(tc.rules, NewMember(epochJoinAt), db, n+10)
		if m.Held != n || len(adopted) != n {
			t.Fatalf("%s: held %d after %d adoptions, want %d", tc.rules.Name, m.Held, len(adopted), n)
		}
		if len(m.Keys) != tc.keys || m.Dropped != tc.dropped {
			t.Errorf("%s: %d keys kept, %d epochs dropped; want %d and %d", tc.rules.Name, len(m.Keys), m.Dropped, tc.keys, tc.dropped)
		}
		// The newest keys are the ones kept: the current last, its priors
		// in epoch order just below it.
		for i, k := range m.Keys {
			if want := n - len(m.Keys) + 1 + i; k.Epoch != want || k.Retired != (i < len(m.Keys)-1) {
				t.Fatalf("%s: key %d is %s, want epoch %d", tc.rules.Name, i, k, want)
			}
		}
		req := LiveREQ(tc.rules, []LiveChannel{{Held: true, Keys: m.Keys, Asked: make([]bool, len(m.Keys))}})
		if len(req.Planes) != tc.keys {
			t.Errorf("%s: the live REQ addresses %d planes, want %d", tc.rules.Name, len(req.Planes), tc.keys)
		}
	}
}

// BenchmarkRekeyChain: one adoption pass over a chain of 50,000
// rotations, under the document's rules and under rekey-heal.
func BenchmarkRekeyChain(b *testing.B) {
	db := chain(50_000)
	for _, rules := range []*Rules{Spec(), Heal()} {
		b.Run(rules.Name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				Pass(rules, NewMember(epochJoinAt), db, 50_010)
			}
		})
	}
}
