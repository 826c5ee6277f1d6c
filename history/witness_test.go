package history

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nip-rs/harness/witnessfile"
)

// TestReplayRejectsBadWitnesses: a witness that does not fit the universe is
// an input error (witnessfile.ErrBad), never a panic or a verdict.
func TestReplayRejectsBadWitnesses(t *testing.T) {
	good := readGolden(t, "limitation.spec")
	tests := []struct {
		name string
		edit func(w *witnessfile.Witness)
	}{
		{"wrong kind", func(w *witnessfile.Witness) { w.Kind = witnessfile.KindExplore }},
		{"unknown invariant", func(w *witnessfile.Witness) { w.Invariant = "H99" }},
		{"unknown rules", func(w *witnessfile.Witness) { w.Rules = "M1" }},
		{"unknown action", func(w *witnessfile.Witness) { w.Actions[0].Action = "teleport" }},
		{"bad publish target", func(w *witnessfile.Witness) { w.Actions[0].Ctx = "relay7" }},
		{"bad round behaviours", func(w *witnessfile.Witness) { w.Actions[1].Ctx = "relay0=sleeps relay1=answers" }},
		{"device field", func(w *witnessfile.Witness) { d := 1; w.Actions[0].Device = &d }},
		{"point missing a size", func(w *witnessfile.Witness) { w.Point = w.Point[:2] }},
		{"page size zero", func(w *witnessfile.Witness) { w.Point[0].Num = 0 }},
		{"max-t too large", func(w *witnessfile.Witness) { w.Point[4].Num = 99 }},
		{"too many publications", func(w *witnessfile.Witness) {
			for range 30 {
				w.Actions = append(w.Actions, witnessfile.Action{Action: "publish", Ctx: "both"})
			}
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			w, err := witnessfile.Parse(good.JSON())
			if err != nil {
				t.Fatal(err)
			}
			tc.edit(w)
			if _, err := Replay(w); !errors.Is(err, witnessfile.ErrBad) {
				t.Errorf("err %v, want ErrBad", err)
			}
		})
	}
}

// TestReplayReportsTheLimitation: the golden witness replays to the text
// of its golden file, naming the violation a documented limitation.
func TestReplayReportsTheLimitation(t *testing.T) {
	rep, err := Replay(readGolden(t, "limitation.spec"))
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Reproduced || !strings.Contains(rep.Text, "documented limitation "+Limitation) {
		t.Errorf("replay:\n%s", rep.Text)
	}
}

// FuzzReplay: whatever a witness file holds, parsing and replaying it
// returns a result or a clear error and never panics.
func FuzzReplay(f *testing.F) {
	for _, name := range []string{"limitation.spec.json"} {
		data, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte(`{"kind":"history","universe":"walk","tie":"","rules":"spec","invariant":"H1-terminates","detail":"","point":{"page":1}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		w, err := witnessfile.Parse(data)
		if err != nil {
			return
		}
		if len(w.Actions) > 200 {
			return // long replays are valid but slow; their steps are the same
		}
		if rep, err := Replay(w); err == nil && rep.Text == "" {
			t.Error("a replay without a rendering")
		}
	})
}
