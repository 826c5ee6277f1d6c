package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// -check liveness: ok with its counts under the production rules, a lasso
// written and replayed (reproduced, and not under the production rules)
// under M32, unknown at a state bound, usage errors for what it cannot
// run.
func TestCheckLiveness(t *testing.T) {
	dir := t.TempDir()
	call := func(args ...string) (int, string) {
		var out, errs bytes.Buffer
		code := run(args, &out, &errs)
		return code, out.String() + errs.String()
	}
	if code, out := call("-check", "liveness", "-universe", "network-pair", "-tie", "clear"); code != exitOK ||
		!strings.Contains(out, ": ok; roots 605, states 11353,") {
		t.Fatalf("proposed: exit %d\n%s", code, out)
	}
	code, out := call("-check", "liveness", "-universe", "network-pair", "-tie", "clear", "-rules", "M32", "-witness", dir)
	if code != exitViolation || !strings.Contains(out, "loop:") {
		t.Fatalf("M32: exit %d\n%s", code, out)
	}
	file := filepath.Join(dir, "liveness-network-pair-depth4-clear.json")
	if _, err := os.Stat(file); err != nil {
		t.Fatal(err)
	}
	if code, out := call("-replay", file); code != exitViolation || !strings.Contains(out, "\nreproduced: no-republish-cycle fails again") {
		t.Fatalf("replay: exit %d\n%s", code, out)
	}
	if code, out := call("-replay", file, "-rules", "proposed"); code != exitOK || !strings.Contains(out, "is not a system step") {
		t.Fatalf("replay under proposed: exit %d\n%s", code, out)
	}
	if code, out := call("-check", "liveness", "-universe", "network-pair", "-max-states", "100"); code != exitUnknown || !strings.Contains(out, "unknown (bound:") {
		t.Fatalf("bound: exit %d\n%s", code, out)
	}
	for _, args := range [][]string{
		{"-check", "liveness", "-universe", "reference"},
		{"-check", "liveness", "-universe", "nowhere"},
		{"-check", "liveness", "-simulate", "3"},
		{"-check", "safety"},
		{"-check", "liveness", "-rules", "H1"},
	} {
		if code, out := call(args...); code != exitUsage {
			t.Errorf("%v: exit %d, want %d\n%s", args, code, exitUsage, out)
		}
	}
}
