package model

import (
	"fmt"

	"github.com/nbd-wtf/go-nostr"
)

// FloorL is the delivery floor the full-state load assumes of every relay
// (Full-State Load: L = 2, fixed, never derived from relay discovery).
const FloorL = 2

// loadKind is the kind the load enumerates (kind 30078, application data).
const loadKind = 30078

// LoadRules holds the full-state load's decision points (Full-State Load).
// The load procedure (load.go) decides only through these fields, so each
// way of getting the procedure wrong is a one-field change.
type LoadRules struct {
	// Floor is L, the number of events a conforming relay delivers for a
	// query whose limit and matching set both reach it (step 5 and the
	// floor requirement).
	Floor func() int
	// EnumerationFilter is the filter of the fence and of every query,
	// before the load adds time bounds: kind 30078 by the user, an explicit
	// limit n and no tag constraint (step 1).
	EnumerationFilter func(pubkey string, n int) nostr.Filter
	// Retain reports whether cand replaces held as the version kept for
	// their shared d tag: greatest created_at, then lowest id (step 2).
	Retain func(held, cand *nostr.Event) bool
	// CursorFrom reports whether an event delivered by a query sets the
	// cursor T; readState says whether it is a read-state coordinate. Every
	// delivered event does, read-state or not (step 3).
	CursorFrom func(ev *nostr.Event, readState bool) bool
	// PinWindow reports whether the load queries the pinned window
	// {since: T, until: T} before advancing past T (step 4).
	PinWindow func(t nostr.Timestamp) bool
	// Exhausted reports whether second T is discharged given the pinned
	// delivery, C (the largest preceding delivery) and the floor: only when
	// pinned < max(C, L) (step 5).
	Exhausted func(pinned, c, floor int) bool
	// Finished reports whether a band query (the first query or a
	// continuation) ends the enumeration, given how many events it
	// delivered and the limit it requested: only an empty delivery does,
	// never a comparison against the requested limit (step 7).
	Finished func(delivered, requested int) bool
	// FenceEstablished reports whether the fence counts as established:
	// when its end-of-stored-events has arrived, not when its REQ was sent.
	FenceEstablished func(sent, eose bool) bool
	// FenceCountsForC and FenceMovesCursor report whether an event the
	// fence delivers contributes to C or to T. Neither does: a fence
	// delivery is not a query result (step 2).
	FenceCountsForC  func(ev *nostr.Event) bool
	FenceMovesCursor func(ev *nostr.Event) bool
	// PushIsResult reports whether a query delivery that the fence pushed
	// while that query was in flight counts as one of the query's results.
	// Spec counts every delivery (the text knows no push on a query's own
	// subscription); proposal in-flight-push-not-result does not: a relay may push an event it accepts to every open
	// subscription, the query's own included, so such a delivery may be a
	// push rather than a stored event, and a backdated push counted as a
	// result moves the cursor below the band (step 3).
	PushIsResult func(ev *nostr.Event) bool
	// FirstUntil is the first band's until for a load's nonce, and
	// whether it has one. Spec has none (the text gives the first band
	// no until); proposal distinct-load-filters gives MaxCreatedAt minus a few
	// seconds per nonce step, above every created_at a client writes, so
	// that no two loads with different nonces send the same first band,
	// and a relay caching results by the exact filter (which the relay
	// requirements do not forbid) never answers it from a snapshot
	// another load took before this load's fence was established. Within
	// one load a repeat is harmless: every write after the fence reaches
	// it. Without it the first band is the fence's own filter, which an
	// earlier load on the same data asked too. Any delivery above it ends
	// the load (the fence, which has no until, shows one).
	FirstUntil func(nonce uint32) (nostr.Timestamp, bool)
	// Retry is the filter a band is asked again with after it delivered
	// only events the fence pushed meanwhile (attempt counts from 1), and
	// whether one exists. Spec never retries (the band ends the load as
	// cannot prove complete); proposal in-flight-push-not-result asks the
	// same filter again; proposal distinct-load-filters never repeats a
	// filter the load sent: the first band lowers its until by one per
	// attempt, a continuation adds since: 0 (created_at is never below 0)
	// on its first retry and has no further distinct equivalent. A relay caching by filter
	// would otherwise answer the retry with the very delivery it
	// repeats.
	Retry func(prev nostr.Filter, attempt int, first bool) (nostr.Filter, bool)
	// FenceFits reports whether the fence is sure to stay open on a
	// connection holding others subscriptions besides the load's own
	// LoadSubscriptions, given the relay's subscription capacity
	// (0: unknown). Spec always sends it; proposal fence-within-capacity
	// does not past a known capacity. A relay at capacity may drop the oldest subscription
	// silently, and a fence that stopped receiving looks exactly like a
	// fence with nothing to deliver; so a load that may exceed a known
	// capacity is not attempted. An unknown capacity is the relay's to
	// meet (R8).
	FenceFits func(others, capacity int) bool
	// Passes is how many full enumerations a load runs, given the
	// client's LoadConfig.Passes: as configured, at least one. The text
	// knows one pass; more is a client's option against a relay that
	// splits a replacement (LoadConfig.Passes says what it assumes).
	Passes func(configured int) int
	// SettleFence reports whether a load of this many passes waits its
	// gap (LoadConfig.PassGap, PassGapDue) after the fence's
	// end-of-stored-events and before its first query. A relay may answer
	// a subscription before it registers it for pushes (rely v1.2.2), and
	// an event accepted in between reaches neither the fence nor, once
	// its coordinate was read, any query; with several passes the client
	// assumes registration finishes within the gap, and waiting it before
	// the first pass makes every event the relay accepts afterwards a
	// push on the fence. The text knows one pass and no gap: never.
	SettleFence func(passes int) bool
	// Lost is the verdict of a load whose connection dropped, given
	// whether its fence was established. The text reads two ways once it
	// was: step 8 names a lapsed fence beside a failed load. Spec reads it
	// as a lapsed fence (cannot prove complete); FenceLapseFails as
	// failed. Before the fence is established the load failed.
	Lost func(established bool) (Verdict, Reason)
	// OrderEvidence reports why a finished query's results, in wire
	// order, are evidence against the relay, or "" when they are none.
	// Spec judges no order: the newest-first requirement says which
	// events a capped result consists of, not the order they arrive in,
	// and the cursor and C are a minimum and a count. Proposal
	// results-newest-first takes a result newer than one delivered
	// before it as evidence.
	OrderEvidence func(sub string, res []*nostr.Event) string
	// OverLimit reports whether a query has delivered more than its
	// limit n, which ends the load as non-conforming: asked with eose
	// false on every new delivery (count: the distinct events delivered
	// so far) and with eose true at its end-of-stored-events (count: its
	// results). Spec judges at the delivery past n: step 1 bounds a
	// delivery by the requested limit and the text knows no push on a
	// query. Proposal limit-judged-on-results judges at the
	// end-of-stored-events on results alone, since pushes on the query's
	// own subscription may arrive beside n stored events.
	OverLimit func(count, n int, eose bool) bool
	// RequireProof reports whether a load on a relay the client holds
	// unproven (LoadConfig.Unproven, why) ends cannot-prove-complete
	// (ReasonUnproven) where it would say complete. Spec never does:
	// the relay requirements section declines to make complete wait
	// for positive proof of them. Proposal unproven-relay-not-complete
	// lets a client without a record of its relay say so.
	RequireProof func(why string) bool
}

