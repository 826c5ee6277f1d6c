package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// edit rewrites a shard document through a function of its JSON value.
func edit(t *testing.T, doc string, f func(d map[string]any)) string {
	t.Helper()
	var d map[string]any
	if err := json.Unmarshal([]byte(doc), &d); err != nil {
		t.Fatal(err)
	}
	f(d)
	b, err := json.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func results(d map[string]any) []any { return d["results"].([]any) }

// Parts altered after they were written are refused, exit 2 naming the
// file, nothing printed: a result given twice (issue 34 row 5, which
// merged to "3 caught / 1 caught" for two mutants), a result flipped to
// survived with the part's status left ok, a rule relabelled, a shard
// count of 100,000,000 (row 4: refused before anything is allocated
// from it), and a part of another build (row 2).
func TestMergeRefusesAlteredParts(t *testing.T) {
	golden := copyGolden(t, "M5", "M13")
	args := []string{"-only", "M5,M13", "-tie", "both", "-json", "-progress=false", "-golden", golden}
	dir := t.TempDir()
	var parts []string
	for _, shard := range []string{"1/2", "2/2"} {
		code, out, errOut := runCLI(t, append(args, "-shard", shard)...)
		if code != exitOK {
			t.Fatalf("part %s: exit %d\n%s", shard, code, errOut)
		}
		parts = append(parts, out)
	}
	p2 := writeShard(t, dir, "part2.json", parts[1])
	if code, _, errOut := runCLI(t, "-merge", writeShard(t, dir, "part1.json", parts[0]), p2); code != exitOK {
		t.Fatalf("the unaltered parts: exit %d\n%s", code, errOut)
	}
	for _, tc := range []struct {
		name string
		edit func(d map[string]any)
		err  string
	}{
		{"twice.json", func(d map[string]any) { r := results(d); r[1] = r[0] }, "result 2 is M5 under clear, the run's is M5 under set"},
		{"added.json", func(d map[string]any) { d["results"] = append(results(d), results(d)[0]) }, "3 results, want 2"},
		{"flipped.json", func(d map[string]any) {
			r := results(d)[0].(map[string]any)
			r["status"] = "survived"
			for _, k := range []string{"caught_by", "depth", "depth_text", "caught_by_all", "invariant"} {
				delete(r, k)
			}
		}, `status "survived" without the problem it implies`},
		{"status.json", func(d map[string]any) {
			r := results(d)[0].(map[string]any)
			r["status"], r["problems"] = "survived", []string{"survived every generic check"}
			for _, k := range []string{"caught_by", "depth", "depth_text", "caught_by_all", "invariant"} {
				delete(r, k)
			}
		}, "its status, summary, problems or verdict lines are not those"},
		{"rule.json", func(d map[string]any) { results(d)[0].(map[string]any)["rule"] = "another rule" }, "the catalogue's"},
		{"mutants.json", func(d map[string]any) { d["shard_mutants"] = []string{"M13"} }, "the run's part 1/2 is [M5]"},
		{"count.json", func(d map[string]any) { d["shard"] = map[string]any{"index": 1, "count": 100000000} }, `"shard" count 100000000, not 1..1000`},
		{"build.json", func(d map[string]any) { d["build"] = "(devel) go1.26.8" }, "written by another build"},
		{"member.json", func(d map[string]any) { d["extra"] = true }, `unknown field "extra"`},
	} {
		p := writeShard(t, dir, tc.name, edit(t, parts[0], tc.edit))
		code, out, errOut := runCLI(t, "-merge", p, p2)
		if code != exitUsage || out != "" || !strings.Contains(errOut, filepath.Base(p)) || !strings.Contains(errOut, tc.err) {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want exit 2 naming the file and %q", tc.name, code, out, errOut, tc.err)
		}
	}
}
