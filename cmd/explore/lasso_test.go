package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A walk or community lasso replays from -replay: under the rule set it
// names the loop is reproduced (exit 1); under the rule set the mutant
// changes it is not (exit 0); a malformed lasso or an unknown rule set is
// a bad input (exit 2) that runs nothing.
func TestReplayLassoFiles(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "bad.json")
	if err := os.WriteFile(bad, []byte(`{"kind": "walk-liveness", "surprise": 1}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		args []string
		code int
		want string
	}{
		{"walk lasso", []string{"-replay", "../../mutants/testdata/H21.clear.json"}, exitViolation, "reproduced: the loop repeats"},
		{"walk lasso under the text", []string{"-replay", "../../mutants/testdata/H21.clear.json", "-rules", "spec"}, exitOK, "not reproduced"},
		{"community lasso", []string{"-replay", "../../mutants/testdata/K32.clear.json"}, exitViolation, "reproduced: the loop repeats"},
		{"community lasso under the text", []string{"-replay", "../../mutants/testdata/K32.clear.json", "-rules", "spec"}, exitOK, "not reproduced"},
		{"unknown rule set", []string{"-replay", "../../mutants/testdata/K32.clear.json", "-rules", "no-such-rules"}, exitUsage, ""},
		{"malformed lasso", []string{"-replay", bad}, exitUsage, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := runCLI(t, tc.args...)
			if code != tc.code || !strings.Contains(out, tc.want) {
				t.Errorf("exit %d (want %d), output lacks %q:\n%s\nstderr: %s", code, tc.code, tc.want, out, errOut)
			}
		})
	}
}
