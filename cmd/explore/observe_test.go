package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// -observe prints reached with the trace and writes a witness that
// -replay reproduces and -html draws, or not reached; both are answers
// (exit 0); an unknown observation exits 2 naming the known ones, and a
// state bound hit first is unknown (exit 3).
func TestObserveCLI(t *testing.T) {
	dir := t.TempDir()
	code, out, errOut := runCLI(t, "-observe", "divergence", "-universe", "network-pair", "-tie", "clear", "-witness", dir)
	if code != exitOK || !strings.Contains(out, "divergence universe network-pair tie clear rules proposed depth 4: reached at depth 1") ||
		!strings.Contains(out, "step 1: mark_unread d0 c0") {
		t.Fatalf("reached: exit %d, stderr %q:\n%s", code, errOut, out)
	}
	file := filepath.Join(dir, "observe-divergence-network-pair-depth4-clear.json")
	page := filepath.Join(dir, "w.html")
	code, out, errOut = runCLI(t, "-replay", file, "-html", page)
	if code != exitViolation || !strings.Contains(out, "reproduced: observation divergence is reached again") {
		t.Fatalf("replay: exit %d, stderr %q:\n%s", code, errOut, out)
	}
	if html, err := os.ReadFile(page); err != nil || !strings.Contains(string(html), `"kind":"observation"`) {
		t.Errorf("page: %v", err)
	}
	code, out, errOut = runCLI(t, "-observe", "settled-disagreement", "-universe", "network-pair", "-tie", "clear", "-witness", dir)
	if code != exitOK || !strings.Contains(out, ": not reached within the bounds (") {
		t.Fatalf("not reached: exit %d, stderr %q:\n%s", code, errOut, out)
	}
	code, out, _ = runCLI(t, "-observe", "settled-disagreement", "-universe", "network-pair", "-tie", "clear", "-max-states", "50", "-witness", dir)
	if code != exitUnknown || !strings.Contains(out, ": unknown (bound: ") {
		t.Fatalf("bound: exit %d:\n%s", code, out)
	}
	for _, args := range [][]string{
		{"-observe", "nope"},
		{"-observe", "settled-disagreement", "-universe", "reference"},
		{"-observe", "divergence", "-simulate", "3"},
	} {
		code, _, errOut := runCLI(t, args...)
		if code != exitUsage {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
		if args[1] == "nope" && !strings.Contains(errOut, "known: divergence, legacy-holds-override-key, settled-disagreement") {
			t.Errorf("unknown observation: %q lists no known names", errOut)
		}
	}
	if _, out, _ := runCLI(t, "-list"); !strings.Contains(out, "observations (-observe NAME -universe U):\n  divergence ") {
		t.Errorf("-list names no observation:\n%s", out)
	}
}
