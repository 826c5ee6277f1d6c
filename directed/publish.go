package directed

import (
	"fmt"
	"slices"

	"github.com/nip-rs/harness/model"
)

// Checks of publication and merge between devices (Merge Rule, Mandatory
// Canonical Publication, Actions, Bounds and Budget).

func publicationChecks() []*Check {
	return []*Check{
		concurrentStability(),
		mergeClosure(),
		replayHarmless(),
		boundedGrowth(),
		exactWireShapes(),
		identityFreeReinstall(),
	}
}

var (
	ctxNames      = []string{"c0", "c1"}
	ancestorNames = []string{"(0,0)", "(1,0)", "(0,1)", "(2,1)", "(1,2)", "(1,1)"}
	ancestorSC    = [][2]uint32{{0, 0}, {1, 0}, {0, 1}, {2, 1}, {1, 2}, {1, 1}}
)

// concurrentStability (I4, 48 points): from a common ancestor at frontier
// F, one device marks unread while another marks read at F+10; a third
// device holding the ancestor receives both publications in either order
// and must reach the same verdict.
func concurrentStability() *Check {
	return &Check{
		Key: "concurrent-stability", Label: "I4", Name: "concurrent set/clear winner independent of order",
		Params: []Param{{Name: "ancestor", Enum: ancestorNames}, {Name: "f"}, {Name: "ctx", Enum: ctxNames}},
		Cube: func(*model.Rules) []Point {
			return product(seq(len(ancestorSC)), vals(0, 10), seq(len(ctxNames)))
		},
		Prepare: func(rules *model.Rules) func(Point) Outcome {
			return func(p Point) Outcome {
				sc, f, ctx := ancestorSC[p[0]], uint32(p[1]), ctxNames[p[2]]
				anc := model.Reg{S: sc[0], C: sc[1], B: f}
				setter := holding(rules, "d0", ctx, f, anc)
				clearer := holding(rules, "d1", ctx, f, anc)
				_ = setter.MarkUnread(ctx)
				_ = clearer.MarkRead(ctx, f+10)
				a, b := setter.Publish(), clearer.Publish()
				one := holding(rules, "r", ctx, f, anc)
				two := one.Clone()
				one.Receive(a)
				one.Receive(b)
				two.Receive(b)
				two.Receive(a)
				if one.Live(ctx) != two.Live(ctx) {
					return Outcome{Violation: "I4-winner-depends-on-order",
						Detail: fmt.Sprintf("ancestor %v at f=%d: set then clear gives %v, clear then set %v", anc, f, snap(one, ctx), snap(two, ctx))}
				}
				return Outcome{}
			}
		},
	}
}

// deadPoints are the independently dead published states of the closure
// cube: S, C in 0..3 not both 0, B in {0,10,50}, F in {0,20,60,100}, kept
// when dead under the rules (156 under clear-wins, 144 under set-wins).
func deadPoints(rules *model.Rules) [][4]int32 {
	var out [][4]int32
	for _, p := range product(seq(4), seq(4), vals(0, 10, 50), vals(0, 20, 60, 100)) {
		if p[0] == 0 && p[1] == 0 {
			continue
		}
		if !rules.IsLive(regAt(p, 0), uint32(p[3])) {
			out = append(out, [4]int32(p))
		}
	}
	return out
}

// thufirPair is the formal note's directed witness: (3,2,0) dead by its
// baseline at 50 and (1,2,100) dead by its clear at 100, whose raw join
// (3,2,100) is live.
var thufirPair = Point{3, 2, 0, 50, 1, 2, 100, 100}

