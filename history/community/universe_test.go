package community

import (
	stdflag "flag"
	"fmt"
	"slices"
	"testing"

	"github.com/nip-rs/harness/internal/figfile"

	"github.com/nip-rs/harness/internal/num"
)

// update rewrites the golden figures under testdata/figures.
var update = stdflag.Bool("update", false, "rewrite the golden figures under testdata/figures")

// pinned are the distinct states of each universe at its default depth
// under the document's rules; testdata/figures pins their table rows.
var pinned = map[string]int{
	"epochs": 44657, "live": 17454, "side": 6562, "sched": 6647, "nip77": 685, "honest": 145, "pump": 3660,
}

// TestUniversesUnderSpec explores every universe under the document's
// rules: nothing fails but the known findings, the state counts are the
// pinned ones, and their table rows are pinned in testdata/figures. The rules are
// wrapped to count their calls, and every field must be called: no
// decision is made around the seam.
func TestUniversesUnderSpec(t *testing.T) {
	note := figfile.For(t, *update)
	spec, calls := Counting(Spec())
	for _, u := range Universes() {
		res := Explore(u, spec, func(inv string) bool { return Known(spec, inv) }, false)
		if res.Witness != nil {
			t.Errorf("%s: %s: %s\n%s", u.Name, res.Witness.Invariant, res.Witness.Detail, res.Witness.Text)
		}
		if res.Distinct != pinned[u.Name] {
			t.Errorf("%s: %d distinct states, pinned %d", u.Name, res.Distinct, pinned[u.Name])
		}
		note.Line(fmt.Sprintf("| `%s` | %d | %s | %s |", u.Name, u.Depth, num.Commas(pinned[u.Name]), u.Doc))
	}
	if reached := Reached(calls); len(reached) != len(calls) {
		t.Errorf("rules fields called: %v of %d", reached, len(calls))
	}
}

// TestKnownFindings: under the document's rules the epochs universe finds
// both gaps at a rekey, with the smallest witnesses pinned in testdata/figures;
// under Heal it finds nothing at all, known findings included, and each
// half of the cursor fix is needed.
func TestKnownFindings(t *testing.T) {
	note := figfile.For(t, *update)
	u := EpochsUniverse(6)
	spec := Spec()
	for _, inv := range []string{InvNewPlane, InvKept} {
		if !Known(spec, inv) {
			t.Errorf("%s is not known under spec", inv)
		}
		res := Explore(u, spec, func(other string) bool { return other != inv && Known(spec, other) }, true)
		w := res.Witness
		if w == nil || w.Invariant != inv {
			t.Fatalf("spec: %s not found: %+v", inv, w)
		}
		var acts []string
		for _, a := range w.Actions {
			acts = append(acts, a.String())
		}
		note.Line(fmt.Sprintf("%s: `%v`", inv, acts))
		rep, err := Replay(w, Heal())
		if err != nil || rep.Reproduced {
			t.Errorf("%s's witness under rekey-heal: err %v, reproduced %v", inv, err, rep != nil && rep.Reproduced)
		}
	}
	heal := Heal()
	if Known(heal, InvNewPlane) || Known(heal, InvKept) {
		t.Error("rekey-heal still declares a known finding")
	}
	res := Explore(u, heal, nil, false)
	if res.Witness != nil {
		t.Errorf("rekey-heal: %s: %s\n%s", res.Witness.Invariant, res.Witness.Detail, res.Witness.Text)
	}
	rewindOnly := Heal()
	rewindOnly.Commit = Spec().Commit
	if res := Explore(u, rewindOnly, nil, true); res.Witness == nil || res.Witness.Invariant != InvNewPlane {
		t.Errorf("a rewind that lets a round started before the adoption move the cursor: %+v", res.Witness)
	}
}

// TestChanged: a rule set whose field is replaced differs from Spec in
// exactly that field, and Spec from itself in none.
func TestChanged(t *testing.T) {
	if c := Changed(Spec(), Spec()); len(c) != 0 {
		t.Errorf("Spec against Spec: %v", c)
	}
	r := Spec()
	r.Chain = func(n int) bool { return n < 1 }
	if c := Changed(Spec(), r); len(c) != 1 || c[0] != "Chain" {
		t.Errorf("Chain replaced: %v", c)
	}
	if c := Changed(Spec(), Heal()); !slices.Equal(c, []string{"Commit", "Keep", "OnAdopt", "Purge"}) {
		t.Errorf("Heal: %v", c)
	}
}
