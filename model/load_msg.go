package model

import (
	"fmt"

	"github.com/nbd-wtf/go-nostr"
)

// InKind is the kind of a relay message fed to a load.
type InKind uint8

const (
	InEvent          InKind = iota + 1 // ["EVENT", sub, event]
	InEOSE                             // ["EOSE", sub]
	InClosed                           // ["CLOSED", sub, reason]
	InConnectionLost                   // the connection dropped
)

func (k InKind) String() string {
	switch k {
	case InEvent:
		return "EVENT"
	case InEOSE:
		return "EOSE"
	case InClosed:
		return "CLOSED"
	case InConnectionLost:
		return "LOST"
	}
	return fmt.Sprintf("InKind(%d)", uint8(k))
}

// In is one relay message, in wire order.
type In struct {
	Kind   InKind
	SubID  string
	Event  *nostr.Event // InEvent only
	Reason string       // InClosed only
	// BadSig marks an event whose signature the transport found invalid
	// (Drive verifies every event it reads); the load treats it as
	// evidence against the relay and never collects it.
	BadSig bool
}

func (m In) String() string {
	switch m.Kind {
	case InEvent:
		if m.Event == nil {
			return fmt.Sprintf("EVENT %s <nil>", m.SubID)
		}
		return fmt.Sprintf("EVENT %s %s@%d d=%q", m.SubID, short(m.Event.ID), m.Event.CreatedAt, m.Event.Tags.GetD())
	case InClosed:
		return fmt.Sprintf("CLOSED %s %q", m.SubID, m.Reason)
	case InConnectionLost:
		return "LOST"
	}
	return fmt.Sprintf("%s %s", m.Kind, m.SubID)
}

// ParseIn reads one wire frame from a relay into an In. Frames a load does
// not consume (OK, NOTICE, AUTH, COUNT) and malformed frames report false.
func ParseIn(frame []byte) (In, bool) {
	switch env := nostr.ParseMessage(frame).(type) {
	case *nostr.EventEnvelope:
		if env.SubscriptionID == nil {
			return In{}, false
		}
		ev := env.Event
		return In{Kind: InEvent, SubID: *env.SubscriptionID, Event: &ev}, true
	case *nostr.EOSEEnvelope:
		return In{Kind: InEOSE, SubID: string(*env)}, true
	case *nostr.ClosedEnvelope:
		return In{Kind: InClosed, SubID: env.SubscriptionID, Reason: env.Reason}, true
	}
	return In{}, false
}

// OutKind is the kind of a client message a load emits.
type OutKind uint8

const (
	OutREQ   OutKind = iota + 1 // ["REQ", sub, filter]
	OutCLOSE                    // ["CLOSE", sub]
)

// Out is one client message, to be sent in order on the load's connection.
type Out struct {
	Kind   OutKind
	SubID  string
	Filter nostr.Filter // OutREQ only
}

func (o Out) String() string {
	if o.Kind == OutCLOSE {
		return "CLOSE " + o.SubID
	}
	return "REQ " + o.SubID + " " + o.Filter.String()
}

// Wire encodes the message as the JSON frame a relay reads.
func (o Out) Wire() ([]byte, error) {
	switch o.Kind {
	case OutREQ:
		return nostr.ReqEnvelope{SubscriptionID: o.SubID, Filters: nostr.Filters{o.Filter}}.MarshalJSON()
	case OutCLOSE:
		return nostr.CloseEnvelope(o.SubID).MarshalJSON()
	}
	return nil, fmt.Errorf("load: unknown outgoing message kind %d", o.Kind)
}

// Verdict is where a load stands.
type Verdict uint8

const (
	// Running: no verdict yet.
	Running Verdict = iota
	// Complete: every read-state coordinate was retrieved.
	Complete
	// CannotProveComplete: the load ran but its result is potentially
	// incomplete (a plateau, a lapsed fence, a non-conforming relay).
	CannotProveComplete
	// Failed: the relay did not carry the load (refused a query or the
	// fence, or dropped the connection before the fence was established).
	// Like CannotProveComplete it is potentially incomplete.
	Failed
)

