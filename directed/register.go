package directed

import (
	"fmt"

	"github.com/nip-rs/harness/model"
)

// Register-level checks of compaction (Tombstone Floor, Mandatory Canonical
// Publication): compaction neither loses nor creates an override, not when
// merged back, not after further local actions and a stale delivery of the
// pre-compaction register, and not at an unrelated device.

// The deep-history sequences run after compaction: set is a mark-unread,
// clear a mark-read at the post-compaction frontier.
var historySeqs = []string{"", "set", "clear", "set,clear", "clear,set", "set,set", "clear,clear"}

// stalePairs are (baseline, later frontier) pairs with the frontier past the
// baseline, so every ancestor with S > 0 is baseline-dead when compacted.
var stalePairs = [][2]uint32{{0, 10}, {0, 20}, {10, 20}}

var stalePairNames = []string{"b=0,f=10", "b=0,f=20", "b=10,f=20"}

// The compaction invariants of the formal note, by the names the
// explorer's tables give them too (exhaustive's tests hold the two equal).
const (
	InvLostSet           = "I5-compaction-lost-set"
	InvResurrection      = "I5-compaction-resurrection"
	InvMergeResurrection = "I5-compaction-merge-resurrection"
)

func registerChecks() []*Check {
	return []*Check{
		compactionExhaustive(),
		deepHistory(),
		tombstoneStale(),
		tombstoneMonotonic(),
		crossDeviceSuppression(),
	}
}

const ctx0 = "c0"

func regAt(p Point, i int) model.Reg {
	return model.Reg{S: uint32(p[i]), C: uint32(p[i+1]), B: uint32(p[i+2])}
}

// compactionExhaustive (I5, 288 points): at every register with S, C in
// 0..3 and B, F in {0,10,20}, compaction keeps liveness, and joining the
// compacted form with the original in either order keeps a dead register
// dead.
func compactionExhaustive() *Check {
	tens := vals(0, 10, 20)
	return &Check{
		Key: "compaction-exhaustive", Label: "I5", Name: "compaction keeps liveness, merge-back stays dead",
		Params: []Param{{Name: "s"}, {Name: "c"}, {Name: "b"}, {Name: "f"}},
		Cube: func(*model.Rules) []Point {
			return product(seq(4), seq(4), tens, tens)
		},
		Prepare: func(rules *model.Rules) func(Point) Outcome {
			return func(p Point) Outcome {
				reg, f := regAt(p, 0), uint32(p[3])
				orig := holding(rules, "x", ctx0, f, reg)
				comp := orig.Clone()
				comp.Compact(ctx0)
				before, after := orig.Live(ctx0), comp.Live(ctx0)
				where := fmt.Sprintf("reg=%v f=%d compacted=%v", reg, f, comp.Reg(ctx0))
				switch {
				case before && !after:
					return Outcome{Violation: InvLostSet, Detail: where + ": live before compaction, dead after"}
				case !before && after:
					return Outcome{Violation: InvResurrection, Detail: where + ": dead before compaction, live after"}
				}
				if before || !comp.HasReg(ctx0) {
					return Outcome{}
				}
				a := comp.Clone()
				a.Receive(tripleBlob(ctx0, reg))
				b := orig.Clone()
				b.Receive(tripleBlob(ctx0, comp.Reg(ctx0)))
				for _, m := range []struct {
					name string
					r    *model.Replica
				}{{"compacted receiving the original", a}, {"original receiving the compacted", b}} {
					if m.r.Live(ctx0) {
						return Outcome{Violation: InvMergeResurrection, Detail: fmt.Sprintf("%s: dead register, %s gives %v, live", where, m.name, m.r.Reg(ctx0))}
					}
				}
				return Outcome{}
			}
		},
	}
}

// runHistory applies a deep-history sequence at frontier f.
func runHistory(r *model.Replica, seq string, f uint32) {
	for _, step := range splitSeq(seq) {
		if step == "set" {
			_ = r.MarkUnread(ctx0)
		} else {
			_ = r.MarkRead(ctx0, f)
		}
	}
}

