package candidate

import (
	"testing"

	"github.com/nip-rs/harness/model"
)

func TestCubesHoldWithTheirPoints(t *testing.T) {
	want := map[string]map[string]int{
		"A": {"a-join-laws": 24 + 24*24 + 24*24*24, "concurrent-stability": 24, "replay-harmless": 2},
		"B": {"concurrent-stability": 24, "replay-harmless": 2},
	}
	for _, enc := range Encodings() {
		for _, tie := range []model.TiePolicy{model.ClearWins, model.SetWins} {
			got := Cubes(enc, specTie(tie))
			if len(got) != len(want[enc.Name()]) {
				t.Fatalf("%s: %d cubes, want %d", enc.Name(), len(got), len(want[enc.Name()]))
			}
			for _, c := range got {
				if c.Points != want[enc.Name()][c.Key] || c.Violations != 0 {
					t.Errorf("%s %v %s: %d points, %d violations (%s)", enc.Name(), tie, c.Key, c.Points, c.Violations, c.First)
				}
			}
		}
	}
}

// lwwA is candidate A whose receipt counts every replay, and whose merge
// lets the incoming register win whole.
type lwwA struct{ EncodingA }

func (lwwA) Upgraded(id string, rules *model.Rules) Device {
	return &lwwDevice{deviceA: EncodingA{}.Upgraded(id, rules).(*deviceA)}
}

type lwwDevice struct{ *deviceA }

func (d *lwwDevice) Clone() Device { return &lwwDevice{deviceA: d.deviceA.Clone().(*deviceA)} }

func (d *lwwDevice) Receive(data []byte) error {
	b, err := ParseA(data)
	if err != nil {
		return err
	}
	for _, en := range b.Contexts {
		d.Advance(en.Key, en.Value)
	}
	for _, o := range b.Overrides {
		d.at(o.Ctx).r = o.Reg
		d.counter++
	}
	return nil
}

// I6 notices a receipt that is not idempotent. I4 as the note defines it
// does not notice a last-writer-wins merge: the clear's frontier f+10
// passes the set's baseline f, so the set is dead in either order.
func TestCubesOnABrokenReceipt(t *testing.T) {
	got := map[string]int{}
	for _, c := range Cubes(lwwA{}, specTie(model.ClearWins)) {
		got[c.Key] = c.Violations
	}
	if got["replay-harmless"] == 0 || got["concurrent-stability"] != 0 {
		t.Errorf("violations %v, want replay-harmless failing and concurrent-stability not", got)
	}
}
