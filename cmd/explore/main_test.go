package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/nip-rs/harness/model"
	"github.com/nip-rs/harness/runreport"
)

var update = flag.Bool("update", false, "rewrite golden files under testdata/")

// A test-only broken rule set: the incoming register wins whole.
func init() {
	cat.AddRules("test-lww-join", func() *model.Rules {
		r := model.Proposed().Clone()
		r.Join = func(a, b model.Reg) model.Reg {
			if b != (model.Reg{}) {
				return b
			}
			return a
		}
		return r
	})
}

func runCLI(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := run(args, &out, &errOut)
	return code, out.String(), errOut.String()
}

// normalize hides what legitimately varies between runs: times, the
// version and the worker count in the first line, the witness directory.
func normalize(s, dir string) string {
	s = strings.ReplaceAll(s, dir, "DIR")
	s = regexp.MustCompile(`\d+ms`).ReplaceAllString(s, "Tms")
	s = regexp.MustCompile(`-workers=\d+`).ReplaceAllString(s, "-workers=W")
	return regexp.MustCompile(`(?m)\(version .*\)$`).ReplaceAllString(s, "(version V)")
}

func TestReferenceRunPasses(t *testing.T) {
	code, out, _ := runCLI(t, "-progress=0")
	if code != exitOK {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	first, _, _ := strings.Cut(out, "\n")
	for _, want := range []string{"-universe=reference", "-depth=4", "-tie=both", "-rules=proposed", "-workers=", "-directed=true", "version"} {
		if !strings.Contains(first, want) {
			t.Errorf("first line %q lacks %q", first, want)
		}
	}
	for _, want := range []string{"1 / 16 / 144 / 999 / 5,969", "7,129", "PASS 24,337", "PASS 20,737", "suppression (recovered by one mark-unread) 156", "result: ok"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

func TestUsageErrorsExit2(t *testing.T) {
	tests := [][]string{
		{"-tie", "maybe"},
		{"-depth", "-1"},
		{"-universe", "nope"},
		{"-rules", "nope"},
		{"-only", "nope"},
		{"-workers", "0"},
		{"-max-states", "-5"},
		{"-bogus"},
		{"extra"},
		{"-replay", "/nonexistent/witness.json"},
		{"-universe", "network-whole", "-itf", "/nonexistent"},
		{"-replay", "-itf"},
		{"-replay", "-itf", "/nonexistent/trace.itf.json"},
	}
	for _, args := range tests {
		if code, out, errOut := runCLI(t, args...); code != exitUsage || errOut == "" {
			t.Errorf("%v: exit %d, stderr %q, stdout %q", args, code, errOut, out)
		}
	}
}

func TestViolationIsTheSameForOneAndTwoWorkers(t *testing.T) {
	var outs, files []string
	for _, w := range []string{"1", "2"} {
		dir := t.TempDir()
		code, out, _ := runCLI(t, "-rules", "test-lww-join", "-depth", "3", "-tie", "clear", "-workers", w, "-directed=false", "-witness", dir, "-progress=0")
		if code != exitViolation {
			t.Fatalf("workers %s: exit %d:\n%s", w, code, out)
		}
		data, err := os.ReadFile(filepath.Join(dir, "explore-reference-depth3-clear.json"))
		if err != nil {
			t.Fatal(err)
		}
		outs = append(outs, normalize(out, dir))
		files = append(files, string(data))
	}
	if outs[0] != outs[1] || files[0] != files[1] {
		t.Errorf("1 and 2 workers differ:\n%s\n---\n%s", outs[0], outs[1])
	}
	golden(t, "lww-join-depth3.txt", outs[0])
	for _, want := range []string{"initial state:", "step 3: mark_unread d1 c0", "violation I2-convergence", "FAIL 16/991 states"} {
		if !strings.Contains(outs[0], want) {
			t.Errorf("output lacks %q", want)
		}
	}
}

func TestReplay(t *testing.T) {
	dir := t.TempDir()
	if code, out, _ := runCLI(t, "-rules", "test-lww-join", "-depth", "3", "-tie", "clear", "-witness", dir, "-progress=0", "-only", "join-commutative"); code != exitViolation {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	for _, name := range []string{"explore-reference-depth3-clear.json", "directed-join-commutative-clear.json"} {
		path := filepath.Join(dir, name)
		code, out, _ := runCLI(t, "-replay", path)
		if code != exitViolation || !strings.Contains(out, "reproduced:") {
			t.Errorf("%s: exit %d:\n%s", name, code, out)
		}
		// The same witness under the production rules does not fail.
		data, _ := os.ReadFile(path)
		spec := filepath.Join(dir, "spec-"+name)
		os.WriteFile(spec, bytes.Replace(data, []byte(`"test-lww-join"`), []byte(`"spec"`), 1), 0o644)
		if code, out, _ := runCLI(t, "-replay", spec); code != exitOK || !strings.Contains(out, "not reproduced") {
			t.Errorf("%s under spec: exit %d:\n%s", name, code, out)
		}
	}
	bad := map[string]string{
		"garbage.json":    "not json at all",
		"empty.json":      "",
		"misfit.json":     `{"kind":"explore","universe":"reference","tie":"clear","rules":"spec","invariant":"I2-convergence","actions":[{"action":"advance","device":2,"ctx":"c0","value":20}]}`,
		"wrongcheck.json": `{"kind":"directed","check":"merge-closure","tie":"set","rules":"spec","invariant":"x","point":{"a.s":1}}`,
	}
	for name, content := range bad {
		path := filepath.Join(dir, name)
		os.WriteFile(path, []byte(content), 0o644)
		if code, out, errOut := runCLI(t, "-replay", path); code != exitUsage || errOut == "" {
			t.Errorf("%s: exit %d, stderr %q, stdout %q", name, code, errOut, out)
		}
	}
}

func TestJSONOutput(t *testing.T) {
	code, out, _ := runCLI(t, "-json", "-tie", "set", "-only", "merge-closure", "-progress=0")
	if code != exitOK {
		t.Fatalf("exit %d", code)
	}
	if strings.Count(out, "\n") != 1 {
		t.Errorf("want one line of JSON, got %d lines", strings.Count(out, "\n"))
	}
	var j runreport.Doc
	if err := json.Unmarshal([]byte(out), &j); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(out, `{"run":"explore -universe=reference`) || j.Status != "ok" {
		t.Errorf("run %q status %q", j.Run, j.Status)
	}
	if len(j.Explore) != 1 || j.Explore[0].Distinct != 7129 || j.Explore[0].Tie != "set" {
		t.Errorf("explore %+v", j.Explore)
	}
	if len(j.Directed) != 1 || j.Directed[0].Points["set"] != 20737 {
		t.Errorf("directed %+v", j.Directed)
	}
}

func TestStateLimitExits3(t *testing.T) {
	code, out, _ := runCLI(t, "-max-states", "100", "-directed=false", "-progress=0")
	if code != exitUnknown || !strings.Contains(out, "result: unknown") {
		t.Errorf("exit %d:\n%s", code, out)
	}
}

func TestList(t *testing.T) {
	code, out, _ := runCLI(t, "-list")
	if code != exitOK || !strings.Contains(out, "reference") || !strings.Contains(out, "merge-closure") || !strings.Contains(out, "spec") ||
		!strings.Contains(out, "N3   N3-intent-oracle") || strings.Index(out, "  N6 ") > strings.Index(out, "directed checks:") {
		t.Errorf("exit %d:\n%s", code, out)
	}
}

func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		os.MkdirAll("testdata", 0o755)
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs from the golden file (run with -update to accept):\n%s", path, got)
	}
}

func TestProgressGoesToStderr(t *testing.T) {
	code, out, errOut := runCLI(t, "-depth", "6", "-tie", "clear", "-directed=false", "-progress", "1ms")
	if code != exitOK || !strings.Contains(errOut, "explore reference tie=clear: expanding depth ") || !strings.Contains(errOut, "distinct states stored") ||
		strings.Contains(out, "distinct states stored") {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
}
