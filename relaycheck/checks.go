package relaycheck

import (
	"context"
	"fmt"
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
	acc, why := p.publish(ctx, evs...)
	if why != "" {
		return []Check{unknown("cap-stable", ReqCap, why), unknown("floor", ReqFloor, why)}
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
			return []Check{unknown("cap-stable", ReqCap, fmt.Sprintf("%s: %v %s", sub, err, a.Closed))}
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
		floor = unknown("floor", ReqFloor, fmt.Sprintf("%v %s", err, a.Closed))
	case len(a.Events) < 2:
		floor.Verdict, floor.Detail = Violates, fmt.Sprintf("limit 2 over %d matches delivered %d", len(acc), len(a.Events))
		floor.Evidence = []Evidence{{Sent: reqText("floor", f), Got: describeAll(a.Events), Want: "2 events"}}
	}
	return append(out, floor)
}

// checkBounds: three events at one second; since and until are inclusive
// (NIP-01), so the pinned window {since:T, until:T} delivers all three
// (R1: the delivery is the events matching the filter) and, asked for 2,
// delivers 2 (R3: the pinned window is where the load relies on it).
func (p *prober) checkBounds(ctx context.Context) []Check {
	t := p.base
	var evs []*nostr.Event
	for i := range 3 {
		evs = append(evs, p.event(fmt.Sprintf("relaycheck:tie-%d", i), t))
	}
	acc, why := p.publish(ctx, evs...)
	if why != "" {
		return []Check{unknown("bounds", ReqPrefix, why), unknown("floor-pinned", ReqFloor, why)}
	}
	cases := []struct {
		id, sub string
		req     Requirement
		f       nostr.Filter
		want    int
	}{
		{"bounds-pinned", "pin", ReqPrefix, p.filter(10, ts(t), ts(t)), len(acc)},
		{"bounds-since", "since", ReqPrefix, p.filter(10, ts(t), ts(t+capAt-1)), len(acc)},
		{"bounds-until", "until", ReqPrefix, p.filter(10, ts(t-1), ts(t)), len(acc)},
		{"floor-pinned", "pin2", ReqFloor, p.filter(2, ts(t), ts(t)), 2},
	}
	var out []Check
	for _, c := range cases {
		a, err := p.query(ctx, c.sub, c.f)
		if err != nil || a.Refused {
			out = append(out, unknown(c.id, c.req, fmt.Sprintf("%v %s", err, a.Closed)))
			continue
		}
		chk := Check{ID: c.id, Requirement: c.req, Verdict: Conforms, Detail: fmt.Sprintf("delivered %d of %d at second %d", len(a.Events), len(acc), t)}
		if len(a.Events) < c.want {
			chk.Verdict = Violates
			chk.Detail = fmt.Sprintf("delivered %d, want %d: bounds are inclusive (NIP-01)", len(a.Events), c.want)
			chk.Evidence = []Evidence{{Sent: reqText(c.sub, c.f), Got: describeAll(a.Events), Want: fmt.Sprintf("%d events at %d", c.want, t)}}
		}
		out = append(out, chk)
	}
	return out
}

// checkOrder: a cap cutting inside one second keeps the lowest ids, and a
// cap across seconds keeps the newest (R1, NIP-01's order for limit).
func (p *prober) checkOrder(ctx context.Context) []Check {
	var out []Check
	// The three bounds events at base are the tie.
	var tie []*nostr.Event
	for _, ev := range p.published {
		if ev.CreatedAt == p.base {
			tie = append(tie, ev)
		}
	}
	f := p.filter(2, nil, ts(p.base))
	a, err := p.query(ctx, "ties", f)
	ties := Check{ID: "order-ties", Requirement: ReqPrefix, Verdict: Conforms, Detail: "a cap inside a second keeps the lowest ids"}
	want := nip01Order(tie)[:min(2, len(tie))]
	switch {
	case len(tie) < 3:
		ties = unknown("order-ties", ReqPrefix, "the tie events were not stored")
	case err != nil || a.Refused:
		ties = unknown("order-ties", ReqPrefix, fmt.Sprintf("%v %s", err, a.Closed))
	case !sameSet(a.Events, want):
		ties.Verdict, ties.Detail = Violates, "a cap inside one second did not keep the lowest ids"
		ties.Evidence = []Evidence{{Sent: reqText("ties", f), Got: describeAll(a.Events), Want: strings.Join(describeAll(want), "; ")}}
	}
	out = append(out, ties)
	var evs []*nostr.Event
	for i := range 3 {
		evs = append(evs, p.event(fmt.Sprintf("relaycheck:ord-%d", i), p.base+orderAt-nostr.Timestamp(i)))
	}
	acc, why := p.publish(ctx, evs...)
	if why != "" {
		return append(out, unknown("order-newest", ReqPrefix, why))
	}
	f = p.filter(2, ts(p.base+orderAt-5), ts(p.base+orderAt))
	a, err = p.query(ctx, "newest", f)
	newest := Check{ID: "order-newest", Requirement: ReqPrefix, Verdict: Conforms, Detail: "a cap across seconds keeps the newest"}
	want = nip01Order(acc)[:2]
	switch {
	case err != nil || a.Refused:
		newest = unknown("order-newest", ReqPrefix, fmt.Sprintf("%v %s", err, a.Closed))
	case !sameSet(a.Events, want):
		newest.Verdict, newest.Detail = Violates, "a cap across seconds did not keep the newest events"
		newest.Evidence = []Evidence{{Sent: reqText("newest", f), Got: describeAll(a.Events), Want: strings.Join(describeAll(want), "; ")}}
	}
	return append(out, newest)
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
	if _, why := p.publish(ctx, evs...); why != "" {
		return []Check{unknown("tags", ReqTags, why)}
	}
	f := p.filter(tagsWanted, ts(p.base+tagsAt-20), ts(p.base+tagsAt))
	f.Tags = nostr.TagMap{"t": {"read-state"}}
	a, err := p.query(ctx, "tags", f)
	if err != nil || a.Refused {
		return []Check{unknown("tags", ReqTags, fmt.Sprintf("%v %s", err, a.Closed))}
	}
	c := Check{ID: "tags", Requirement: ReqTags, Verdict: Conforms}
	for _, ev := range a.Events {
		if !ev.Tags.ContainsAny("t", []string{"read-state"}) {
			c.Verdict, c.Detail = Violates, "delivered an event without the wanted tag"
		}
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
