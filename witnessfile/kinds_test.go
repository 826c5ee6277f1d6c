package witnessfile

import (
	"bytes"
	"errors"
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
	other := []byte(`{"kind":"history","invariant":"h1","rules":"spec","tie":"clear","events":[1,2]}`)
	if w, err := Parse(other); err != nil || w.Kind != "history" || !bytes.Equal(w.Raw, other) {
		t.Errorf("history witness %+v, %v", w, err)
	}
	for name, in := range map[string]string{
		"load without violation":  `{"check":"soundness","config":{}}`,
		"no kind":                 `{"invariant":"x"}`,
		"other without invariant": `{"kind":"history"}`,
	} {
		if _, err := Parse([]byte(in)); !errors.Is(err, ErrBad) {
			t.Errorf("%s: err %v, want ErrBad", name, err)
		}
	}
}
