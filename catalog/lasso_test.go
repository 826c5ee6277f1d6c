package catalog

import (
	"os"
	"strings"
	"testing"
)

// A lasso file is told from a witness by its kind, and replays under the
// rule set it names (reproduced), under the text its mutant changes (not
// reproduced), and refuses an unknown rule set or a malformed file.
func TestReplayLasso(t *testing.T) {
	read := func(name string) []byte {
		t.Helper()
		b, err := os.ReadFile("../mutants/testdata/" + name)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	walk, comm, plain := read("H21.clear.json"), read("K32.clear.json"), read("M1.clear.json")
	if LassoKind(walk) == "" || LassoKind(comm) == "" || LassoKind(plain) != "" || LassoKind([]byte("{")) != "" {
		t.Fatalf("kinds: walk %q community %q witness %q", LassoKind(walk), LassoKind(comm), LassoKind(plain))
	}
	for _, tc := range []struct {
		name       string
		data       []byte
		rules      string
		reproduced bool
		bad        bool
	}{
		{"walk, its rules", walk, "", true, false},
		{"walk, the text", walk, "spec", false, false},
		{"community, its rules", comm, "", true, false},
		{"community, the text", comm, "spec", false, false},
		{"unknown rule set", comm, "no-such-rules", false, true},
		{"malformed", []byte(`{"kind": "walk-liveness", "surprise": 1}`), "", false, true},
		{"a witness", plain, "", false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			text, reproduced, err := ReplayLasso(tc.data, tc.rules)
			if (err != nil) != tc.bad || reproduced != tc.reproduced {
				t.Fatalf("reproduced %v err %v (want reproduced %v, bad %v)", reproduced, err, tc.reproduced, tc.bad)
			}
			if !tc.bad && strings.TrimSpace(text) == "" {
				t.Error("no rendering or reason")
			}
		})
	}
}
