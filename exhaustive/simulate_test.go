package exhaustive

import (
	"testing"

	"github.com/nip-rs/harness/model"
)

// ownBase and ownCanon are the two hierarchy breakages as rule sets:
// mark-unread based at the own frontier, canonicalisation at the own one.
func ownBase() *model.Rules {
	r := model.Spec()
	r.UnreadBase = func(own, _ uint32) uint32 { return own }
	return r
}

func ownCanon() *model.Rules {
	r := model.Spec()
	r.CanonicalFrontier = func(own, _ uint32) uint32 { return own }
	return r
}

// rawDead publishes every register raw (dead ones as three keys).
func rawDead() *model.Rules {
	r := model.Spec()
	r.Canonical = func(g model.Reg, _ uint32, _ bool) (model.Reg, model.Shape) {
		if g.Virgin() {
			return model.Reg{}, model.ShapeOmit
		}
		return g, model.ShapeLive
	}
	return r
}

func simCatalog() *Catalog {
	c := NewCatalog()
	c.AddRules("own-base", ownBase)
	c.AddRules("own-canon", ownCanon)
	c.AddRules("raw-dead", rawDead)
	return c
}

func TestSimulateScratch(t *testing.T) {
	cat := simCatalog()
	for _, tc := range []struct{ u, rules string }{{"hierarchy", "own-base"}, {"hierarchy", "own-canon"}, {"network-whole", "raw-dead"}, {"network", "raw-dead"}, {"hierarchy", "spec"}} {
		u, _ := cat.Universe(tc.u)
		r, _ := cat.Rules(tc.rules)
		res, err := Simulate(SimConfig{Universe: u, Rules: r, Walks: 200, Steps: 40, Seed: 1, Workers: 2})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s %s: walks %d steps %d walk %d raw %d elapsed %s", tc.u, tc.rules, res.Walks, res.Steps, res.Walk, res.RawDepth, res.Elapsed)
		if res.Witness != nil {
			rep, err := Replay(cat, res.Witness)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s depth %d reproduced %v\n%s", res.Witness.Invariant, len(res.Witness.Actions), rep.Reproduced, rep.Text)
		}
	}
}
