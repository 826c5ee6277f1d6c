package exhaustive

import (
	"bytes"
	"strings"
	"testing"

	"github.com/nip-rs/harness/internal/cli"
	"github.com/nip-rs/harness/model"
)

// A simulation's run line reads back as the run it names, and the
// documents of its blocks merge into the whole run's, byte for byte;
// each tie's traces are asked for once per block with the block's walks.
func TestSimRunBlocks(t *testing.T) {
	cat := NewCatalog()
	u, err := cat.Universe("reference")
	if err != nil {
		t.Fatal(err)
	}
	r := SimRun{Universe: u.Name, Tie: "both", Rules: "spec", Walks: 9, Steps: 8, Seed: 4}
	if back, err := ParseSimRun(r.Line()); err != nil || back != r {
		t.Fatalf("ParseSimRun(%q) = %+v, %v", r.Line(), back, err)
	}
	ties := []model.TiePolicy{model.ClearWins, model.SetWins}
	whole, err := r.Block(cat, u, ties, model.Spec(), cli.Shard{}, 2, nil)
	if err != nil {
		t.Fatal(err)
	}
	if whole.Shard != nil || len(whole.Ties) != 2 || whole.Status == "" {
		t.Fatalf("whole run: %+v", whole)
	}
	var names []string
	var parts []*SimDoc
	covered := 0
	for i := 1; i <= 2; i++ {
		sh := cli.Shard{Index: i, Count: 2}
		p, err := r.Block(cat, u, ties, model.Spec(), sh, 1, func(_ model.TiePolicy, from, n int) error {
			if want, _ := sh.Range(r.Walks); from != want {
				t.Errorf("part %d: traces from walk %d, want %d", i, from, want)
			}
			covered += n
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		names, parts = append(names, r.Line()), append(parts, p)
	}
	if covered != 2*r.Walks {
		t.Errorf("traces asked for %d walks, want %d", covered, 2*r.Walks)
	}
	merged, err := MergeRun(names, parts)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := MergeRun(names[:1], parts[:1]); err == nil {
		t.Error("a merge of the first part alone: no error")
	}
	var a, b bytes.Buffer
	whole.Write(&a)
	merged.Write(&b)
	if a.String() != b.String() {
		t.Errorf("merged parts differ from the whole run:\n%s\n---\n%s", b.String(), a.String())
	}
}

// A violating simulation exits 1 and saves each tie's witness, naming the
// files; a clean one exits 0 and saves nothing.
func TestSimDocSaveAndExit(t *testing.T) {
	cat := simCatalog()
	u, err := cat.Universe("hierarchy")
	if err != nil {
		t.Fatal(err)
	}
	r := SimRun{Universe: u.Name, Tie: "clear", Rules: "own-base", Walks: 50, Steps: 30, Seed: 2}
	d, err := r.Block(cat, u, []model.TiePolicy{model.ClearWins}, ownBase(), cli.Shard{}, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	var names bytes.Buffer
	if err := d.SaveWitnesses(dir, &names); err != nil {
		t.Fatal(err)
	}
	if d.Status != "violation" || d.Exit() != cli.ExitFailed || !strings.Contains(names.String(), "simulate-hierarchy-seed2-clear.json") {
		t.Errorf("status %s, exit %d, names %q", d.Status, d.Exit(), names.String())
	}
	clean := &SimDoc{Run: r.Line(), Status: "ok", Ties: []SimTieDoc{{Tie: "clear"}}}
	names.Reset()
	if err := clean.SaveWitnesses(t.TempDir(), &names); err != nil || names.Len() != 0 || clean.Exit() != cli.ExitOK {
		t.Errorf("clean: %v, names %q, exit %d", err, names.String(), clean.Exit())
	}
}