// mergeClosure (I5e, 45,074 points): every ordered pair of independently
// dead published states, the formal note's directed pair first, is
// published by two devices; fresh receivers get both publications in
// either order, and a relay that received the first alone republishes it
// before the second arrives. No receiver may end live.
func mergeClosure() *Check {
	var params []Param
	for _, side := range []string{"a", "b"} {
		for _, n := range []string{"s", "c", "b", "f"} {
			params = append(params, Param{Name: side + "." + n})
		}
	}
	return &Check{
		Key: "merge-closure", Label: "I5e", Name: "published dead+dead stays dead (with relay)",
		Params: params,
		Cube: func(rules *model.Rules) []Point {
			pts := deadPoints(rules)
			out := make([]Point, 0, 1+len(pts)*len(pts))
			out = append(out, slices.Clone(thufirPair))
			for _, a := range pts {
				for _, b := range pts {
					out = append(out, Point{a[0], a[1], a[2], a[3], b[0], b[1], b[2], b[3]})
				}
			}
			return out
		},
		Prepare: func(rules *model.Rules) func(Point) Outcome {
			type pub struct{ blob, relayed model.Blob }
			pubs := map[[4]int32]pub{}
			add := func(p [4]int32) {
				src := holding(rules, "src", ctx0, uint32(p[3]), regAt(p[:], 0))
				relay := fresh(rules, "relay")
				b := src.Publish()
				relay.Receive(b)
				pubs[p] = pub{b, relay.Publish()}
			}
			for _, p := range deadPoints(rules) {
				add(p)
			}
			add([4]int32(thufirPair[:4]))
			add([4]int32(thufirPair[4:]))
			return func(p Point) Outcome {
				a, b := pubs[[4]int32(p[:4])], pubs[[4]int32(p[4:])]
				for _, order := range []struct {
					name  string
					blobs []model.Blob
				}{
					{"a then b", []model.Blob{a.blob, b.blob}},
					{"b then a", []model.Blob{b.blob, a.blob}},
					{"relayed a then b", []model.Blob{a.relayed, b.blob}},
					{"b then relayed a", []model.Blob{b.blob, a.relayed}},
				} {
					r := receiveAll(rules, "r", order.blobs...)
					if r.Live(ctx0) {
						return Outcome{Violation: "I5e-dead-join-live", Detail: fmt.Sprintf("a=%v@%d publishes %s, b=%v@%d publishes %s; %s: %v",
							regAt(p, 0), p[3], model.EntriesString(a.blob.Contexts), regAt(p, 4), p[7], model.EntriesString(b.blob.Contexts), order.name, snap(r, ctx0))}
					}
				}
				return Outcome{}
			}
		},
	}
}

// replayHarmless (I6, 4 points): a device that receives its own
// publication again, three times, is unchanged.
func replayHarmless() *Check {
	return &Check{
		Key: "replay-harmless", Label: "I6", Name: "own publication replayed changes nothing",
		Params: []Param{{Name: "ctx", Enum: ctxNames}},
		Cube:   func(*model.Rules) []Point { return product(seq(len(ctxNames))) },
		Prepare: func(rules *model.Rules) func(Point) Outcome {
			return func(p Point) Outcome {
				ctx := ctxNames[p[0]]
				d := markedUnread(rules, "d0", ctx)
				b := d.Publish()
				before := d.Clone()
				for range 3 {
					d.Receive(b)
				}
				if !sameState(before, d) {
					return Outcome{Violation: "I6-replay-changed-state",
						Detail: fmt.Sprintf("before %s, after three replays %s", model.EntriesString(before.Candidate().Contexts), model.EntriesString(d.Candidate().Contexts))}
				}
				return Outcome{}
			}
		},
	}
}

// sameState compares two replicas' client ids, frontiers and registers
// exactly (a context holding neither counts as absent).
func sameState(a, b *model.Replica) bool {
	return a.ClientID == b.ClientID && slices.Equal(heldState(a), heldState(b))
}

// heldContext is one context a replica holds, as sameState compares it.
type heldContext struct {
	ctx  string
	f    uint32
	hasF bool
	reg  model.Reg
}

func heldState(r *model.Replica) []heldContext {
	var out []heldContext
	r.Each(func(ctx string, f uint32, hasF bool, reg model.Reg) {
		if hasF || reg != (model.Reg{}) {
			out = append(out, heldContext{ctx, f, hasF, reg})
		}
	})
	return out
}

const growthRounds = 100

