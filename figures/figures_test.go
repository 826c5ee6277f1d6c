package figures

import (
	"flag"
	"path/filepath"
	"testing"

	"github.com/nip-rs/harness/internal/figfile"
)

// update rewrites the golden figures under testdata/figures.
var update = flag.Bool("update", false, "rewrite the golden figures under testdata/figures")

// TestSectionInNote: the tables the code computes are
// testdata/figures/formal-note.md byte for byte (rewritten by -update).
func TestSectionInNote(t *testing.T) {
	figfile.Check(t, filepath.Join("testdata", "figures", "formal-note.md"), []byte(Section()), *update)
}

// TestNoteFiguresReproduced: the formal note's per-context bytes and its
// headroom figures are what the production encoding gives, and the
// candidate-A example object is the note's 56 bytes.
func TestNoteFiguresReproduced(t *testing.T) {
	for _, k := range kinds() {
		want := noteBytes[k.name]
		if l, f := alone(live(k.example, 1, 0, 10)), alone(floor(k.example, 3)); l != want[0] || f != want[1] {
			t.Errorf("%s: live %d floor %d, the note %v", k.name, l, f, want)
		}
		if inBlob(live(k.example, 1, 0, 10)) != want[0]+1 {
			t.Errorf("%s: a live group in a blob is not one comma more than alone", k.name)
		}
	}
	if key := longestCommonKey(); len(key) != 76 || 256-len(key) != 180 {
		t.Errorf("longest common key %d bytes", len(key))
	}
	if len(noteA) != 56 {
		t.Errorf("the note's A object is %d bytes", len(noteA))
	}
	if l, d, v := keysPerContext(); l != 3 || d != 1 || v != 0 {
		t.Errorf("keys per context live/dead/virgin %d/%d/%d", l, d, v)
	}
	if refusal(251) != "accepted" || received(251) != "kept" || received(252) != "rejected whole" {
		t.Error("the key-limit boundary moved")
	}
}

// TestCeilingsBridgePinnedFigures: the channel column of the ceilings
// table is the figures "Slots, events and identity" pins, computed here by
// other code over the same ids, client_id and budget.
func TestCeilingsBridgePinnedFigures(t *testing.T) {
	sec := figfile.For(t, *update)
	for _, s := range []shape{shapeMax, shapeFloorMax, shapeFloorDigit, shapeMaxFront} {
		sec.Line(n(ceiling(kinds()[0], s)) + " " + s.name)
	}
	// The trim table's groups, the channel rows included, fit where the
	// ceilings say they do.
	for _, r := range trimRows {
		k := kinds()[r.kind]
		if _, err := splitOf(groups(k, r.count, shapeNote), nil); (err == nil) != (r.count <= ceiling(k, shapeNote)) {
			t.Errorf("%d %s groups: split error %v against a ceiling of %d", r.count, k.name, err, ceiling(k, shapeNote))
		}
	}
}
