package directed

import (
	"fmt"
	"strings"

	"github.com/nip-rs/harness/model"
)

// Checks of publications split into slots and of the reserved namespace
// (Override Group Co-Location Rule, Reserved Namespace).

func transportChecks() []*Check {
	return []*Check{
		multiSlotUnion(),
		interleavedGrouping(),
		escapedSlotGrouping(),
		reservedNamespace(),
	}
}

const slotCount = 2

var slotOrders = []string{"slot0,slot1", "slot1,slot0"}

func slotOrder(i int32) (first, second int) {
	if i == 0 {
		return 0, 1
	}
	return 1, 0
}

// multiSlotUnion (4 points): a device with c0 live and c1 dead publishes;
// its publication split into 2 grouped slots, delivered in either order,
// gives a receiver the same frontier and register per context as the
// whole publication.
func multiSlotUnion() *Check {
	return &Check{
		Key: "multi-slot-union", Label: "—", Name: "2 grouped slots merge to the whole publication",
		Params: []Param{{Name: "order", Enum: slotOrders}},
		Cube:   func(*model.Rules) []Point { return product(seq(len(slotOrders))) },
		Prepare: func(rules *model.Rules) func(Point) Outcome {
			return func(p Point) Outcome {
				src := holding(rules, "src", "c0", 10, model.Reg{S: 1, B: 10})
				src.Advance("c1", 10)
				_ = src.MarkUnread("c1")
				_ = src.MarkRead("c1", 30)
				whole := src.Publish()
				slots := splitGrouped(rules, whole, slotCount)
				a, b := slotOrder(p[0])
				want := receiveAll(rules, "r", whole)
				got := receiveAll(rules, "r", slots[a], slots[b])
				for _, ctx := range ctxNames {
					if w, g := snap(want, ctx), snap(got, ctx); w != g {
						return Outcome{Violation: "multi-slot-union-differs", Detail: fmt.Sprintf("%s: whole publication gives %v, slots %s then %s give %v (slots %s | %s)",
							ctx, w, slotOrders[p[0]][:5], slotOrders[p[0]][6:], g, model.EntriesString(slots[0].Contexts), model.EntriesString(slots[1].Contexts))}
					}
				}
				return Outcome{}
			}
		},
	}
}

var interleavedOrders = []string{"t1,slot0,slot1,t2", "slot0,slot1,t1,t2", "first,t1,second,t2"}

// interleavedGrouping (12 points): a live override's publication is split
// into 2 grouped slots; an observer receives them one at a time and
// republishes after each (transients t1, t2); fresh devices receiving the
// slots and transients in three interleavings must see the source's
// verdict.
func interleavedGrouping() *Check {
	return &Check{
		Key: "interleaved-grouping", Label: "—", Name: "partial observer republishing between slots",
		Params: []Param{{Name: "slots", Enum: slotOrders}, {Name: "delivery", Enum: interleavedOrders}},
		Cube: func(*model.Rules) []Point {
			return product(seq(len(slotOrders)), seq(len(interleavedOrders)))
		},
		Prepare: func(rules *model.Rules) func(Point) Outcome {
			return func(p Point) Outcome {
				src := holding(rules, "src", ctx0, 10, model.Reg{S: 1, B: 10})
				slots := splitGrouped(rules, src.Publish(), slotCount)
				first, second := slotOrder(p[0])
				obs := fresh(rules, "observer")
				obs.Receive(slots[first])
				t1 := obs.Publish()
				obs.Receive(slots[second])
				t2 := obs.Publish()
				var order []model.Blob
				switch p[1] {
				case 0:
					order = []model.Blob{t1, slots[0], slots[1], t2}
				case 1:
					order = []model.Blob{slots[0], slots[1], t1, t2}
				default:
					order = []model.Blob{slots[first], t1, slots[second], t2}
				}
				final := receiveAll(rules, "final", order...)
				if final.Live(ctx0) != src.Live(ctx0) {
					return Outcome{Violation: "interleaved-delivery-wrong-verdict", Detail: fmt.Sprintf("source %v; slots %s | %s; t1 %s; t2 %s; final after %s: %v",
						snap(src, ctx0), model.EntriesString(slots[0].Contexts), model.EntriesString(slots[1].Contexts), model.EntriesString(t1.Contexts), model.EntriesString(t2.Contexts), interleavedOrders[p[1]], snap(final, ctx0))}
				}
				return Outcome{}
			}
		},
	}
}

// evilCtx is a raw context id inside the reserved namespace.
const evilCtx = "ov_s:evil"

var finalOrders = []string{"new0,new1,transient", "new1,new0,transient"}

