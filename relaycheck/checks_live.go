package relaycheck

import (
	"context"
	"fmt"
	"time"

	"github.com/nbd-wtf/go-nostr"
)

// checkReplacement: an addressable coordinate holds one version, the
// NIP-01 latest (greatest created_at, then lowest id), whatever order the
// versions arrive in. A relay keeping two is harmless to a load's
// soundness (the load keeps the latest) but a second version at the
// coordinate's second makes a one-coordinate pinned window reach the
// floor, so such a load never proves complete.
func (p *prober) checkReplacement(ctx context.Context) []Check {
	at := p.base + replaceAt
	pairAt := func(d string, t nostr.Timestamp) (lo, hi *nostr.Event) {
		a, b := p.event(d, t), p.event(d, t)
		if a.ID < b.ID {
			return a, b
		}
		return b, a
	}
	type tc struct{ id, d string }
	cases := []tc{{"replace-newer", "relaycheck:rep-newer"}, {"replace-older", "relaycheck:rep-older"},
		{"replace-same-high-first", "relaycheck:rep-hilo"}, {"replace-same-low-first", "relaycheck:rep-lohi"}}
	var out []Check
	for i, c := range cases {
		t := at - nostr.Timestamp(2*i)
		var order []*nostr.Event
		var want *nostr.Event
		switch i {
		case 0:
			old, nw := p.event(c.d, t-1), p.event(c.d, t)
			order, want = []*nostr.Event{old, nw}, nw
		case 1:
			old, nw := p.event(c.d, t-1), p.event(c.d, t)
			order, want = []*nostr.Event{nw, old}, nw
		case 2:
			lo, hi := pairAt(c.d, t)
			order, want = []*nostr.Event{hi, lo}, lo
		case 3:
			lo, hi := pairAt(c.d, t)
			order, want = []*nostr.Event{lo, hi}, lo
		}
		for _, ev := range order {
			p.publish(ctx, ev) // a refusal of the superseded version is right
		}
		f := p.filter(10, nil, nil)
		f.Tags = nostr.TagMap{"d": {c.d}}
		a, err := p.query(ctx, c.id, f)
		if err != nil || a.Refused {
			out = append(out, unknown(c.id, ReqReplacement, fmt.Sprintf("%v %s", err, a.Closed)))
			continue
		}
		chk := Check{ID: c.id, Requirement: ReqReplacement, Verdict: Conforms, Detail: "one version, the latest, is kept"}
		if len(a.Events) != 1 || a.Events[0].ID != want.ID {
			chk.Verdict = Violates
			chk.Detail = fmt.Sprintf("published %s, then %s: the relay holds %d versions", short(order[0]), short(order[1]), len(a.Events))
			chk.Evidence = []Evidence{{Sent: reqText(c.id, f), Got: describeAll(a.Events), Want: describe(want)}}
		}
		out = append(out, chk)
	}
	return out
}

func short(ev *nostr.Event) string { return fmt.Sprintf("%s@%d", ev.ID[:8], ev.CreatedAt) }

// checkPush: an event accepted while a subscription is open is pushed
// to it (R4).
func (p *prober) checkPush(ctx context.Context) []Check {
	f := p.filter(10, ts(p.base+pushAt), nil)
	c, cancel := context.WithTimeout(ctx, p.opts.Timeout)
	defer cancel()
	if a, err := p.r.Query(c, "push", f, nil); err != nil || a.Refused {
		return []Check{unknown("push", ReqPush, fmt.Sprintf("%v %s", err, a.Closed))}
	}
	defer func() { _ = p.r.Unsub(ctx, "push") }()
	ev := p.event("relaycheck:push", p.base+pushAt+1)
	if _, why := p.publish(ctx, ev); why != "" {
		return []Check{unknown("push", ReqPush, why)}
	}
	for {
		env, err := p.r.Next(c)
		if err != nil {
			return []Check{{ID: "push", Requirement: ReqPush, Verdict: Violates,
				Detail:   fmt.Sprintf("accepted %s, not pushed to the open subscription within %s", short(ev), p.opts.Timeout),
				Evidence: []Evidence{{Sent: reqText("push", f) + " then EVENT " + ev.ID, Want: describe(ev)}}}}
		}
		if e, ok := env.(*nostr.EventEnvelope); ok && e.SubscriptionID != nil && *e.SubscriptionID == "push" && e.Event.ID == ev.ID {
			return []Check{{ID: "push", Requirement: ReqPush, Verdict: Conforms, Detail: "an accepted event reached the open subscription"}}
		}
	}
}

