package witnessfile

import (
	"errors"
	"strings"
	"testing"
)

// An explorer witness may name a wire encoding; a file without one (every
// file written before encodings existed) reads as before and writes the
// same bytes; a directed witness naming one is refused.
func TestEncodingField(t *testing.T) {
	old := `{"kind":"explore","universe":"reference","depth":4,"tie":"clear","rules":"spec","invariant":"I2-convergence","detail":"d","actions":[{"action":"mark_unread","device":0,"ctx":"c0"}]}`
	w, err := Parse([]byte(old))
	if err != nil || w.Encoding != "" {
		t.Fatalf("%+v %v", w, err)
	}
	if strings.Contains(string(w.JSON()), "encoding") {
		t.Errorf("a witness without an encoding writes one:\n%s", w.JSON())
	}
	withEnc := strings.Replace(old, `"rules":"spec",`, `"rules":"spec","encoding":"A",`, 1)
	if w, err := Parse([]byte(withEnc)); err != nil || w.Encoding != "A" || !strings.Contains(string(w.JSON()), `"encoding": "A"`) {
		t.Errorf("%+v %v", w, err)
	}
	for _, bad := range []string{
		`{"kind":"directed","check":"replay-harmless","tie":"clear","rules":"spec","invariant":"x","encoding":"A","point":{"ctx":"c0"}}`,
		strings.Replace(old, `"rules":"spec",`, `"rules":"spec","encoding":"`+strings.Repeat("e", MaxNameBytes+1)+`",`, 1),
	} {
		if _, err := Parse([]byte(bad)); !errors.Is(err, ErrBad) {
			t.Errorf("accepted %.80s...: %v", bad, err)
		}
	}
}
