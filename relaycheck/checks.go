package relaycheck

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/nbd-wtf/go-nostr"
)

// Where each check dates its events, relative to the base second: far
// enough apart that one check's events never fall in another's window.
const (
	capEvents  = 30
	capAt      = 100 // capEvents at base+100 ...
	pushAt     = 500
	barrierAt  = 600
	orderAt    = -10
	tagsAt     = -20
	tieAt      = -45
	collAt     = -70
	atomicAt   = -100 // versions at base-100-cap ... base-100
	freshAt    = 450
	subsAt     = 550
	replaceAt  = -50
	tagsWanted = 2
)

// checkCap: queries that differ only in time bounds, every one of which
// matches the same capEvents events, deliver the same number (R2); a
// capped delivery is the newest prefix (R1); a limit of 2 over 2 or more
// matches delivers 2 (R3).
func (p *prober) checkCap(ctx context.Context) []Check {
	var evs []*nostr.Event
	for i := range capEvents {
		evs = append(evs, p.event(fmt.Sprintf("relaycheck:cap-%d", i), p.base+capAt+nostr.Timestamp(i)))
	}
	acc, why := p.publishSettled(ctx, evs...)
	if why != "" {
		return []Check{unknown("cap-stable", ReqCap, why), unknown("cap-prefix", ReqPrefix, why), unknown("floor", ReqFloor, why)}
	}
	lo, hi := p.base+capAt, p.base+capAt+capEvents-1
	filters := []nostr.Filter{p.filter(1000, ts(lo-1), nil), p.filter(1000, ts(lo-1), ts(hi+1)), p.filter(1000, ts(lo-10), ts(hi+40))}
	var evidence []Evidence
	var counts []int
	var first []*nostr.Event
	for i, f := range filters {
		sub := fmt.Sprintf("cap-%d", i)
		a, err := p.query(ctx, sub, f)
		if err != nil || a.Refused {
			why := sub + ": " + failed(err, a)
			return []Check{unknown("cap-stable", ReqCap, why), unknown("cap-prefix", ReqPrefix, why), unknown("floor", ReqFloor, why)}
		}
		if i == 0 {
			first = a.Events
		}
		counts = append(counts, len(a.Events))
		evidence = append(evidence, Evidence{Sent: reqText(sub, f), Got: []string{fmt.Sprintf("%d events", len(a.Events))},
			Want: "the same count for every window"})
	}
	var out []Check
	stable := Check{ID: "cap-stable", Requirement: ReqCap, Verdict: Conforms}
	if counts[0] != counts[1] || counts[1] != counts[2] {
		stable.Verdict, stable.Evidence = Violates, evidence
		stable.Detail = fmt.Sprintf("windows matching the same %d events delivered %v", len(acc), counts)
	} else if counts[0] == len(acc) {
		stable.Detail = fmt.Sprintf("cap at least %d, the same for three windows", len(acc))
	} else {
		stable.Detail = fmt.Sprintf("cap %d, the same for three windows", counts[0])
	}
	out = append(out, stable)
	p.cap = min(counts[0], counts[1], counts[2])
	prefix := Check{ID: "cap-prefix", Requirement: ReqPrefix, Verdict: Conforms, Detail: "a capped delivery is the newest events"}
	if want := nip01Order(acc)[:min(len(first), len(acc))]; !sameSet(first, want) {
		prefix.Verdict, prefix.Detail = Violates, "the capped delivery is not the newest events of the filter"
		prefix.Evidence = []Evidence{{Sent: reqText("cap-0", filters[0]), Got: describeAll(first), Want: strings.Join(describeAll(want), "; ")}}
	}
	out = append(out, prefix)
	f := p.filter(2, ts(lo-1), nil)
	a, err := p.query(ctx, "floor", f)
	floor := Check{ID: "floor", Requirement: ReqFloor, Verdict: Conforms, Detail: "limit 2 over 30 matches delivered 2"}
	switch {
	case err != nil || a.Refused:
		floor = unknown("floor", ReqFloor, failed(err, a))
	case len(a.Events) < 2:
		floor.Verdict, floor.Detail = Violates, fmt.Sprintf("limit 2 over %d matches delivered %d", len(acc), len(a.Events))
		floor.Evidence = []Evidence{{Sent: reqText("floor", f), Got: describeAll(a.Events), Want: "2 events"}}
	}
	return append(out, floor)
}

