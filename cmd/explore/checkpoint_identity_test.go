package main

import (
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestCheckpointIdentityBothWays: a checkpoint is resumed only by the run
// that wrote it, whichever side differs. Each pair of runs is tried both
// ways round (the checkpoint of A resumed by B's flags, B's by A's), and
// each is refused with exit 2, the checkpoint unchanged. (The manifest is
// sealed, so a field edited in it is refused before its identity is read:
// the field-by-field match is the search package's test.)
func TestCheckpointIdentityBothWays(t *testing.T) {
	dir := t.TempDir()
	common := []string{"-depth", "3", "-tie", "clear", "-directed=false", "-progress=0", "-witness", filepath.Join(dir, "w")}
	runs := map[string][]string{
		"plain":         {"-universe", "network-whole"},
		"no symmetry":   {"-universe", "network-whole", "-symmetry=false"},
		"por":           {"-universe", "network-whole", "-por"},
		"M6":            {"-universe", "network-whole", "-rules", "M6"},
		"other network": {"-universe", "network"},
	}
	cps := map[string]string{}
	for _, name := range slices.Sorted(maps.Keys(runs)) {
		cps[name] = filepath.Join(dir, strings.ReplaceAll(name, " ", "-"))
		if code, _, errOut := runCLI(t, append(append(append([]string{}, common...), runs[name]...), "-checkpoint", cps[name])...); code != exitOK && code != exitViolation {
			t.Fatalf("%s: exit %d: %s", name, code, errOut)
		}
	}
	resume := func(t *testing.T, cp string, flags []string, want string) {
		t.Helper()
		before := files(t, cp)
		code, _, errOut := runCLI(t, append(append(append([]string{}, common...), flags...), "-resume", cp)...)
		if code != exitUsage || !strings.Contains(errOut, want) {
			t.Errorf("exit %d, stderr %q, want exit %d and %q", code, errOut, exitUsage, want)
		}
		if !maps.Equal(before, files(t, cp)) {
			t.Error("a refused resume changed the checkpoint")
		}
	}
	for _, p := range []struct{ a, b, want string }{
		{"plain", "no symmetry", "symmetry"},
		{"plain", "por", "search.por"},
		{"plain", "M6", "rules"},
		{"plain", "other network", "universe"},
	} {
		t.Run(p.a+" resumed as "+p.b, func(t *testing.T) { resume(t, cps[p.a], runs[p.b], p.want) })
		t.Run(p.b+" resumed as "+p.a, func(t *testing.T) { resume(t, cps[p.b], runs[p.a], p.want) })
	}

}
