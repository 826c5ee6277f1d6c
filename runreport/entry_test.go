package runreport

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nip-rs/harness/catalog"
	"github.com/nip-rs/harness/internal/cli"
)

// entryRuns resolves a and fails the test on an error.
func entryRuns(t *testing.T, a EntryArgs) []*EntryRun {
	t.Helper()
	runs, err := EntryRuns(catalog.New(exCatalog(t)), a)
	if err != nil {
		t.Fatal(err)
	}
	return runs
}

// report runs r and returns its report, exit code and the warnings.
func report(t *testing.T, r *EntryRun, dir string) (string, int, []error) {
	t.Helper()
	if err := r.Run(nil); err != nil {
		t.Fatal(err)
	}
	var warns []error
	var b bytes.Buffer
	code, err := r.Report(&b, EntryOutput{Dir: dir, Warn: func(err error) { warns = append(warns, err) }})
	if err != nil {
		t.Fatal(err)
	}
	return b.String(), code, warns
}

// The walk under a history mutant fails with a witness written as JSON
// and text; under the healing rules it passes; its document says the
// same status and names the files.
func TestEntryRunWalk(t *testing.T) {
	dir := t.TempDir()
	runs := entryRuns(t, EntryArgs{Universe: "walk", Variant: "default", Rules: "H4", Depth: 5, Workers: 1})
	if len(runs) != 1 {
		t.Fatalf("%d runs of the walk, want 1", len(runs))
	}
	out, code, warns := report(t, runs[0], dir)
	if code != cli.ExitFailed || len(warns) != 0 || !strings.Contains(out, "result: violation: H4-no-gap") || !strings.HasPrefix(out, "explore -universe=walk -depth=5 -rules=H4 ") {
		t.Fatalf("H4: exit %d, warnings %v\n%s", code, warns, out)
	}
	if len(runs[0].Files) != 2 {
		t.Fatalf("files %v: want the witness as JSON and text", runs[0].Files)
	}
	for _, f := range runs[0].Files {
		if _, err := os.Stat(f); err != nil || !strings.Contains(out, "witness written to "+f) {
			t.Errorf("%s: %v, or not named in the report", f, err)
		}
	}
	if _, code, _ := report(t, entryRuns(t, EntryArgs{Universe: "walk", Variant: "default", Rules: "healing", Depth: 5, Workers: 1})[0], dir); code != cli.ExitOK {
		t.Errorf("healing: exit %d", code)
	}
	j := entryRuns(t, EntryArgs{Universe: "walk", Variant: "ties", Rules: "H4", Depth: 4, Workers: 1, JSON: true})[0]
	out, code, _ = report(t, j, t.TempDir())
	var doc struct {
		Run    string   `json:"run"`
		Status string   `json:"status"`
		Files  []string `json:"witness_files"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	want := map[int]string{cli.ExitOK: "ok", cli.ExitFailed: "violation"}[code]
	if doc.Status != want || !strings.Contains(doc.Run, " -variant=ties ") || len(doc.Files) != len(j.Files) {
		t.Errorf("document %+v for exit %d, files %v", doc, code, j.Files)
	}
}

// The walk runs whole unless -max-states is given; given, a limit it
// passes makes the run unknown (exit 3, status "unknown"), not ok, even
// though all it found before the limit is the documented limitation, and
// the header names the limit so the run can be repeated.
func TestEntryRunWalkStateLimit(t *testing.T) {
	whole := entryRuns(t, EntryArgs{Universe: "walk", Variant: "default", Rules: "spec", Depth: 5, Workers: 1, MaxStates: 10})[0]
	if out, code, _ := report(t, whole, t.TempDir()); code != cli.ExitOK || strings.Contains(out, "-max-states") {
		t.Errorf("no -max-states flag: exit %d\n%s", code, out)
	}
	args := EntryArgs{Universe: "walk", Variant: "default", Rules: "spec", Depth: 5, Workers: 1, MaxStates: 10, Flags: []string{"max-states"}}
	out, code, _ := report(t, entryRuns(t, args)[0], t.TempDir())
	if code != cli.ExitUnknown || !strings.Contains(out, "\nresult: unknown: state limit 10 reached") || !strings.Contains(out, " -max-states=10 ") {
		t.Errorf("-max-states 10: exit %d\n%s", code, out)
	}
	args.JSON = true
	out, code, _ = report(t, entryRuns(t, args)[0], t.TempDir())
	var doc struct {
		Status string `json:"status"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil || code != cli.ExitUnknown || doc.Status != "unknown" {
		t.Errorf("-json -max-states 10: exit %d, status %q, %v", code, doc.Status, err)
	}
}

// A community universe under a state guard of 10 is unknown, not ok; an
// unwritable witness directory is a warning, the report going on.
func TestEntryRunCommunity(t *testing.T) {
	runs := entryRuns(t, EntryArgs{Universe: "honest", Rules: "spec", Tie: "both", MaxStates: 10, Workers: 1})
	if len(runs) != 1 {
		t.Fatalf("%d runs of a universe without ties, want 1", len(runs))
	}
	out, code, _ := report(t, runs[0], t.TempDir())
	if code != cli.ExitUnknown || !strings.Contains(out, "result: unknown: state limit 10") {
		t.Errorf("exit %d\n%s", code, out)
	}
	blocked := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(blocked, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	out, code, warns := report(t, entryRuns(t, EntryArgs{Universe: "epochs", Rules: "K1", Tie: "both", Depth: 4, Workers: 1})[0], blocked)
	if code != cli.ExitFailed || len(warns) != 1 || strings.Contains(out, "witness written") {
		t.Errorf("exit %d, warnings %v\n%s", code, warns, out)
	}
}

// What an entry cannot run is refused before anything runs: a flag
// without meaning, a rule set or variant it does not know, a simulation
// of a universe that has none.
func TestEntryRunsRefusals(t *testing.T) {
	c := catalog.New(exCatalog(t))
	for _, a := range []EntryArgs{
		{Universe: "walk", Variant: "default", Rules: "spec", Flags: []string{"tie"}},
		{Universe: "walk", Variant: "default", Rules: "M1"},
		{Universe: "walk", Variant: "nonesuch", Rules: "spec"},
		{Universe: "honest", Rules: "spec", Tie: "both", Flags: []string{"directed"}},
		{Universe: "honest", Rules: "H2", Tie: "both"},
		{Universe: "honest", Rules: "spec", Tie: "neither"},
		{Universe: "honest", Rules: "spec", Walks: 3, Steps: 5},
		{Universe: "reference", Rules: "spec", Tie: "both"},
	} {
		if runs, err := EntryRuns(c, a); err == nil {
			t.Errorf("%+v: %d runs, want an error", a, len(runs))
		}
	}
	r := entryRuns(t, EntryArgs{Universe: "walk", Variant: "default", Rules: "spec", Walks: 2, Steps: 3, JSON: true})[0]
	if err := r.Run(nil); err == nil {
		t.Error("a walk simulation as JSON: no error")
	}
}

func TestWorseExit(t *testing.T) {
	codes := []int{cli.ExitOK, cli.ExitUnknown, cli.ExitFailed}
	for i, a := range codes {
		for j, b := range codes {
			if got, want := WorseExit(a, b), codes[max(i, j)]; got != want {
				t.Errorf("WorseExit(%d, %d) = %d, want %d", a, b, got, want)
			}
		}
	}
}
