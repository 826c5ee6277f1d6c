package relaycheck

import (
	"context"
	"fmt"

	"github.com/nbd-wtf/go-nostr"
)

// MaxUnlimited is how many events Query keeps for a filter that has
// neither a limit nor ids, whatever the relay sends.
const MaxUnlimited = 1000

// Answer is what one REQ brought back before its end-of-stored-events.
type Answer struct {
	// Events are the events kept: each has a well-formed id that is the
	// hash of its content, a signature that verifies, and matches the
	// filter.
	Events []*nostr.Event
	// Rejected describes each event, among those read up to the bound,
	// that was not kept and why (id malformed or not the hash, signature,
	// filter): a relay that sends one violates NIP-01, which checks
	// weigh as evidence.
	Rejected []string
	// Excess counts the events for the subscription read past the bound
	// (the filter's limit; the number of ids asked for; MaxUnlimited
	// without either; none under limit 0) before its end. They are read
	// and dropped, never kept. A relay may push newly accepted events
	// onto a query's own subscription before its EOSE (khatru does), so
	// excess is evidence for the checks to weigh, not an error.
	Excess int
	// Duplicates counts events delivered again for the subscription after
	// a copy was kept (a stored event, then the same event pushed): kept
	// once, so that no count the checks take (a cap, a prefix) counts one
	// event twice.
	Duplicates int
	// Closed is the CLOSED reason if the relay refused the REQ, escaped
	// (Printable).
	Closed string
	// Refused reports a CLOSED instead of an end-of-stored-events.
	Refused bool
}

// Query sends a REQ and reads until its end-of-stored-events (or CLOSED).
// Frames for other subscriptions are handed to other. The subscription is
// left open: the caller closes it (Unsub) when it wants no pushes.
//
// Query holds no more than the filter's bound of events, however many
// the relay sends, and verifies each one it keeps (see Answer). On an
// error (ctx ended, connection lost) it returns what it had read.
func (c *Conn) Query(ctx context.Context, sub string, f nostr.Filter, other func(nostr.Envelope)) (Answer, error) {
	if err := c.Send(ctx, &nostr.ReqEnvelope{SubscriptionID: sub, Filters: nostr.Filters{f}}); err != nil {
		return Answer{}, err
	}
	col := newCollector(f)
	err := c.collect(ctx, map[string]*collector{sub: col}, other, nil)
	return col.a, err
}

// QueryAll sends one REQ of f per subscription id, all before reading,
// so that the relay answers them concurrently, and reads until every one
// has ended (end-of-stored-events or CLOSED). Each answer is held and
// verified as Query holds and verifies one. The subscriptions are left
// open.
func (c *Conn) QueryAll(ctx context.Context, subs []string, f nostr.Filter) ([]Answer, error) {
	return c.QueryAllWatch(ctx, subs, f, nil, nil)
}

// QueryAllWatch is QueryAll with two hooks, each optional: other gets
// every frame that belongs to none of the subscriptions, and ended is
// called with a subscription's id when its end of stored events (or
// CLOSED) is read, in wire order with other's frames, so a caller can
// tell what another subscription had received before each query ended.
func (c *Conn) QueryAllWatch(ctx context.Context, subs []string, f nostr.Filter, other func(nostr.Envelope), ended func(sub string)) ([]Answer, error) {
	cols := map[string]*collector{}
	for _, sub := range subs {
		if _, dup := cols[sub]; dup {
			return nil, fmt.Errorf("relaycheck: subscription %q twice", sub)
		}
		cols[sub] = newCollector(f)
	}
	for _, sub := range subs {
		if err := c.Send(ctx, &nostr.ReqEnvelope{SubscriptionID: sub, Filters: nostr.Filters{f}}); err != nil {
			return nil, err
		}
	}
	err := c.collect(ctx, cols, other, ended)
	out := make([]Answer, len(subs))
	for i, sub := range subs {
		out[i] = cols[sub].a
	}
	return out, err
}

// collector is one subscription's answer being read.
type collector struct {
	f     nostr.Filter
	bound int
	read  int
	kept  map[string]bool
	a     Answer
	ended bool
}

func newCollector(f nostr.Filter) *collector {
	return &collector{f: f, bound: answerBound(f), kept: map[string]bool{}}
}

// event takes one delivered event: past the bound it is excess, an event
// that fails verification is rejected with its reason, a second copy of
// a kept one is a duplicate.
func (col *collector) event(ev nostr.Event) {
	if col.read++; col.read > col.bound {
		col.a.Excess++
		return
	}
	if why := verify(&ev, col.f); why != "" {
		col.a.Rejected = append(col.a.Rejected, fmt.Sprintf("event %s: %s", Printable(ev.ID), why))
		return
	}
	if col.kept[ev.ID] {
		col.a.Duplicates++
		return
	}
	col.kept[ev.ID] = true
	col.a.Events = append(col.a.Events, &ev)
}

// collect reads frames until every collector's subscription has ended;
// frames for other subscriptions go to other; ended, if set, is told of
// each subscription's end as it is read.
func (c *Conn) collect(ctx context.Context, cols map[string]*collector, other func(nostr.Envelope), ended func(string)) error {
	open := len(cols)
	for open > 0 {
		env, err := c.Next(ctx)
		if err != nil {
			return err
		}
		switch e := env.(type) {
		case *nostr.EventEnvelope:
			if e.SubscriptionID != nil {
				if col, ok := cols[*e.SubscriptionID]; ok && !col.ended {
					col.event(e.Event)
					continue
				}
			}
		case *nostr.EOSEEnvelope:
			if col, ok := cols[string(*e)]; ok && !col.ended {
				col.ended = true
				open--
				if ended != nil {
					ended(string(*e))
				}
				continue
			}
		case *nostr.ClosedEnvelope:
			if col, ok := cols[e.SubscriptionID]; ok && !col.ended {
				col.a.Closed, col.a.Refused, col.ended = Printable(e.Reason), true, true
				open--
				if ended != nil {
					ended(e.SubscriptionID)
				}
				continue
			}
		}
		if other != nil {
			other(env)
		}
	}
	return nil
}

// answerBound is how many events a relay may send for f before its end
// of stored events.
func answerBound(f nostr.Filter) int {
	n := MaxUnlimited
	switch {
	case f.LimitZero:
		return 0
	case f.Limit > 0:
		n = f.Limit
	}
	if len(f.IDs) > 0 && len(f.IDs) < n {
		n = len(f.IDs)
	}
	return n
}

// verify says why ev cannot be trusted as an answer to f, or "". The id
// is checked for form before CheckID, which indexes it unchecked.
func verify(ev *nostr.Event, f nostr.Filter) string {
	switch {
	case !isLowerHex(ev.ID, 64):
		return "id is not 64 lowercase hex"
	case !ev.CheckID():
		return "id is not the hash of the event"
	}
	if ok, err := ev.CheckSignature(); err != nil || !ok {
		return "signature does not verify"
	}
	if !f.Matches(ev) {
		return "does not match the filter"
	}
	return ""
}

func isLowerHex(s string, n int) bool {
	if len(s) != n {
		return false
	}
	for i := range len(s) {
		if c := s[i]; (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}
