package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nip-rs/harness/internal/shortrun"
)

// The walk universe is listed with its rule sets and invariants.
func TestListNamesTheWalkUniverse(t *testing.T) {
	code, out, _ := runCLI(t, "-list")
	if code != exitOK {
		t.Fatalf("exit %d", code)
	}
	for _, want := range []string{"  walk         depth 7  the paged history walk", "rule sets of the walk universe:", "  healing ",
		"invariants of the walk universe:", "H8-heal"} {
		if !strings.Contains(out, want) {
			t.Errorf("-list lacks %q", want)
		}
	}
}

// Under the document's rules the search meets only the documented
// limitation: it is printed as such, written, and the run exits 0; the
// healing rules trip nothing; a history mutant that breaks an invariant
// fails the run.
func TestExploreWalk(t *testing.T) {
	dir := t.TempDir()
	if !shortrun.On(t, "the healing and H4 runs at depth 5; the depth-7 run under the text, its state count and documented limitation, left out (TestSimulateWalk still meets and replays the limitation)") {
		exploreWalkUnderTheText(t, dir)
	}
	// The healing and H4 runs check the command's exit and result line at
	// depth 5, where H4 first breaks an invariant; the whole depth-7 runs
	// are history's TestHealingHealsUnderSameSearch (healing, its state
	// count pinned) and the mutant gate (H4 caught by the walk's check).
	if code, out, errOut := runCLI(t, "-universe", "walk", "-rules", "healing", "-depth", "5", "-witness", dir); code != exitOK || !strings.Contains(out, "result: ok, no violation") {
		t.Errorf("healing: exit %d\n%s%s", code, out, errOut)
	}
	if code, out, errOut := runCLI(t, "-universe", "walk", "-rules", "H4", "-depth", "5", "-witness", dir); code != exitViolation || !strings.Contains(out, "result: violation: H4-no-gap") {
		t.Errorf("H4: exit %d\n%s%s", code, out, errOut)
	}
}

// exploreWalkUnderTheText is TestExploreWalk's whole depth-7 run under
// the document's rules: only the documented limitation, written and
// replayed.
func exploreWalkUnderTheText(t *testing.T, dir string) {
	t.Helper()
	code, out, errOut := runCLI(t, "-universe", "walk", "-witness", dir)
	if code != exitOK {
		t.Fatalf("spec: exit %d\n%s%s", code, out, errOut)
	}
	for _, want := range []string{"explore -universe=walk -depth=7 -rules=spec", "67,887 distinct", "H8-heal", "documented limitation, 300",
		"documented limitation H8-heal: a repeated quiet catch-up left the hole {3}", "result: ok, only the rule set's documented limitation: H8-heal (300 times)"} {
		if !strings.Contains(out, want) {
			t.Errorf("spec output lacks %q:\n%s", want, out)
		}
	}
	base := filepath.Join(dir, "explore-walk-depth7-spec")
	if _, err := os.Stat(base + ".json"); err != nil {
		t.Fatal(err)
	}
	if code, out, errOut := runCLI(t, "-replay", base+".json"); code != exitViolation || !strings.Contains(out, "reproduced: H8-heal fails again") {
		t.Errorf("replay: exit %d\n%s%s", code, out, errOut)
	}
}

