package directed

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/nip-rs/harness/model"
)

// Conformance of the read-marking actions and the hierarchy (Write
// Discipline, Hierarchical Frontier Rule): which context each action
// advances, to what, and which messages of a channel read as unread after
// it. A channel read decides through rules.Slots.ChannelRead (by way of
// Replica.MarkChannelRead); the expected outcomes are computed here from
// the spec's text, never by calling a production rule.

// The channel of the hierarchy cube: four candidate messages, each absent,
// a top-level message or a reply in thread hierThread. The timestamps are
// those of the spec's Example (thread X read at 100, channel at 150,
// replies at 140 and 160), so the Example is one point of the cube.
var (
	hierTimes   = []uint32{100, 140, 150, 160}
	hierRoles   = []string{"-", "top", "reply"}
	hierThread  = "thread:" + hexID(0xa0)
	hierMsgCtx  = func(i int) string { return "msg:" + hexID(0xb0+i) }
	hierChannel = "chan"
	hierParent  = func(raw string) (string, bool) {
		if raw == hierThread || strings.HasPrefix(raw, "msg:") {
			return hierChannel, true
		}
		return "", false
	}
	hierPriorChannel = []string{"none", "120", "200"}
	hierPriorThread  = []string{"none", "100"}
	hierActions      = []string{"channel read", "thread read at 155", "message read of the message at 160"}
)

// hierSets names the 81 assignments of a role to each candidate message,
// e.g. "140:reply 150:top 160:reply" (absent messages are not named).
var hierSets = func() []string {
	var out []string
	for _, p := range product(seq(3), seq(3), seq(3), seq(3)) {
		var parts []string
		for i, role := range p {
			if role != 0 {
				parts = append(parts, fmt.Sprintf("%d:%s", hierTimes[i], hierRoles[role]))
			}
		}
		if len(parts) == 0 {
			parts = []string{"no messages"}
		}
		out = append(out, strings.Join(parts, " "))
	}
	return out
}()

// hierRolesOf decodes a message-set index into the role of each candidate
// (the first candidate varying slowest, as in hierSets).
func hierRolesOf(set int32) [4]int {
	var roles [4]int
	for i := 3; i >= 0; i-- {
		roles[i] = int(set % 3)
		set /= 3
	}
	return roles
}

// hierPrior is the prior frontier named names[i]: none at index 0, else
// its value.
func hierPrior(names []string, i int32) (uint32, bool) {
	if i == 0 {
		return 0, false
	}
	v, err := strconv.ParseUint(names[i], 10, 32)
	return uint32(v), err == nil
}

// hierarchyConformance (C8, tie-independent, 1,458 points): a replica
// holding the channel at none, 120 or 200 and thread X at none or 100 (no
// message context) performs one action over a channel whose messages are
// one of the 81 role assignments. The spec's outcomes:
//
//   - a channel read advances the channel context, and only it, to the
//     newest top-level message (never a reply), and not at all when the
//     channel has no top-level message; frontiers never decrease;
//   - a thread read advances only thread X, a message read only its own
//     msg: context, never the channel;
//   - afterwards effective(thread X) and effective(msg) are the maximum of
//     the own value and the channel's; a top-level message is unread iff it
//     is newer than the channel frontier, a reply iff it is newer than
//     max(its msg: context, thread X, the channel) — so a channel read
//     leaves unread every reply newer than the newest top-level message.
func hierarchyConformance() *Check {
	return &Check{
		Key: "hierarchy-conformance", Label: "C8", Name: "read actions advance only their context; replies past the channel stay unread",
		Params:         []Param{{Name: "messages", Enum: hierSets}, {Name: "channel", Enum: hierPriorChannel}, {Name: "thread", Enum: hierPriorThread}, {Name: "action", Enum: hierActions}},
		TieIndependent: true,
		Cube: func(*model.Rules) []Point {
			return product(seq(len(hierSets)), seq(len(hierPriorChannel)), seq(len(hierPriorThread)), seq(len(hierActions)))
		},
		Prepare: func(rules *model.Rules) func(Point) Outcome {
			return func(p Point) Outcome { return hierarchyPoint(rules, p) }
		},
	}
}

