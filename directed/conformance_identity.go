package directed

import (
	"fmt"
	"slices"
	"strings"

	"github.com/nip-rs/harness/model"
)

// Conformance of event identity: created_at under clock skew (Clock Skew),
// which coordinates a read-before-write publishes to (d Tag, Fetching,
// Writing), and which coordinates may be deleted (Client-ID Rotation,
// Orphaned Blob Deletion).

// skewCase is one publish at slotA: the local clock and the created_at of
// the versions fetched (at slotA, or at another coordinate).
type skewCase struct {
	name    string
	now     int64
	atSlot  []int64
	atOther []int64
	want    int64
}

// skewCases: the spec's Clock Skew Vector, and the rule's edges: a
// created_at at or below the newest fetched one at the same d tag becomes
// that one plus 1; versions at other coordinates do not count.
var skewCases = []skewCase{
	{"spec vector", 1700001200, []int64{1700001000, 1700001500}, nil, 1700001501},
	{"clock ahead", 1700002000, []int64{1700001000, 1700001500}, nil, 1700002000},
	{"clock equal to the newest", 1700001500, []int64{1700001500}, nil, 1700001501},
	{"clock one past the newest", 1700001501, []int64{1700001500}, nil, 1700001501},
	{"nothing fetched", 1700001200, nil, nil, 1700001200},
	{"newer version elsewhere only", 1700001200, nil, []int64{1700009999}, 1700001200},
	{"newer version elsewhere too", 1700001200, []int64{1700001300}, []int64{1700009999}, 1700001301},
	{"clock at zero", 0, []int64{0}, nil, 1},
}

const (
	slotA = "aaa111aaa111aaa111aaa111aaa111aa"
	slotB = "bbb222bbb222bbb222bbb222bbb222bb"
	slotC = "ccc333ccc333ccc333ccc333ccc333cc"
	slotD = "ddd444ddd444ddd444ddd444ddd444dd"
)

func skewNames() []string {
	var out []string
	for _, c := range skewCases {
		out = append(out, c.name)
	}
	return out
}

// clockSkewConformance (tie-independent): model.CreatedAtFor through the
// rules gives each case's created_at.
func clockSkewConformance() *Check {
	return &Check{
		Key: "clock-skew-conformance", Label: "C3", Name: "created_at past every fetched version at the d tag",
		Params: []Param{{Name: "case", Enum: skewNames()}}, TieIndependent: true,
		Cube: func(*model.Rules) []Point { return product(seq(len(skewCases))) },
		Prepare: func(rules *model.Rules) func(Point) Outcome {
			return func(p Point) Outcome {
				c := skewCases[p[0]]
				var fetched []model.FetchedBlob
				for _, t := range c.atSlot {
					fetched = append(fetched, model.FetchedBlob{Relay: "r1", Slot: slotA, CreatedAt: t})
				}
				for _, t := range c.atOther {
					fetched = append(fetched, model.FetchedBlob{Relay: "r1", Slot: slotB, CreatedAt: t})
				}
				if got := model.CreatedAtFor(rules, c.now, fetched, slotA); got != c.want {
					return Outcome{Violation: "C3-clock-skew", Detail: fmt.Sprintf("%s: clock %d, fetched at the d tag %v, elsewhere %v: created_at %d, want %d",
						c.name, c.now, c.atSlot, c.atOther, got, c.want)}
				}
				return Outcome{}
			}
		},
	}
}

// identityCase is a read-before-write by client-A (primary slotA,
// additional slotB) over fetched versions, each a (slot, client_id) with
// one frontier entry named after it.
type identityCase struct {
	name    string
	fetched [][2]string
	// avoid lists the slots the plan must not publish to; primary says
	// whether it must still publish to slotA.
	avoid   []string
	primary bool
}

// identityCases: the spec's Conflict Detection Vector and each other role
// a fetched version can have. Every readable version is merged; writes go
// only to coordinates holding this client_id that the client knows as its
// own (Writing), never to a conflicted one (d Tag) nor to an orphan
// (Writing).
var identityCases = []identityCase{
	{"conflict at the primary (spec vector)", [][2]string{{slotA, "client-B"}}, []string{slotA}, false},
	{"own primary", [][2]string{{slotA, "client-A"}}, nil, true},
	{"conflict at an additional coordinate", [][2]string{{slotA, "client-A"}, {slotB, "client-B"}}, []string{slotB}, true},
	{"orphan of this client_id", [][2]string{{slotA, "client-A"}, {slotC, "client-A"}}, []string{slotC}, true},
	{"peer", [][2]string{{slotA, "client-A"}, {slotD, "client-B"}}, []string{slotD}, true},
}

func identityNames() []string {
	var out []string
	for _, c := range identityCases {
		out = append(out, c.name)
	}
	return out
}

// identityBudget makes the case's state need an additional coordinate, so
// that a conflicted one would be written if it were not given up.
var identityBudget = model.Budget{PlaintextBytes: 240}

