package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// simulateShards runs a simulation whole and in n blocks, merges the
// blocks (given in reverse order) and requires the merge to print the
// whole run's document byte for byte, exit as it did, and write the same
// witness files.
func simulateShards(t *testing.T, n int, args ...string) string {
	t.Helper()
	dirWhole, dirMerged, dir := t.TempDir(), t.TempDir(), t.TempDir()
	base := append([]string{"-json", "-workers", "2"}, args...)
	code, whole, errOut := runCLI(t, append(base, "-witness", dirWhole)...)
	if code != exitOK && code != exitViolation {
		t.Fatalf("whole run: exit %d\n%s", code, errOut)
	}
	var parts []string
	for i := n; i >= 1; i-- {
		shard := strings.Join([]string{string(rune('0' + i)), string(rune('0' + n))}, "/")
		c, out, errOut := runCLI(t, append(base, "-shard", shard, "-workers", "1", "-witness", dir)...)
		if c != exitOK && c != exitViolation {
			t.Fatalf("part %s: exit %d\n%s", shard, c, errOut)
		}
		p := filepath.Join(dir, "part"+shard[:1]+".json")
		if err := os.WriteFile(p, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
		parts = append(parts, p)
	}
	if files, _ := os.ReadDir(dir); len(files) != n {
		t.Errorf("the parts wrote witness files: %d files", len(files))
	}
	c, merged, errOut := runCLI(t, append([]string{"-merge", "-witness", dirMerged}, parts...)...)
	if c != code || merged != whole {
		t.Fatalf("merge: exit %d (whole %d), stderr %q; same bytes: %t\n%s\n---\n%s", c, code, errOut, merged == whole, merged, whole)
	}
	for _, name := range dirNames(t, dirWhole) {
		a, _ := os.ReadFile(filepath.Join(dirWhole, name))
		b, err := os.ReadFile(filepath.Join(dirMerged, name))
		if err != nil || string(a) != string(b) {
			t.Errorf("witness %s: the merge's differs (%v)", name, err)
		}
	}
	if len(dirNames(t, dirWhole)) != len(dirNames(t, dirMerged)) {
		t.Errorf("witness files: whole %v, merged %v", dirNames(t, dirWhole), dirNames(t, dirMerged))
	}
	return whole
}

func dirNames(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range es {
		out = append(out, e.Name())
	}
	return out
}

// A clean simulation split three ways, and one whose first violation
// (walk 20 of 30) lies in the third of four blocks: the fourth block's
// walks are not counted, as the whole run counts no walk past it.
func TestSimulateShardsMergeToTheWholeRun(t *testing.T) {
	whole := simulateShards(t, 3, "-universe", "network-whole", "-simulate", "9", "-steps", "12", "-seed", "3", "-tie", "both")
	if !strings.Contains(whole, `"status": "ok"`) {
		t.Errorf("spec simulation not ok:\n%s", whole)
	}
	whole = simulateShards(t, 4, "-universe", "hierarchy", "-rules", "M29", "-simulate", "30", "-steps", "30", "-seed", "7", "-tie", "clear")
	for _, want := range []string{`"status": "violation"`, `"walk": 20`, `"walks": 21`, `"invariant": "N3-intent-oracle"`} {
		if !strings.Contains(whole, want) {
			t.Errorf("the document lacks %s:\n%s", want, whole)
		}
	}
}

func TestSimulateShardRefusals(t *testing.T) {
	dir := t.TempDir()
	part := filepath.Join(dir, "p.json")
	_, out, _ := runCLI(t, "-universe", "reference", "-simulate", "4", "-steps", "3", "-tie", "clear", "-json", "-shard", "1/2")
	if err := os.WriteFile(part, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		err  string
	}{
		{[]string{"-simulate", "4", "-shard", "1/2"}, "add -json"},
		{[]string{"-simulate", "4", "-json", "-shard", "0/2"}, "counted from 1"},
		{[]string{"-simulate", "2", "-json", "-shard", "1/3"}, "cannot be split"},
		{[]string{"-json", "-shard", "1/2"}, "-shard splits the walks"},
		{[]string{"-universe", "walk", "-simulate", "4", "-json", "-shard", "1/2"}, "-shard splits the walks"},
		{[]string{"-merge", part}, "missing part 2/2"},
		{[]string{"-merge", part, part}, "are both part 1/2"},
		{[]string{"-merge", "-depth", "3", part}, "takes only shard files"},
		{[]string{part}, "unexpected arguments"},
	} {
		code, out, errOut := runCLI(t, tc.args...)
		if code != exitUsage || out != "" || !strings.Contains(errOut, tc.err) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 2 and %q", tc.args, code, out, errOut, tc.err)
		}
	}
}
