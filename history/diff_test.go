package history

import (
	"strings"
	"testing"

	"github.com/nip-rs/harness/witnessfile"
)

// TestWalkDiff: the text's walk and the proposed one differ within a few
// steps in the ties variant (the proposed walk pins a shared second the
// text's skips), the same rule set against itself differs nowhere, and
// the witness replays: reproduced as written, not reproduced with a
// difference altered, refused with a member of its own.
func TestWalkDiff(t *testing.T) {
	var ties UniverseConfig
	for _, v := range Variants() {
		if v.Name == "ties" {
			ties = v.U
		}
	}
	res, err := Diff(ties, "ties", Spec(), Proposed(), 4)
	if err != nil {
		t.Fatal(err)
	}
	if res.Differences == nil || len(res.Actions) > 4 {
		t.Fatalf("spec vs proposed in ties: %+v", res)
	}
	same, err := Diff(ties, "ties", Proposed(), Proposed(), 3)
	if err != nil || same.Differences != nil || same.Pairs == 0 {
		t.Fatalf("proposed vs itself: %+v, %v", same, err)
	}
	rules := func(n string) (*Rules, bool) {
		mk, ok := RuleSets()[n]
		if !ok {
			return nil, false
		}
		return mk(), true
	}
	variant := func(n string) (UniverseConfig, bool) { return ties, n == "ties" }
	data := res.WitnessJSON()
	for name, tc := range map[string]struct {
		edit       func(string) string
		bad, repro bool
	}{
		"as written": {func(s string) string { return s }, false, true},
		"altered": {func(s string) string {
			return strings.Replace(s, `"differences": [`+"\n    \"", `"differences": [`+"\n    \"x", 1)
		}, false, false},
		"unknown member": {func(s string) string {
			return strings.Replace(s, `"kind": "walk-diff",`, `"kind": "walk-diff", "extra": 1,`, 1)
		}, true, false},
		"unknown rules": {func(s string) string { return strings.Replace(s, `"other": "proposed"`, `"other": "nonesuch"`, 1) }, true, false},
	} {
		in := tc.edit(string(data))
		if name != "as written" && in == string(data) {
			t.Fatalf("%s: the edit did not apply", name)
		}
		w, err := parseWalkDiffForTest([]byte(in))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		rep, err := ReplayDiff(w, rules, variant)
		if (err != nil) != tc.bad {
			t.Errorf("%s: err %v, want bad %t", name, err, tc.bad)
			continue
		}
		if err == nil && rep.Reproduced != tc.repro {
			t.Errorf("%s: reproduced %t, want %t\n%s", name, rep.Reproduced, tc.repro, rep.Text)
		}
	}
}

func parseWalkDiffForTest(data []byte) (*witnessfile.Witness, error) { return witnessfile.Parse(data) }
