package relaycheck

import (
	"context"
	"fmt"

	"github.com/nbd-wtf/go-nostr"
)

// checkFresh: an answer reflects every write acknowledged before its REQ
// was sent, even for a filter asked before (R7). A relay that caches
// results by filter answers a repeated filter from a snapshot taken
// before the write. Two orders: the filter, a write, the filter again;
// and a write, then the filter twice.
func (p *prober) checkFresh(ctx context.Context) []Check {
	var out []Check
	at := p.base + freshAt
	// Each window holds an event before its first ask, so that a stale
	// answer is not empty: what the check looks for in it is the write's
	// id, and an answer holding other events of the probe must not pass.
	if _, why := p.publish(ctx, p.event("relaycheck:fresh-seed-a", at), p.event("relaycheck:fresh-seed-b", at+10)); why != "" {
		return []Check{unknown("fresh-after-write", ReqFresh, why), unknown("fresh-repeat", ReqFresh, why)}
	}
	// A filter, a write, the same filter.
	f := p.filter(10, ts(at), ts(at+9))
	if a, err := p.query(ctx, "fresh-a1", f); err != nil || a.Refused {
		out = append(out, unknown("fresh-after-write", ReqFresh, failed(err, a)))
	} else {
		out = append(out, p.freshly(ctx, "fresh-after-write", "fresh-a2", f, p.event("relaycheck:fresh-a", at+1)))
	}
	// A write, then the same filter twice.
	g := p.filter(10, ts(at+10), ts(at+19))
	ev := p.event("relaycheck:fresh-b", at+11)
	c := p.freshly(ctx, "fresh-repeat", "fresh-b1", g, ev)
	if c.Verdict == Conforms {
		c = p.freshlyAsked(ctx, "fresh-repeat", "fresh-b2", g, ev)
		c.Trials = 2
	}
	return append(out, c)
}

// freshly publishes ev and asks f: the answer must hold ev.
func (p *prober) freshly(ctx context.Context, id, sub string, f nostr.Filter, ev *nostr.Event) Check {
	if _, why := p.publish(ctx, ev); why != "" {
		return unknown(id, ReqFresh, why)
	}
	return p.freshlyAsked(ctx, id, sub, f, ev)
}

// freshlyAsked asks f, whose answer must hold the acknowledged ev.
func (p *prober) freshlyAsked(ctx context.Context, id, sub string, f nostr.Filter, ev *nostr.Event) Check {
	a, err := p.query(ctx, sub, f)
	if err != nil || a.Refused {
		return unknown(id, ReqFresh, failed(err, a))
	}
	for _, got := range a.Events {
		if got.ID == ev.ID {
			return Check{ID: id, Requirement: ReqFresh, Verdict: Conforms, Detail: "a repeated filter's answer held the write acknowledged before it"}
		}
	}
	return Check{ID: id, Requirement: ReqFresh, Verdict: Violates,
		Detail:   fmt.Sprintf("%s, acknowledged before %s was sent, is missing from its answer (a stale result cache)", short(ev), sub),
		Evidence: []Evidence{{Sent: "EVENT " + ev.ID + " (acknowledged); " + reqText(sub, f), Got: describeAll(a.Events), Want: describe(ev)}}}
}
