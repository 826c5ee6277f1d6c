package catalog

import (
	"errors"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/nip-rs/harness/witnessfile"
)

// Every kind ReplayKinds names reaches a replayer (a witness with nothing
// in it is refused by that replayer, not as an unknown kind); an unknown
// kind is a bad witness whose message lists every kind; the list is
// sorted without repeats and holds each kind a universe writes.
func TestReplayDispatch(t *testing.T) {
	c := Standard()
	kinds := ReplayKinds()
	if !slices.IsSorted(kinds) || len(slices.Compact(slices.Clone(kinds))) != len(kinds) {
		t.Errorf("kinds %v: want sorted, no repeats", kinds)
	}
	for _, e := range c.All() {
		if !slices.Contains(kinds, e.Kind) {
			t.Errorf("entry %s writes kind %s, which Replay does not list", e.Name, e.Kind)
		}
	}
	for _, k := range kinds {
		_, err := c.Replay(&witnessfile.Witness{Kind: k, Invariant: "none", Raw: []byte("{}")})
		if err != nil && strings.Contains(err.Error(), "unknown kind") {
			t.Errorf("kind %s: %v", k, err)
		}
	}
	_, err := c.Replay(&witnessfile.Witness{Kind: "nonsense", Invariant: "none"})
	if !errors.Is(err, witnessfile.ErrBad) || !strings.Contains(err.Error(), strings.Join(kinds, ", ")) {
		t.Errorf("unknown kind: %v", err)
	}
}

// A full-state load witness is checked before it runs (a cap of 0, an
// unknown invariant, an unknown field: each a bad witness) and replays
// under the rule set it names, its text naming the check and the
// replay's finding consistent with Reproduced.
func TestReplayLoad(t *testing.T) {
	c := Standard()
	file := func(cap int, violation, extra string) string {
		return `{"check":"quiescent","rules":"spec","config":{"profile":"conformant","cap":` + strconv.Itoa(cap) + `,"n":2},` + extra +
			`"steps":[{"op":"publish","at":70,"when":"at"},{"op":"publish","i":1,"at":70,"when":"at"}],"violation":"` + violation + `"}`
	}
	for name, data := range map[string]string{
		"cap 0":             file(0, "soundness: x", ""),
		"unknown invariant": file(4, "nothing: x", ""),
		"unknown field":     file(4, "soundness: x", `"surplus":1,`),
	} {
		w, err := witnessfile.Parse([]byte(data))
		if err == nil {
			_, err = c.Replay(w)
		}
		if !errors.Is(err, witnessfile.ErrBad) {
			t.Errorf("%s: got %v, want a bad witness", name, err)
		}
	}
	w, err := witnessfile.Parse([]byte(file(4, "soundness: x", "")))
	if err != nil {
		t.Fatal(err)
	}
	res, err := c.Replay(w)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(res.Text, "witness soundness: load check quiescent, rules spec, ") {
		t.Errorf("text %q", res.Text)
	}
	if res.Reproduced != (len(res.Found) == 1 && strings.HasPrefix(res.Found[0], "soundness: ")) {
		t.Errorf("reproduced %t, found %v", res.Reproduced, res.Found)
	}
}
