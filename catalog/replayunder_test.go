package catalog

import (
	"os"
	"strings"
	"testing"
)

// TestReplayUnder replays a stored witness as the file names it and under
// another rule set and tie (the stored witness kept apart from the one
// replayed), and refuses what cannot be replayed so: a difference under
// one rule set, an unknown rule set or tie policy, a malformed file, each
// error naming the path or the flag.
func TestReplayUnder(t *testing.T) {
	c := amendedCatalog(t)
	const path = "../mutants/testdata/M1.clear.json"
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	w, stored, res, err := c.ReplayUnder(path, data, nil, nil)
	if err != nil || !res.Reproduced || w.Rules != "M1" || stored.Rules != "M1" || stored == w {
		t.Fatalf("as stored: %+v, %+v, %v", w, res, err)
	}
	spec, set := "spec", "set"
	w, stored, res, err = c.ReplayUnder(path, data, &spec, &set)
	if err != nil || res.Reproduced || w.Rules != spec || w.Tie != set || stored.Rules != "M1" || stored.Tie != "clear" {
		t.Fatalf("under spec, set: %+v stored %+v, %+v, %v", w, stored, res, err)
	}
	d, err := c.Diff(DiffRequest{A: "proposed", B: "mark-read-own-counter", Universe: "reference", WitnessDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	diff, err := os.ReadFile(d.Witness)
	if err != nil {
		t.Fatal(err)
	}
	nonesuch, both := "nonesuch", "both"
	for _, tc := range []struct {
		name       string
		data       []byte
		rules, tie *string
		says       string
	}{
		{"difference under one rule set", diff, &spec, nil, "d.json: a diff witness replays under the two rule sets it names"},
		{"difference under one tie", diff, nil, &set, "-rules and -tie have no meaning with it"},
		{"unknown rule set", data, &nonesuch, nil, "-rules: "},
		{"two tie policies", data, nil, &both, "-tie with -replay: "},
		{"malformed", []byte(`{"kind": "explore"`), nil, nil, "d.json: "},
	} {
		if _, _, _, err := c.ReplayUnder("d.json", tc.data, tc.rules, tc.tie); err == nil || !strings.Contains(err.Error(), tc.says) {
			t.Errorf("%s: %v, want an error saying %q", tc.name, err, tc.says)
		}
	}
}