// checkBounds: three events at one second; since and until are inclusive
// (NIP-01), so the pinned window {since:T, until:T} delivers all three,
// or as many as the relay's cap allows (R1: the delivery is the newest
// events matching the filter, up to the cap) and, asked for 2, delivers 2
// (R3: the pinned window is where the load relies on the floor).
func (p *prober) checkBounds(ctx context.Context) []Check {
	ids := []string{"bounds-pinned", "bounds-since", "bounds-until", "floor-pinned"}
	reqs := []Requirement{ReqPrefix, ReqPrefix, ReqPrefix, ReqFloor}
	fail := func(why string) []Check {
		out := make([]Check, len(ids))
		for i := range ids {
			out[i] = unknown(ids[i], reqs[i], why)
		}
		return out
	}
	if p.cap == 0 {
		return fail("the relay's cap was not measured")
	}
	t := p.base
	var evs []*nostr.Event
	for i := range 3 {
		evs = append(evs, p.event(fmt.Sprintf("relaycheck:tie-%d", i), t))
	}
	acc, why := p.publishSettled(ctx, evs...)
	if why != "" {
		return fail(why)
	}
	capped := min(len(acc), p.cap)
	cases := []struct {
		sub  string
		f    nostr.Filter
		want int
	}{
		{"pin", p.filter(10, ts(t), ts(t)), capped},
		{"since", p.filter(10, ts(t), ts(t+capAt-1)), capped},
		{"until", p.filter(10, ts(t-1), ts(t)), capped},
		{"pin2", p.filter(2, ts(t), ts(t)), 2},
	}
	var out []Check
	for i, c := range cases {
		a, err := p.query(ctx, c.sub, c.f)
		if err != nil || a.Refused {
			out = append(out, unknown(ids[i], reqs[i], failed(err, a)))
			continue
		}
		chk := Check{ID: ids[i], Requirement: reqs[i], Verdict: Conforms,
			Detail: fmt.Sprintf("delivered %d of %d at second %d (cap %d)", len(a.Events), len(acc), t, p.cap)}
		if len(a.Events) < c.want {
			chk.Verdict = Violates
			chk.Detail = fmt.Sprintf("delivered %d, want %d (cap %d): bounds are inclusive (NIP-01)", len(a.Events), c.want, p.cap)
			chk.Evidence = []Evidence{{Sent: reqText(c.sub, c.f), Got: describeAll(a.Events), Want: fmt.Sprintf("%d events at %d", c.want, t)}}
		}
		out = append(out, chk)
	}
	return out
}

// maxFalsePass bounds the chance that the tie check passes a relay whose
// tie order is unrelated to ids.
const maxFalsePass = 1e-3

// tieEvents is how many events one second needs so that a cap of k
// keeping exactly the k lowest ids, in ascending order, by chance has
// probability 1/P(n,k) = (n-k)!/n! below maxFalsePass; 0 if no n up to
// 64 suffices (k = 1 would need more than a thousand).
func tieEvents(k int) (n int, chance float64) {
	for n = max(12, k+1); n <= 64; n++ {
		chance = 1
		for i := range k {
			chance /= float64(n - i)
		}
		if chance < maxFalsePass {
			return n, chance
		}
	}
	return 0, 0
}

// checkOrder: a cap cutting inside one second keeps the lowest ids, in
// ascending order (R1's tie clause, reported and not gated on:
// model.ReqTieOrder), and a cap across seconds keeps the newest (R1,
// NIP-01's order for limit). The tie is decided with enough events at one
// second that a relay ordering ties any other way passes by chance with
// probability below maxFalsePass.
func (p *prober) checkOrder(ctx context.Context) []Check {
	return []Check{p.checkTies(ctx), p.checkNewest(ctx)}
}

func (p *prober) checkTies(ctx context.Context) Check {
	if p.cap == 0 {
		return unknown("order-ties", ReqTieOrder, "the relay's cap was not measured")
	}
	k := min(p.cap, 3)
	n, chance := tieEvents(k)
	if n == 0 {
		return unknown("order-ties", ReqTieOrder, fmt.Sprintf("at cap %d no tie of a few dozen events decides the order with a chance pass below %g", p.cap, maxFalsePass))
	}
	at := p.base + tieAt
	var evs []*nostr.Event
	for i := range n {
		evs = append(evs, p.event(fmt.Sprintf("relaycheck:ties-%d", i), at))
	}
	acc, why := p.publishSettled(ctx, evs...)
	if why != "" {
		return unknown("order-ties", ReqTieOrder, why)
	}
	f := p.filter(k, ts(at-1), ts(at))
	a, err := p.query(ctx, "ties", f)
	if err != nil || a.Refused {
		return unknown("order-ties", ReqTieOrder, failed(err, a))
	}
	want := nip01Order(acc)[:k]
	c := Check{ID: "order-ties", Requirement: ReqTieOrder, Verdict: Conforms, Chance: chance,
		Detail: fmt.Sprintf("a cap of %d inside a second of %d events kept the lowest ids in ascending order; a tie order unrelated to ids passes by chance with probability 1/%.0f < %g",
			k, n, 1/chance, maxFalsePass)}
	if !slices.Equal(ids(a.Events), ids(want)) {
		c.Verdict = Violates
		c.Detail = fmt.Sprintf("a cap of %d inside a second of %d events did not deliver the lowest ids in ascending order", k, n)
		c.Evidence = []Evidence{{Sent: reqText("ties", f), Got: describeAll(a.Events), Want: strings.Join(describeAll(want), "; ")}}
	}
	return c
}

