package runreport

import (
	"bytes"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/nip-rs/harness/amendments"
	"github.com/nip-rs/harness/directed"
	"github.com/nip-rs/harness/exhaustive"
	"github.com/nip-rs/harness/model"
	"github.com/nip-rs/harness/mutants"
	"github.com/nip-rs/harness/witnessfile"
)

func exCatalog(t *testing.T) *exhaustive.Catalog {
	t.Helper()
	c := exhaustive.NewCatalog()
	mutants.Register(c)
	if err := amendments.Register(c); err != nil {
		t.Fatal(err)
	}
	return c
}

// explored is a real run of a small universe under rules, one tie.
func explored(t *testing.T, c *exhaustive.Catalog, universe string, depth int, rules *model.Rules) *exhaustive.Result {
	t.Helper()
	u, err := c.Universe(universe)
	if err != nil {
		t.Fatal(err)
	}
	r, err := exhaustive.Explore(exhaustive.Config{Universe: u, Depth: depth, Rules: rules.WithTie(model.ClearWins), Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestNaturalCompare(t *testing.T) {
	got := []string{"N10", "C1", "N2", "N", "N1"}
	slices.SortStableFunc(got, NaturalCompare)
	if want := []string{"C1", "N", "N1", "N2", "N10"}; !slices.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}

func TestCell(t *testing.T) {
	for _, c := range []struct {
		points, violations int
		want               string
	}{{0, 0, "not checked"}, {1234, 0, "PASS 1,234"}, {1234, 2, "FAIL 2/1,234"}, {0, 1, "FAIL 1/0"}} {
		if got := Cell(c.points, c.violations); got != c.want {
			t.Errorf("Cell(%d, %d) = %q, want %q", c.points, c.violations, got, c.want)
		}
	}
}

// A run that holds reports ok, rows in label order, and a JSON document
// with the same counts; a violation found by the search is named in the
// result line, and its witness is rendered by the function given (an
// error from it is passed on, the witness left out).
func TestTextAndJSON(t *testing.T) {
	c := exCatalog(t)
	ok := explored(t, c, "reference", 2, model.Proposed())
	run := &Run{Run: "explore test", Universe: "reference", Doc: "the doc", Explore: []*exhaustive.Result{ok}, Status: "ok"}
	var b bytes.Buffer
	run.WriteText(&b, c, func(*witnessfile.Witness) (string, error) { return "", errors.New("none to render") }, func(err error) { t.Error(err) })
	text := b.String()
	if !strings.Contains(text, "\nuniverse reference: the doc\n") || !strings.HasSuffix(text, "\nresult: ok, no violation\n") {
		t.Errorf("text:\n%s", text)
	}
	var labels []string
	for _, l := range strings.Split(text, "\n") {
		if f := strings.Fields(l); len(f) > 0 && strings.HasSuffix(l, "(search)") {
			labels = append(labels, f[0])
		}
	}
	if len(labels) < 2 || !slices.IsSortedFunc(labels, NaturalCompare) {
		t.Errorf("invariant rows %v: want several, in label order", labels)
	}
	b.Reset()
	if err := run.WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	var d Doc
	if err := json.Unmarshal(b.Bytes(), &d); err != nil {
		t.Fatal(err)
	}
	if d.Status != "ok" || len(d.Explore) != 1 || d.Explore[0].Distinct != ok.Distinct || strings.Count(b.String(), "\n") != 1 {
		t.Errorf("document %s", b.String())
	}

	m, found := mutants.Lookup("M6")
	if !found {
		t.Fatal("no mutant M6")
	}
	bad := explored(t, c, "reference", 4, m.Rules())
	if bad.Witness == nil {
		t.Fatal("M6 found nothing at depth 4 in the reference universe")
	}
	run = &Run{Universe: "reference", Explore: []*exhaustive.Result{bad}, Status: "violation", Witnesses: []*witnessfile.Witness{bad.Witness}}
	b.Reset()
	var failed []error
	run.WriteText(&b, c, func(*witnessfile.Witness) (string, error) { return "", errors.New("cannot render") }, func(err error) { failed = append(failed, err) })
	if len(failed) != 1 || !strings.Contains(b.String(), "\nresult: violation: "+bad.Witness.Invariant+" (clear)") {
		t.Errorf("render errors %v, text:\n%s", failed, b.String())
	}
}

// The verdict splits failures by what a check asserts: a coverage
// invariant counts toward neither verdict, a spec-text conformance check
// toward conformance, everything else toward safety; an amendment's run
// claims nothing of the checks it did not run.
func TestVerdicts(t *testing.T) {
	c := exCatalog(t)
	res := explored(t, c, "reference", 2, model.Proposed())
	res.Invariants = slices.Clone(res.Invariants)
	res.Invariants = append(res.Invariants, exhaustive.InvariantCount{Name: exhaustive.InvNetVacuous, Label: "N0", Violations: 1})
	var spec, safe *directed.Check
	for _, d := range directed.Checks() {
		switch {
		case d.SpecText && spec == nil:
			spec = d
		case !d.SpecText && safe == nil:
			safe = d
		}
	}
	if spec == nil || safe == nil {
		t.Fatal("want a spec-text and a safety directed check")
	}
	sum := func(d *directed.Check) *directed.CheckSummary {
		return &directed.CheckSummary{Key: d.Key, Label: d.Label, Name: d.Name,
			Points: map[model.TiePolicy]int{model.ClearWins: 3}, Violations: map[model.TiePolicy]int{model.ClearWins: 1}}
	}
	run := &Run{Universe: "reference", Explore: []*exhaustive.Result{res}, Directed: []*directed.CheckSummary{sum(spec), sum(safe)}, Status: "violation"}
	safety, conf := run.Verdicts()
	if want := []string{safe.Label + " " + safe.Key + " (clear)"}; !slices.Equal(safety, want) {
		t.Errorf("safety %v, want %v", safety, want)
	}
	if want := []string{spec.Label + " " + spec.Key + " (clear)"}; !slices.Equal(conf, want) {
		t.Errorf("conformance %v, want %v", conf, want)
	}
	sc := run.Scope(c)
	if !slices.Contains(sc.Safety, mutants.KindExplore+":reference") || len(sc.NotRun) == 0 {
		t.Errorf("scope %+v", sc)
	}
	if v := run.Verdict(c); !strings.HasPrefix(v, "UNSAFE: ") {
		t.Errorf("verdict %q", v)
	}
	run.Directed = run.Directed[:1]
	if v := run.Verdict(c); !strings.HasPrefix(v, "UNKNOWN: ") || !strings.Contains(v, "spec-text difference: "+spec.Label) {
		t.Errorf("verdict %q: a run of one universe decides nothing of the rest of the suite", v)
	}
}
