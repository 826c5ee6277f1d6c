package candidate

import (
	"flag"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/nip-rs/harness/internal/figfile"

	"github.com/nip-rs/harness/exhaustive"
	"github.com/nip-rs/harness/internal/num"
	"github.com/nip-rs/harness/model"
	"github.com/nip-rs/harness/witnessfile"
)

// update rewrites the golden figures under testdata/figures.
var update = flag.Bool("update", false, "rewrite the golden figures under testdata/figures")

func specTie(t model.TiePolicy) *model.Rules {
	r := model.Proposed().WithTie(t)
	r.Name = "spec"
	return r
}

// Under B the encoding world reaches exactly the production explorer's
// states, level by level, through the same transitions: the world is the
// reference universe, only the encoding is a parameter.
func TestBReproducesTheProductionExplorer(t *testing.T) {
	for _, tie := range []model.TiePolicy{model.ClearWins, model.SetWins} {
		want, err := exhaustive.Explore(exhaustive.Config{Universe: exhaustive.Reference(), Rules: specTie(tie)})
		if err != nil {
			t.Fatal(err)
		}
		got, err := Explore(Config{Universe: exhaustive.Reference(), Encoding: EncodingB{}, Rules: specTie(tie)})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got.PerDepth, want.PerDepth) || got.Transitions != want.Transitions || got.Checked != want.Checked {
			t.Errorf("tie %v: encoding world %v / %d transitions / %d checked, production %v / %d / %d", tie,
				got.PerDepth, got.Transitions, got.Checked, want.PerDepth, want.Transitions, want.Checked)
		}
		if got.Status != exhaustive.StatusOK {
			t.Errorf("tie %v: B fails in the encoding world: %v", tie, got.Witness.Text)
		}
		for _, c := range got.Invariants {
			if c.Checked == 0 {
				t.Errorf("tie %v: %s never checked", tie, c.Name)
			}
		}
		figfile.For(t, *update).Line(fmt.Sprintf(
			"reaches exactly the production explorer's states (%s per tie policy at depth %d, the same per depth, %s transitions",
			num.Commas(got.Distinct), got.Depth, num.Commas(got.Transitions)))
	}
}

// Candidate A, searched (not built by hand): the legacy rewrite erases its
// top-level field (I7) and equal counters are decided by client-id order
// (ID); its join still converges (I2) and no frontier regresses (I3). Each
// witness replays from its file, and the same steps under B hold.
func TestSearchFindsWhereAFails(t *testing.T) {
	cat := exhaustive.NewCatalog()
	var res *Result
	for _, tie := range []model.TiePolicy{model.SetWins, model.ClearWins} {
		r, err := Explore(Config{Universe: exhaustive.Reference(), Encoding: EncodingA{}, Rules: specTie(tie)})
		if err != nil {
			t.Fatal(err)
		}
		counts := map[string]exhaustive.InvariantCount{}
		for _, c := range r.Invariants {
			counts[c.Name] = c
		}
		i7, id := counts[InvLegacyRewrite], counts[InvIdentity]
		figfile.For(t, *update).Line(fmt.Sprintf(
			"%s states (%s), %s transitions; I7 fails on %s of %s publications checked, ID on %s of %s states",
			num.Commas(r.Distinct), exhaustive.PerDepthString(r.PerDepth), num.Commas(r.Transitions),
			num.Commas(i7.Violations), num.Commas(i7.Checked), num.Commas(id.Violations), num.Commas(id.Checked)))
		res = r
	}
	// The clear-wins run's verdicts and witnesses, in detail.
	violated := map[string]bool{}
	for _, c := range res.Invariants {
		if c.Checked == 0 {
			t.Errorf("%s never checked", c.Name)
		}
		violated[c.Name] = c.Violations > 0
	}
	want := map[string]bool{InvRegression: false, InvConvergence: false, InvLegacyRewrite: true, InvIdentity: true}
	for inv, v := range want {
		if violated[inv] != v {
			t.Errorf("%s violated %v, want %v", inv, violated[inv], v)
		}
	}
	if len(res.Witnesses) != 2 {
		t.Fatalf("%d witnesses, want one per violated invariant (2)", len(res.Witnesses))
	}
	for _, w := range res.Witnesses {
		if w.Encoding != "A" || len(w.Actions) != res.Depth {
			t.Errorf("%s: encoding %q, %d actions (want A, %d: checks run at the bound)", w.Invariant, w.Encoding, len(w.Actions), res.Depth)
		}
		file, err := witnessfile.Parse(w.JSON())
		if err != nil {
			t.Fatalf("%s: the witness file does not parse: %v", w.Invariant, err)
		}
		rp, err := Replay(cat, file)
		if err != nil {
			t.Fatalf("%s: replay: %v", w.Invariant, err)
		}
		if !rp.Reproduced || rp.Detail != w.Detail {
			t.Errorf("%s: replay reproduced %v, detail %q, want %q", w.Invariant, rp.Reproduced, rp.Detail, w.Detail)
		}
		asB := *file
		asB.Encoding = "B"
		if rp, err := Replay(cat, &asB); err != nil || rp.Reproduced {
			t.Errorf("%s: the same steps under B reproduce it (%v, %v): it is not A's", w.Invariant, rp, err)
		}
	}
	i7 := res.Witnesses[0]
	if i7.Invariant != InvLegacyRewrite || !strings.Contains(i7.Detail, `"overrides"`) || strings.Contains(i7.Detail[strings.Index(i7.Detail, "after a legacy rewrite"):], `"overrides"`) {
		t.Errorf("I7 witness does not show the top-level field erased: %s", i7.Detail)
	}
}