// boundedGrowth (I8, 4 points): from a context never read, 100 rounds of
// mark-unread then mark-read one past the frontier, and a final
// mark-unread. It asserts what keeps the wire bounded, whatever the rules
// accept or refuse: no action raises max(S, C) by more than one, so the
// counters grow only with the actions taken; while the override is active
// the publication carries exactly the three sibling keys, with the held
// register's values; advancing the frontier past the baseline leaves
// exactly the one ov_c floor key at max(S, C). Which action succeeds and
// the counters it leaves are the spec's arithmetic, which C6 states: a
// rule set that refuses an action or counts otherwise, and stays bounded,
// passes here.
func boundedGrowth() *Check {
	return &Check{
		Key: "bounded-growth", Label: "I8", Name: "3 keys live, 1 key dead, whatever the history",
		Params: []Param{{Name: "ctx", Enum: ctxNames}},
		Cube:   func(*model.Rules) []Point { return product(seq(len(ctxNames))) },
		Prepare: func(rules *model.Rules) func(Point) Outcome {
			return func(p Point) Outcome {
				ctx := ctxNames[p[0]]
				d := fresh(rules, "d0")
				actions := 0
				act := func(what string, do func() error) *Outcome {
					before := d.Reg(ctx)
					_ = do() // refused or not: only the growth is asserted
					actions++
					if after := d.Reg(ctx); after.Ceiling() > before.Ceiling()+1 || after.Ceiling() < before.Ceiling() {
						return &Outcome{Violation: "I8-counter-growth", Detail: fmt.Sprintf("action %d (%s) took the register from %v to %v: max(S, C) may only grow, and by one per action", actions, what, before, after)}
					}
					return nil
				}
				for range growthRounds {
					if o := act("mark-unread", func() error { return d.MarkUnread(ctx) }); o != nil {
						return *o
					}
					if o := act("mark-read", func() error { return d.MarkRead(ctx, d.Frontier(ctx)+1) }); o != nil {
						return *o
					}
				}
				if o := act("mark-unread", func() error { return d.MarkUnread(ctx) }); o != nil {
					return *o
				}
				reg, f := d.Reg(ctx), d.Frontier(ctx)
				if d.Live(ctx) {
					live := overrideEntries(d.Candidate(), ctx)
					wantLive := []model.Entry{{Key: model.OverrideKey(model.KeyB, ctx), Value: reg.B}, {Key: model.OverrideKey(model.KeyC, ctx), Value: reg.C}, {Key: model.OverrideKey(model.KeyS, ctx), Value: reg.S}}
					if !slices.Equal(live, wantLive) {
						return Outcome{Violation: "I8-live-shape", Detail: fmt.Sprintf("live %v at f=%d publishes %s, want %s", reg, f, model.EntriesString(live), model.EntriesString(wantLive))}
					}
				}
				past := max(f, reg.B) + 100
				d.Advance(ctx, past)
				dead := overrideEntries(d.Candidate(), ctx)
				var wantDead []model.Entry
				if reg != (model.Reg{}) {
					wantDead = []model.Entry{{Key: model.OverrideKey(model.KeyC, ctx), Value: reg.Ceiling()}}
				}
				if !slices.Equal(dead, wantDead) {
					return Outcome{Violation: "I8-floor-shape", Detail: fmt.Sprintf("dead %v at f=%d publishes %s, want %s", reg, past, model.EntriesString(dead), model.EntriesString(wantDead))}
				}
				return Outcome{}
			}
		},
	}
}

// overrideEntries are the ov_* entries of ctx in a blob.
func overrideEntries(b model.Blob, ctx string) []model.Entry {
	var out []model.Entry
	for _, e := range b.Contexts {
		for _, k := range []model.KeyKind{model.KeyS, model.KeyC, model.KeyB} {
			if e.Key == model.OverrideKey(k, ctx) {
				out = append(out, e)
			}
		}
	}
	return out
}

