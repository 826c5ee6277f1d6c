package candidate

import (
	"fmt"

	"github.com/nip-rs/harness/model"
)

// CubeResult is one cube under one tie policy: its points, the points that
// failed, and the first failing point in cube order.
type CubeResult struct {
	Key, Label, Name string
	Tie              model.TiePolicy
	Points           int
	Violations       int
	First            string
}

// Cubes runs the cubes that apply to an encoding under rules (and their
// tie policy): I4 and I6 stated over any encoding, and for A its join laws
// (B's are the directed I1 checks over model registers).
func Cubes(enc Encoding, rules *model.Rules) []CubeResult {
	var out []CubeResult
	if _, ok := enc.(EncodingA); ok {
		out = append(out, joinLawsA(rules.Tie))
	}
	return append(out, concurrentStability(enc, rules), replayHarmless(enc, rules))
}

func (c *CubeResult) fail(format string, a ...any) {
	if c.Violations == 0 {
		c.First = fmt.Sprintf(format, a...)
	}
	c.Violations++
}

// cubeRegsA is the reference's register cube for A: counter 0..2, tiebreak
// a or b, either op, baseline 0 or 10 (24 registers).
func cubeRegsA() []RegA {
	var out []RegA
	for c := range uint32(3) {
		for _, t := range []string{"a", "b"} {
			for _, op := range []Op{OpSet, OpClear} {
				for _, b := range []uint32{0, 10} {
					out = append(out, RegA{Counter: c, Tiebreak: t, Op: op, Baseline: b})
				}
			}
		}
	}
	return out
}

// joinLawsA: A's join is idempotent, commutative and associative over the
// cube (24 + 576 + 13,824 points per tie policy).
func joinLawsA(tie model.TiePolicy) CubeResult {
	res := CubeResult{Key: "a-join-laws", Label: "I1", Name: "A's join idempotent, commutative, associative", Tie: tie}
	regs := cubeRegsA()
	j := func(a, b RegA) RegA { return JoinA(a, b, tie) }
	for _, a := range regs {
		res.Points++
		if j(a, a) != a {
			res.fail("join(%v, %v) = %v", a, a, j(a, a))
		}
	}
	for _, a := range regs {
		for _, b := range regs {
			res.Points++
			if j(a, b) != j(b, a) {
				res.fail("join(%v, %v) = %v but join(%v, %v) = %v", a, b, j(a, b), b, a, j(b, a))
			}
		}
	}
	for _, a := range regs {
		for _, b := range regs {
			for _, c := range regs {
				res.Points++
				if l, r := j(j(a, b), c), j(a, j(b, c)); l != r {
					res.fail("join(join(%v, %v), %v) = %v but join(%v, join(%v, %v)) = %v", a, b, c, l, a, b, c, r)
				}
			}
		}
	}
	return res
}

// ancestorHistories are the histories an ancestor installation performs
// before two others start from its publication: none, a set, a clear, and
// the pairs of the two.
var ancestorHistories = [][]string{{}, {"set"}, {"clear"}, {"set", "clear"}, {"clear", "set"}, {"set", "set"}}

var cubeCtxs = []string{"c0", "c1"}

// concurrentStability is I4 over any encoding: from a common ancestor at
// frontier f, one installation marks unread while another marks read at
// f+10; a third holding the ancestor receives both publications in either
// order and must reach the same verdict (24 points per tie policy).
func concurrentStability(enc Encoding, rules *model.Rules) CubeResult {
	res := CubeResult{Key: "concurrent-stability", Label: "I4", Name: "concurrent set/clear winner independent of order", Tie: rules.Tie}
	for _, hist := range ancestorHistories {
		for _, f := range []uint32{0, 10} {
			for _, ctx := range cubeCtxs {
				res.Points++
				anc := enc.Upgraded("anc", rules)
				if f > 0 {
					anc.Advance(ctx, f)
				}
				for _, h := range hist {
					if h == "set" {
						_ = anc.MarkUnread(ctx)
					} else {
						_ = anc.MarkRead(ctx, f)
					}
				}
				from := func(id string) Device {
					d := enc.Upgraded(id, rules)
					_ = d.Receive(anc.Publish())
					return d
				}
				setter, clearer, one := from("d0"), from("d1"), from("r")
				_ = setter.MarkUnread(ctx)
				_ = clearer.MarkRead(ctx, f+10)
				a, b := setter.Publish(), clearer.Publish()
				two := one.Clone()
				_, _ = one.Receive(a), one.Receive(b)
				_, _ = two.Receive(b), two.Receive(a)
				if one.Live(ctx) != two.Live(ctx) {
					res.fail("ancestor %v at f=%d on %s: set then clear gives %s, clear then set %s", hist, f, ctx,
						one.View([]string{ctx}), two.View([]string{ctx}))
				}
			}
		}
	}
	return res
}

// replayHarmless is I6 over any encoding: an installation at frontier 10
// marks unread, publishes, and receives its own publication three times;
// its state must not change (2 points per tie policy).
func replayHarmless(enc Encoding, rules *model.Rules) CubeResult {
	res := CubeResult{Key: "replay-harmless", Label: "I6", Name: "own publication replayed changes nothing", Tie: rules.Tie}
	for _, ctx := range cubeCtxs {
		res.Points++
		d := enc.Upgraded("d0", rules)
		d.Advance(ctx, 10)
		_ = d.MarkUnread(ctx)
		p := d.Publish()
		before := string(d.AppendKey(nil))
		for range 3 {
			_ = d.Receive(p)
		}
		if string(d.AppendKey(nil)) != before {
			res.fail("%s: after three replays %s", ctx, d.View([]string{ctx}))
		}
	}
	return res
}