// escapedSlotGrouping (4 points): a raw context id in the reserved
// namespace is published in two cycles, each split into 2 grouped slots
// (cycle 1 live at frontier 0, cycle 2 live at 10). The new slot holding
// the escaped frontier key, mixed with the opposite old slot, reaches an
// observer that republishes; fresh devices receiving both new slots and
// that transient must still see the override live, as must a device
// receiving just the new slots.
func escapedSlotGrouping() *Check {
	return &Check{
		Key: "escaped-slot-grouping", Label: "—", Name: "escaped context keeps its group across slot cycles",
		Params: []Param{{Name: "final", Enum: finalOrders}},
		Cube:   func(*model.Rules) []Point { return product(seq(len(finalOrders))) },
		Prepare: func(rules *model.Rules) func(Point) Outcome {
			return func(p Point) Outcome {
				cycle := func(f uint32) []model.Blob {
					src := fresh(rules, "src")
					src.Advance(evilCtx, f)
					_ = src.MarkUnread(evilCtx)
					return splitGrouped(rules, src.Publish(), slotCount)
				}
				old, cur := cycle(0), cycle(10)
				whole := receiveAll(rules, "r", cur...)
				if !whole.Live(evilCtx) {
					return Outcome{Violation: "escaped-slots-lost-override", Detail: fmt.Sprintf("new slots %s | %s give %v", model.EntriesString(cur[0].Contexts), model.EntriesString(cur[1].Contexts), snap(whole, evilCtx))}
				}
				withKey := 0
				if _, ok := cur[1].Value(rules.Escape(evilCtx)); ok {
					withKey = 1
				}
				obs := receiveAll(rules, "observer", cur[withKey], old[1-withKey])
				transient := obs.Publish()
				a, b := 0, 1
				if p[0] == 1 {
					a, b = 1, 0
				}
				final := receiveAll(rules, "final", cur[a], cur[b], transient)
				if !final.Live(evilCtx) {
					return Outcome{Violation: "escaped-slot-mixture-false-clear", Detail: fmt.Sprintf("observer got new %s + old %s, republished %s; final %v",
						model.EntriesString(cur[withKey].Contexts), model.EntriesString(old[1-withKey].Contexts), model.EntriesString(transient.Contexts), snap(final, evilCtx))}
				}
				return Outcome{}
			}
		},
	}
}

// realisticIDs are context ids clients generate today: none needs escaping.
var realisticIDs = []string{
	"b68cd7cb-6f8d-4641-b743-a7349eb4114b",
	"msg:" + strings.Repeat("ab", 32),
	"thread:" + strings.Repeat("cd", 32),
}

// reservedNamespace (2 points): realistic ids publish unescaped; a raw id
// in the reserved namespace publishes escaped, round-trips as a frontier
// (never as an override of another context), and an override on another
// context in the same publication is unaffected.
func reservedNamespace() *Check {
	return &Check{
		Key: "reserved-namespace", Label: "—", Name: "reserved-namespace context is a frontier, not an override",
		Cube: func(*model.Rules) []Point { return []Point{{}} },
		Prepare: func(rules *model.Rules) func(Point) Outcome {
			return func(Point) Outcome {
				bad := func(format string, a ...any) Outcome {
					return Outcome{Violation: "reserved-namespace-collision", Detail: fmt.Sprintf(format, a...)}
				}
				for _, id := range realisticIDs {
					if w := rules.Escape(id); w != id {
						return bad("realistic id %q escaped to %q", id, w)
					}
				}
				for _, id := range []string{evilCtx, "esc:foo"} {
					w := rules.Escape(id)
					if w != model.EscMarker+id || rules.Unescape(w) != id {
						return bad("reserved id %q escapes to %q and back to %q", id, w, rules.Unescape(w))
					}
				}
				src := fresh(rules, "src")
				src.Advance(evilCtx, 42)
				src.Advance(ctx0, 5)
				_ = src.MarkUnread(ctx0)
				b := src.Publish()
				if v, ok := b.Value(model.EscMarker + evilCtx); !ok || v != 42 {
					return bad("publication %s lacks %s%s=42", model.EntriesString(b.Contexts), model.EscMarker, evilCtx)
				}
				r := receiveAll(rules, "r", b)
				if r.Frontier(evilCtx) != 42 || r.HasReg(evilCtx) || r.HasReg("evil") {
					return bad("receiver of %s: %s frontier %d, registers %v / evil %v", model.EntriesString(b.Contexts), evilCtx, r.Frontier(evilCtx), r.Reg(evilCtx), r.Reg("evil"))
				}
				if r.Reg(ctx0).S == 0 || !r.Live(ctx0) {
					return bad("receiver lost the override on %s: %v", ctx0, snap(r, ctx0))
				}
				return Outcome{}
			}
		},
	}
}
