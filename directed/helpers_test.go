package directed

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/nip-rs/harness/model"
	"github.com/nip-rs/harness/witnessfile"
)

var update = flag.Bool("update", false, "rewrite golden files under testdata/")

var ties = []model.TiePolicy{model.ClearWins, model.SetWins}

// lwwJoin is a broken rule set: the incoming register wins whole.
func lwwJoin() *model.Rules {
	r := model.Proposed().Clone()
	r.Name = "test-lww-join"
	r.Join = func(a, b model.Reg) model.Reg {
		if b != (model.Reg{}) {
			return b
		}
		return a
	}
	return r
}

// testRules resolves the rule sets these tests' witnesses name.
func testRules(name string) (*model.Rules, error) {
	switch name {
	case "spec":
		return model.Proposed(), nil
	case "test-lww-join":
		return lwwJoin(), nil
	}
	return nil, fmt.Errorf("unknown rule set %q", name)
}

// replayRoundTrip writes w as JSON, reads it back and replays it under the
// rules it names: the violation must reproduce. It then replays the same
// point under the production rules, which must violate nothing.
func replayRoundTrip(t *testing.T, w *witnessfile.Witness) {
	t.Helper()
	back, err := witnessfile.Parse(w.JSON())
	if err != nil {
		t.Fatal(err)
	}
	res, err := Replay(back, testRules)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Reproduced {
		t.Fatalf("witness did not reproduce: %v", res.Found)
	}
	spec := *back
	spec.Rules = "spec"
	if clean, err := Replay(&spec, testRules); err != nil || clean.Reproduced || len(clean.Found) != 0 {
		t.Errorf("production rules reproduce the witness: %v %+v", err, clean)
	}
}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file (run with -update to accept):\n%s", path, got)
	}
}
