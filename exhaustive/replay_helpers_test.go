package exhaustive

import "testing"

// replayRoundTrip writes w as JSON, reads it back and replays it under the
// rules it names: the violation must reproduce. It then replays the same
// actions under the production rules, which must violate nothing. It
// returns the parsed witness and the mutant replay.
func replayRoundTrip(t *testing.T, w *Witness) (*Witness, *ReplayResult) {
	t.Helper()
	back, err := ParseWitness(w.JSON())
	if err != nil {
		t.Fatal(err)
	}
	res, err := Replay(back)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Reproduced {
		t.Fatalf("witness did not reproduce: %v", res.Found)
	}
	spec := *back
	spec.Rules = "spec"
	if clean, err := Replay(&spec); err != nil || clean.Reproduced || len(clean.Found) != 0 {
		t.Errorf("production rules reproduce the witness: %v %+v", err, clean)
	}
	return back, res
}
