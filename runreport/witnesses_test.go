package runreport

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/nip-rs/harness/exhaustive"
	"github.com/nip-rs/harness/internal/cli"
	"github.com/nip-rs/harness/model"
	"github.com/nip-rs/harness/mutants"
	"github.com/nip-rs/harness/witnessfile"
)

// Finish ranks a violation above a search that stopped short above ok,
// fills the description and the witnesses, and WriteWitnesses writes the
// files Named lists (with -all each beside its text); a render error
// stops the writing with the files so far recorded.
func TestFinishAndWitnessFiles(t *testing.T) {
	c := exCatalog(t)
	ok := explored(t, c, "reference", 2, model.Proposed())
	run := &Run{Universe: "reference", Explore: []*exhaustive.Result{ok}}
	if code := run.Finish(c); code != cli.ExitOK || run.Status != "ok" || run.Doc == "" || len(run.Witnesses) != 0 {
		t.Errorf("holding run: exit %d, status %q, doc %q, %d witnesses", code, run.Status, run.Doc, len(run.Witnesses))
	}
	if err := run.WriteWitnesses(filepath.Join(t.TempDir(), "none"), nil); err != nil || run.Files != nil {
		t.Errorf("no witness: files %v, err %v", run.Files, err)
	}
	short := *ok
	short.Status = exhaustive.StatusUnknown
	run = &Run{Universe: "reference", Explore: []*exhaustive.Result{&short}}
	if code := run.Finish(c); code != cli.ExitUnknown || run.Status != "unknown" {
		t.Errorf("stopped run: exit %d, status %q", code, run.Status)
	}

	m, found := mutants.Lookup("M6")
	if !found {
		t.Fatal("no mutant M6")
	}
	bad := explored(t, c, "reference", 4, m.Rules())
	run = &Run{Universe: "reference", Explore: []*exhaustive.Result{&short, bad}}
	if code := run.Finish(c); code != cli.ExitFailed || run.Status != "violation" || len(run.Witnesses) != 1 || run.Witnesses[0] != bad.Witness {
		t.Fatalf("violating run: exit %d, status %q, witnesses %v", code, run.Status, run.Witnesses)
	}
	dir := t.TempDir()
	if err := run.WriteWitnesses(dir, nil); err != nil {
		t.Fatal(err)
	}
	want := filepath.Join(dir, "explore-reference-depth4-clear.json")
	if !slices.Equal(run.Files, []string{want}) {
		t.Fatalf("files %v, want %s", run.Files, want)
	}
	if data, err := os.ReadFile(want); err != nil || string(data) != string(bad.Witness.JSON()) {
		t.Errorf("witness file %q, err %v", data, err)
	}

	// -all: one witness per violated invariant (two here, the second a
	// copy under another invariant's name).
	other := *bad.Witness
	other.Invariant = "another-invariant"
	all := *bad
	all.Witnesses = []*witnessfile.Witness{bad.Witness, &other}
	run.Explore, run.All = []*exhaustive.Result{&all}, true
	names := run.Named()
	if len(names) != 2 {
		t.Fatalf("-all names %v for 2 witnesses", names)
	}
	for i, nw := range names {
		if !strings.HasSuffix(nw.Name, "-"+nw.Witness.Invariant+".json") || nw.Witness != all.Witnesses[i] {
			t.Errorf("-all name %s for invariant %s", nw.Name, nw.Witness.Invariant)
		}
	}
	dir = t.TempDir()
	if err := run.WriteWitnesses(dir, func(w *witnessfile.Witness) (string, error) { return "text of " + w.Invariant, nil }); err != nil {
		t.Fatal(err)
	}
	if len(run.Files) != 2*len(names) || !strings.HasSuffix(run.Files[1], ".txt") {
		t.Errorf("-all files %v", run.Files)
	} else if data, _ := os.ReadFile(run.Files[1]); string(data) != "text of "+names[0].Witness.Invariant {
		t.Errorf("-all text %q", data)
	}
	err := run.WriteWitnesses(t.TempDir(), func(*witnessfile.Witness) (string, error) { return "", errors.New("cannot render") })
	if err == nil || len(run.Files) != 1 {
		t.Errorf("render error: err %v, files %v", err, run.Files)
	}
}