func splitSeq(s string) []string {
	if s == "" {
		return nil
	}
	var out []string
	start := 0
	for i := 0; i <= len(s); i++ {
		if i == len(s) || s[i] == ',' {
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return out
}

// Tallies of the deep-history cube: what compaction did to the ancestor.
const (
	TallyCompactDeleted   = "compaction deleted the register"
	TallyCompactUnchanged = "compaction left it unchanged"
	TallyCompactTombstone = "compaction tombstoned it"
)

// deepHistory (I5c, 672 points): a device holding an ancestor register at
// its baseline advances past it, compacts, acts again (reusing counters if
// compaction forgot them), then receives the ancestor as a stale raw
// snapshot. Its verdict must equal that of the same device that never
// compacted.
func deepHistory() *Check {
	return &Check{
		Key: "deep-history", Label: "I5c", Name: "compact, act again, stale ancestor arrives",
		Params: []Param{{Name: "s0"}, {Name: "c0"}, {Name: "stale", Enum: stalePairNames}, {Name: "seq", Enum: historySeqs}},
		Cube: func(*model.Rules) []Point {
			return product(seq(4), seq(4), seq(len(stalePairs)), seq(len(historySeqs)))
		},
		Prepare: func(rules *model.Rules) func(Point) Outcome {
			return func(p Point) Outcome {
				pair := stalePairs[p[2]]
				b0, f1 := pair[0], pair[1]
				anc := model.Reg{S: uint32(p[0]), C: uint32(p[1]), B: b0}
				hist := historySeqs[p[3]]
				run := func(compact bool) (*model.Replica, model.Reg) {
					r := holding(rules, "x", ctx0, b0, anc)
					r.Advance(ctx0, f1)
					if compact {
						r.Compact(ctx0)
					}
					after := r.Reg(ctx0)
					runHistory(r, hist, f1)
					r.Receive(tripleBlob(ctx0, anc))
					return r, after
				}
				got, compacted := run(true)
				want, _ := run(false)
				o := Outcome{Tally: []string{TallyCompactTombstone}}
				switch compacted {
				case model.Reg{}:
					o.Tally[0] = TallyCompactDeleted
				case anc:
					o.Tally[0] = TallyCompactUnchanged
				}
				if g, w := got.Live(ctx0), want.Live(ctx0); g != w {
					o.Violation = "I5c-deep-history-resurrection"
					if !g {
						o.Violation = "I5c-deep-history-loss"
					}
					o.Detail = fmt.Sprintf("ancestor %v at f=%d, advance to %d, compacted to %v, then %q, stale ancestor received: %v; without compaction: %v",
						anc, b0, f1, compacted, hist, snap(got, ctx0), snap(want, ctx0))
				}
				return o
			}
		},
	}
}

// tombstoneStale (I5c direct, 90 points): a dead, ever-active register
// compacted at a frontier past its baseline, joined with the register it
// came from, stays dead.
func tombstoneStale() *Check {
	return &Check{
		Key: "tombstone-stale-ancestor", Label: "I5c", Name: "tombstone joined with its stale ancestor stays dead",
		Params: []Param{{Name: "s"}, {Name: "c"}, {Name: "stale", Enum: stalePairNames}},
		Cube: func(*model.Rules) []Point {
			var out []Point
			for _, p := range product(seq(4), seq(4), seq(len(stalePairs))) {
				if p[0] != 0 || p[1] != 0 { // a virgin register has no tombstone
					out = append(out, p)
				}
			}
			return out
		},
		Prepare: func(rules *model.Rules) func(Point) Outcome {
			return func(p Point) Outcome {
				pair := stalePairs[p[2]]
				anc := model.Reg{S: uint32(p[0]), C: uint32(p[1]), B: pair[0]}
				r := holding(rules, "x", ctx0, pair[1], anc)
				if r.Live(ctx0) {
					return Outcome{}
				}
				r.Compact(ctx0)
				tomb := r.Reg(ctx0)
				r.Receive(tripleBlob(ctx0, anc))
				if r.Live(ctx0) {
					return Outcome{Violation: "I5c-tombstone-stale-resurrection",
						Detail: fmt.Sprintf("dead %v at f=%d compacts to %v; joined with the ancestor: %v", anc, pair[1], tomb, snap(r, ctx0))}
				}
				return Outcome{}
			}
		},
	}
}

// tombstoneMonotonic (I5d lemma, 1,728 points): receiving a tombstone floor
// (0, k, 0) never makes a register live that was dead with a lower floor
// (k = 0 is the register itself).
func tombstoneMonotonic() *Check {
	tens := vals(0, 10, 20)
	return &Check{
		Key: "tombstone-monotonic", Label: "I5d", Name: "a higher floor never revives a register",
		Params: []Param{{Name: "s"}, {Name: "c"}, {Name: "b"}, {Name: "f"}, {Name: "k"}},
		Cube: func(*model.Rules) []Point {
			return product(seq(4), seq(4), tens, tens, seq(6))
		},
		Prepare: func(rules *model.Rules) func(Point) Outcome {
			return func(p Point) Outcome {
				reg, f, k := regAt(p, 0), uint32(p[3]), uint32(p[4])
				x := holding(rules, "x", ctx0, f, reg)
				prev := x.Live(ctx0)
				if k > 0 {
					lower := x.Clone()
					lower.Receive(floorBlob(ctx0, k-1))
					prev = lower.Live(ctx0)
				}
				x.Receive(floorBlob(ctx0, k))
				if !prev && x.Live(ctx0) {
					return Outcome{Violation: "I5d-floor-revived",
						Detail: fmt.Sprintf("%v at f=%d is dead with floor %d but receiving floor %d gives %v", reg, f, max(k, 1)-1, k, snap(x, ctx0))}
				}
				return Outcome{}
			}
		},
	}
}

// TallySuppression counts cross-device points where the tombstone
// suppresses a live register the uncompacted ancestor would not have.
const TallySuppression = "suppression (recovered by one mark-unread)"

var crossFrontiers = vals(5, 15, 25, 35)

// crossDeviceSuppression (I5d, 312 points): a device Y compacts a dead
// ancestor; an unrelated device X with a fresh live set receives the
// tombstone instead of the ancestor. The tombstone may suppress X's set
// (never revive a dead one), and a suppression recovers with one more
// mark-unread that survives the same tombstone arriving again.
func crossDeviceSuppression() *Check {
	return &Check{
		Key: "cross-device-suppression", Label: "I5d", Name: "tombstone at another device: suppress only, recoverable",
		Params: []Param{{Name: "s"}, {Name: "c"}, {Name: "stale", Enum: stalePairNames}, {Name: "fx"}},
		Cube: func(*model.Rules) []Point {
			var out []Point
			for _, p := range product(seq(4), seq(4), seq(len(stalePairs)), crossFrontiers) {
				virgin := p[0] == 0 && p[1] == 0
				floorShaped := p[0] == 0 && stalePairs[p[2]][0] == 0 // compaction leaves (0,c,0) as it is
				if !virgin && !floorShaped {
					out = append(out, p)
				}
			}
			return out
		},
		Prepare: func(rules *model.Rules) func(Point) Outcome {
			return func(p Point) Outcome {
				pair := stalePairs[p[2]]
				anc := model.Reg{S: uint32(p[0]), C: uint32(p[1]), B: pair[0]}
				fx := uint32(p[3])
				y := holding(rules, "y", ctx0, pair[1], anc)
				y.Compact(ctx0)
				tomb := y.Reg(ctx0)
				x := holding(rules, "x", ctx0, fx, model.Reg{S: 1, B: fx})
				withTomb, withAnc := x.Clone(), x.Clone()
				withTomb.Receive(tripleBlob(ctx0, tomb))
				withAnc.Receive(tripleBlob(ctx0, anc))
				where := fmt.Sprintf("ancestor %v compacted at f=%d to %v; X holds %v at f=%d", anc, pair[1], tomb, x.Reg(ctx0), fx)
				tl, al := withTomb.Live(ctx0), withAnc.Live(ctx0)
				switch {
				case tl && !al:
					return Outcome{Violation: "I5d-cross-device-resurrection", Detail: where + fmt.Sprintf(": tombstone gives %v, ancestor %v", snap(withTomb, ctx0), snap(withAnc, ctx0))}
				case !tl && al:
					o := Outcome{Tally: []string{TallySuppression}}
					_ = withTomb.MarkUnread(ctx0)
					if !withTomb.Live(ctx0) {
						o.Violation, o.Detail = "I5d-suppression-not-recoverable", where+fmt.Sprintf(": after one more mark-unread %v", snap(withTomb, ctx0))
						return o
					}
					withTomb.Receive(tripleBlob(ctx0, tomb))
					if !withTomb.Live(ctx0) {
						o.Violation, o.Detail = "I5d-recovery-not-replay-stable", where+fmt.Sprintf(": the recovered set is suppressed again: %v", snap(withTomb, ctx0))
					}
					return o
				}
				return Outcome{}
			}
		},
	}
}
