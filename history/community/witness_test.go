package community

import (
	"errors"
	"testing"
)

// TestWitnessRoundTrip: a witness the search finds parses back from its
// file and replays to the same violation and the same rendering.
func TestWitnessRoundTrip(t *testing.T) {
	spec := Spec()
	res := Explore(EpochsUniverse(6), spec, func(inv string) bool { return inv != InvNewPlane && Known(spec, inv) }, true)
	if res.Witness == nil {
		t.Fatal("no witness")
	}
	w, err := Parse(res.Witness.JSON())
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Replay(w, spec)
	if err != nil || !rep.Reproduced || rep.Text != res.Witness.Text {
		t.Fatalf("replay: err %v, reproduced %v, same text %v\n%s", err, rep != nil && rep.Reproduced, rep != nil && rep.Text == res.Witness.Text, rep.Text)
	}
}

// TestParseRefusesHostileFiles: a file that is not a witness of a known
// universe, within its bound, with its actions, is refused with
// ErrWitness and never panics; an action disabled where it is taken is
// refused by the replay.
func TestParseRefusesHostileFiles(t *testing.T) {
	for _, data := range []string{
		``, `{`, `[]`, `{"kind":"history"}`,
		`{"kind":"community","universe":"nowhere","actions":[{"action":"tick","arg":10}]}`,
		`{"kind":"community","universe":"sched","actions":[]}`,
		`{"kind":"community","universe":"sched","actions":[{"action":"tick","arg":-10}]}`,
		`{"kind":"community","universe":"sched","actions":[{"action":"tick","arg":9223372036854775807}]}`,
		`{"kind":"community","universe":"nip77","actions":[{"action":"catchup","arg":0},{"action":"catchup","arg":0},{"action":"catchup","arg":0},{"action":"catchup","arg":0}]}`,
	} {
		if _, err := Parse([]byte(data)); !errors.Is(err, ErrWitness) {
			t.Errorf("%q: err %v", data, err)
		}
	}
	w, err := Parse([]byte(`{"kind":"community","universe":"sched","actions":[{"action":"ok","arg":0}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Replay(w, Spec()); !errors.Is(err, ErrWitness) {
		t.Errorf("a round ending that never started: err %v", err)
	}
	for _, u := range Universes() {
		bad := &Witness{Kind: KindCommunity, Universe: u.Name, Actions: []Action{{}, {Name: "relay9", Arg: -1}}}
		if _, err := Replay(bad, Spec()); !errors.Is(err, ErrWitness) {
			t.Errorf("%s: an action of no universe: err %v", u.Name, err)
		}
	}
}

// FuzzReplay: any file either is refused by Parse or replays under the
// document's rules without panicking.
func FuzzReplay(f *testing.F) {
	spec := Spec()
	for _, u := range Universes() {
		f.Add((&Witness{Kind: KindCommunity, Universe: u.Name, Rules: "spec", Invariant: u.Invariants[0], Actions: u.Actions[len(u.Actions)-2:]}).JSON())
	}
	f.Add([]byte(`{"kind":"community","universe":"epochs","actions":[{"action":"rotate","arg":3},{"action":"rekey","arg":0}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		w, err := Parse(data)
		if err != nil {
			return
		}
		_, _ = Replay(w, spec)
	})
}
