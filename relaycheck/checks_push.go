package relaycheck

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/nbd-wtf/go-nostr"
)

// pushSubs is how many subscriptions each push trial opens at once: a
// relay that registers a subscription for pushes only some time after
// it has answered it (rely hands the registration to another goroutine
// and may send end-of-stored-events first) misses an event written in
// between, and several registrations in flight give the write more
// chances to land in such a gap.
const pushSubs = 4

// checkPush tries push delivery (R4) sequentially: each trial opens
// pushSubs subscriptions on the reader for one second no other event of
// the probe is dated at, waits for every one's end-of-stored-events (the
// point from which the relay must push what it accepts: Full-State Load,
// the fence is established by that answer, not by the request), then
// publishes one event in that second and waits for it on every
// subscription. Every trial whose subscriptions were answered and whose
// event was accepted is exercised; a subscription the event does not
// reach within the timeout is a violation and ends the check. One
// exchange would be a sample: a relay whose registration lags its
// answer misses only some writes.
func (p *prober) checkPush(ctx context.Context) []Check {
	const id = "push"
	// Below the atomic check's versions (base+atomicAt-cap ...): one
	// second per trial, none shared with another check.
	start := p.base + atomicAt - 2*nostr.Timestamp(p.seq.cap) - 10
	exercised, trials := 0, 0
	for i := 0; i < p.seq.cap && !p.seq.done(exercised); i++ {
		trials++
		at := start + nostr.Timestamp(i)
		f := p.filter(1, ts(at), ts(at))
		ev := p.event(fmt.Sprintf("relaycheck:push-%d", i), at)
		subs := make([]string, pushSubs)
		for j := range subs {
			subs[j] = fmt.Sprintf("push-%d-%d", i, j)
		}
		missed, why := p.pushTrial(ctx, subs, f, ev)
		if why != "" {
			chk := unknown(id, ReqPush, fmt.Sprintf("trial %d: %s", trials, why))
			chk.Trials, chk.Exercised = trials, exercised
			return []Check{chk}
		}
		exercised++
		if len(missed) > 0 {
			return []Check{{ID: id, Requirement: ReqPush, Verdict: Violates, Trials: trials, Exercised: exercised,
				Detail: fmt.Sprintf("trial %d: accepted %s, not pushed within %s to %s, each opened and answered with end-of-stored-events before the write",
					trials, short(ev), p.opts.Timeout, strings.Join(missed, ", ")),
				Evidence: []Evidence{{Sent: fmt.Sprintf("REQ %s %s; EOSE for each; EVENT %s", strings.Join(subs, ", "), reqText("", f), ev.ID),
					Got: []string{"nothing on " + strings.Join(missed, ", ")}, Want: describe(ev) + " on every subscription"}}}}
		}
	}
	return []Check{p.seq.conclude(id, ReqPush, trials, exercised, "a trial is exercised when its subscriptions were answered and its event accepted")}
}

// pushTrial opens subs with f, waits for all their ends of stored
// events, publishes ev, and returns the subscriptions ev did not reach
// within the timeout, or why the trial failed; it closes the
// subscriptions.
func (p *prober) pushTrial(ctx context.Context, subs []string, f nostr.Filter, ev *nostr.Event) (missed []string, why string) {
	c, cancel := context.WithTimeout(ctx, p.opts.Timeout)
	as, err := p.r.QueryAll(c, subs, f)
	cancel()
	defer func() {
		for _, s := range subs {
			_ = p.r.Unsub(ctx, s)
		}
	}()
	if err != nil {
		return nil, err.Error()
	}
	for i, a := range as {
		if a.Refused {
			return nil, subs[i] + ": " + failed(nil, a)
		}
		p.note(subs[i], f, a, false)
	}
	if _, why := p.publish(ctx, ev); why != "" {
		return nil, why
	}
	return p.awaitPush(ctx, subs, ev), ""
}