func (p *prober) checkNewest(ctx context.Context) Check {
	var evs []*nostr.Event
	for i := range 3 {
		evs = append(evs, p.event(fmt.Sprintf("relaycheck:ord-%d", i), p.base+orderAt-nostr.Timestamp(i)))
	}
	acc, why := p.publishSettled(ctx, evs...)
	if why != "" {
		return unknown("order-newest", ReqPrefix, why)
	}
	f := p.filter(2, ts(p.base+orderAt-5), ts(p.base+orderAt))
	a, err := p.query(ctx, "newest", f)
	if err != nil || a.Refused {
		return unknown("order-newest", ReqPrefix, failed(err, a))
	}
	newest := Check{ID: "order-newest", Requirement: ReqPrefix, Verdict: Conforms, Detail: "a cap across seconds keeps the newest"}
	if want := nip01Order(acc)[:2]; !sameSet(a.Events, want) {
		newest.Verdict, newest.Detail = Violates, "a cap across seconds did not keep the newest events"
		newest.Evidence = []Evidence{{Sent: reqText("newest", f), Got: describeAll(a.Events), Want: strings.Join(describeAll(want), "; ")}}
	}
	return newest
}

// checkTags: with three newer events whose d tags read read-state:* but
// which carry no t tag, and two older ones that carry ["t","read-state"],
// a #t query limited to 2 must deliver only tagged events; whether it
// delivers both says whether tags apply before the cap (the full-state
// load's filter carries no tag, so either is harmless to it).
func (p *prober) checkTags(ctx context.Context) []Check {
	var evs []*nostr.Event
	for i := range 3 {
		evs = append(evs, p.event(fmt.Sprintf("read-state:%032x", 0xcc00+i), p.base+tagsAt-nostr.Timestamp(i)))
	}
	for i := range tagsWanted {
		evs = append(evs, p.event(fmt.Sprintf("relaycheck:tag-%d", i), p.base+tagsAt-10-nostr.Timestamp(i), nostr.Tag{"t", "read-state"}))
	}
	if _, why := p.publishSettled(ctx, evs...); why != "" {
		return []Check{unknown("tags", ReqTags, why)}
	}
	f := p.filter(tagsWanted, ts(p.base+tagsAt-20), ts(p.base+tagsAt))
	f.Tags = nostr.TagMap{"t": {"read-state"}}
	a, err := p.query(ctx, "tags", f)
	if err != nil || a.Refused {
		return []Check{unknown("tags", ReqTags, failed(err, a))}
	}
	c := Check{ID: "tags", Requirement: ReqTags, Verdict: Conforms}
	for _, ev := range a.Events {
		if !ev.Tags.ContainsAny("t", []string{"read-state"}) {
			c.Verdict, c.Detail = Violates, "delivered an event without the wanted tag"
		}
	}
	if len(a.Rejected) > 0 {
		// Query keeps only events matching the filter: one without the
		// tag is among the rejected (answers-valid leaves tag filters to
		// this check: the load sends none).
		c.Verdict, c.Detail = Violates, fmt.Sprintf("delivered %d events the #t filter does not match: %s", len(a.Rejected), strings.Join(a.Rejected, "; "))
	}
	if c.Verdict == Conforms {
		c.Detail = "tags apply before the cap"
		if len(a.Events) < tagsWanted {
			c.Detail = fmt.Sprintf("tags apply after the cap (%d of %d delivered)", len(a.Events), tagsWanted)
		}
	} else {
		c.Evidence = []Evidence{{Sent: reqText("tags", f), Got: describeAll(a.Events), Want: "only events tagged t=read-state"}}
	}
	return []Check{c}
}
