package exhaustive

import (
	"fmt"
	"strings"
	"testing"

	"github.com/nip-rs/harness/internal/cli"
	"github.com/nip-rs/harness/model"
)

func TestParseSimRun(t *testing.T) {
	good := "explore -universe=reference -simulate=10 -steps=6 -seed=7 -tie=both -rules=proposed (version v)"
	r, err := ParseSimRun(good)
	if err != nil || r != (SimRun{Universe: "reference", Tie: "both", Rules: "proposed", Walks: 10, Steps: 6, Seed: 7}) {
		t.Errorf("%+v %v", r, err)
	}
	for _, bad := range []string{
		"", "explore -universe=reference", strings.TrimSuffix(good, " (version v)"),
		strings.Replace(good, "-tie=both", "-universe=x", 1),
		strings.Replace(good, "-tie=both", "-depth=3", 1),
		strings.Replace(good, "-seed=7", "-seed=-1", 1),
		strings.Replace(good, "-simulate=10", "-simulate=0", 1),
		strings.Replace(good, "-steps=6", "-steps=100000", 1),
		strings.Replace(good, "explore ", "mutate ", 1),
	} {
		if _, err := ParseSimRun(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

// A part made as the explorer makes one passes; a part whose block,
// seed, counts or status is not what its run line implies is refused.
func TestSimDocCheckPart(t *testing.T) {
	cat := NewCatalog()
	resolve := func(universe, tie, rules string) (Universe, []model.TiePolicy, *model.Rules, error) {
		u, err := cat.Universe(universe)
		if err != nil {
			return Universe{}, nil, nil, err
		}
		tl, err := model.ParseTies(tie)
		if err != nil {
			return Universe{}, nil, nil, err
		}
		r, err := cat.Rules(rules)
		return u, tl, r, err
	}
	const walks, steps, seed = 6, 5, 3
	part := func() *SimDoc {
		shard := cli.Shard{Index: 2, Count: 2}
		from, to := shard.Range(walks)
		d := &SimDoc{Run: fmt.Sprintf("explore -universe=reference -simulate=%d -steps=%d -seed=%d -tie=clear -rules=proposed (version v)", walks, steps, seed),
			Shard: &shard, Block: []int{from, to}}
		res, err := Simulate(SimConfig{Universe: Reference(), Rules: model.Proposed().WithTie(model.ClearWins), Walks: to - from, From: from, Steps: steps, Seed: seed, Workers: 1})
		if err != nil {
			t.Fatal(err)
		}
		td := SimTieDoc{Tie: "clear", Seed: res.Seed, Walks: res.Walks, Steps: res.Steps, Checked: res.Checked, Stuck: res.Stuck}
		for _, inv := range res.Invariants {
			td.Invariants = append(td.Invariants, SimInvariant{Label: inv.Label, Name: inv.Name, Doc: inv.Doc, Unit: inv.Unit, Checked: inv.Checked, Violations: inv.Violations})
		}
		d.Ties = []SimTieDoc{td}
		d.SetStatus()
		return d
	}
	if err := part().CheckPart(cat, resolve); err != nil {
		t.Fatalf("a true part: %v", err)
	}
	for name, spoil := range map[string]func(d *SimDoc){
		"block":       func(d *SimDoc) { d.Block[0]-- },
		"seed":        func(d *SimDoc) { d.Ties[0].Seed++ },
		"walks":       func(d *SimDoc) { d.Ties[0].Walks++ },
		"status":      func(d *SimDoc) { d.Status = "violation" },
		"tie":         func(d *SimDoc) { d.Ties[0].Tie = "set" },
		"two ties":    func(d *SimDoc) { d.Ties = append(d.Ties, d.Ties[0]) },
		"invariants":  func(d *SimDoc) { d.Ties[0].Invariants[0].Violations++ },
		"no shard":    func(d *SimDoc) { d.Shard = nil },
		"rules":       func(d *SimDoc) { d.Run = strings.Replace(d.Run, "-rules=proposed", "-rules=nothing", 1) },
		"large parts": func(d *SimDoc) { d.Shard.Count = walks + 1 },
	} {
		d := part()
		spoil(d)
		if err := d.CheckPart(cat, resolve); err == nil {
			t.Errorf("%s: a spoiled part passes", name)
		}
	}
}