// specLoadRules is the load as the text states it: every delivery on a
// query's subscription is one of its results, the first band has no
// until, a band is never asked again, the fence is sent whatever else
// the connection holds, the order of a query's results is no evidence,
// the delivery past the limit is, and a relay the client merely lacks
// proof for is loaded as any other (NOTE.md, "What spec means", lists
// each decision and the sentence it rests on).
//
// The fields no proposal sets are the text's own: Floor (the floor
// requirement fixes L = 2), EnumerationFilter (step 1: tag-free, one
// explicit limit), Retain (step 2: greatest created_at, then lowest id),
// FenceCountsForC and FenceMovesCursor (step 2: a fence delivery is no
// query result), CursorFrom (step 3: every delivered event), PinWindow
// (step 4), Exhausted (step 5: fewer than max(C, L)), Finished (step 7
// and the ban on comparing with the requested limit), FenceEstablished
// (the fence counts from its end-of-stored-events) and Lost (step 8, the
// literal of two readings). Passes is the client's option: one pass
// unless configured.
func specLoadRules() LoadRules {
	return LoadRules{
		Floor:             func() int { return FloorL },
		EnumerationFilter: enumerationFilter,
		Retain:            retainNewer,
		CursorFrom:        func(*nostr.Event, bool) bool { return true },
		PinWindow:         func(nostr.Timestamp) bool { return true },
		Exhausted:         secondExhausted,
		Finished:          func(delivered, _ int) bool { return delivered == 0 },
		FenceEstablished:  func(_, eose bool) bool { return eose },
		FenceCountsForC:   func(*nostr.Event) bool { return false },
		FenceMovesCursor:  func(*nostr.Event) bool { return false },
		PushIsResult:      func(*nostr.Event) bool { return true },
		FirstUntil:        func(uint32) (nostr.Timestamp, bool) { return 0, false },
		Retry:             func(prev nostr.Filter, _ int, _ bool) (nostr.Filter, bool) { return prev, false },
		FenceFits:         func(int, int) bool { return true },
		Passes:            func(configured int) int { return max(configured, 1) },
		SettleFence:       func(passes int) bool { return passes > 1 },
		Lost:              lostLapses,
		OrderEvidence:     func(string, []*nostr.Event) string { return "" },
		OverLimit:         func(count, n int, _ bool) bool { return count > n },
		RequireProof:      func(string) bool { return false },
	}
}

