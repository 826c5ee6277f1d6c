package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestCommunityUniverse: a community universe runs from -universe on the
// shared engine with its pinned size, a community mutant is caught with a
// witness that -replay reproduces, the state guard makes the result
// unknown, and a flag or rule set with no meaning there is a usage error.
func TestCommunityUniverse(t *testing.T) {
	dir := t.TempDir()
	code, out, errOut := runCLI(t, "-universe", "honest", "-rules", "spec", "-progress", "0")
	if code != exitOK || !strings.Contains(out, "145 distinct states") || !strings.Contains(out, "result: ok, no violation") {
		t.Errorf("honest under spec: exit %d\n%s%s", code, out, errOut)
	}
	code, out, errOut = runCLI(t, "-universe", "epochs", "-rules", "K1", "-depth", "4", "-witness", dir, "-progress", "0")
	if code != exitViolation || !strings.Contains(out, "result: violation") {
		t.Fatalf("epochs under K1: exit %d\n%s%s", code, out, errOut)
	}
	w := filepath.Join(dir, "explore-epochs-depth4-K1.json")
	if code, out, errOut := runCLI(t, "-replay", w); code != exitViolation {
		t.Errorf("replay of the epochs witness: exit %d\n%s%s", code, out, errOut)
	}
	if code, out, errOut := runCLI(t, "-universe", "honest", "-max-states", "10", "-progress", "0"); code != exitUnknown || !strings.Contains(out, "result: unknown: state limit 10") {
		t.Errorf("honest under a state guard of 10: exit %d\n%s%s", code, out, errOut)
	}
	for _, args := range [][]string{
		{"-universe", "honest", "-directed=false"},
		{"-universe", "honest", "-rules", "H2"},
		{"-universe", "honest", "-rules", "nonesuch"},
		{"-universe", "honest", "-simulate", "3"},
		{"-universe", "candidate-a", "-simulate", "3"},
	} {
		if code, out, errOut := runCLI(t, args...); code != exitUsage {
			t.Errorf("%v: exit %d\n%s%s", args, code, out, errOut)
		}
	}
}

// TestVariantEntryName: -universe walk-ties is -universe walk -variant
// ties, byte for byte.
func TestVariantEntryName(t *testing.T) {
	code1, out1, _ := runCLI(t, "-universe", "walk-ties", "-depth", "3", "-witness", t.TempDir(), "-progress", "0")
	code2, out2, _ := runCLI(t, "-universe", "walk", "-variant", "ties", "-depth", "3", "-witness", t.TempDir(), "-progress", "0")
	strip := func(s string) string { // the witness directories differ
		var keep []string
		for _, l := range strings.Split(s, "\n") {
			if !strings.HasPrefix(l, "witness written to ") {
				keep = append(keep, l)
			}
		}
		return strings.Join(keep, "\n")
	}
	if code1 != code2 || strip(out1) != strip(out2) || !strings.Contains(out1, "-variant=ties") {
		t.Errorf("exit %d and %d:\n%s\n---\n%s", code1, code2, out1, out2)
	}
}
