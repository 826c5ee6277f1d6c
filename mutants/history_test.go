package mutants

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/nip-rs/harness/history"
	"github.com/nip-rs/harness/witnessfile"
)

// replayHistoryGolden replays a golden history witness under the rule set
// it names: the violation recurs and the rendering is the recorded one.
func replayHistoryGolden(t *testing.T, file string, data, text []byte) {
	t.Helper()
	w, err := witnessfile.Parse(data)
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	rep, err := ReplayHistory(w)
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	if !rep.Reproduced || rep.Text != string(text) {
		t.Errorf("%s: reproduced %v, rendering equal to the golden text %v:\n%s", file, rep.Reproduced, rep.Text == string(text), rep.Text)
	}
}

// TestHistoryMutantsChangeOnlyTheWalk: every history mutant changes the
// walk's rules and leaves the core's as they are, and its witness does not
// replay under the document's rules.
func TestHistoryMutantsChangeOnlyTheWalk(t *testing.T) {
	for _, m := range History() {
		if m.Rules().Name != m.ID || m.HistoryRules().Name != m.ID {
			t.Errorf("%s: rule sets not named after the mutant", m.ID)
		}
		if _, ok := HistoryRuleSet(m.ID); !ok {
			t.Errorf("%s: not resolvable for replay", m.ID)
		}
		data, err := os.ReadFile(filepath.Join(goldenDir, m.ID+".clear.json"))
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := history.ParseLasso(data); err == nil {
			// A walk that never ends: it replays under the mutant and not
			// under its base rules.
			text, err := os.ReadFile(filepath.Join(goldenDir, m.ID+".clear.txt"))
			if err != nil {
				t.Fatal(err)
			}
			replayWalkLassoGolden(t, m.ID, data, text)
			continue
		}
		w, err := witnessfile.Parse(data)
		if err != nil {
			t.Fatal(err)
		}
		// The witness does not replay under the rules the mutant changes.
		if rep, err := history.ReplayWith(w, historyBase(m.ID)); err != nil || rep.Reproduced {
			t.Errorf("%s: its witness under its base rules (%s): err %v, reproduced %v", m.ID, historyBase(m.ID).Name, err, rep != nil && rep.Reproduced)
		}
	}
	if _, err := ReplayHistory(&witnessfile.Witness{Kind: "history", Rules: "M1", Invariant: "H1-terminates"}); !errors.Is(err, witnessfile.ErrBad) {
		t.Errorf("a core mutant's name as a history rule set: err %v", err)
	}
}
