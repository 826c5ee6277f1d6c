package directed

import (
	"fmt"
	"strings"

	"github.com/nip-rs/harness/model"
)

// Checks involving legacy clients, which know only frontier entries and
// treat every other key as opaque (Backwards Compatibility, Override State
// Durability). They use the legacy behaviour of model/legacy.go.

func legacyChecks() []*Check {
	return []*Check{
		legacyRewrite(),
		legacyPrune(),
		legacyTrim(),
	}
}

var (
	overrideShapes = []string{"live", "floor"}
	rewritePaths   = []string{"sanitize", "wire", "legacy-replica"}
)

// legacyRewritten is blob after a legacy client's rewrite cycle: its
// per-entry sanitising, the same after a plaintext round trip through the
// legacy parser, or a production-faithful legacy replica that merges the
// blob and republishes.
func legacyRewritten(rules *model.Rules, path string, b model.Blob) (model.Blob, error) {
	switch path {
	case "sanitize":
		kept, _ := model.LegacySanitize(b.Contexts)
		return model.Blob{V: 1, ClientID: "legacy", Contexts: kept}, nil
	case "wire":
		lb, _, err := model.ParseBlobLegacy(rules, model.EncodeBlob(b))
		return lb, err
	default:
		l := model.NewLegacyReplica("legacy", model.LegacyCarry)
		l.Rules = rules
		l.Receive(b)
		return l.Publish(), nil
	}
}

// legacyRewrite (I7, 24 points): an upgraded device's publication (a live
// override, or a floor after mark-read) rewritten by a legacy client gives
// an upgraded receiver exactly the state the original gives.
func legacyRewrite() *Check {
	return &Check{
		Key: "legacy-rewrite", Label: "I7", Name: "override survives a legacy rewrite",
		Params: []Param{{Name: "ctx", Enum: ctxNames}, {Name: "shape", Enum: overrideShapes}, {Name: "path", Enum: rewritePaths}},
		Cube: func(*model.Rules) []Point {
			return product(seq(len(ctxNames)), seq(len(overrideShapes)), seq(len(rewritePaths)))
		},
		Prepare: func(rules *model.Rules) func(Point) Outcome {
			return func(p Point) Outcome {
				ctx, path := ctxNames[p[0]], rewritePaths[p[2]]
				src := markedUnread(rules, "d0", ctx)
				if p[1] == 1 {
					_ = src.MarkRead(ctx, 20)
				}
				b := src.Publish()
				rw, err := legacyRewritten(rules, path, b)
				if err != nil {
					return Outcome{Violation: "I7-legacy-rewrite-rejected", Detail: fmt.Sprintf("legacy %s of %s: %v", path, model.EntriesString(b.Contexts), err)}
				}
				want := receiveAll(rules, "r", b)
				got := receiveAll(rules, "r", rw)
				if snap(want, ctx) != snap(got, ctx) {
					return Outcome{Violation: "I7-legacy-rewrite-changed-override", Detail: fmt.Sprintf("original %s gives %v; legacy %s %s gives %v",
						model.EntriesString(b.Contexts), snap(want, ctx), path, model.EntriesString(rw.Contexts), snap(got, ctx))}
				}
				return Outcome{}
			}
		},
	}
}

// Tallies of the legacy hazards: what legacy pruning and trimming do where
// the design must not depend on them.
const (
	TallyChildPruned  = "msg: entry pruned past the horizon"
	TallyNestedPruned = "hazard confirmed: override nested under msg: is pruned"
	TallyCannotFit    = "hazard confirmed: overrides alone exceed 32 KiB, nothing evictable"
	TallyChildEvicted = "msg: entries evicted to fit"
)

var pruneLayouts = []string{"siblings", "nested-under-msg"}

const pruneHorizon = 35