var verdictNames = [...]string{"running", "complete", "cannot-prove-complete", "failed"}

func (v Verdict) String() string { return verdictNames[v] }

// Verdicts lists every Verdict in order (the vectors' vocabulary is
// generated from it).
func Verdicts() []Verdict { return enumerate[Verdict](len(verdictNames)) }

// Reason says why a load is not complete.
type Reason uint8

const (
	ReasonNone Reason = iota
	// ReasonPlateau: the pinned window at second T delivered max(C, L) or
	// more events, so the cap may have bound inside that second (step 5).
	ReasonPlateau
	// ReasonFenceLapsed: the fence was closed or its connection lost after
	// it was established.
	ReasonFenceLapsed
	// ReasonRelayFailure: the relay refused a query or the fence, the
	// connection dropped before the fence was established, or the caller
	// gave up on it.
	ReasonRelayFailure
	// ReasonNonConforming: the relay is known not to meet the relay
	// requirements, or delivered evidence of it (an event outside the
	// query's filter, a malformed event, more events than requested).
	ReasonNonConforming
	// ReasonQueryPush: a query's delivery may have been a push on the
	// query's own subscription rather than a stored result (the fence
	// pushed an event after a query counted it, or band after band
	// delivered only events the fence pushed meanwhile), so the cursor
	// cannot be trusted.
	ReasonQueryPush
	// ReasonUnproven: the enumeration ran to its end, but the relay is
	// not proven to meet what the load rests on (no probe record, an
	// expired one, or one with a requirement not shown to conform), so
	// the end of the enumeration is no proof of completeness
	// (LoadConfig.Unproven).
	ReasonUnproven
	// ReasonSubscriptions: the client's other subscriptions on the
	// connection and the load's own may exceed the relay's advertised
	// subscription capacity, and a relay at capacity may drop the fence
	// without a word (LoadConfig.OtherSubs, LoadRules.FenceFits).
	ReasonSubscriptions
	// ReasonFenceOverflow: the fence (or a query) delivered more events
	// before its end-of-stored-events than the stored events it asked for
	// and the pushes a load allows meanwhile (fencePrePushes). Pushes may
	// arrive before the end-of-stored-events, so this is no evidence
	// against the relay; it bounds what the load holds.
	ReasonFenceOverflow
)

// fencePrePushes is how many deliveries beyond its requested n the fence
// may make before its end-of-stored-events: writes accepted while the
// relay answers the fence.
const fencePrePushes = 64

var reasonNames = [...]string{"none", "plateau", "fence-lapsed", "relay-failure", "non-conforming", "query-push", "unproven", "subscriptions", "fence-overflow"}

func (r Reason) String() string { return reasonNames[r] }

// Reasons lists every Reason in order (the vectors' vocabulary is
// generated from it).
func Reasons() []Reason { return enumerate[Reason](len(reasonNames)) }

// LoadStats counts what a load exchanged with its relay.
type LoadStats struct {
	REQs      int // REQ messages sent (fence included)
	Queries   int // enumeration queries (bands and pinned windows)
	Received  int // EVENT messages consumed (fence and queries)
	Fence     int // of which delivered by the fence
	Ignored   int // delivered events that are not read-state coordinates
	Discarded int // events on subscriptions the load no longer follows
}

// LoadResult is a load's verdict and what it collected.
type LoadResult struct {
	Verdict Verdict
	Reason  Reason
	// Second is the plateau second for ReasonPlateau.
	Second nostr.Timestamp
	// Detail is a human-readable account of the verdict.
	Detail string
	// Events holds one event per read-state coordinate, the retained
	// version, sorted by d tag. It is filled whatever the verdict: merging
	// is always safe, acting on it as complete is not.
	Events []*nostr.Event
	Stats  LoadStats
}

// Complete reports whether the result is a complete load.
func (r LoadResult) Complete() bool { return r.Verdict == Complete }

func short(id string) string {
	if len(id) > 8 {
		return id[:8]
	}
	return id
}