// wireShapes are the exact plaintext a device publishes for one register,
// as Mandatory Canonical Publication and Tie Policy prescribe.
var wireShapes = []struct {
	name       string
	f          uint32
	reg        model.Reg
	clear, set string // expected EncodeBlob output per tie policy
}{
	{"live", 10, model.Reg{S: 1, B: 10},
		`{"v":1,"client_id":"d0","contexts":{"c0":10,"ov_b:c0":10,"ov_c:c0":0,"ov_s:c0":1}}`,
		`{"v":1,"client_id":"d0","contexts":{"c0":10,"ov_b:c0":10,"ov_c:c0":0,"ov_s:c0":1}}`},
	{"dead by baseline", 20, model.Reg{S: 1, B: 10},
		`{"v":1,"client_id":"d0","contexts":{"c0":20,"ov_c:c0":1}}`,
		`{"v":1,"client_id":"d0","contexts":{"c0":20,"ov_c:c0":1}}`},
	{"tie", 10, model.Reg{S: 1, C: 1, B: 10},
		`{"v":1,"client_id":"d0","contexts":{"c0":10,"ov_c:c0":1}}`,
		`{"v":1,"client_id":"d0","contexts":{"c0":10,"ov_b:c0":10,"ov_c:c0":1,"ov_s:c0":1}}`},
	{"virgin", 10, model.Reg{B: 10},
		`{"v":1,"client_id":"d0","contexts":{"c0":10}}`,
		`{"v":1,"client_id":"d0","contexts":{"c0":10}}`},
}

func wireShapeNames() []string {
	var out []string
	for _, s := range wireShapes {
		out = append(out, s.name)
	}
	return out
}

// exactWireShapes (I8, 8 points): live 3 keys, dead 1 key (the floor at
// max(S, C)), virgin 0 keys, byte for byte.
func exactWireShapes() *Check {
	return &Check{
		Key: "exact-wire-shapes", Label: "I8", Name: "exact canonical wire shapes",
		Params: []Param{{Name: "shape", Enum: wireShapeNames()}},
		Cube:   func(*model.Rules) []Point { return product(seq(len(wireShapes))) },
		Prepare: func(rules *model.Rules) func(Point) Outcome {
			return func(p Point) Outcome {
				s := wireShapes[p[0]]
				want := s.clear
				if rules.Tie == model.SetWins {
					want = s.set
				}
				got := string(model.EncodeBlob(holding(rules, "d0", ctx0, s.f, s.reg).Candidate()))
				if got != want {
					return Outcome{Violation: "I8-wire-shape", Detail: fmt.Sprintf("%v at f=%d publishes %s, want %s", s.reg, s.f, got, want)}
				}
				return Outcome{}
			}
		},
	}
}

// identityFreeReinstall (4 points): a device marks unread and publishes;
// it is reinstalled under a new client id, relearns its state from that
// publication, marks read and publishes again. Receivers of both
// publications agree in either order, and with the reinstalled device.
func identityFreeReinstall() *Check {
	return &Check{
		Key: "identity-free-reinstall", Label: "—", Name: "reinstall under a new client id converges",
		Params: []Param{{Name: "ctx", Enum: ctxNames}},
		Cube:   func(*model.Rules) []Point { return product(seq(len(ctxNames))) },
		Prepare: func(rules *model.Rules) func(Point) Outcome {
			return func(p Point) Outcome {
				ctx := ctxNames[p[0]]
				d := markedUnread(rules, "d0", ctx)
				first := d.Publish()
				d.Reinstall("d0_reinstalled")
				d.Receive(first)
				_ = d.MarkRead(ctx, 20)
				second := d.Publish()
				one := receiveAll(rules, "r", first, second)
				two := receiveAll(rules, "r", second, first)
				if a, b, own := snap(one, ctx), snap(two, ctx), snap(d, ctx); a != b || a != own {
					return Outcome{Violation: "identity-free-reinstall-diverged",
						Detail: fmt.Sprintf("first then second: %v; second then first: %v; reinstalled device: %v", a, b, own)}
				}
				return Outcome{}
			}
		},
	}
}