// checkBarrier tries the delivery barrier (R5) BarrierTrials times: with
// a fence subscription open on the reader, the writer publishes an event
// while the reader asks for it by id. Where the query delivers it (the
// relay stored it before the query read storage), the fence must have
// had it before the query's end-of-stored-events. One trial that shows
// otherwise is a violation; none is only an observation.
func (p *prober) checkBarrier(ctx context.Context) []Check {
	f := p.filter(10, ts(p.base+barrierAt), nil)
	c, cancel := context.WithTimeout(ctx, p.opts.Timeout*time.Duration(2+p.opts.BarrierTrials/10))
	defer cancel()
	if a, err := p.r.Query(c, "fence", f, nil); err != nil || a.Refused {
		return []Check{unknown("barrier", ReqBarrier, fmt.Sprintf("%v %s", err, a.Closed))}
	}
	defer func() { _ = p.r.Unsub(ctx, "fence") }()
	read := 0
	for i := range p.opts.BarrierTrials {
		ev := p.event(fmt.Sprintf("relaycheck:barrier-%d", i), p.base+barrierAt+1+nostr.Timestamp(i))
		p.published = append(p.published, ev)
		if err := p.w.Send(c, &nostr.EventEnvelope{Event: *ev}); err != nil {
			return []Check{unknown("barrier", ReqBarrier, err.Error())}
		}
		sub := fmt.Sprintf("bar-%d", i)
		fenced := false
		a, err := p.r.Query(c, sub, nostr.Filter{IDs: []string{ev.ID}}, func(env nostr.Envelope) {
			if e, ok := env.(*nostr.EventEnvelope); ok && e.SubscriptionID != nil && *e.SubscriptionID == "fence" && e.Event.ID == ev.ID {
				fenced = true
			}
		})
		if err != nil || a.Refused {
			return []Check{unknown("barrier", ReqBarrier, fmt.Sprintf("trial %d: %v %s", i, err, a.Closed))}
		}
		_ = p.r.Unsub(c, sub)
		if ok, why, err := waitOK(c, p.w, ev.ID); err != nil || !ok {
			return []Check{unknown("barrier", ReqBarrier, fmt.Sprintf("trial %d: publish: %v %s", i, err, why))}
		}
		if len(a.Events) == 0 {
			continue
		}
		read++
		if !fenced {
			return []Check{{ID: "barrier", Requirement: ReqBarrier, Verdict: Violates,
				Detail: fmt.Sprintf("trial %d of %d: the query delivered %s before the fence had it", i+1, p.opts.BarrierTrials, short(ev)),
				Evidence: []Evidence{{Sent: reqText("fence", f) + "; EVENT " + ev.ID + "; " + reqText(sub, nostr.Filter{IDs: []string{ev.ID}}),
					Got: describeAll(a.Events), Want: "the fence push before EOSE " + sub}}}}
		}
	}
	if read == 0 {
		return []Check{unknown("barrier", ReqBarrier, fmt.Sprintf("in none of %d trials did the query read the event: the barrier was never exercised", p.opts.BarrierTrials))}
	}
	return []Check{{ID: "barrier", Requirement: ReqBarrier, Verdict: Conforms,
		Detail: fmt.Sprintf("no violation in %d trials; in %d the query read the event and the fence had it first (statistical)", p.opts.BarrierTrials, read)}}
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
