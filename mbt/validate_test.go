package mbt

import (
	"bytes"
	"path/filepath"
	"testing"

	"github.com/nip-rs/harness/exhaustive"
	"github.com/nip-rs/harness/model"
)

// validateBytes reads and validates a log in network-whole under the
// proposed rules.
func validateBytes(t *testing.T, b []byte) (*Validation, error) {
	t.Helper()
	lg, err := ReadLog(bytes.NewReader(b))
	if err != nil {
		return nil, err
	}
	cat := exhaustive.NewCatalog()
	rules, err := cat.Rules(model.ProposedName)
	if err != nil {
		t.Fatal(err)
	}
	return Validate(PairUniverse(), rules, lg, DefaultMaxStates)
}

// jsLogs records the worked client's logs of a few simulated walks.
func jsLogs(t *testing.T, walks, steps int, seed uint64) [][]byte {
	t.Helper()
	node := nodePath(t)
	var out [][]byte
	cat := exhaustive.NewCatalog()
	rules, err := cat.Rules(model.ProposedName)
	if err != nil {
		t.Fatal(err)
	}
	u := PairUniverse()
	trs, err := Traces(exhaustive.SimConfig{Universe: u, Rules: rules, Walks: walks, Steps: steps, Seed: seed},
		Run{Universe: u.Name, Rules: rules.Name, Tie: rules.Tie.String(), Seed: seed, Steps: steps})
	if err != nil {
		t.Fatal(err)
	}
	for _, tr := range trs {
		b, err := RecordLog([]string{node, filepath.Join(clientDir(t), "adapter.mjs")}, tr)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, b)
	}
	return out
}

// The worked client's own logs of simulated walks are explained: the
// search finds the legacy device's actions, the publications and the
// drops the logs leave out.
func TestJSClientLogsExplained(t *testing.T) {
	for i, b := range jsLogs(t, 10, 30, 11) {
		v, err := validateBytes(t, b)
		if err != nil {
			t.Fatalf("walk %d: %v", i, err)
		}
		if !v.Explained() {
			t.Fatalf("walk %d: not explained: %+v %v\n%s", i, v, v.Unexplained, b)
		}
		t.Logf("walk %d: %d records, at most %d states", i, v.Records, v.MaxStates)
	}
}