// The I7 check has teeth under B too: a legacy client that dropped ov_*
// keys (the reference model's simplification) would lose B's override.
func TestLegacyRewriteCheckCanFailUnderB(t *testing.T) {
	d := EncodingB{}.Upgraded("d0", specTie(model.ClearWins))
	d.Advance("c0", 10)
	if err := d.MarkUnread("c0"); err != nil {
		t.Fatal(err)
	}
	if diff := legacyRewriteDiff(EncodingB{}, specTie(model.ClearWins), d, cubeCtxs, model.LegacyCarry); diff != "" {
		t.Errorf("the production legacy client changes B's override: %s", diff)
	}
	if diff := legacyRewriteDiff(EncodingB{}, specTie(model.ClearWins), d, cubeCtxs, model.LegacyDropOverrides); diff == "" {
		t.Error("a legacy client dropping ov_* keys changes nothing the check sees")
	}
}

func TestReplayRefusesWhatDoesNotFit(t *testing.T) {
	cat := exhaustive.NewCatalog()
	base := func() *witnessfile.Witness {
		d := 0
		return &witnessfile.Witness{Kind: witnessfile.KindExplore, Universe: "reference", Depth: 4, Tie: "clear", Rules: "spec",
			Encoding: "A", Invariant: InvLegacyRewrite, Actions: []witnessfile.Action{{Action: "mark_unread", Device: &d, Ctx: "c0"}}}
	}
	bad := map[string]func(w *witnessfile.Witness){
		"unknown encoding":  func(w *witnessfile.Witness) { w.Encoding = "C" },
		"network universe":  func(w *witnessfile.Witness) { w.Universe = "network" },
		"unknown invariant": func(w *witnessfile.Witness) { w.Invariant = "N1-cross-device-convergence" },
		"unknown context":   func(w *witnessfile.Witness) { w.Actions[0].Ctx = "c9" },
		"legacy acts":       func(w *witnessfile.Witness) { two := 2; w.Actions[0].Device = &two },
		"no device":         func(w *witnessfile.Witness) { w.Actions[0].Device = nil },
		"wrong value": func(w *witnessfile.Witness) {
			w.Actions[0] = witnessfile.Action{Action: "advance", Device: w.Actions[0].Device, Ctx: "c0", Value: 15}
		},
		"self delivery": func(w *witnessfile.Witness) {
			z := 0
			w.Actions[0] = witnessfile.Action{Action: "deliver", From: &z, To: &z}
		},
		"unknown action": func(w *witnessfile.Witness) { w.Actions[0].Action = "rotate" },
	}
	for name, mutate := range bad {
		w := base()
		mutate(w)
		if _, err := Replay(cat, w); err == nil {
			t.Errorf("%s: replayed", name)
		}
	}
	if rp, err := Replay(cat, base()); err != nil || !rp.Reproduced {
		t.Errorf("one mark-unread under A: %v %v (I7 fails on the final state)", rp, err)
	}
}

// Interned ids depend on which worker met a state first; the counts and
// every witness must not.
func TestWorkersDoNotChangeTheResult(t *testing.T) {
	var texts []string
	for _, workers := range []int{1, 3} {
		res, err := Explore(Config{Universe: exhaustive.Reference(), Encoding: EncodingA{}, Rules: specTie(model.ClearWins), Depth: 3, Workers: workers})
		if err != nil {
			t.Fatal(err)
		}
		s := fmt.Sprint(res.PerDepth, res.Transitions, res.Checked)
		for _, w := range res.Witnesses {
			s += w.Text
		}
		texts = append(texts, s)
	}
	if texts[0] != texts[1] {
		t.Errorf("1 and 3 workers differ:\n%s\n---\n%s", texts[0], texts[1])
	}
	if !strings.Contains(texts[0], "violation "+InvLegacyRewrite) {
		t.Errorf("no I7 witness at depth 3:\n%s", texts[0])
	}
}
