package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A simulation prints its seed and coverage, exits 1 on a violation, and
// writes a shrunk witness that -replay reproduces.
func TestSimulateFindsShrinksAndReplays(t *testing.T) {
	dir := t.TempDir()
	code, out, errOut := runCLI(t, "-universe", "hierarchy", "-rules", "M29", "-simulate", "30", "-steps", "30", "-seed", "7",
		"-tie", "clear", "-witness", dir)
	if code != exitViolation {
		t.Fatalf("exit %d, want %d\n%s%s", code, exitViolation, out, errOut)
	}
	for _, want := range []string{"-seed=7", "tie clear: seed 7,", "states checked", "shrunk to 2", "violation N3-intent-oracle"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	base := filepath.Join(dir, "simulate-hierarchy-seed7-clear")
	if _, err := os.Stat(base + ".txt"); err != nil {
		t.Fatal(err)
	}
	code, out, errOut = runCLI(t, "-replay", base+".json")
	if code != exitViolation || !strings.Contains(out, "reproduced: N3-intent-oracle fails again") {
		t.Fatalf("replay exit %d:\n%s%s", code, out, errOut)
	}
}

func TestSimulateSpecPasses(t *testing.T) {
	code, out, errOut := runCLI(t, "-universe", "network-whole", "-simulate", "5", "-steps", "30", "-seed", "3", "-tie", "both")
	if code != exitOK || strings.Count(out, "ok, no violation") != 2 {
		t.Fatalf("exit %d:\n%s%s", code, out, errOut)
	}
}

func TestSimulateBadFlagsExit2(t *testing.T) {
	for _, args := range [][]string{
		{"-simulate", "-1"},
		{"-simulate", "3", "-steps", "0"},
		{"-simulate", "3", "-universe", "nowhere"},
		{"-simulate", "3", "-rules", "nothing"},
		{"-simulate", "3", "-seed", "x"},
	} {
		if code, out, errOut := runCLI(t, args...); code != exitUsage {
			t.Errorf("%v: exit %d, want %d\n%s%s", args, code, exitUsage, out, errOut)
		}
	}
}