// legacyPrune (4 points): a legacy client prunes msg:/thread: entries older
// than its horizon. Override sibling keys survive it (receivers of the
// pruned and the original publication agree on the override); the rejected
// alternative of nesting overrides under msg: loses them (a hazard, tallied
// rather than failed).
func legacyPrune() *Check {
	return &Check{
		Key: "legacy-prune", Label: "—", Name: "legacy pruning keeps ov_* keys",
		Params: []Param{{Name: "layout", Enum: pruneLayouts}},
		Cube:   func(*model.Rules) []Point { return product(seq(len(pruneLayouts))) },
		Prepare: func(rules *model.Rules) func(Point) Outcome {
			return func(p Point) Outcome {
				src := holding(rules, "d0", ctx0, 50, model.Reg{S: 1, B: 50})
				src.Advance("msg:m1", 30)
				src.Advance("thread:t1", 40)
				b := src.Publish()
				var o Outcome
				if p[0] == 1 {
					var nested, moved []model.Entry
					for _, e := range b.Contexts {
						if k, _ := rules.GroupKey(e.Key); k != model.KeyFrontier {
							e.Key = "msg:" + e.Key
							moved = append(moved, e)
						}
						nested = append(nested, e)
					}
					kept := model.Blob{Contexts: model.LegacyPrune(nested, pruneHorizon)}
					for _, e := range moved {
						if _, ok := kept.Value(e.Key); !ok {
							o.Tally = append(o.Tally, TallyNestedPruned)
							break
						}
					}
					return o
				}
				pruned := model.LegacyPrune(b.Contexts, pruneHorizon)
				if _, ok := (model.Blob{Contexts: pruned}).Value("msg:m1"); !ok {
					o.Tally = append(o.Tally, TallyChildPruned)
				}
				for _, e := range overrideEntries(b, ctx0) {
					if v, ok := (model.Blob{Contexts: pruned}).Value(e.Key); !ok || v != e.Value {
						o.Violation, o.Detail = "legacy-prune-lost-override", fmt.Sprintf("pruning %s at %d leaves %s", model.EntriesString(b.Contexts), pruneHorizon, model.EntriesString(pruned))
						return o
					}
				}
				want := receiveAll(rules, "r", b)
				got := receiveAll(rules, "r", model.Blob{V: 1, ClientID: "legacy", Contexts: pruned})
				if snap(want, ctx0) != snap(got, ctx0) {
					o.Violation, o.Detail = "legacy-prune-lost-override", fmt.Sprintf("original gives %v, pruned %v", snap(want, ctx0), snap(got, ctx0))
				}
				return o
			}
		},
	}
}

var trimLayouts = []string{"1000 live overrides", "100 live overrides + 1000 msg entries"}

// legacyTrim (4 points): a legacy client trims its blob to 32 KiB by
// evicting msg:/thread: entries only. Override keys are never evicted; a
// blob whose overrides alone exceed the budget cannot be made to fit (a
// hazard, tallied: the budget's hard ceiling on overrides).
func legacyTrim() *Check {
	return &Check{
		Key: "legacy-trim", Label: "—", Name: "legacy trimming never evicts ov_* keys",
		Params: []Param{{Name: "layout", Enum: trimLayouts}},
		Cube:   func(*model.Rules) []Point { return product(seq(len(trimLayouts))) },
		Prepare: func(rules *model.Rules) func(Point) Outcome {
			return func(p Point) Outcome {
				overrides, children := 1000, 0
				if p[0] == 1 {
					overrides, children = 100, 1000
				}
				src := fresh(rules, "d0")
				src.Advance(ctx0, 10)
				for i := range overrides {
					_ = src.Restore(fmt.Sprintf("chan-%04d", i), 0, false, model.Reg{S: 1, B: 10})
				}
				for i := range children {
					src.Advance(fmt.Sprintf("msg:%064x", i), uint32(i+1))
				}
				b := src.Publish()
				out, fits := model.LegacyTrim(b.ClientID, b.Contexts, model.PlaintextBudget)
				kept := model.Blob{Contexts: out}
				var o Outcome
				evicted := 0
				for _, e := range b.Contexts {
					_, ok := kept.Value(e.Key)
					isOverride, _ := rules.GroupKey(e.Key)
					switch {
					case !ok && isOverride != model.KeyFrontier:
						o.Violation, o.Detail = "legacy-trim-evicted-override", fmt.Sprintf("trimming evicted %s:%d", e.Key, e.Value)
						return o
					case !ok && strings.HasPrefix(e.Key, "msg:"):
						evicted++
					}
				}
				if !fits {
					o.Tally = append(o.Tally, TallyCannotFit)
				}
				if evicted > 0 {
					o.Tally = append(o.Tally, TallyChildEvicted)
				}
				return o
			}
		},
	}
}
