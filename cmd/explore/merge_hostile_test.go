package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// editDoc rewrites a shard document through a function of its JSON value.
func editDoc(t *testing.T, doc string, f func(d map[string]any)) string {
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

func tie0(d map[string]any) map[string]any { return d["ties"].([]any)[0].(map[string]any) }

// simParts runs a simulation's n parts and returns their documents.
func simParts(t *testing.T, n int, args ...string) []string {
	t.Helper()
	var out []string
	for i := 1; i <= n; i++ {
		shard := string(rune('0'+i)) + "/" + string(rune('0'+n))
		code, doc, errOut := runCLI(t, append(args, "-json", "-shard", shard)...)
		if code != exitOK && code != exitViolation {
			t.Fatalf("part %s: exit %d\n%s", shard, code, errOut)
		}
		out = append(out, doc)
	}
	return out
}

// Simulation parts altered after they were written are refused, exit 2
// naming the file (issue 34 rows 2-4): every part relabelled as another
// universe, blocks that are not the parts' own, altered counts, a
// violation's walk or witness changed, a shard count of 100,000,000, a
// part of another build.
func TestSimulateMergeRefusesAlteredParts(t *testing.T) {
	dir := t.TempDir()
	clean := simParts(t, 2, "-universe", "reference", "-simulate", "4", "-steps", "3", "-tie", "clear")
	bad := simParts(t, 4, "-universe", "hierarchy", "-rules", "M29", "-simulate", "30", "-steps", "30", "-seed", "7", "-tie", "clear")
	write := func(name, doc string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	relabel := func(d map[string]any) {
		d["run"] = strings.Replace(d["run"].(string), "-universe=reference", "-universe=network", 1)
	}
	for _, tc := range []struct {
		name  string
		parts []string
		err   string
	}{
		{"relabelled.json", []string{editDoc(t, clean[0], relabel), editDoc(t, clean[1], relabel)}, "5 invariants, the universe has 13"},
		{"block.json", []string{
			editDoc(t, clean[0], func(d map[string]any) { d["shard_walks"] = []int{0, 1} }),
			editDoc(t, clean[1], func(d map[string]any) { d["shard_walks"] = []int{1, 4} }),
		}, "walks [0 1], but part 1/2 of 4 walks is [0 2]"},
		{"walks.json", []string{editDoc(t, clean[0], func(d map[string]any) { tie0(d)["walks"] = 7 }), clean[1]}, "not the counts of 2 walks"},
		{"steps.json", []string{editDoc(t, clean[0], func(d map[string]any) { tie0(d)["steps"] = 1e6 }), clean[1]}, "not the counts of 2 walks"},
		{"count.json", []string{editDoc(t, clean[0], func(d map[string]any) { d["shard"] = map[string]any{"index": 1, "count": 100000000} }), clean[1]},
			`"shard" count 100000000, not 1..1000`},
		{"build.json", []string{editDoc(t, clean[0], func(d map[string]any) { d["build"] = "(devel) go1.26.8" }), clean[1]}, "written by another build"},
		{"walk.json", []string{bad[0], bad[1], editDoc(t, bad[2], func(d map[string]any) {
			v := tie0(d)["violation"].(map[string]any)
			v["walk"], tie0(d)["walks"], tie0(d)["steps"] = 16.0, 2.0, 20.0
		}), bad[3]}, "walk 16 run again: no violation"},
		{"text.json", []string{bad[0], bad[1], editDoc(t, bad[2], func(d map[string]any) {
			tie0(d)["violation"].(map[string]any)["text"] = "\x1b]0;owned\x07"
		}), bad[3]}, "is not what the walk gives"},
		{"dropped.json", []string{bad[0], bad[1], editDoc(t, bad[2], func(d map[string]any) {
			delete(tie0(d), "violation")
			d["status"] = "ok"
		}), bad[3]}, "not the counts of 7 walks"},
	} {
		var files []string
		for i, doc := range tc.parts {
			files = append(files, write(strings.TrimSuffix(tc.name, ".json")+string(rune('1'+i))+".json", doc))
		}
		code, out, errOut := runCLI(t, append([]string{"-merge"}, files...)...)
		if code != exitUsage || out != "" || !strings.Contains(errOut, strings.TrimSuffix(tc.name, ".json")) || !strings.Contains(errOut, tc.err) {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want exit 2 naming the file and %q", tc.name, code, out, errOut, tc.err)
		}
	}
}
