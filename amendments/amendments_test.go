package amendments

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/nip-rs/harness/directed"
	"github.com/nip-rs/harness/exhaustive"
	"github.com/nip-rs/harness/model"
	"github.com/nip-rs/harness/mutants"
)

func TestRegisterNamesEveryAmendment(t *testing.T) {
	cat := exhaustive.NewCatalog()
	mutants.Register(cat)
	Register(cat)
	for _, a := range All() {
		r, err := cat.Rules(a.Name)
		if err != nil {
			t.Fatalf("%s: %v", a.Name, err)
		}
		if r.Name != a.Name || a.Title == "" || a.Section == "" || a.Rationale == "" {
			t.Errorf("%s: incomplete (rules named %q)", a.Name, r.Name)
		}
		if _, ok := mutants.Lookup(a.Name); ok {
			t.Errorf("%s is also a mutant id", a.Name)
		}
	}
	if _, ok := Lookup("nonesuch"); ok {
		t.Error("Lookup found a name no amendment has")
	}
}

// The B := max(oldB, F) amendment decides mark-unread as mutant M17 does,
// on every register of a small domain: it is the same rule change.
func TestBMaxFrontierIsM17(t *testing.T) {
	a, _ := Lookup("b-max-frontier")
	m, ok := mutants.Lookup("M17")
	if !ok {
		t.Fatal("no mutant M17")
	}
	got, want := a.Rules(model.ClearWins), m.Rules()
	differs := 0
	for s := uint32(0); s < 3; s++ {
		for c := uint32(0); c < 3; c++ {
			for _, b := range []uint32{0, 10, 20, model.MaxU32} {
				for _, f := range []uint32{0, 10, 15, 20} {
					g := model.Reg{S: s, C: c, B: b}
					x, xe := got.MarkUnread(g, f, true)
					y, ye := want.MarkUnread(g, f, true)
					if x != y || (xe == nil) != (ye == nil) {
						t.Errorf("mark-unread %v at %d: amendment %v, M17 %v", g, f, x, y)
					}
					if z, _ := model.Proposed().MarkUnread(g, f, true); z != x {
						differs++
					}
				}
			}
		}
	}
	if differs == 0 {
		t.Error("the amendment never decides otherwise than spec on the domain")
	}
}

func TestSetWinsEverywherePinsItsTie(t *testing.T) {
	a, _ := Lookup("set-wins-everywhere")
	if r := a.Rules(model.ClearWins); r.Tie != model.SetWins {
		t.Errorf("tie %s, want set", r.Tie)
	}
	if ts := a.Ties([]model.TiePolicy{model.ClearWins, model.SetWins}); len(ts) != 1 || ts[0] != model.SetWins {
		t.Errorf("ties %v", ts)
	}
	if a.Baseline(model.SetWins).Tie != model.ClearWins {
		t.Error("the baseline of a tie amendment is the spec's own policy")
	}
}

// Diff records exactly the inputs decided otherwise, and the wrapped rules
// decide as the amended ones do.
func TestDiffCountsDifferingInputs(t *testing.T) {
	tie := model.Reg{S: 1, C: 1, B: 10}
	for _, tc := range []struct {
		name    string
		amended *model.Rules
		differs int
	}{
		{"spec against itself", model.Proposed(), 0},
		{"set-wins against spec", model.Proposed().WithTie(model.SetWins), 1},
	} {
		var d Diff
		r := d.Wrap(tc.amended, model.Proposed())
		for range 3 {
			if got, want := r.Live(tie, 10, r.Tie), tc.amended.Live(tie, 10, tc.amended.Tie); got != want {
				t.Errorf("%s: wrapped verdict %t, amended %t", tc.name, got, want)
			}
			r.Live(model.Reg{}, 10, r.Tie)
		}
		if d.Differs() != tc.differs {
			t.Errorf("%s: %d differing, want %d (%s)", tc.name, d.Differs(), tc.differs, &d)
		}
		if cs := d.Counts(); len(cs) != 1 || cs[0].Rule != "verdict" || cs[0].Inputs != 2 {
			t.Errorf("%s: counts %+v", tc.name, cs)
		}
		if tc.differs > 0 && !strings.Contains(d.String(), "register (S, C, B) = (1, 1, 10) at frontier 10: proposed says inactive, the amendment says active") {
			t.Errorf("%s: no example in %q", tc.name, &d)
		}
	}
}

// Refusing a mark-unread on a context never read is safe and differs from
// the spec's text: every directed check asserting safety holds under it,
// bounded-growth included (it scripts a first mark-unread on a context
// never read), and C6 alone, a spec-text check, objects; the refusal sees
// "never read" where f = 0 alone could not.
func TestRefuseUnreadNeverReadIsSafeWithASpecTextDifference(t *testing.T) {
	a, ok := Lookup("refuse-unread-never-read")
	if !ok {
		t.Fatal("no amendment refuse-unread-never-read")
	}
	r := a.Rules(model.ClearWins)
	if _, err := r.MarkUnread(model.Reg{}, 0, false); !errors.Is(err, ErrNeverRead) {
		t.Errorf("never read: %v, want a refusal", err)
	}
	if g, err := r.MarkUnread(model.Reg{}, 0, true); err != nil || g != (model.Reg{S: 1}) {
		t.Errorf("read to 0: %v %v, want (1,0,0)", g, err)
	}
	var differs []string
	for _, s := range directed.Summarize(directed.RunSuite(r, []model.TiePolicy{model.ClearWins, model.SetWins}, 0, nil)) {
		for tie, v := range s.Violations {
			if v == 0 {
				continue
			}
			if s.Class != directed.ClassSpecText {
				t.Errorf("safety check %s fails under %s: %s", s.Key, tie, s.Witnesses[0].DirectedText())
			}
			differs = append(differs, s.Key)
		}
	}
	if !slices.Equal(differs, []string{"action-conformance", "action-conformance"}) {
		t.Errorf("spec-text differences %v, want action-conformance under each tie", differs)
	}
}

// An amendment that decides ties by set-wins differs from the text's
// clear-wins by construction, which no conformance check can see (each
// runs under the amendment's own policy): it says so itself; the others
// declare nothing.
func TestTextDifferences(t *testing.T) {
	for _, a := range All() {
		d := a.TextDifferences()
		if want := a.Pinned && a.Tie == model.SetWins; (len(d) == 1) != want {
			t.Errorf("%s: text differences %q", a.Name, d)
		}
	}
}

// A side of a difference search runs under the tie asked for, unless it
// is an amendment that decides ties itself.
func TestRulesUnder(t *testing.T) {
	cat := exhaustive.NewCatalog()
	if err := Register(cat); err != nil {
		t.Fatal(err)
	}
	for _, a := range All() {
		r, err := RulesUnder(cat, a.Name, model.SetWins)
		if err != nil {
			t.Fatal(err)
		}
		want := model.SetWins
		if a.Pinned {
			want = a.Tie
		}
		if r.Tie != want {
			t.Errorf("%s: tie %s, want %s", a.Name, r.Tie, want)
		}
	}
	if r, err := RulesUnder(cat, "spec", model.SetWins); err != nil || r.Tie != model.SetWins {
		t.Errorf("spec: %v %v", r, err)
	}
	if _, err := RulesUnder(cat, "nothing", model.SetWins); err == nil {
		t.Error("an unknown name resolved")
	}
}
