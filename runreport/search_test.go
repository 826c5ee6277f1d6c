package runreport

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nip-rs/harness/amendments"
	"github.com/nip-rs/harness/exhaustive"
	"github.com/nip-rs/harness/internal/cli"
	"github.com/nip-rs/harness/model"
	"github.com/nip-rs/harness/mutants"
	"github.com/nip-rs/harness/witnessfile"
)

func referenceConfig(t *testing.T, c *exhaustive.Catalog, depth int) exhaustive.Config {
	t.Helper()
	u, err := c.Universe("reference")
	if err != nil {
		t.Fatal(err)
	}
	return exhaustive.Config{Universe: u, Depth: depth, Rules: model.Spec(), Workers: 1}
}

// A run searches once per tie in order, the tracker following; a Stop
// after a checkpoint ends it there, the later ties not run; under an
// amendment each tie's differences from spec are recorded.
func TestRunSearch(t *testing.T) {
	c := exCatalog(t)
	ties := []model.TiePolicy{model.ClearWins, model.SetWins}
	var tr exhaustive.Tracker
	var finished []model.TiePolicy
	r := NewRun("explore -universe=reference", "reference", "spec", false)
	stopped, err := r.Search(Search{Config: referenceConfig(t, c, 2), Ties: ties, Tracker: &tr,
		Finished: func(res *exhaustive.Result) { finished = append(finished, res.Tie) }})
	if err != nil || stopped || len(r.Explore) != 2 || len(finished) != 2 || finished[0] != model.ClearWins || len(tr.Lines()) < 2 {
		t.Fatalf("stopped %v, err %v, %d results, finished %v, tracker %q", stopped, err, len(r.Explore), finished, tr.Lines())
	}
	if r.Judged() || len(r.Diffs) != 0 {
		t.Errorf("spec's run judged %v, diffs %v", r.Judged(), r.Diffs)
	}

	dir := t.TempDir()
	cps := &exhaustive.Checkpoints{Dir: dir, Build: "test"}
	cfg := referenceConfig(t, c, 3)
	if _, err := cps.Prepare(cfg, ties); err != nil {
		t.Fatal(err)
	}
	r = NewRun("explore -universe=reference", "reference", "spec", false)
	stopped, err = r.Search(Search{Config: cfg, Ties: ties, Checkpoints: cps,
		Stop: func(tie model.TiePolicy, d int) bool { return tie == model.ClearWins && d == 2 }})
	if err != nil || !stopped || len(r.Explore) != 1 {
		t.Fatalf("stop at clear's depth 2: stopped %v, err %v, %d results", stopped, err, len(r.Explore))
	}
	if _, err := os.Stat(cps.TieDir(model.SetWins)); err != nil {
		t.Fatal(err)
	}
	if ents, _ := os.ReadDir(cps.TieDir(model.SetWins)); len(ents) != 0 {
		t.Errorf("set's search ran after the stop: %d entries in its directory", len(ents))
	}

	a, ok := amendments.Lookup("b-max-frontier")
	if !ok {
		t.Fatal("no amendment b-max-frontier")
	}
	r = NewRun("explore -universe=reference -rules=b-max-frontier", "reference", a.Name, false)
	if r.Amendment == nil || r.Amendment.Name != a.Name {
		t.Fatalf("NewRun under an amendment: %+v", r.Amendment)
	}
	if _, err := r.Search(Search{Config: referenceConfig(t, c, 3), Ties: a.Ties(ties), Amendment: r.Amendment}); err != nil {
		t.Fatal(err)
	}
	if len(r.Diffs) != len(a.Ties(ties)) || !strings.HasPrefix(r.Diffs[0], "tie clear, universe reference: ") {
		t.Errorf("diffs %q", r.Diffs)
	}
	if rd := mutants.Readings(); len(rd) > 0 {
		if r := NewRun("x", "reference", rd[0].Name, false); r.Reading == nil || !r.Judged() {
			t.Errorf("NewRun under reading %s is not judged", rd[0].Name)
		}
	}
}

// Report finishes the run (M6 fails on the reference universe), warns
// of a witness it could not write and reports on; a page that cannot be written is an input error.
func TestRunReport(t *testing.T) {
	c := exCatalog(t)
	m6, err := c.Rules("M6")
	if err != nil {
		t.Fatal(err)
	}
	cfg := referenceConfig(t, c, 3)
	cfg.Rules = m6
	run := func() *Run {
		r := NewRun("explore -universe=reference -rules=M6", "reference", "M6", false)
		if _, err := r.Search(Search{Config: cfg, Ties: []model.TiePolicy{model.ClearWins, model.SetWins}}); err != nil {
			t.Fatal(err)
		}
		return r
	}
	blocked := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(blocked, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	var warns []error
	render := func(w *witnessfile.Witness) (string, error) { return w.Text, nil }
	var b bytes.Buffer
	r := run()
	code, err := r.Report(&b, c, Output{Dir: blocked, Render: render, Warn: func(err error) { warns = append(warns, err) }})
	if err != nil || b.Len() == 0 {
		t.Fatalf("exit %d, err %v\n%s", code, err, b.String())
	}
	if want := map[string]int{"ok": cli.ExitOK, "violation": cli.ExitFailed, "unknown": cli.ExitUnknown}[r.Status]; code != want {
		t.Errorf("status %s, exit %d", r.Status, code)
	}
	if code != cli.ExitFailed || len(r.Witnesses) == 0 || len(warns) != 1 {
		t.Errorf("%d witnesses, warnings %v: want one about the directory", len(r.Witnesses), warns)
	}
	bad := errors.New("no page")
	code, err = run().Report(&b, c, Output{Dir: t.TempDir(), JSON: true, Render: render, Warn: func(error) {},
		Page: func([]*witnessfile.Witness) error { return bad }})
	if !errors.Is(err, bad) || code != cli.ExitUsage {
		t.Errorf("page error: exit %d, err %v", code, err)
	}
}