// hierFrontier is one context's expected frontier.
type hierFrontier struct {
	v   uint32
	has bool
}

func (f *hierFrontier) advance(ts uint32) { f.v, f.has = max(f.v, ts), true }

func hierarchyPoint(rules *model.Rules, p Point) Outcome {
	roles := hierRolesOf(p[0])
	bad := func(format string, a ...any) Outcome {
		return Outcome{Violation: "C8-hierarchy", Detail: fmt.Sprintf("%s, channel %s, thread %s, %s: ",
			hierSets[p[0]], hierPriorChannel[p[1]], hierPriorThread[p[2]], hierActions[p[3]]) + fmt.Sprintf(format, a...)}
	}
	r := fresh(rules, "d0")
	r.Parent = hierParent
	want := map[string]*hierFrontier{hierChannel: {}, hierThread: {}}
	for i := range hierTimes {
		want[hierMsgCtx(i)] = &hierFrontier{}
	}
	if v, ok := hierPrior(hierPriorChannel, p[1]); ok {
		r.Advance(hierChannel, v)
		want[hierChannel].advance(v)
	}
	if v, ok := hierPrior(hierPriorThread, p[2]); ok {
		r.Advance(hierThread, v)
		want[hierThread].advance(v)
	}
	var msgs []model.ChannelMessage
	for i, role := range roles {
		if role != 0 {
			msgs = append(msgs, model.ChannelMessage{CreatedAt: hierTimes[i], TopLevel: role == 1})
		}
	}
	switch p[3] {
	case 0:
		r.MarkChannelRead(hierChannel, msgs)
		for i, role := range roles {
			if role == 1 {
				want[hierChannel].advance(hierTimes[i])
			}
		}
	case 1:
		if err := r.MarkThreadRead(strings.TrimPrefix(hierThread, "thread:"), 155); err != nil {
			return bad("thread read refused: %v", err)
		}
		want[hierThread].advance(155)
	default:
		if err := r.MarkMessageRead(strings.TrimPrefix(hierMsgCtx(3), "msg:"), 160); err != nil {
			return bad("message read refused: %v", err)
		}
		want[hierMsgCtx(3)].advance(160)
	}
	// Every context at its expected frontier, and no other context held.
	var held []string
	for ctx, w := range want {
		if w.has {
			held = append(held, ctx)
		}
		if got, has := r.Frontier(ctx), r.HasFrontier(ctx); got != w.v || has != w.has {
			return bad("%s at %d (held %t), want %d (held %t)", ctx, got, has, w.v, w.has)
		}
	}
	slices.Sort(held)
	if got := r.Contexts(); !slices.Equal(got, held) {
		return bad("contexts %v, want %v", got, held)
	}
	// The hierarchy and the unread verdicts.
	ch, th := want[hierChannel].v, want[hierThread].v
	if got := r.Effective(hierThread); got != max(th, ch) {
		return bad("effective(%s) = %d, want max(%d, %d)", hierThread, got, th, ch)
	}
	for i, role := range roles {
		ts, mc := hierTimes[i], hierMsgCtx(i)
		if got, w := r.Effective(mc), max(want[mc].v, ch); got != w {
			return bad("effective(%s) = %d, want %d", mc, got, w)
		}
		switch role {
		case 1:
			if got, w := ts > r.Effective(hierChannel), ts > ch; got != w {
				return bad("top-level message at %d unread %t, want %t (channel at %d)", ts, got, w, ch)
			}
		case 2:
			if got, w := r.ReplyUnread(mc, hierThread, ts), ts > max(want[mc].v, th, ch); got != w {
				return bad("reply at %d unread %t, want %t (msg %d, thread %d, channel %d)", ts, got, w, want[mc].v, th, ch)
			}
		}
	}
	return Outcome{}
}
