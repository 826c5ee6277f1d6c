package history

import (
	"fmt"
	"strings"
	"testing"

	"github.com/nip-rs/harness/internal/figfile"

	"github.com/nip-rs/harness/internal/num"
	"github.com/nip-rs/harness/internal/shortrun"
	"github.com/nip-rs/harness/search"
)

// neverSealed is Spec with a bottomed older page that never seals the
// channel: every state it reaches is right, so only the liveness check
// sees that its walk never ends.
func neverSealed() *Rules {
	r := Spec()
	r.Name = "never-sealed"
	r.Exhausted = func(int, bool) bool { return false }
	return r
}

// livenessRun is one run of the liveness check: a universe under rules.
type livenessRun struct {
	name  string
	u     UniverseConfig
	rules *Rules
}

// livenessRuns are the runs testdata/figures pins: the default universe at depth
// 5, the plateau and backdate variants at their gate depths, under the
// document's rules, Healing and the proposal; and the mutant at depth 3.
func livenessRuns() []livenessRun {
	type run = livenessRun
	var out []run
	def := DefaultUniverse()
	def.Depth = 5
	us := []NamedUniverse{{"default", def}}
	for _, v := range GateVariants() {
		if v.Name == "plateau" || v.Name == "backdate" {
			us = append(us, v)
		}
	}
	for _, v := range us {
		for _, r := range []*Rules{Spec(), Healing(), Proposed()} {
			out = append(out, run{v.Name, v.U, r})
		}
	}
	def.Depth = 3
	return append(out, run{"default", def, neverSealed()})
}

func livenessRow(r *LivenessResult) string {
	return fmt.Sprintf("| %s | %d | %s | %s | %s | %s | %s | %s | %s | %d |", r.Universe, r.Depth, r.Rules, r.Status,
		num.Commas(r.Roots), num.Commas(r.States), num.Commas(r.Edges), num.Commas(r.Ends),
		num.Commas(r.InProgress), r.Cyclic)
}

// TestWalkLivenessNoteTable: the pinned table is what the check computes,
// every run met its premise, and every lasso replays under its rules.
func TestWalkLivenessNoteTable(t *testing.T) {
	runs := livenessRuns()
	// The quick gate checks the same premises on the default universe at
	// depth 3 under each rule set (the mutant's run, with its lasso,
	// among them); a table of other runs is not the pinned one, so it is
	// not compared.
	sec := &figfile.Figures{}
	if shortrun.On(t, "the default universe at depth 3 only, the pinned table not compared") {
		var small []livenessRun
		for _, r := range runs {
			if r.name == "default" {
				r.u.Depth = 3
				small = append(small, r)
			}
		}
		runs = small
	} else {
		sec = figfile.For(t, *update)
	}
	for _, run := range runs {
		res, err := Liveness(run.name, run.u, run.rules, 0)
		if err != nil {
			t.Fatal(err)
		}
		sec.Line(livenessRow(res))
		if res.InProgress == 0 || res.Components == 0 {
			t.Errorf("%s/%s: nothing tested", run.name, run.rules.Name)
		}
		if (res.Status == search.StatusViolation) != (res.Witness != nil) {
			t.Errorf("%s/%s: status %v with witness %v", run.name, run.rules.Name, res.Status, res.Witness != nil)
		}
		if res.Witness != nil {
			if _, err := ReplayLasso(res.Witness, run.rules); err != nil {
				t.Errorf("%s/%s: the lasso does not replay: %v", run.name, run.rules.Name, err)
			}
		}
	}
}

// TestNeverSealedOnlyLiveness: the mutant trips no safety check of the
// walk in the universes a mutant of the document's rules is explored in,
// and the liveness check's lasso holds under it and not under the
// document's rules.
func TestNeverSealedOnlyLiveness(t *testing.T) {
	ov := OverlapUniverse()
	ov.Depth = 4
	def := DefaultUniverse()
	def.Depth = shortrun.Size(t, def.Depth, 5)
	for _, u := range []UniverseConfig{def, ov} {
		out, err := Explore(u, neverSealed(), ReportGate, 0, true)
		if err != nil {
			t.Fatal(err)
		}
		if out.Witness != nil {
			t.Fatalf("a safety check caught the mutant: %s %s", out.Witness.Invariant, out.Witness.Detail)
		}
	}
	u := DefaultUniverse()
	u.Depth = 3
	res, err := Liveness("default", u, neverSealed(), 0)
	if err != nil || res.Witness == nil {
		t.Fatalf("the liveness check missed the mutant: %v", err)
	}
	text, err := ReplayLasso(res.Witness, neverSealed())
	if err != nil || !strings.Contains(text, "the loop returns to its first state") {
		t.Fatalf("replay: %v\n%s", err, text)
	}
	if _, err := ReplayLasso(res.Witness, Spec()); err == nil {
		t.Error("the mutant's lasso also holds under the document's rules")
	}
}

