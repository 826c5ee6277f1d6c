package history

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/nip-rs/harness/internal/figfile"
	"github.com/nip-rs/harness/internal/num"
	"github.com/nip-rs/harness/internal/shortrun"
	"github.com/nip-rs/harness/search"
	"github.com/nip-rs/harness/witnessfile"
)

var update = flag.Bool("update", false, "rewrite the golden witnesses under testdata/")

// Pinned figures of the default universe (also in testdata/figures).
const (
	specStates    = 67887
	healingStates = 77525
)

// TestSpecUniverse explores the default universe under the document's rules
// with every invariant reported: the only invariant violated is the known
// limitation, and the smallest witness is an offline burst the bridge's
// budget cannot cover, a round that leaves the hole, and a repeated round
// that repairs nothing. The witness equals its golden file and replays.
func TestSpecUniverse(t *testing.T) {
	if shortrun.On(t, "the golden witness replayed, the universe not explored") {
		w := readGolden(t, "limitation.spec")
		text, err := os.ReadFile(filepath.Join("testdata", "limitation.spec.txt"))
		if err != nil {
			t.Fatal(err)
		}
		rep, err := Replay(w)
		if err != nil || !rep.Reproduced || rep.Text != string(text) || w.Invariant != Limitation {
			t.Fatalf("replay of the golden %s witness: err %v, reproduced %v, text equal %v", w.Invariant, err, rep != nil && rep.Reproduced, rep != nil && rep.Text == string(text))
		}
		return
	}
	out, err := Explore(DefaultUniverse(), Spec(), ReportAll, 0, false)
	if err != nil {
		t.Fatal(err)
	}
	if out.Distinct != specStates {
		t.Errorf("spec universe: %d distinct states, pinned %d", out.Distinct, specStates)
	}
	for id := range out.Violations {
		if !Known(Spec(), id) {
			t.Errorf("spec violates %s, which is not its documented limitation", id)
		}
	}
	if out.Violations[Limitation] == 0 || out.Witness == nil || out.Witness.Invariant != Limitation {
		t.Fatalf("the search did not find the documented limitation: %v", out.Violations)
	}
	if got := actionNames(out.Witness); !slices.Contains(got, "publish") || len(got) != 7 {
		t.Errorf("limitation witness actions %v: want 7 steps with the burst", got)
	}
	golden(t, "limitation.spec", out.Witness, out.Text)
	rep, err := Replay(out.Witness)
	if err != nil || !rep.Reproduced || rep.Text != out.Text {
		t.Fatalf("replay: err %v, reproduced %v, text equal %v", err, rep != nil && rep.Reproduced, rep != nil && rep.Text == out.Text)
	}
	note := figfile.For(t, *update)
	note.Line(num.Commas(specStates) + " distinct states")
	note.Line(num.Commas(int64(out.Violations[Limitation])) + " violating rounds")
}

// TestHealingHealsUnderSameSearch: the proposed fix (a pending region in
// the cursor) trips no invariant at all, the limitation included, in the
// same universe; and the document's witness, replayed under it, no longer
// reproduces.
func TestHealingHealsUnderSameSearch(t *testing.T) {
	u := DefaultUniverse()
	short := shortrun.On(t, "the default universe at depth 5, its pinned state count not compared")
	if short {
		u.Depth = 5
	}
	out, err := Explore(u, Healing(), ReportAll, 0, false)
	if err != nil {
		t.Fatal(err)
	}
	if out.Status != search.StatusOK || out.Witness != nil {
		t.Fatalf("healing rules: %s %v", out.Status, out.Violations)
	}
	if Known(Healing(), Limitation) {
		t.Error("the healing rules still carry the limitation")
	}
	if !short && out.Distinct != healingStates {
		t.Errorf("healing universe: %d distinct states, pinned %d", out.Distinct, healingStates)
	}
	w := readGolden(t, "limitation.spec")
	rep, err := ReplayWith(w, Healing())
	if err != nil {
		t.Fatal(err)
	}
	if rep.Reproduced || len(rep.Found) != 0 {
		t.Errorf("the spec's witness under the healing rules found %v", rep.Found)
	}
	if short {
		return
	}
	note := figfile.For(t, *update)
	note.Line(num.Commas(int64(out.Distinct)) + " distinct states")
}

func actionNames(w *witnessfile.Witness) []string {
	var out []string
	for _, a := range w.Actions {
		out = append(out, a.Action)
	}
	return out
}

func golden(t *testing.T, base string, w *witnessfile.Witness, text string) {
	t.Helper()
	files := map[string][]byte{base + ".json": w.JSON(), base + ".txt": []byte(text)}
	for _, name := range []string{base + ".json", base + ".txt"} {
		path := filepath.Join("testdata", name)
		if *update {
			if err := os.WriteFile(path, files[name], 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		old, err := os.ReadFile(path)
		if err != nil || !bytes.Equal(old, files[name]) {
			t.Errorf("%s differs from the search's witness (run with -update to accept)", path)
		}
	}
}

func readGolden(t *testing.T, base string) *witnessfile.Witness {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", base+".json"))
	if err != nil {
		t.Fatal(err)
	}
	w, err := witnessfile.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// TestWorkerCountDoesNotChangeTheWitness: one worker and two find the same
// figures and the same witness, here under a walk without its bridge.
func TestWorkerCountDoesNotChangeTheWitness(t *testing.T) {
	u := DefaultUniverse()
	u.Depth = 5
	rules := Spec().Clone()
	rules.Name = "no-bridge"
	rules.BridgeNeeded = func(PageSummary, Cursor) bool { return false }
	var texts []string
	var counts []int
	for _, workers := range []int{1, 2} {
		out, err := Explore(u, rules, ReportGate, workers, false)
		if err != nil {
			t.Fatal(err)
		}
		counts = append(counts, out.Distinct)
		texts = append(texts, out.Text)
	}
	if counts[0] != counts[1] || texts[0] != texts[1] || texts[0] == "" {
		t.Errorf("1 and 2 workers differ or find nothing: %v\n%s", counts, texts[0])
	}
}
