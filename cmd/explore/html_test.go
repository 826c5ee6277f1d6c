package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// -html with a lasso (the walk's, a community property's, the network's
// re-publish lasso or agreement witness) writes its page: the lasso's
// shape for the lasso script, the harm in words, what the rule set
// changes; a lasso that does not repeat under other rules gets a page
// that says so.
func TestReplayHTMLOfLassos(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		code int
		want []string
	}{
		{"walk", []string{"-replay", "../../mutants/testdata/H21.clear.json"}, exitViolation, []string{
			`<title>walk liveness lasso: every-walk-ends</title>`,
			`"lasso":{"prefix":1,"approach":1,"loop":1,"closes":"the loop returns to its first state",`,
			`"harm":["the walk never ends: the device keeps paging through the same history (step 3 repeats for ever)`,
			`"changed":["mutant H21: it drops the rule`,
			`data-lassos-drawn`}},
		{"community", []string{"-replay", "../../mutants/testdata/K32.set.json"}, exitViolation, []string{
			`<title>community liveness lasso: eventually-rekey</title>`,
			`"lasso":{"prefix":3,"approach":0,"loop":1,"closes":"the loop returns to its first state, fair",`,
			`"harm":["a rotation is never adopted: the device stays on the key of epoch 1 while the community has moved to epoch 2 (step 4 repeats for ever)"`,
			`"changed":["mutant K32: it drops the rule`, `"what the mutant changes: community.Rules.Rewatch (a function of its own)"`}},
		{"network lasso", []string{"-replay", "../../mutants/testdata/M32.clear.json"}, exitViolation, []string{
			`"lasso":{"prefix":1,"approach":5,"loop":4,`,
			`"harm":["after the user marks c0 unread on d0 (step 1), d0 and d1 keep re-publishing to each other for ever`,
			`"changed":["mutant M32: it drops the rule`, `data-lassos-drawn`}},
		{"agreement", []string{"-replay", "../../mutants/testdata/M33.clear.json"}, exitViolation, []string{
			`"lasso":{"prefix":1,"approach":0,"loop":0,`,
			`"harm":["the mark unread the user set on d0 at step 1 never reaches d1: no publication or delivery is left to bring them together"`,
			`"changed":["mutant M33: it drops the rule`}},
		{"not reproduced", []string{"-replay", "../../mutants/testdata/K32.clear.json", "-rules", "spec"}, exitOK, []string{
			`"verdict":"not reproduced: `, `replayed under rules spec`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "lasso.html")
			code, out, errOut := runCLI(t, append(tc.args, "-html", path)...)
			if code != tc.code || !strings.Contains(out, "page written to "+path) {
				t.Fatalf("exit %d (want %d), stderr %q:\n%s", code, tc.code, errOut, out)
			}
			page, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			for _, want := range tc.want {
				if !strings.Contains(string(page), want) {
					t.Errorf("the page lacks %s", want)
				}
			}
			if tc.code == exitOK && strings.Contains(string(page), `"harm":`) {
				t.Error("a lasso that did not repeat claims a harm")
			}
		})
	}
}

// A malformed lasso, or one under an unknown rule set, is a bad input:
// exit 2, a clear error, and no page.
func TestReplayHTMLOfABadLassoWritesNothing(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(bad, []byte(`{"kind": "community-liveness", "property": "rekey", "loop": "round"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"malformed", []string{"-replay", bad}, "cannot unmarshal"},
		{"unknown rules", []string{"-replay", "../../mutants/testdata/H21.clear.json", "-rules", "no-such-rules"}, `unknown walk rule set "no-such-rules"`},
		{"a tie", []string{"-replay", "../../mutants/testdata/H21.clear.json", "-tie", "set"}, "-tie has no meaning with it"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(dir, tc.name+".html")
			code, out, errOut := runCLI(t, append(tc.args, "-html", path)...)
			if code != exitUsage || !strings.Contains(errOut, tc.want) {
				t.Errorf("exit %d (want %d), stderr lacks %q: %q\n%s", code, exitUsage, tc.want, errOut, out)
			}
			if _, err := os.Stat(path); !os.IsNotExist(err) {
				t.Errorf("a page was written for a bad lasso (%v)", err)
			}
		})
	}
}