// awaitPush reads the reader until ev has arrived on every one of subs or
// the timeout passed, and returns the subscriptions it did not reach.
func (p *prober) awaitPush(ctx context.Context, subs []string, ev *nostr.Event) (missed []string) {
	got := map[string]bool{}
	wc, wcancel := context.WithTimeout(ctx, p.opts.Timeout)
	defer wcancel()
	for len(got) < len(subs) {
		env, err := p.r.Next(wc)
		if err != nil {
			break // the rest did not receive it within the timeout
		}
		if e, ok := env.(*nostr.EventEnvelope); ok && e.SubscriptionID != nil && e.Event.ID == ev.ID {
			got[*e.SubscriptionID] = true
		}
	}
	for _, s := range subs {
		if !got[s] {
			missed = append(missed, s)
		}
	}
	return missed
}

// PushSettle is how long the settled push check waits after its
// subscriptions' ends of stored events before it writes: a relay that
// registers a subscription for pushes some time after answering it has
// registered it by then. A client loading with several passes and a gap
// of at least PushSettle waits as long after its fence's answer
// (model's Rules.Load.SettleFence), so a relay that keeps every push to
// a subscription answered PushSettle ago (R4 to a settled subscription)
// serves it as well as one keeping R4 (GateOptions.Passes).
const PushSettle = 50 * time.Millisecond

// checkPushSettled tries push delivery to subscriptions answered
// PushSettle earlier, sequentially: it opens pushSubs subscriptions on
// the reader for one second no other check dates events at, waits for
// every end-of-stored-events and then PushSettle, and publishes one event
// in that second a trial, each waited for on every subscription before
// the next. Every trial whose event was accepted is exercised; a
// subscription the event does not reach within the timeout is a
// violation and ends the check. What it leaves out on purpose is the
// window checkPush aims at, a write right after the answer.
func (p *prober) checkPushSettled(ctx context.Context) []Check {
	const id = "push-settled"
	at := p.base + pushAt
	f := p.filter(1, ts(at), ts(at))
	subs := make([]string, pushSubs)
	for j := range subs {
		subs[j] = fmt.Sprintf("settled-%d", j)
	}
	c, cancel := context.WithTimeout(ctx, p.opts.Timeout)
	as, err := p.r.QueryAll(c, subs, f)
	cancel()
	defer func() {
		for _, s := range subs {
			_ = p.r.Unsub(ctx, s)
		}
	}()
	if err != nil {
		return []Check{unknown(id, ReqPushSettled, err.Error())}
	}
	for i, a := range as {
		if a.Refused {
			return []Check{unknown(id, ReqPushSettled, subs[i]+": "+failed(nil, a))}
		}
		p.note(subs[i], f, a, false)
	}
	select {
	case <-time.After(PushSettle):
	case <-ctx.Done():
		return []Check{unknown(id, ReqPushSettled, ctx.Err().Error())}
	}
	exercised, trials := 0, 0
	for i := 0; i < p.seq.cap && !p.seq.done(exercised); i++ {
		trials++
		ev := p.event(fmt.Sprintf("relaycheck:settled-%d", i), at)
		if _, why := p.publish(ctx, ev); why != "" {
			chk := unknown(id, ReqPushSettled, fmt.Sprintf("trial %d: %s", trials, why))
			chk.Trials, chk.Exercised = trials, exercised
			return []Check{chk}
		}
		exercised++
		if missed := p.awaitPush(ctx, subs, ev); len(missed) > 0 {
			return []Check{{ID: id, Requirement: ReqPushSettled, Verdict: Violates, Trials: trials, Exercised: exercised,
				Detail: fmt.Sprintf("trial %d: accepted %s, not pushed within %s to %s, each answered with end-of-stored-events at least %s before the write",
					trials, short(ev), p.opts.Timeout, strings.Join(missed, ", "), PushSettle),
				Evidence: []Evidence{{Sent: fmt.Sprintf("REQ %s %s; EOSE for each; %s later, EVENT %s", strings.Join(subs, ", "), reqText("", f), PushSettle, ev.ID),
					Got: []string{"nothing on " + strings.Join(missed, ", ")}, Want: describe(ev) + " on every subscription"}}}}
		}
	}
	return []Check{p.seq.conclude(id, ReqPushSettled, trials, exercised,
		fmt.Sprintf("a trial is exercised when its event was accepted, %s or more after every subscription was answered", PushSettle))}
}
