package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeShard writes a run's stdout as a shard file.
func writeShard(t *testing.T, dir, name, out string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// Three cheap mutants split two ways: each part runs its own mutants
// (dealt round-robin), and -merge of the parts, in any order, prints the
// unsharded run's -json document byte for byte and exits as it did.
func TestShardsMergeToTheWholeRun(t *testing.T) {
	golden := copyGolden(t, "M5", "M13", "M12")
	args := []string{"-only", "M5,M13,M12", "-tie", "clear", "-json", "-progress=false", "-golden", golden}
	code, whole, errOut := runCLI(t, args...)
	if code != exitOK {
		t.Fatalf("whole run: exit %d\n%s", code, errOut)
	}
	dir := t.TempDir()
	var parts []string
	for i, want := range [][]string{{"M5", "M12"}, {"M13"}} {
		shard := []string{"1/2", "2/2"}[i]
		code, out, errOut := runCLI(t, append(args, "-shard", shard, "-workers", "1")...)
		if code != exitOK {
			t.Fatalf("part %s: exit %d\n%s", shard, code, errOut)
		}
		var d struct {
			Mutants []string `json:"shard_mutants"`
			Results []struct{ ID string }
		}
		if err := json.Unmarshal([]byte(out), &d); err != nil {
			t.Fatal(err)
		}
		if strings.Join(d.Mutants, ",") != strings.Join(want, ",") || len(d.Results) != len(want) {
			t.Errorf("part %s ran %v (%d results), want %v", shard, d.Mutants, len(d.Results), want)
		}
		parts = append(parts, writeShard(t, dir, "part"+shard[:1]+".json", out))
	}
	code, merged, errOut := runCLI(t, "-merge", parts[1], parts[0])
	if code != exitOK || merged != whole {
		t.Fatalf("merge: exit %d, stderr %q; same bytes as the whole run: %t\n%s\n---\n%s", code, errOut, merged == whole, merged, whole)
	}
	var j struct {
		Run     string `json:"run"`
		Status  string `json:"status"`
		Control struct {
			Checked    []string `json:"checked"`
			NotChecked []string `json:"not_checked"`
			Verdict    string   `json:"verdict"`
		} `json:"control"`
		Summary []string `json:"summary"`
		Results []struct {
			ID       string `json:"id"`
			Status   string `json:"status"`
			CaughtBy string `json:"caught_by"`
			Depth    *int   `json:"depth"`
		} `json:"results"`
	}
	if err := json.Unmarshal([]byte(whole), &j); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(j.Run, `mutate -tie=clear -only="M5,M13,M12" -all=false -seed=`) || !strings.Contains(j.Run, "version") || j.Status != "ok" {
		t.Errorf("run %q status %q", j.Run, j.Status)
	}
	if len(j.Results) != 3 || j.Results[0].ID != "M5" || j.Results[0].Status != "caught" || j.Results[1].ID != "M13" || j.Results[0].CaughtBy == "" {
		t.Errorf("results %+v", j.Results)
	}
	// The control's scope and verdict, as the text report prints them.
	if len(j.Control.Checked) == 0 || len(j.Control.NotChecked) == 0 || !strings.HasPrefix(j.Control.Verdict, "UNKNOWN: no safety finding on the") ||
		len(j.Summary) != 1 || !strings.HasPrefix(j.Summary[0], "clear-wins: 3 caught") {
		t.Errorf("control %+v, summary %q", j.Control, j.Summary)
	}

	// What -merge refuses, naming the fault, before printing anything.
	other := strings.Replace(readFile(t, parts[1]), `-seed=20240601`, `-seed=7`, 1)
	for _, tc := range []struct {
		files []string
		err   string
	}{
		{[]string{parts[0], parts[0]}, "are both part 1/2"},
		{[]string{parts[0]}, "missing part 2/2"},
		{[]string{parts[0], writeShard(t, dir, "other.json", other)}, "is of another run than"},
		{[]string{parts[0], writeShard(t, dir, "whole.json", whole)}, "not a shard document"},
		{[]string{parts[0], filepath.Join(dir, "nonexistent.json")}, "no such file"},
	} {
		code, out, errOut := runCLI(t, append([]string{"-merge"}, tc.files...)...)
		if code != exitUsage || out != "" || !strings.Contains(errOut, tc.err) {
			t.Errorf("merge %v: exit %d, stdout %q, stderr %q; want exit 2 and %q", tc.files, code, out, errOut, tc.err)
		}
	}
}

func readFile(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// A bad -shard, -shard without -json, and -merge with run flags are usage
// errors: nothing runs.
func TestShardFlagsExit2(t *testing.T) {
	for _, args := range [][]string{
		{"-shard", "0/2", "-json"}, {"-shard", "3/2", "-json"}, {"-shard", "x", "-json"}, {"-shard", "1/0", "-json"},
		{"-shard", "1/2"}, {"-shard", "1/2", "-json", "-html", "x.html"},
		{"-merge"}, {"-merge", "-tie", "clear", "a.json"}, {"a.json"},
	} {
		if code, out, errOut := runCLI(t, args...); code != exitUsage || out != "" || errOut == "" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", args, code, out, errOut)
		}
	}
}
