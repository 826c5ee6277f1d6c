package witnessfile

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

// A load witness (props' format) parses as kind load, its violation split
// into invariant and detail, and writes back as read; a kind this package
// does not know keeps its file for its own replayer.
func TestOtherKindsKeepTheirFile(t *testing.T) {
	load := []byte(`{"check":"soundness","rules":"L1","config":{"profile":"conformant","cap":2,"n":2},"steps":[],"violation":"soundness: false complete"}`)
	w, err := Parse(load)
	if err != nil {
		t.Fatal(err)
	}
	if w.Kind != KindLoad || w.Invariant != "soundness" || w.Detail != "false complete" || w.Rules != "L1" || !bytes.Equal(w.JSON(), load) {
		t.Errorf("load witness %+v", w)
	}
	other := []byte(`{"kind":"community","invariant":"h1","rules":"spec","events":[1,2]}`)
	if w, err := Parse(other); err != nil || w.Kind != "community" || !bytes.Equal(w.Raw, other) {
		t.Errorf("community witness %+v, %v", w, err)
	}
	// The history walk's witness is this package's format: a member it
	// does not have, or a tie (the walk decides none), is a bad file.
	history := `{"kind":"history","universe":"walk","depth":1,"tie":"","rules":"spec","invariant":"h1","detail":""}`
	if w, err := Parse([]byte(history)); err != nil || w.Kind != KindHistory || w.Raw == nil {
		t.Errorf("history witness %+v, %v", w, err)
	}
	for name, in := range map[string]string{
		"load without violation":  `{"check":"soundness","config":{}}`,
		"no kind":                 `{"invariant":"x"}`,
		"other without invariant": `{"kind":"community"}`,
		"history with a tie":      strings.Replace(history, `"tie":""`, `"tie":"clear"`, 1),
		"history with a member":   strings.Replace(history, `"detail":""`, `"detail":"","events":[1,2]`, 1),
	} {
		if _, err := Parse([]byte(in)); !errors.Is(err, ErrBad) {
			t.Errorf("%s: err %v, want ErrBad", name, err)
		}
	}
}
