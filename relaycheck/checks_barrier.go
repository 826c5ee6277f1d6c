package relaycheck

import (
	"context"
	"fmt"
	"time"

	"github.com/nbd-wtf/go-nostr"
)

// checkBarrier tries the delivery barrier (R5) sequentially: with a fence
// subscription open on the reader, the writer publishes an event while
// the reader asks for it by id. A trial is exercised when the query
// delivers the event (the relay stored it before the query read
// storage); the fence must then have had it before the query's
// end-of-stored-events. One exercised trial that shows otherwise is a
// violation and ends the check; otherwise trials run until the exercised
// ones bound the violation rate (sequential), or the cap.
func (p *prober) checkBarrier(ctx context.Context) []Check {
	const id = "barrier"
	f := p.filter(10, ts(p.base+barrierAt), nil)
	c, cancel := context.WithTimeout(ctx, p.opts.Timeout)
	a, err := p.r.Query(c, "fence", f, nil)
	cancel()
	if err != nil || a.Refused {
		return []Check{unknown(id, ReqBarrier, "fence: "+failed(err, a))}
	}
	defer func() { _ = p.r.Unsub(ctx, "fence") }()
	exercised, trials := 0, 0
	pace := newPacer(p.raceDelayMax())
	for i := 0; i < p.seq.cap && !p.seq.done(exercised); i++ {
		trials++
		ev := p.event(fmt.Sprintf("relaycheck:barrier-%d", i), p.base+barrierAt+1+nostr.Timestamp(i))
		read, fenced, late, why := p.barrierTrial(ctx, fmt.Sprintf("bar-%d", i), ev, pace)
		if why != "" {
			chk := unknown(id, ReqBarrier, fmt.Sprintf("trial %d: %s", i+1, why))
			chk.Trials, chk.Exercised = trials, exercised
			return []Check{chk}
		}
		pace.update(read)
		if !read {
			continue
		}
		exercised++
		if !fenced {
			sub := late
			return []Check{{ID: id, Requirement: ReqBarrier, Verdict: Violates, Trials: trials, Exercised: exercised,
				Detail: fmt.Sprintf("trial %d (%d exercised): query %s, one of %d racing the write, delivered %s before the fence had it", trials, exercised, sub, atomicQueries, short(ev)),
				Evidence: []Evidence{{Sent: reqText("fence", f) + "; EVENT " + ev.ID + "; " + reqText(sub, nostr.Filter{IDs: []string{ev.ID}}),
					Got: []string{describe(ev)}, Want: "the fence push before EOSE " + sub}}}}
		}
	}
	return []Check{p.seq.conclude(id, ReqBarrier, trials, exercised, "a trial is exercised when one of its queries read the event")}
}

// barrierTrial publishes ev on the writer and, without waiting for its
// OK, after the pacer's delay, asks the reader for it by id with
// atomicQueries queries at once (a relay answering them concurrently
// reads its store at several instants, one of them perhaps between
// saving the event and pushing it); it reports whether a query
// delivered it and whether the fence had it before the end of stored
// events of every query that did, naming the first that did not, or why
// the trial failed.
func (p *prober) barrierTrial(ctx context.Context, sub string, ev *nostr.Event, pace *pacer) (read, fenced bool, late string, why string) {
	c, cancel := context.WithTimeout(ctx, p.opts.Timeout)
	defer cancel()
	p.published = append(p.published, ev)
	if err := p.w.Send(c, &nostr.EventEnvelope{Event: *ev}); err != nil {
		return false, false, "", err.Error()
	}
	pace.wait(c)
	subs := make([]string, atomicQueries)
	for i := range subs {
		subs[i] = fmt.Sprintf("%s-%d", sub, i)
	}
	f := nostr.Filter{IDs: []string{ev.ID}}
	pushed := false
	fencedAtEnd := map[string]bool{}
	as, err := p.r.QueryAllWatch(c, subs, f, func(env nostr.Envelope) {
		if e, ok := env.(*nostr.EventEnvelope); ok && e.SubscriptionID != nil && *e.SubscriptionID == "fence" && e.Event.ID == ev.ID {
			pushed = true
		}
	}, func(s string) { fencedAtEnd[s] = pushed })
	if err != nil {
		return false, false, "", err.Error()
	}
	fenced = true
	for i, a := range as {
		if a.Refused {
			return false, false, "", failed(nil, a)
		}
		p.note(subs[i], f, a, false)
		_ = p.r.Unsub(c, subs[i])
		for _, got := range a.Events {
			if got.ID == ev.ID {
				read = true
				if !fencedAtEnd[subs[i]] && fenced {
					fenced, late = false, subs[i]
				}
			}
		}
	}
	if ok, reason, err := waitOK(c, p.w, ev.ID); err != nil || !ok {
		return false, false, "", fmt.Sprintf("publish: %v %s", err, reason)
	}
	return read, fenced, late, ""
}

// raceDelayMax bounds a race trial's delay before its queries: a tenth
// of the exchange timeout, at most 50 ms (a store that takes longer to
// save than that leaves the check unexercised, and so unknown).
func (p *prober) raceDelayMax() time.Duration {
	return min(p.opts.Timeout/10, 50*time.Millisecond)
}

// waitOK reads a connection until the OK for id.
func waitOK(ctx context.Context, c *Conn, id string) (bool, string, error) {
	for {
		env, err := c.Next(ctx)
		if err != nil {
			return false, "", err
		}
		if o, ok := env.(*nostr.OKEnvelope); ok && o.EventID == id {
			return o.OK, o.Reason, nil
		}
	}
}

// cleanup asks the relay to delete every event the probe published (one
// kind 5 request naming them all) and says what remains.
func (p *prober) cleanup(ctx context.Context) string {
	if len(p.published) == 0 {
		return "nothing published"
	}
	del := &nostr.Event{CreatedAt: p.base + barrierAt + nostr.Timestamp(p.opts.BarrierTrials) + 10, Kind: 5}
	seen := map[string]bool{}
	for _, ev := range p.published {
		del.Tags = append(del.Tags, nostr.Tag{"e", ev.ID})
		if d := ev.Tags.GetD(); !seen[d] {
			seen[d] = true
			del.Tags = append(del.Tags, nostr.Tag{"a", fmt.Sprintf("%d:%s:%s", kindAppData, p.pk, d)})
		}
	}
	_ = del.Sign(p.sk)
	c, cancel := context.WithTimeout(ctx, p.opts.Timeout)
	defer cancel()
	ok, why, err := p.w.Publish(c, del, nil)
	if err != nil || !ok {
		return fmt.Sprintf("deletion request refused: %v %s", err, why)
	}
	a, err := p.query(ctx, "left", p.filter(1000, nil, nil))
	if err != nil {
		return fmt.Sprintf("deletion requested; remaining unknown: %v", err)
	}
	return fmt.Sprintf("deletion requested for %d events; %d remain", len(p.published), len(a.Events))
}
