package runreport

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/nip-rs/harness/amendments"
	"github.com/nip-rs/harness/model"
	"github.com/nip-rs/harness/mutants"
)

func amendment(t *testing.T, name string) amendments.Amendment {
	t.Helper()
	a, ok := amendments.Lookup(name)
	if !ok {
		t.Fatalf("no amendment %s", name)
	}
	return a
}

// What a user sees differ under an amendment is the lockstep search's
// history, its witness written beside the others; a rule set no user can
// tell from proposed says so with its bounds and writes nothing.
func TestVisibleDifference(t *testing.T) {
	c := exCatalog(t)
	dir := t.TempDir()
	lines, file := visibleDifference(c, amendment(t, "mark-read-own-counter"), model.ClearWins, dir)
	if len(lines) < 3 || lines[0] != "what a user sees differ (explore -diff proposed,mark-read-own-counter):" ||
		file != filepath.Join(dir, "diff-proposed-mark-read-own-counter-reference-clear.json") {
		t.Errorf("lines %q, file %q", lines, file)
	}
	if _, err := os.Stat(file); err != nil {
		t.Error(err)
	}
	same := amendments.Amendment{Name: "nothing", Change: amendment(t, "mark-read-own-counter").Change}
	same.Change.Model = nil
	lines, file = visibleDifference(c, same, model.ClearWins, t.TempDir())
	if len(lines) != 1 || !strings.HasPrefix(lines[0], "what a user sees differ: nothing in the reference universe to depth ") || file != "" {
		t.Errorf("no change: lines %q, file %q", lines, file)
	}
}

// A reading judged as an amendment runs the reading's rules under the
// tie asked for.
func TestReadingAmendment(t *testing.T) {
	for _, rd := range mutants.Readings() {
		a := ReadingAmendment(rd)
		for _, tie := range []model.TiePolicy{model.ClearWins, model.SetWins} {
			got, want := a.Rules(tie), rd.Rules().WithTie(tie)
			if got.Tie != tie || a.Name != rd.Name || got.Name != rd.Name || want.Tie != tie {
				t.Errorf("%s under %s: rules %s tie %s", rd.Name, tie, got.Name, got.Tie)
			}
		}
	}
}

// A finding's witness is written under the amendment, check and tie,
// its text beside it; the report says every part the verdict rests on.
func TestAmendmentReportText(t *testing.T) {
	dir := t.TempDir()
	f := &mutants.Finding{Check: "explore:hierarchy", Invariant: "N3", Witness: &mutants.Witness{JSON: []byte("{}\n"), Text: "the trace\n"}}
	p, err := writeFindingWitness(dir, "am", f, model.ClearWins)
	if err != nil || p != filepath.Join(dir, "amendment-am-explore-hierarchy-clear.json") {
		t.Fatalf("%q %v", p, err)
	}
	if b, _ := os.ReadFile(strings.TrimSuffix(p, ".json") + ".txt"); string(b) != "the trace\n" {
		t.Errorf("text %q", b)
	}
	r := &AmendmentReport{Baseline: model.ProposedName, Safety: []string{"explore:hierarchy N3 (clear, 4 actions)"}, SpecText: []string{},
		Witnesses: []string{p}, Verdict: "UNSAFE: x", am: amendment(t, "mark-read-own-counter"), scope: mutants.Scope{Safety: []string{"explore:hierarchy"}}}
	var b bytes.Buffer
	r.WriteText(&b)
	for _, want := range []string{"\namendment mark-read-own-counter (", "checked: 1 of 1 checks", "safety: BROKEN: explore:hierarchy N3 (clear, 4 actions)\n",
		"spec-text conformance: does what the spec's text says on the 0 conformance checks\n", "witness written to " + p, "verdict: UNSAFE: x\n"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, b.String())
		}
	}
	if r.Exit() != 1 {
		t.Errorf("exit %d for an unsafe verdict", r.Exit())
	}
}

// An amendment's run covers the tie policies asked for, or the one it
// decides itself; naming another than that one, or no policy at all, is
// refused.
func TestAmendmentTies(t *testing.T) {
	pinned, ok := amendments.Lookup("set-wins-everywhere")
	free, ok2 := amendments.Lookup("mark-read-own-counter")
	if !ok || !ok2 || !pinned.Pinned || free.Pinned {
		t.Fatalf("set-wins-everywhere pinned %v, mark-read-own-counter pinned %v", pinned.Pinned, free.Pinned)
	}
	for _, c := range []struct {
		am    amendments.Amendment
		tie   string
		named bool
		want  []model.TiePolicy // nil: refused
	}{
		{free, "both", false, []model.TiePolicy{model.ClearWins, model.SetWins}},
		{free, "set", true, []model.TiePolicy{model.SetWins}},
		{free, "sometimes", true, nil},
		{pinned, "both", false, []model.TiePolicy{pinned.Tie}},
		{pinned, pinned.Tie.String(), true, []model.TiePolicy{pinned.Tie}},
		{pinned, "both", true, nil},
		{pinned, model.ClearWins.String(), true, nil},
	} {
		got, err := AmendmentTies(c.am, c.tie, c.named)
		if (c.want == nil) != (err != nil) || !slices.Equal(got, c.want) {
			t.Errorf("%s, -tie %s (named %v): %v, %v; want %v", c.am.Name, c.tie, c.named, got, err, c.want)
		}
	}
}
