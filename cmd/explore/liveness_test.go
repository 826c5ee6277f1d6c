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

// -check agreement holds under the production rules (exit 0), catches M33
// with a witness that -replay reproduces (exit 1), and is unknown at a
// state bound (exit 3).
func TestAgreementCLI(t *testing.T) {
	dir := t.TempDir()
	code, out, errOut := runCLI(t, "-check", "agreement", "-universe", "network-pair", "-tie", "clear", "-witness", dir)
	if code != exitOK || !strings.Contains(out, "agreement network-pair tie clear rules proposed, at most 4 user actions: ok; states 47617") {
		t.Fatalf("proposed: exit %d, stderr %q:\n%s", code, errOut, out)
	}
	code, out, errOut = runCLI(t, "-check", "agreement", "-universe", "network-pair", "-tie", "clear", "-rules", "M33", "-witness", dir)
	if code != exitViolation || !strings.Contains(out, "settled apart: c0 is live on d0 and dead on d1") {
		t.Fatalf("M33: exit %d, stderr %q:\n%s", code, errOut, out)
	}
	code, out, errOut = runCLI(t, "-replay", filepath.Join(dir, "agreement-network-pair-depth4-clear.json"))
	if code != exitViolation || !strings.Contains(out, "reproduced: override-reaches-every-device fails again") {
		t.Fatalf("replay: exit %d, stderr %q:\n%s", code, errOut, out)
	}
	code, out, _ = runCLI(t, "-check", "agreement", "-universe", "network-pair", "-tie", "clear", "-max-states", "10", "-witness", dir)
	if code != exitUnknown || !strings.Contains(out, "unknown (bound: agreement graph over 10 states)") {
		t.Fatalf("bound: exit %d:\n%s", code, out)
	}
	if code, _, _ := runCLI(t, "-check", "agreement", "-universe", "reference"); code != exitUsage {
		t.Errorf("reference universe: exit %d, want 2", code)
	}
}