// TestReplayLassoRejects: a loop that does not close, and a round that
// ends the walk, are refused with the step named.
func TestReplayLassoRejects(t *testing.T) {
	u := DefaultUniverse()
	u.Depth = 3
	res, err := Liveness("default", u, neverSealed(), 0)
	if err != nil || res.Witness == nil {
		t.Fatal("no lasso to alter")
	}
	open := *res.Witness
	open.Loop = append([]int{tPublish0}, open.Loop...)
	if _, err := ReplayLasso(&open, neverSealed()); err == nil || !strings.Contains(err.Error(), "not a round") {
		t.Errorf("a publication inside the loop: %v", err)
	}
	empty := *res.Witness
	empty.Loop = nil
	if _, err := ReplayLasso(&empty, neverSealed()); err == nil {
		t.Error("an empty loop replayed")
	}
}

// pinRestarts is the proposal with its pin back to the page's own count
// at the second (PinHeld off): every round asks a wide second at the
// same limits.
func pinRestarts() *Rules {
	r := Proposed()
	r.Name = "pin-restarts"
	r.PinHeld = Spec().PinHeld
	return r
}

// TestPinRestartsOnlyLiveness: with PinHeld reverted the backdate
// variant at its gate depth trips no safety check, and the liveness check
// finds a lasso that replays under the reverted rule and not under the
// proposal, where the next round asks the second above what it holds.
func TestPinRestartsOnlyLiveness(t *testing.T) {
	var u UniverseConfig
	for _, v := range GateVariants() {
		if v.Name == "backdate" {
			u = v.U
		}
	}
	if u.Depth == 0 {
		t.Fatal("no backdate variant")
	}
	// One round fewer still holds the lasso, at a fifth of the states.
	u.Depth = shortrun.Size(t, u.Depth, u.Depth-1)
	out, err := Explore(u, pinRestarts(), ReportGate, 0, true)
	if err != nil {
		t.Fatal(err)
	}
	if out.Witness != nil {
		t.Fatalf("a safety check caught the mutant: %s %s", out.Witness.Invariant, out.Witness.Detail)
	}
	res, err := Liveness("backdate", u, pinRestarts(), 0)
	if err != nil || res.Witness == nil {
		t.Fatalf("the liveness check missed the mutant: %v", err)
	}
	text, err := ReplayLasso(res.Witness, pinRestarts())
	if err != nil || !strings.Contains(text, "the loop returns to its first state") {
		t.Fatalf("replay: %v\n%s", err, text)
	}
	if _, err := ReplayLasso(res.Witness, Proposed()); err == nil {
		t.Error("the mutant's lasso also holds under the proposal")
	}
}

// TestLassoFileRoundTrip: a lasso written and read back is the same lasso
// under the same rule set, and a file of another kind, with an unknown
// field or a step outside the universe is refused.
func TestLassoFileRoundTrip(t *testing.T) {
	u := DefaultUniverse()
	u.Depth = 3
	res, err := LivenessToFirst("default", u, neverSealed(), 0)
	if err != nil || res.Witness == nil {
		t.Fatalf("no lasso: %v", err)
	}
	data := res.Witness.JSON("never-sealed")
	back, rules, err := ParseLasso(data)
	if err != nil || rules != "never-sealed" || string(back.JSON(rules)) != string(data) {
		t.Fatalf("round trip: %v, rules %q\n%s", err, rules, data)
	}
	if _, err := ReplayLasso(back, neverSealed()); err != nil {
		t.Fatalf("the read lasso does not replay: %v", err)
	}
	for _, bad := range []string{
		strings.Replace(string(data), `"walk-liveness"`, `"history"`, 1),
		strings.Replace(string(data), `"detail"`, `"extra": 1, "detail"`, 1),
		strings.Replace(string(data), `"loop": [`, `"loop": [99999, `, 1),
		`{"kind": "walk-liveness"}`,
		`not json`,
	} {
		if _, _, err := ParseLasso([]byte(bad)); err == nil {
			t.Errorf("accepted:\n%s", bad)
		}
	}
}