// Random walks through the walk universe, same seed same result, the
// shrunk witness written and replayable.
func TestSimulateWalk(t *testing.T) {
	dir := t.TempDir()
	args := []string{"-universe", "walk", "-simulate", "300", "-steps", "20", "-seed", "1", "-witness", dir}
	code, out, errOut := runCLI(t, args...)
	if code != exitOK || !strings.Contains(out, "documented limitation H8-heal in walk") || !strings.Contains(out, "shrunk to") {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	if _, again, _ := runCLI(t, args...); again != out {
		t.Errorf("same seed, different output")
	}
	w := filepath.Join(dir, "simulate-walk-seed1-spec.json")
	if code, out, _ := runCLI(t, "-replay", w); code != exitViolation || !strings.Contains(out, "reproduced: H8-heal") {
		t.Errorf("replay of the simulated witness: exit %d\n%s", code, out)
	}
}

// Flags the walk has no use for, and rule sets it does not know, are
// usage errors.
func TestWalkRefusesWhatItCannotRun(t *testing.T) {
	for _, args := range [][]string{
		{"-universe", "walk", "-tie", "set"},
		{"-universe", "walk", "-rules", "M3"},
		{"-universe", "walk", "-all"},
		{"-universe", "walk", "-only", "conformance"},
		{"-universe", "walk", "-simulate", "3", "-steps", "0"},
		{"-universe", "reference", "-rules", "healing"},
	} {
		if code, out, errOut := runCLI(t, args...); code != exitUsage {
			t.Errorf("%v: exit %d, want %d\n%s%s", args, code, exitUsage, out, errOut)
		}
	}
}

// -json: one object, the documented limitation counted apart from the
// violations.
func TestExploreWalkJSON(t *testing.T) {
	shortrun.Skip(t, "the walk's whole depth-7 run as JSON, its state count and documented limitation pinned")
	code, out, errOut := runCLI(t, "-universe", "walk", "-json", "-witness", t.TempDir())
	var got struct {
		Status     string           `json:"status"`
		Distinct   int              `json:"distinct"`
		Documented map[string]int64 `json:"documented_limitation"`
		Violations map[string]int64 `json:"violations"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil || code != exitOK {
		t.Fatalf("exit %d, %v\n%s%s", code, err, out, errOut)
	}
	if got.Status != "ok" || got.Distinct != 67887 || got.Documented["H8-heal"] != 300 || len(got.Violations) != 0 {
		t.Errorf("%+v", got)
	}
}

// The history mutants change only the walk: -list names them under the
// walk universe's rule sets, not among those every other universe takes,
// and such a universe refuses them (its run would be the production
// rules' verdict under the mutant's name).
func TestHistoryMutantsBelongToTheWalk(t *testing.T) {
	_, out, _ := runCLI(t, "-list")
	generic, walk, ok := strings.Cut(out, "rule sets of the walk universe:")
	if !ok {
		t.Fatalf("no walk rule sets in -list:\n%s", out)
	}
	_, generic, _ = strings.Cut(generic, "rule sets of every universe but walk:")
	for _, id := range []string{"H1 ", "H8 ", "H11 "} {
		if strings.Contains(generic, "  "+id) || !strings.Contains(walk, "  "+id) {
			t.Errorf("%s: listed among the generic rule sets, or not under walk", id)
		}
	}
	if !strings.Contains(generic, "  M3 ") || !strings.Contains(generic, "  by-value-integers    reading of the spec text") {
		t.Errorf("the generic rule sets lack M3 or the reading:\n%s", generic)
	}
	code, stdout, errOut := runCLI(t, "-rules", "H3", "-universe", "network")
	if code != exitUsage || stdout != "" || !strings.Contains(errOut, "a history mutant, it changes only the paged walk") {
		t.Errorf("-rules H3 -universe network: exit %d, stdout %q, stderr %q", code, stdout, errOut)
	}
}

// -variant: the ties variant's hole is found under the document's rules,
// written and replayable; the proposed rules find nothing there; an
// unknown variant is a usage error.
func TestExploreWalkVariant(t *testing.T) {
	dir := t.TempDir()
	code, out, errOut := runCLI(t, "-universe", "walk", "-variant", "ties", "-depth", "4", "-witness", dir)
	if code != exitViolation || !strings.Contains(out, "explore -universe=walk -variant=ties -depth=4 -rules=spec") || !strings.Contains(out, "result: violation: H4-no-gap") {
		t.Fatalf("ties under spec: exit %d\n%s%s", code, out, errOut)
	}
	w := filepath.Join(dir, "explore-walk-ties-depth4-spec.json")
	if code, out, _ := runCLI(t, "-replay", w); code != exitViolation || !strings.Contains(out, "reproduced: H4-no-gap") {
		t.Errorf("replay: exit %d\n%s", code, out)
	}
	if code, out, errOut := runCLI(t, "-universe", "walk", "-variant", "ties", "-depth", "4", "-rules", "proposed", "-witness", dir); code != exitOK || !strings.Contains(out, "result: ok, no violation") {
		t.Errorf("ties under proposed: exit %d\n%s%s", code, out, errOut)
	}
	if code, _, _ := runCLI(t, "-universe", "walk", "-variant", "nowhere"); code != exitUsage {
		t.Errorf("unknown variant: exit %d", code)
	}
}