// newestFirst is the order check of proposal results-newest-first: why a
// query's results, in wire order, are not newest-first, or "" when they
// are. A relay meeting the newest-first prefix requirement answers a
// query from storage in descending created_at, as NIP-01 orders a
// limited answer, so a result newer than one delivered before it shows
// an order the relay does not keep, and the cursor, C and the pinned
// window's count would rest on it. Only results are judged (a push on
// the query's own subscription is none under in-flight-push-not-result),
// and ties are not: the load needs only created_at order.
func newestFirst(sub string, res []*nostr.Event) string {
	for i := 1; i < len(res); i++ {
		if prev, ev := res[i-1], res[i]; ev.CreatedAt > prev.CreatedAt {
			return fmt.Sprintf("%s delivered %s@%d after %s@%d: its results are not newest-first",
				sub, short(ev.ID), ev.CreatedAt, short(prev.ID), prev.CreatedAt)
		}
	}
	return ""
}

// limitAtEOSE is the limit check of proposal limit-judged-on-results:
// more than n results at the query's end-of-stored-events.
func limitAtEOSE(count, n int, eose bool) bool { return eose && count > n }

// lostLapses is the text's literal reading of a lost connection: after
// the fence is established the fence lapsed (cannot prove complete),
// before it the load failed.
func lostLapses(established bool) (Verdict, Reason) {
	if established {
		return CannotProveComplete, ReasonFenceLapsed
	}
	return Failed, ReasonRelayFailure
}

// FenceLapseFailsName names the rule set of FenceLapseFails.
const FenceLapseFailsName = "fence-lapse-fails"

// FenceLapseFails is Proposed read the other way where the text reads
// two: a connection lost after the fence was established fails the load,
// as one lost before it does.
func FenceLapseFails() *Rules {
	r := Proposed()
	r.Name = FenceLapseFailsName
	r.Load.Lost = func(bool) (Verdict, Reason) { return Failed, ReasonRelayFailure }
	return r
}

// nonceSlots is how many first-band untils the nonces select among, and
// nonceSlot how many seconds each owns: its until and the maxPushRetries
// below it that distinctRetry steps down to, so no load's retried first
// band is another load's first band. Every until lies above
// 2^32 - 2^16 (the year 2106).
const (
	nonceSlots = 1 << 14
	nonceSlot  = maxPushRetries + 1
)

// nonceUntil is the first band's until for a nonce: MaxCreatedAt minus
// nonceSlot seconds per step of the nonce modulo nonceSlots.
func nonceUntil(nonce uint32) (nostr.Timestamp, bool) {
	return MaxCreatedAt - nonceSlot*nostr.Timestamp(nonce%nonceSlots), true
}

// distinctRetry is the retry of a push-only band by a filter the load has
// not sent: a first band's until lowered by one (it lies far above every
// created_at the load accepts), otherwise since: 0 added (created_at is
// never below 0). A continuation that already carries since: 0 has no
// distinct equivalent left.
func distinctRetry(prev nostr.Filter, _ int, first bool) (nostr.Filter, bool) {
	f := prev
	switch {
	case first && prev.Until != nil && *prev.Until > 0:
		u := *prev.Until - 1
		f.Until = &u
		return f, true
	case prev.Since == nil:
		zero := nostr.Timestamp(0)
		f.Since = &zero
		return f, true
	}
	return prev, false
}

// enumerationFilter is the tag-free filter of a full-state load:
// {"kinds":[30078],"authors":[pubkey],"limit":n}.
func enumerationFilter(pubkey string, n int) nostr.Filter {
	return nostr.Filter{Kinds: []int{loadKind}, Authors: []string{pubkey}, Limit: n}
}

// retainNewer is the addressable ordering of NIP-01: cand supersedes held
// when it is newer, or equally old with the lexicographically lower id.
func retainNewer(held, cand *nostr.Event) bool {
	if cand.CreatedAt != held.CreatedAt {
		return cand.CreatedAt > held.CreatedAt
	}
	return cand.ID < held.ID
}

// secondExhausted is step 5: the pinned window discharges its second only
// when it delivered fewer than max(C, L) events.
func secondExhausted(pinned, c, floor int) bool {
	return pinned < max(c, floor)
}
