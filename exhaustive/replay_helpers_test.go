package exhaustive

import (
	"testing"

	"github.com/nip-rs/harness/witnessfile"
)

// testCatalog is the project's catalogue with the tests' broken rule set.
var testCatalog = func() *Catalog {
	c := NewCatalog()
	c.AddRules("test-lww-join", lwwJoin)
	return c
}()

// replayRoundTrip writes w as JSON, reads it back and replays it under the
// rules it names: the violation must reproduce. It then replays the same
// actions under the production rules, which must violate nothing. It
// returns the parsed witness and the mutant replay.
func replayRoundTrip(t *testing.T, w *witnessfile.Witness) (*witnessfile.Witness, *witnessfile.Replayed) {
	t.Helper()
	back, err := witnessfile.Parse(w.JSON())
	if err != nil {
		t.Fatal(err)
	}
	res, err := Replay(testCatalog, back)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Reproduced {
		t.Fatalf("witness did not reproduce: %v", res.Found)
	}
	spec := *back
	spec.Rules = "spec"
	if clean, err := Replay(testCatalog, &spec); err != nil || clean.Reproduced || len(clean.Found) != 0 {
		t.Errorf("production rules reproduce the witness: %v %+v", err, clean)
	}
	return back, res
}
