package exhaustive

import (
	"reflect"
	"testing"

	"github.com/nip-rs/harness/model"
)

// ownBase is the hierarchy breakage of mark-unread as a rule set: B is the
// context's own frontier, not its effective one.
func ownBase() *model.Rules {
	r := model.Spec()
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