// identityConformance (tie-independent): model.Replica.PlanPublish through
// the rules merges every fetched version and publishes only where the case
// allows.
func identityConformance() *Check {
	return &Check{
		Key: "identity-conformance", Label: "C4", Name: "read-before-write writes only own, unconflicted coordinates",
		Params: []Param{{Name: "case", Enum: identityNames()}}, TieIndependent: true,
		Cube: func(*model.Rules) []Point { return product(seq(len(identityCases))) },
		Prepare: func(rules *model.Rules) func(Point) Outcome {
			return func(p Point) Outcome {
				c := identityCases[p[0]]
				rep := fresh(rules, "client-A")
				for i := range 12 {
					rep.Advance(fmt.Sprintf("own-%02d", i), uint32(100+i)) // two coordinates' worth
				}
				var fetched []model.FetchedBlob
				for i, f := range c.fetched {
					ctx := "from-" + f[0][:3] + "-" + f[1]
					fetched = append(fetched, model.FetchedBlob{Relay: "r1", Slot: f[0], CreatedAt: int64(1000 + i), ID: fmt.Sprintf("%064x", i+1),
						Blob: model.Blob{V: 1, ClientID: f[1], Contexts: []model.Entry{{Key: ctx, Value: uint32(10 + i)}}}})
				}
				next := 0
				fresh := []string{"eee555eee555eee555eee555eee555ee", "fff666fff666fff666fff666fff666ff"}
				plan, err := rep.PlanPublish(model.WriteInput{
					Self:    model.Self{ClientID: "client-A", Primary: slotA, Additional: []string{slotB}},
					Fetched: fetched, Now: 2000, Budget: identityBudget, Complete: true,
					NewSlot: func() (string, error) { next++; return fresh[(next-1)%len(fresh)], nil },
				})
				if err != nil {
					return Outcome{Violation: "C4-identity-plan-refused", Detail: fmt.Sprintf("%s: %v", c.name, err)}
				}
				var slots []string
				for _, ev := range plan.Events {
					slots = append(slots, ev.Slot)
				}
				for _, s := range c.avoid {
					if slices.Contains(slots, s) {
						return Outcome{Violation: "C4-identity-wrong-coordinate", Detail: fmt.Sprintf("%s: publishes to %s (plan writes %s)", c.name, s, strings.Join(slots, ", "))}
					}
				}
				if c.primary && (len(slots) == 0 || slots[0] != slotA) {
					return Outcome{Violation: "C4-identity-wrong-coordinate", Detail: fmt.Sprintf("%s: primary written to %v, want %s", c.name, slots, slotA)}
				}
				for i, f := range fetched {
					if ctx := f.Blob.Contexts[0].Key; rep.Frontier(ctx) != uint32(10+i) {
						return Outcome{Violation: "C4-identity-not-merged", Detail: fmt.Sprintf("%s: the version at %s (%s) was not merged", c.name, f.Slot, c.fetched[i][1])}
					}
				}
				return Outcome{}
			}
		},
	}
}

// Deletion facts of the cube: what a coordinate is, and whether its version
// carries ov_* entries, was carried forward and accepted on the relay, and
// whether a complete full-state load stands behind the decision.
var coordKinds = []model.CoordKind{model.CoordPrimary, model.CoordAdditional, model.CoordPredecessor, model.CoordOrphan, model.CoordPeer}

func coordKindNames() []string {
	var out []string
	for _, k := range coordKinds {
		out = append(out, k.String())
	}
	return out
}

var yesNo = []string{"no", "yes"}

// mayDeleteBySpec is the deletion rule as the spec's text states it: never
// on a potentially incomplete load (Full-State Load); never the current
// primary (the live carrier) nor another installation's coordinate
// (Writing); a frontier-only own additional coordinate or rotation
// predecessor freely; a coordinate carrying ov_* entries, and an orphan of
// this client_id whatever it seems to hold, only after its override state
// was carried forward and accepted on that relay.
func mayDeleteBySpec(f model.DeleteFacts) bool {
	switch {
	case !f.Complete, f.Kind == model.CoordPrimary, f.Kind == model.CoordPeer:
		return false
	case f.Kind == model.CoordOrphan || f.Overrides:
		return f.Carried
	}
	return true
}

// deletionConformance (tie-independent, 40 points): Rules.Slots.MayDelete
// permits a deletion exactly where mayDeleteBySpec does.
func deletionConformance() *Check {
	return &Check{
		Key: "deletion-conformance", Label: "C5", Name: "coordinates deleted only as Orphaned Blob Deletion allows",
		Params:         []Param{{Name: "kind", Enum: coordKindNames()}, {Name: "overrides", Enum: yesNo}, {Name: "carried", Enum: yesNo}, {Name: "complete", Enum: yesNo}},
		TieIndependent: true,
		Cube: func(*model.Rules) []Point {
			return product(seq(len(coordKinds)), seq(2), seq(2), seq(2))
		},
		Prepare: func(rules *model.Rules) func(Point) Outcome {
			return func(p Point) Outcome {
				f := model.DeleteFacts{Kind: coordKinds[p[0]], Overrides: p[1] == 1, Carried: p[2] == 1, Complete: p[3] == 1}
				err := rules.Slots.MayDelete(f)
				if want := mayDeleteBySpec(f); (err == nil) != want {
					verdict := "permitted"
					if err != nil {
						verdict = "refused (" + err.Error() + ")"
					}
					return Outcome{Violation: "C5-deletion", Detail: fmt.Sprintf("%+v: %s, the spec %s", f, verdict, map[bool]string{true: "permits it", false: "forbids it"}[want])}
				}
				return Outcome{}
			}
		},
	}
}
