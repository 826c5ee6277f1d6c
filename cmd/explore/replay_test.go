package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Every witness file the project keeps, of every kind, replays through
// -replay and fails again as it says.
func TestEveryStoredWitnessReplays(t *testing.T) {
	var files []string
	for _, pat := range []string{"../../mutants/testdata/*.json", "../../props/testdata/witness/*.json", "../../exhaustive/testdata/*.json", "../../history/testdata/*.json", "testdata/*.json"} {
		m, err := filepath.Glob(pat)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	kinds := map[string]int{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Contains(data, []byte(`"config"`)) {
			kinds["load"]++
		}
		if bytes.Contains(data, []byte(`"kind": "history"`)) {
			kinds["history"]++
		}
		code, out, errOut := runCLI(t, "-replay", f)
		if code != exitViolation || !strings.Contains(out, "reproduced: ") || strings.Contains(out, "not reproduced") || strings.Contains(out, "differs") {
			t.Errorf("%s: exit %d, stderr %q:\n%s", f, code, errOut, out)
		}
	}
	if len(files) < 100 || kinds["load"] < 20 || kinds["history"] < 12 {
		t.Fatalf("only %d witness files (%d load, %d history)", len(files), kinds["load"], kinds["history"])
	}
}

// The replay prints what it recomputed, never the stored detail as found.
func TestReplayFlagsAnEditedDetail(t *testing.T) {
	for _, f := range []string{"../../mutants/testdata/M3.clear.json", "../../mutants/testdata/L1.clear.json", "../../mutants/testdata/M5.set.json"} {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		edited := bytes.Replace(data, []byte(`"detail": "`), []byte(`"detail": "EDITED `), 1)
		edited = bytes.Replace(edited, []byte(`"violation": "soundness: `), []byte(`"violation": "soundness: EDITED `), 1)
		path := filepath.Join(t.TempDir(), "w.json")
		os.WriteFile(path, edited, 0o644)
		code, out, _ := runCLI(t, "-replay", path)
		if code != exitViolation || !strings.Contains(out, "stored detail differs") {
			t.Errorf("%s edited: exit %d:\n%s", f, code, out)
		}
		found := out[strings.Index(out, "replay found:"):]
		if strings.Contains(found[:strings.Index(found, "reproduced")], "EDITED") {
			t.Errorf("%s: the edited detail is shown as found:\n%s", f, out)
		}
	}
}

// -rules re-runs a witness under another rule set: a mutant's witness does
// not fail under the production rules (the fix removes it).
func TestReplayUnderOtherRules(t *testing.T) {
	for _, tc := range []struct {
		file  string
		rules string
		want  int
		says  string
	}{
		{"../../mutants/testdata/M5.set.json", "spec", exitOK, "not reproduced"},
		{"../../mutants/testdata/L1.clear.json", "spec", exitOK, "not reproduced"},
		{"../../mutants/testdata/M1.clear.explore.json", "spec", exitOK, "not reproduced"},
		{"../../mutants/testdata/M1.clear.explore.json", "M1", exitViolation, "reproduced: "},
		{"../../history/testdata/limitation.spec.json", "healing", exitOK, "not reproduced"},
		{"../../mutants/testdata/H4.clear.json", "spec", exitOK, "not reproduced"},
	} {
		code, out, errOut := runCLI(t, "-replay", tc.file, "-rules", tc.rules)
		if code != tc.want || !strings.Contains(out, tc.says) || !strings.Contains(out, "replayed under rules "+tc.rules) {
			t.Errorf("%s -rules %s: exit %d (want %d), stderr %q:\n%s", tc.file, tc.rules, code, tc.want, errOut, out)
		}
	}
}

func TestReplayBadInputExits2(t *testing.T) {
	dir := t.TempDir()
	m3, err := os.ReadFile("../../mutants/testdata/M3.clear.json")
	if err != nil {
		t.Fatal(err)
	}
	write := func(name string, data []byte) string {
		p := filepath.Join(dir, name)
		os.WriteFile(p, data, 0o644)
		return p
	}
	unknownInv := write("inv.json", bytes.Replace(m3, []byte(`"invariant": "N1-cross-device-convergence"`), []byte(`"invariant": "N99-none"`), 1))
	unknownKind := write("kind.json", []byte(`{"kind":"nonesuch","invariant":"x","tie":"clear","rules":"spec"}`))
	loadBad := write("load.json", []byte(`{"check":"soundness","rules":"spec","config":{"profile":"conformant","cap":2,"n":2},"steps":[],"violation":"soundness: x","extra":1}`))
	loadInv := write("loadinv.json", []byte(`{"check":"soundness","rules":"spec","config":{"profile":"conformant","cap":2,"n":2},"steps":[],"violation":"nonesuch: x"}`))
	m3p := "../../mutants/testdata/M3.clear.json"
	for _, args := range [][]string{
		{"-replay", unknownInv},
		{"-replay", unknownKind},
		{"-replay", loadBad},
		{"-replay", loadInv},
		{"-replay", m3p, "-universe", "reference"},
		{"-replay", m3p, "-depth", "3"},
		{"-replay", m3p, "-rules", "nonesuch"},
		{"-replay", m3p, "-tie", "both"},
	} {
		if code, out, errOut := runCLI(t, args...); code != exitUsage || errOut == "" {
			t.Errorf("%v: exit %d, stderr %q:\n%s", args, code, errOut, out)
		}
	}
}

// -html writes one self-contained page holding the replayed steps.
func TestReplayHTML(t *testing.T) {
	path := filepath.Join(t.TempDir(), "w.html")
	code, out, errOut := runCLI(t, "-replay", "../../mutants/testdata/M3.clear.json", "-html", path)
	if code != exitViolation || !strings.Contains(out, "page written to "+path) {
		t.Fatalf("exit %d, stderr %q:\n%s", code, errOut, out)
	}
	page, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"action":"mark_unread d1 c0"`, `"invariant":"N1-cross-device-convergence"`, `"devices":2`, "<script>",
		"what the mutant changes: d0's model.Rules.Tie (set, not clear)"} {
		if !strings.Contains(string(page), want) {
			t.Errorf("page lacks %s", want)
		}
	}
}

// A one-device variant's witness names the rules each device ran, and
// every explorer witness carries the legend of its notation.
func TestWitnessNamesItsRulesAndNotation(t *testing.T) {
	_, out, _ := runCLI(t, "-replay", "../../mutants/testdata/M3.clear.json")
	for _, want := range []string{"tie clear, rules proposed (d0 runs M3)\n", "legend: reg=(S,C,B) is the override register", "f=- none held (f=0 is a frontier of 0)"} {
		if !strings.Contains(out, want) {
			t.Errorf("replay lacks %q:\n%s", want, out)
		}
	}
}

// A replayed load or directed witness reaches the page in its own view: the
// load's rows with the verdict marked, the directed check's point.
func TestReplayHTMLOfEveryKind(t *testing.T) {
	for _, tc := range []struct {
		file string
		want []string
	}{
		{"L1.clear.json", []string{`"kind":"load"`, `"lane":"query","phase":"start","text":"→ REQ L1-fence limit=2"`,
			`"lane":"verdict","phase":"finish","text":"verdict complete (no reason given: nothing stopped the load from claiming it): L1-q2 delivered 0 events: enumeration exhausted","violation":true`}},
		{"M1.clear.json", []string{`"kind":"directed"`, `"fields":[{"name":"check","value":"bounded-growth"},{"name":"tie","value":"clear"},{"name":"rules","value":"M1"},{"name":"ctx","value":"\"c0\""}]`}},
	} {
		path := filepath.Join(t.TempDir(), "w.html")
		code, out, errOut := runCLI(t, "-replay", "../../mutants/testdata/"+tc.file, "-html", path)
		if code != exitViolation {
			t.Fatalf("%s: exit %d, stderr %q:\n%s", tc.file, code, errOut, out)
		}
		page, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, want := range tc.want {
			if !strings.Contains(string(page), want) {
				t.Errorf("%s: page lacks %s", tc.file, want)
			}
		}
	}
}
