package exhaustive

import (
	"reflect"
	"slices"
	"testing"

	"github.com/nip-rs/harness/model"
	"github.com/nip-rs/harness/search"
)

// ownBase is the hierarchy breakage of mark-unread as a rule set: B is the
// context's own frontier, not its effective one.
func ownBase() *model.Rules {
	r := model.Proposed()
	r.UnreadBase = func(own, _ uint32) uint32 { return own }
	return r
}

func simCatalog() *Catalog {
	c := NewCatalog()
	c.AddRules("own-base", ownBase)
	return c
}

func simulateNamed(t *testing.T, cat *Catalog, universe, rules string, walks, steps, workers int) *SimResult {
	t.Helper()
	u, err := cat.Universe(universe)
	if err != nil {
		t.Fatal(err)
	}
	r, err := cat.Rules(rules)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Simulate(SimConfig{Universe: u, Rules: r, Walks: walks, Steps: steps, Seed: 11, Workers: workers})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// The production rules survive bounded walks of every universe, and the
// walks go deeper than any exhaustive bound and count what they checked.
func TestSimulateSpecIsClean(t *testing.T) {
	cat := simCatalog()
	for _, name := range []string{"hierarchy", "network", "network-whole"} {
		t.Run(name, func(t *testing.T) {
			res := simulateNamed(t, cat, name, "spec", 20, 32, 2)
			if res.Witness != nil {
				t.Fatalf("spec violates %s: %s", res.Witness.Invariant, res.Witness.Detail)
			}
			if res.Walks != 20 || res.Steps < 20*30 || res.Checked <= res.Steps {
				t.Fatalf("walks %d steps %d checked %d: the walks did not run to depth", res.Walks, res.Steps, res.Checked)
			}
			for _, inv := range res.Invariants {
				if inv.Violations != 0 {
					t.Errorf("%s: %d violations", inv.Name, inv.Violations)
				}
			}
		})
	}
}

// A broken rule set is found, the trace is shrunk to the two steps the
// violation needs, and the witness replays through Replay.
func TestSimulateShrinksAndReplays(t *testing.T) {
	cat := simCatalog()
	res := simulateNamed(t, cat, "hierarchy", "own-base", 50, 30, 2)
	if res.Witness == nil {
		t.Fatal("mark-unread based at the own frontier survived the simulation")
	}
	if res.Witness.Invariant != InvNetOracle || len(res.Witness.Actions) != 2 || res.RawDepth < len(res.Witness.Actions) {
		t.Fatalf("witness %s with %d actions (raw %d), want N3 in 2", res.Witness.Invariant, len(res.Witness.Actions), res.RawDepth)
	}
	rep, err := Replay(cat, res.Witness)
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Reproduced {
		t.Fatalf("the shrunk witness does not reproduce: %v", rep.Found)
	}
}

// The result, witness and coverage included, is a function of the seed:
// the same at one and at three workers.
func TestSimulateIsTheSameForAnyWorkerCount(t *testing.T) {
	cat := simCatalog()
	for _, rules := range []string{"spec", "own-base"} {
		a := simulateNamed(t, cat, "hierarchy", rules, 12, 30, 1)
		b := simulateNamed(t, cat, "hierarchy", rules, 12, 30, 3)
		a.Elapsed, b.Elapsed = 0, 0
		if !reflect.DeepEqual(a, b) {
			t.Fatalf("%s: one worker %+v, three workers %+v", rules, a, b)
		}
	}
}

func TestSimulateRejectsEmptyRuns(t *testing.T) {
	if _, err := Simulate(SimConfig{Universe: HierarchyUniverse(), Walks: 0, Steps: 5}); err == nil {
		t.Fatal("zero walks accepted")
	}
	if _, err := Simulate(SimConfig{Universe: HierarchyUniverse(), Walks: 3, Steps: 0}); err == nil {
		t.Fatal("zero steps accepted")
	}
}

// traceOf resolves actions into w's transitions from its initial state.
func traceOf(t *testing.T, w *netWorld, actions []Action) []int {
	t.Helper()
	c := w.NewWorker()
	cur := slices.Clone(w.Initial(c))
	next := make([]int32, len(cur))
	var trace []int
	for _, a := range actions {
		tr, err := w.resolve(cur, a)
		if err != nil {
			t.Fatal(err)
		}
		if ok, _ := w.Successor(c, cur, tr, next, w.scratch()); !ok {
			t.Fatalf("%s not enabled", a)
		}
		copy(cur, next)
		trace = append(trace, tr)
	}
	return trace
}

// actionsOf names a trace's steps.
func actionsOf(w *netWorld, trace []int) []string {
	c := w.NewWorker()
	cur := slices.Clone(w.Initial(c))
	next := make([]int32, len(cur))
	var names []string
	for _, tr := range trace {
		names = append(names, w.actionOf(cur, tr).String())
		w.Successor(c, cur, tr, next, w.scratch())
		copy(cur, next)
	}
	return names
}

// Shrinking lowers a step's parameter as well as deleting steps: a
// violation shown through the second message on a channel is reported
// through the first where the first shows it too, and the steps it then
// does not need are gone.
func TestShrinkLowersValues(t *testing.T) {
	u := HierarchyUniverse()
	// Every stored register published raw, as three keys (the change of
	// the canonical-publication rule the gate's M7 makes).
	rules := model.Proposed()
	rules.Canonical = func(g model.Reg, _ uint32, _ bool) (model.Reg, model.Shape) {
		if g.Virgin() {
			return model.Reg{}, model.ShapeOmit
		}
		return g, model.ShapeLive
	}
	wo, _, err := newWorld(&u, rules, 10, false)
	if err != nil {
		t.Fatal(err)
	}
	w := wo.(*netWorld)
	trace := traceOf(t, w, []Action{
		{Kind: KindAdvance, Device: 2, Ctx: hierChannel, Value: 10},
		{Kind: KindPublish, Device: 2},
		{Kind: KindAdvance, Device: 2, Ctx: hierChannel, Value: 20},
		{Kind: KindPublish, Device: 2},
		{Kind: KindMarkUnread, Device: 0, Ctx: hierMsg},
		{Kind: KindDuplicate, From: 2, Device: 0, Msg: 2},
		{Kind: KindPublish, Device: 0},
	})
	inv := slices.IndexFunc(w.Invariants(), func(i search.Invariant) bool { return i.ID == InvNetCanonical })
	if _, ok := fails(w, w.NewWorker(), trace, inv); !ok {
		t.Fatal("the built trace does not show N7")
	}
	got := actionsOf(w, shrink(w, trace, inv))
	want := []string{"advance d2 chan 10", "publish d2", "mark_unread d0 " + hierMsg, "duplicate d2->d0 msg 1", "publish d0"}
	if !slices.Equal(got, want) {
		t.Fatalf("shrunk to %q,\nwant %q", got, want)
	}
}
