package relaycheck

import (
	"fmt"
	"strings"
)

// Remedies says, per requirement, what a relay must do to conform: the
// sentence an operator reads beside the evidence of a violation. Each
// names the behaviour, not an implementation; where a small change to a
// measured relay is known to be enough, it says which (khatrutest's
// Conforming option makes khatru v0.8.4 over slicestore conform, the
// atomic replacement included).
var Remedies = map[Requirement]string{
	ReqPrefix: "answer a capped query with the newest events by created_at that match the filter, with since and until inclusive " +
		"(a pinned window {since: T, until: T} must return the events at T), and never an event outside the filter",
	ReqCap:         "keep the effective cap of a query independent of its time bounds: the same filter with other since/until must not be capped lower",
	ReqFloor:       "deliver at least 2 events to a query whose limit and matching set both reach 2, the pinned window included",
	ReqPush:        "push every accepted event to every open subscription whose filter it matches",
	ReqPushSettled: "push every accepted event to every subscription it answered a while ago whose filter it matches: a subscription once registered must stay registered",
	ReqBarrier: "deliver the pushes of events accepted before a query read storage to the connection's open subscriptions before that query's EOSE " +
		"(khatru v0.8.x saves, then notifies its listeners, so a query in between reads an event not yet pushed: hand the event to the listeners before the store's save makes it readable, " +
		"as the harness's patched khatru does, internal/testrelay/khatrutest Options.Conforming)",
	ReqAtomic: "replace an addressable event in one step: save the new version and delete the old in one transaction, or save before deleting, so a query never finds neither version " +
		"(khatru v0.8.x deletes the old version, then saves the new one: keep the replaced version answered until its replacement is saved, " +
		"as the harness's patched khatru does, internal/testrelay/khatrutest Options.Conforming, store_atomic.go)",
	ReqFresh:        "answer every REQ from storage that holds every write acknowledged before it, even for a filter answered before: no result cache that writes do not invalidate",
	ReqSubs:         "state the subscriptions a connection may hold (NIP-11 limitation.max_subscriptions) and refuse past it with CLOSED; never drop an open subscription silently",
	ReqTieOrder:     "break ties inside one second by lowest id under a cap (NIP-01); the load does not need it, and a client loading with two passes does not ask it",
	ReqReplacement:  "keep one version per addressable coordinate: the newest by created_at, then the lowest id; an older version arriving second is not stored",
	ReqTags:         "match tag filters exactly, not by substring",
	ReqNoCollateral: "delete only the versions a replacement replaces: an event with a malformed d tag must not delete another coordinate",
}

// RemedyText is what the relay must change, one line per violated
// requirement in report order, or "" when nothing is violated.
func (r Report) RemedyText() string {
	var b strings.Builder
	for _, rv := range r.Requirements {
		if rv.Verdict != Violates {
			continue
		}
		if b.Len() == 0 {
			b.WriteString("to conform, the relay must:\n")
		}
		fmt.Fprintf(&b, "  %s: %s\n", rv.Requirement, Remedies[rv.Requirement])
	}
	return b.String()
}
