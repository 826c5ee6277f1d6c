package catalog

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nip-rs/harness/internal/shortrun"
	"github.com/nip-rs/harness/mutants"
	"github.com/nip-rs/harness/ruleset"
	"github.com/nip-rs/harness/search"
	"github.com/nip-rs/harness/witnessfile"
)

// smallDepth is the bound every entry is explored to here: enough to
// leave the initial state and branch, small enough for the largest
// universe to finish in seconds.
const smallDepth = 2

// TestEveryEntryExplores explores every entry at a small bound under the
// text's rules and under proposed: each finishes (no state limit), stores
// more states at depth 2 than at depth 1 and more than one at depth 1,
// reports its own name, layer and bound, and a witness it finds replays
// through the entry ForWitness picks for the file.
func TestEveryEntryExplores(t *testing.T) {
	seen := map[string]bool{}
	for _, e := range All() {
		if seen[e.Name] || e.Name == "" || e.Doc == "" || e.Kind == "" || e.Depth < 1 {
			t.Errorf("entry %+v: duplicate or incomplete", e.Name)
		}
		seen[e.Name] = true
		for _, rules := range []ruleset.Set{ruleset.Spec(), ruleset.Proposed()} {
			t.Run(e.Name+"/"+rules.Name, func(t *testing.T) {
				one, err := e.Explore(rules, Bound{Depth: 1, Workers: 2})
				if err != nil {
					t.Fatal(err)
				}
				two, err := e.Explore(rules, Bound{Depth: smallDepth, Workers: 2})
				if err != nil {
					t.Fatal(err)
				}
				if one.Distinct <= 1 || two.Distinct <= one.Distinct {
					t.Errorf("%d states at depth 1, %d at depth %d", one.Distinct, two.Distinct, smallDepth)
				}
				if two.Entry != e.Name || two.Layer != e.Layer || two.Depth != smallDepth || two.Rules != rules.Name {
					t.Errorf("summary names %s/%s/%d/%s", two.Entry, two.Layer, two.Depth, two.Rules)
				}
				if two.Status == search.StatusUnknown {
					t.Errorf("unknown at depth %d: %s", smallDepth, two.BoundHit)
				}
				if (two.Status == search.StatusViolation) != (len(two.Violations) > 0) {
					t.Errorf("status %v with violations %v", two.Status, two.Violations)
				}
				if two.JSON != nil {
					replayed(t, rules, two)
				}
			})
		}
	}
}

// replayed parses a summary's witness file, finds its entry and replays it
// under the same rules: the invariant fails again.
func replayed(t *testing.T, rules ruleset.Set, s *Summary) {
	t.Helper()
	w, err := witnessfile.Parse(s.JSON)
	if err != nil {
		t.Fatalf("witness file: %v", err)
	}
	e, err := ForWitness(w)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := e.Replay(rules, w)
	if err != nil || !rep.Reproduced {
		t.Errorf("replay through %s under %s: err %v, reproduced %v", e.Name, rules.Name, err, rep != nil && rep.Reproduced)
	}
}

// TestMutantsCaughtThroughTheCatalogue: a mutant of each layer is caught
// by an entry of that layer, and its witness replays through the
// catalogue under the mutant and not under the text.
func TestMutantsCaughtThroughTheCatalogue(t *testing.T) {
	// In full each entry is explored to its own depth, the walk's being
	// most of this package's time; each of these mutants is caught within
	// four actions, so the quick gate stops there and still requires the
	// catch and both replays.
	var depth int
	if shortrun.On(t, "each entry explored to depth 4, not its own depth") {
		depth = 4
	}
	for _, tc := range []struct{ mutant, entry string }{{"K1", "epochs"}, {"H2", "walk"}, {"M6", "reference"}} {
		m, ok := mutants.Lookup(tc.mutant)
		if !ok {
			t.Fatalf("no mutant %s", tc.mutant)
		}
		e, err := Lookup(tc.entry)
		if err != nil {
			t.Fatal(err)
		}
		s, err := e.Explore(m.Set(), Bound{Depth: depth, Workers: 2})
		if err != nil {
			t.Fatal(err)
		}
		if s.Status != search.StatusViolation || s.JSON == nil {
			t.Errorf("%s in %s: status %v, no witness", tc.mutant, tc.entry, s.Status)
			continue
		}
		replayed(t, m.Set(), s)
		w, _ := witnessfile.Parse(s.JSON)
		if rep, err := e.Replay(ruleset.Spec(), w); err != nil || rep.Reproduced {
			t.Errorf("%s's witness under spec: err %v, reproduced %v", tc.mutant, err, rep != nil && rep.Reproduced)
		}
	}
}

