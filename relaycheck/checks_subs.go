package relaycheck

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/nbd-wtf/go-nostr"
)

// maxSubscriptions bounds Options.Subscriptions.
const maxSubscriptions = 1000

// checkSubs: a connection keeps every subscription it opens, or refuses
// one with CLOSED, never dropping one silently (R8). The load keeps its
// fence open while its queries run on the same connection, beside
// whatever other subscriptions the client keeps there.
func (p *prober) checkSubs(ctx context.Context) []Check {
	return []Check{p.checkSubsFence(ctx), p.checkSubsCapacity(ctx)}
}

// checkSubsFence: the oldest of three subscriptions (a fence, then the
// load's two) still receives a matching event.
func (p *prober) checkSubsFence(ctx context.Context) Check {
	const id = "subs-fence"
	at := p.base + subsAt
	f := p.filter(1, ts(at), ts(at))
	subs := []string{"subs-fence", "subs-load-a", "subs-load-b"}
	got, refused, why := p.openAndPublish(ctx, subs, f, p.event("relaycheck:subs-fence", at))
	switch {
	case why != "":
		return unknown(id, ReqSubs, why)
	case refused > 0:
		return unknown(id, ReqSubs, fmt.Sprintf("the relay refused subscription %d of 3 with CLOSED: a load sees it, but the fence was not observed", refused))
	case !got[0] && !got[1] && !got[2]:
		return unknown(id, ReqSubs, "no subscription received the event (see R4)")
	case !got[0]:
		return Check{ID: id, Requirement: ReqSubs, Verdict: Violates,
			Detail:   "the fence, opened first, stopped receiving once two more subscriptions were open, with no CLOSED",
			Evidence: []Evidence{{Sent: "REQ " + subs[0] + ", " + subs[1] + ", " + subs[2] + " " + reqText("", f), Got: received(subs, got), Want: "every subscription receives the event"}}}
	}
	return Check{ID: id, Requirement: ReqSubs, Verdict: Conforms, Detail: "the fence still received after two more subscriptions opened"}
}

// checkSubsCapacity opens Options.Subscriptions subscriptions on the
// reader (stopping at a CLOSED), publishes one event matching all of
// them and sees which receive it: those that do not, with no CLOSED,
// were silently evicted, and the ones that do are the capacity.
func (p *prober) checkSubsCapacity(ctx context.Context) Check {
	const id = "subs-capacity"
	at := p.base + subsAt + 1
	f := p.filter(1, ts(at), ts(at))
	subs := make([]string, p.opts.Subscriptions)
	for i := range subs {
		subs[i] = fmt.Sprintf("subs-%03d", i)
	}
	got, refused, why := p.openAndPublish(ctx, subs, f, p.event("relaycheck:subs-capacity", at))
	if why != "" {
		return unknown(id, ReqSubs, why)
	}
	open := len(subs)
	if refused > 0 {
		open = refused - 1
	}
	kept := 0
	for _, g := range got[:open] {
		if g {
			kept++
		}
	}
	switch {
	case kept == 0:
		return unknown(id, ReqSubs, fmt.Sprintf("none of %d subscriptions received the event (see R4)", open))
	case kept == open && refused > 0:
		p.rep.SubCapacity = open
		return Check{ID: id, Requirement: ReqSubs, Verdict: Conforms,
			Detail: fmt.Sprintf("%d subscriptions kept; the relay refused the next with CLOSED (a load sees it)", open)}
	case kept == open:
		p.rep.SubCapacity = open
		return Check{ID: id, Requirement: ReqSubs, Verdict: Conforms, Detail: fmt.Sprintf("all %d subscriptions on one connection received the event", open)}
	}
	p.rep.SubCapacity, p.rep.SubEvicts = kept, true
	order := "the oldest"
	if slices.Contains(got[:open-kept], true) {
		order = "not only the oldest"
	}
	return Check{ID: id, Requirement: ReqSubs, Verdict: Violates,
		Detail: fmt.Sprintf("of %d subscriptions on one connection only %d received the event; %d (%s) were dropped with no CLOSED: a fence opened before them would be dead",
			open, kept, open-kept, order),
		Evidence: []Evidence{{Sent: fmt.Sprintf("REQ subs-000 ... subs-%03d %s; EVENT", open-1, reqText("", f)), Got: received(subs[:open], got[:open]),
			Want: "every open subscription receives the event"}}}
}

// openAndPublish opens subs on the reader in order, each with f, stopping
// at the first refused (refused is its 1-based position, 0 if none),
// waits PushSettle, publishes ev, and reports which of the open subscriptions received it
// within the timeout; then it closes them.
func (p *prober) openAndPublish(ctx context.Context, subs []string, f nostr.Filter, ev *nostr.Event) (got []bool, refused int, why string) {
	got = make([]bool, len(subs))
	index := map[string]int{}
	c, cancel := context.WithTimeout(ctx, p.opts.Timeout)
	defer cancel()
	var opened []string
	defer func() {
		for _, s := range opened {
			_ = p.r.Unsub(ctx, s)
		}
	}()
	for i, s := range subs {
		a, err := p.r.Query(c, s, f, nil)
		if err != nil {
			return nil, 0, fmt.Sprintf("opening %s: %v", s, err)
		}
		p.note(s, f, a, false)
		if a.Refused {
			refused = i + 1
			break
		}
		opened = append(opened, s)
		index[s] = i
	}
	// The capacity is what is asked here, not push delivery right after
	// an answer (the push check's): a relay that registers subscriptions
	// for pushes only after answering them has registered these by now.
	select {
	case <-time.After(PushSettle):
	case <-ctx.Done():
		return nil, 0, ctx.Err().Error()
	}
	if _, why := p.publish(ctx, ev); why != "" {
		return nil, 0, why
	}
	waiting := len(opened)
	wc, wcancel := context.WithTimeout(ctx, p.opts.Timeout)
	defer wcancel()
	for waiting > 0 {
		env, err := p.r.Next(wc)
		if err != nil {
			break // the rest did not receive it within the timeout
		}
		e, ok := env.(*nostr.EventEnvelope)
		if !ok || e.SubscriptionID == nil || e.Event.ID != ev.ID {
			continue
		}
		if i, ok := index[*e.SubscriptionID]; ok && !got[i] {
			got[i] = true
			waiting--
		}
	}
	return got, refused, ""
}

// received lists, for evidence, which subscriptions received the event.
func received(subs []string, got []bool) []string {
	var out []string
	for i, s := range subs {
		if got[i] {
			out = append(out, s+": received")
		} else {
			out = append(out, s+": nothing")
		}
	}
	return out
}
