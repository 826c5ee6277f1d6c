package main

import (
	"path/filepath"
	"strings"
	"testing"
)

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
