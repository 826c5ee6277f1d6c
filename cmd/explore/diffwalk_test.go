package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// -diff -universe walk finds the shortest history after which a member's
// store or cursor differs between two rule sets of the walk, writes it as
// a witness that -replay recomputes under both, says "no difference"
// with the bounds where there is none, and refuses what it cannot run.
func TestDiffWalk(t *testing.T) {
	dir := t.TempDir()
	code, out, errOut := runCLI(t, "-diff", "spec,proposed", "-universe", "walk", "-variant", "ties", "-witness", dir)
	for _, want := range []string{"the shortest history that tells spec and proposed apart (2 steps, walk variant ties",
		"the cursor is newest=2 oldest=2 under spec, newest=- oldest=- under proposed"} {
		if code != exitOK || !strings.Contains(out, want) {
			t.Errorf("exit %d, output lacks %q:\n%s%s", code, want, out, errOut)
		}
	}
	w := filepath.Join(dir, "diff-spec-proposed-walk-ties.json")
	if code, rep, errOut := runCLI(t, "-replay", w); code != exitViolation || !strings.Contains(rep, "reproduced: the two rule sets differ again") {
		t.Errorf("replay: exit %d\n%s%s", code, rep, errOut)
	}
	code, out, _ = runCLI(t, "-diff", "proposed,H5", "-universe", "walk", "-depth", "1", "-witness", dir)
	if code != exitOK || !strings.Contains(out, "no difference within the bounds: walk variant default, depth 1") {
		t.Errorf("a difference deeper than the bound: exit %d\n%s", code, out)
	}
	for _, bad := range [][]string{
		{"-diff", "spec,nonesuch", "-universe", "walk"},
		{"-diff", "spec,proposed", "-universe", "walk", "-variant", "nonesuch"},
		{"-diff", "spec,proposed", "-universe", "walk", "-tie", "clear"},
	} {
		if code, _, errOut := runCLI(t, append(bad, "-witness", dir)...); code != exitUsage || errOut == "" {
			t.Errorf("%q: exit %d, %q", bad, code, errOut)
		}
	}
}