// TestRefusals: what an entry cannot do is an error, never a panic.
func TestRefusals(t *testing.T) {
	if _, err := Lookup("nonesuch"); err == nil || !strings.Contains(err.Error(), "reference") {
		t.Errorf("unknown universe: %v", err)
	}
	if e, err := LookupVariant("walk", "ties"); err != nil || e.Name != "walk-ties" {
		t.Errorf("walk -variant ties: %v %v", e.Name, err)
	}
	if _, err := LookupVariant("reference", "ties"); err == nil {
		t.Error("a variant of a universe without variants")
	}
	for _, e := range All() {
		if _, err := e.Explore(ruleset.Set{Name: "empty"}, Bound{Depth: 1}); err == nil {
			t.Errorf("%s: a rule set without its layer explored", e.Name)
		}
		if _, err := e.Explore(ruleset.Spec(), Bound{Depth: -1}); err == nil {
			t.Errorf("%s: a negative depth explored", e.Name)
		}
		if _, err := e.Replay(ruleset.Spec(), &witnessfile.Witness{Kind: "nonesuch"}); err == nil {
			t.Errorf("%s: a witness of another kind replayed", e.Name)
		}
	}
	epochs, _ := Lookup("epochs")
	if _, err := epochs.Simulate(ruleset.Spec(), SimBound{Walks: 1, Steps: 3}); !errors.Is(err, ErrUnsupported) {
		t.Errorf("community simulation: %v", err)
	}
	variant, _ := Lookup("walk-ties")
	if _, err := variant.Replay(ruleset.Spec(), &witnessfile.Witness{Kind: variant.Kind}); !errors.Is(err, ErrUnsupported) {
		t.Errorf("a variant's replay (the walk entry's): %v", err)
	}
}

// TestSimulate: an entry that simulates reports a sample as unknown
// unless it met a violation; the walk's known limitation under the text
// is reported apart, and is no violation.
func TestSimulate(t *testing.T) {
	ref, _ := Lookup("reference")
	s, err := ref.Simulate(ruleset.Proposed(), SimBound{Walks: 20, Steps: 6, Seed: 1, Workers: 2})
	if err != nil || s.Status != search.StatusUnknown || s.Distinct == 0 {
		t.Errorf("reference under proposed: %+v %v", s, err)
	}
	walk, _ := Lookup("walk")
	s, err = walk.Simulate(ruleset.Spec(), SimBound{Walks: 300, Steps: 20, Seed: 1})
	if err != nil || s.Status != search.StatusUnknown || len(s.Violations) != 0 || len(s.Documented) == 0 || s.Text == "" {
		t.Errorf("walk under spec: %+v %v", s, err)
	}
}

// TestReplayNamed: the mutants' golden witnesses of every universe kind
// replay through the catalogue under the rule set each file names, and a
// kind no universe writes is refused.
func TestReplayNamed(t *testing.T) {
	c := Standard()
	for _, file := range []string{"K1.clear.json", "K20.set.json", "H4.clear.json", "M6.clear.explore.json"} {
		data, err := os.ReadFile(filepath.Join("..", "mutants", "testdata", file))
		if err != nil {
			t.Fatal(err)
		}
		w, err := witnessfile.Parse(data)
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		if !c.Writes(w.Kind) {
			t.Errorf("%s: kind %s is not a universe's", file, w.Kind)
		}
		if _, err := c.ForWitness(w); err != nil {
			t.Errorf("%s: %v", file, err)
		}
		rep, err := c.ReplayNamed(w)
		if err != nil || !rep.Reproduced {
			t.Errorf("%s: err %v, reproduced %v", file, err, rep != nil && rep.Reproduced)
		}
	}
	if c.Writes(witnessfile.KindDirected) {
		t.Error("a directed witness counted as a universe's")
	}
	if _, err := c.ReplayNamed(&witnessfile.Witness{Kind: witnessfile.KindDirected}); !errors.Is(err, witnessfile.ErrBad) {
		t.Errorf("a directed witness: %v", err)
	}
}

// A variant's entry name gives the variant; another universe's name, an
// unknown variant or the walk itself gives none.
func TestWalkVariantOf(t *testing.T) {
	c := Standard()
	if v, ok := c.WalkVariantOf("walk-ties"); !ok || v != "ties" {
		t.Errorf("walk-ties: %q, %v", v, ok)
	}
	for _, name := range []string{"walk", "walk-nonesuch", "reference", "epochs", "walkties"} {
		if v, ok := c.WalkVariantOf(name); ok {
			t.Errorf("%s: variant %q", name, v)
		}
	}
}

// WitnessText is a found witness's own text, or its replay's for one
// read back without it.
func TestWitnessText(t *testing.T) {
	c := Standard()
	e, err := c.Lookup("walk")
	if err != nil {
		t.Fatal(err)
	}
	rules, _ := WalkRules("H4")
	s, err := e.Explore(ruleset.Set{Name: "H4", History: rules}, Bound{Depth: 5, Workers: 1})
	if err != nil || s.Witness == nil {
		t.Fatalf("the walk under H4: %v, witness %v", err, s.Witness)
	}
	found, err := c.WitnessText(s.Witness)
	if err != nil || found == "" {
		t.Fatalf("found: %q, %v", found, err)
	}
	w := *s.Witness
	w.Text = ""
	replayed, err := c.WitnessText(&w)
	if err != nil || replayed == "" {
		t.Errorf("replayed: %q, %v", replayed, err)
	}
	if w.Text = "stored"; func() string { t, _ := c.WitnessText(&w); return t }() != "stored" {
		t.Error("a witness's own text is not the one rendered")
	}
}
