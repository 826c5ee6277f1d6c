package model

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nbd-wtf/go-nostr"
)

// LoadConfig configures one relay's full-state load.
type LoadConfig struct {
	// PubKey is the user's public key, 64 lowercase hex.
	PubKey string
	// Limit is n, the explicit limit every query carries; it must be at
	// least the floor L. The spec advises n well above L (round trips).
	Limit int
	// SubPrefix prefixes the load's subscription ids. Empty gives a
	// prefix unique to this load in the process ("load1", "load2", ...):
	// a relay may treat a subscription id reopened on a connection as the
	// one just closed and answer it with nothing, so a caller that sets
	// SubPrefix must not reuse it for two loads on one connection.
	SubPrefix string
	// KnownNonConforming marks a relay the client knows, or has evidence,
	// not to meet the relay requirements: no load is attempted against it
	// and the verdict is cannot-prove-complete at once.
	KnownNonConforming bool
	// MaxEventBytes bounds an event's JSON size (EventJSONSize); a larger
	// delivery ends the load cannot-prove-complete, since ParseEvent
	// would later drop it and with it a coordinate the load claims. Zero
	// means no bound.
	MaxEventBytes int
	// Evidence says what the client knows against the relay, for the
	// verdict's detail when KnownNonConforming is set.
	Evidence string
	// Unproven, when not empty, says why the relay is not proven to meet
	// what the load rests on: the load runs as usual and collects every
	// coordinate it sees, but an enumeration that runs to its end ends
	// cannot-prove-complete (ReasonUnproven) instead of complete, when
	// the rules require proof (Rules.Load.RequireProof: proposal
	// unproven-relay-not-complete; the text does not). A client loads on
	// a relay it has no positive evidence for, and acts on the result as
	// potentially incomplete.
	Unproven string
	// Connection identifies the connection the load runs on (any
	// comparable value: the connection object, a pointer to it). An
	// explicit SubPrefix is held from NewLoad until the load's verdict
	// (or Abort): NewLoad refuses a prefix a load on the same connection
	// still holds, since two loads sharing subscription ids on one
	// connection take each other's deliveries for their own. Nil scopes
	// the prefix to the whole process.
	Connection any
	// Nonce makes this load's filters differ from another load's: under
	// proposal distinct-load-filters the nonce chooses the first band's
	// until (Rules.Load.FirstUntil), far above any real created_at, so a
	// relay caching results by the exact filter never answers this load's
	// first band from another load's. Zero draws a nonce from a random
	// source; tests set it for deterministic filters.
	Nonce uint32
	// OtherSubs is the most subscriptions the client holds open on the
	// load's connection besides the load's own, at any time while the
	// load runs.
	OtherSubs int
	// RelayMaxSubs is the relay's subscription capacity per connection,
	// as it advertises it (NIP-11 limitation.max_subscriptions) or the
	// probe measured it; zero means unknown. A load whose subscriptions
	// and the client's others may exceed it is not attempted (see
	// LoadRules.FenceFits).
	RelayMaxSubs int
	// Passes is how many full enumerations the load runs on its one
	// fence before it may say complete (0 and 1: one; at most
	// MaxLoadPasses). Every pass's findings are merged, and the load is
	// complete only when every pass ran to an exhausted enumeration. It is
	// the client's defence against a relay that replaces an addressable
	// event by deleting the old version before saving the new one (R6
	// broken, as khatru v0.8.x is): a query in that gap finds neither
	// version, and a second pass reads the coordinate again. It rests on a
	// timing assumption the verdict states: a replacement the relay
	// started before a pass is finished before that pass reads its
	// coordinate (khatru's gap is microseconds, a pass several round
	// trips).
	Passes int
	// PassGap, with two or more passes, is how long the client waits
	// before it starts each later pass and before the round trip that
	// ends the last (Drive waits; a sans-I/O caller reads PassGapDue).
	// It turns the passes' timing assumption from "within a pass" into a
	// stated wall-clock bound: a replacement the relay split finishes,
	// and a push the relay queued behind an end-of-stored-events goes
	// out, within PassGap. The verdict names it. A machine under load
	// stretches a relay's split (khatru over lmdb, measured at loopback
	// under a load average of 13, missed a coordinate in 4 of 60 two-pass
	// loads with no gap); the gap is what a client trades for that.
	PassGap time.Duration
	// Rules makes every decision; nil means Proposed().
	Rules *Rules
}

// MaxLoadPasses bounds LoadConfig.Passes.
const MaxLoadPasses = 4

// MaxCreatedAt is the largest created_at the load steps through: the
// stores real relays use keep created_at as an unsigned 32-bit integer,
// and every timestamp the load computes (T-1, the first band's until)
// must stay in [0, MaxCreatedAt] so that no step wraps. A delivery
// outside that range, or above the first band's until, ends the load
// cannot-prove-complete.
const MaxCreatedAt nostr.Timestamp = 1<<32 - 1

// LoadSubscriptions is the most subscriptions a load holds open on its
// connection at once: the fence and one query, since every query's
// CLOSE is sent before the next REQ. A relay that reads a connection's
// messages in order therefore never sees more; one that may read a REQ
// before an earlier CLOSE gives no count a client could plan around, and
// silent eviction on it breaks R8.
const LoadSubscriptions = 2

// held records the explicit subscription prefixes of loads without a
// verdict, by connection.
var held = struct {
	sync.Mutex
	m map[heldKey]bool
}{m: map[heldKey]bool{}}

type heldKey struct {
	conn   any
	prefix string
}

// loadSeq numbers the loads of the process for their default
// subscription ids.
var loadSeq atomic.Uint64

// Errors of NewLoad.
var (
	ErrLoadPubKey = errors.New("load: public key must be 64 lowercase hex")
	ErrLoadLimit  = errors.New("load: limit below the floor L")
	// ErrLoadPrefixHeld: the explicit SubPrefix is held by a load on the
	// same connection that has no verdict yet.
	ErrLoadPrefixHeld = errors.New("load: subscription prefix held by a running load on the connection")
	// ErrLoadConnection: LoadConfig.Connection is not comparable.
	ErrLoadConnection = errors.New("load: connection must be a comparable value")
	// ErrLoadSubs: a negative OtherSubs or RelayMaxSubs.
	ErrLoadSubs = errors.New("load: negative subscription count")
	// ErrLoadPasses: Passes below 0 or above MaxLoadPasses.
	ErrLoadPasses = errors.New("load: passes out of range")
	// ErrLoadPassGap: PassGap below 0 or above MaxPassGap.
	ErrLoadPassGap = errors.New("load: pass gap out of range")
)

// MaxPassGap bounds LoadConfig.PassGap: a wait that long is no longer a
// bound on a relay's replacement but a stall.
const MaxPassGap = 10 * time.Second

// Load is the full-state load against one relay as a sans-I/O state
// machine (Full-State Load). Start returns the first messages to send; each
// relay message is then fed in wire order, and each call returns the next
// messages to send on the same connection. The load ends in Complete,
// CannotProveComplete or Failed; after that it ignores every message, since
// no later observation changes its verdict.
//
// The fence is a subscription on the tag-free filter; the first
// enumeration query is sent only after the fence's end-of-stored-events.
// Queries run one at a time: the band (no until, then until = T-1), then
// the pinned window {since: T, until: T}. Fence deliveries are collected
// like query deliveries but never move T or C, and neither does a query
// delivery the fence pushed while that query was in flight: a relay may
// push onto the query's own subscription (PushIsResult). A query that
// delivers more than its limit, or whose results the rules take as out of
// order, ends the load as non-conforming (OverLimit, OrderEvidence).
// Because messages are fed in wire order and collected as they are fed,
// every fence delivery received before the final end-of-stored-events has
// been collected when the verdict is rendered.
type Load struct {
	rules  *Rules
	pubkey string
	n      int
	floor  int
	prefix string
	known  bool
	why    string
	maxEv  int
	// unproven is LoadConfig.Unproven.
	unproven string
	// hold is the explicit prefix this load holds until its verdict.
	hold *heldKey
	// nonce is LoadConfig.Nonce (drawn when zero); others and maxSubs
	// are LoadConfig.OtherSubs and RelayMaxSubs.
	nonce          uint32
	others, maxSub int
	// top is the first band's until: no delivery may lie above it.
	top nostr.Timestamp
	// maxAt is the newest created_at delivered so far.
	maxAt nostr.Timestamp

	started     bool
	fenceEOSE   bool
	established bool
	fenceStored int // fence deliveries before its end-of-stored-events
	fenceCount  int // fence deliveries that count toward C (none by spec)
	c           int
	t           nostr.Timestamp
	tSet        bool
	q           *query
	nq          int
	retries     int
	// passes is how many enumerations the load runs (Rules.Load.Passes
	// of LoadConfig.Passes); pass is the one running, from 1.
	passes, pass int
	// gap is LoadConfig.PassGap; gapDue is set when the messages just
	// returned start a later pass or the last round trip, which the
	// caller sends only after waiting gap (PassGapDue).
	gap    time.Duration
	gapDue bool

	// pushedAt maps an event the fence delivered after its
	// end-of-stored-events to the number of queries issued when it
	// arrived; counted holds the events finished queries counted as
	// results.
	pushedAt map[string]int
	counted  map[string]bool

	coords map[string]*nostr.Event
	res    LoadResult
}

// query is the one enumeration query in flight: what it delivered, by
// id in wire order, until its end-of-stored-events.
type query struct {
	id     string
	num    int // its number in the load, from 1
	pinned bool
	// ping is the round trip a multi-pass load makes after its last pass
	// (afterBand): a query nothing can match, whose end-of-stored-events
	// comes after the pushes the relay has sent meanwhile.
	ping   bool
	filter nostr.Filter
	seen   map[string]bool
	evs    []*nostr.Event
}

// maxPushRetries bounds how often a band is repeated because every event
// it delivered was also pushed on the fence while it was in flight.
const maxPushRetries = 3

// NewLoad validates the configuration and returns a load not yet started.
func NewLoad(cfg LoadConfig) (*Load, error) {
	rules := cfg.Rules
	if rules == nil {
		rules = Proposed()
	}
	if !isLowerHex(cfg.PubKey, 64) {
		return nil, ErrLoadPubKey
	}
	floor := rules.Load.Floor()
	if cfg.Limit < floor {
		return nil, fmt.Errorf("%w: n=%d, L=%d", ErrLoadLimit, cfg.Limit, floor)
	}
	if cfg.OtherSubs < 0 || cfg.RelayMaxSubs < 0 {
		return nil, fmt.Errorf("%w: other=%d, max=%d", ErrLoadSubs, cfg.OtherSubs, cfg.RelayMaxSubs)
	}
	if cfg.Passes < 0 || cfg.Passes > MaxLoadPasses {
		return nil, fmt.Errorf("%w: %d (0 to %d)", ErrLoadPasses, cfg.Passes, MaxLoadPasses)
	}
	if cfg.PassGap < 0 || cfg.PassGap > MaxPassGap {
		return nil, fmt.Errorf("%w: %s (0 to %s)", ErrLoadPassGap, cfg.PassGap, MaxPassGap)
	}
	if cfg.Connection != nil && !reflect.TypeOf(cfg.Connection).Comparable() {
		return nil, fmt.Errorf("%w: %T", ErrLoadConnection, cfg.Connection)
	}
	nonce := cfg.Nonce
	for nonce == 0 {
		nonce = rand.Uint32()
	}
	l := &Load{
		rules: rules, pubkey: cfg.PubKey, n: cfg.Limit, floor: floor,
		prefix: cfg.SubPrefix, known: cfg.KnownNonConforming, why: cfg.Evidence, maxEv: cfg.MaxEventBytes, unproven: cfg.Unproven,
		nonce: nonce, others: cfg.OtherSubs, maxSub: cfg.RelayMaxSubs, top: MaxCreatedAt,
		passes: rules.Load.Passes(cfg.Passes), pass: 1, gap: cfg.PassGap,
		coords: map[string]*nostr.Event{}, pushedAt: map[string]int{}, counted: map[string]bool{},
	}
	if l.prefix == "" {
		l.prefix = fmt.Sprintf("load%d", loadSeq.Add(1))
		return l, nil
	}
	key := heldKey{cfg.Connection, cfg.SubPrefix}
	held.Lock()
	defer held.Unlock()
	if held.m[key] {
		return nil, fmt.Errorf("%w: %q", ErrLoadPrefixHeld, cfg.SubPrefix)
	}
	held.m[key] = true
	l.hold = &key
	return l, nil
}

// release gives up the load's explicit prefix, once.
func (l *Load) release() {
	if l.hold == nil {
		return
	}
	held.Lock()
	delete(held.m, *l.hold)
	held.Unlock()
	l.hold = nil
}

// FenceID is the fence's subscription id.
func (l *Load) FenceID() string { return l.prefix + "-fence" }

// Verdict is the load's current verdict.
func (l *Load) Verdict() Verdict { return l.res.Verdict }

// Running reports whether the load has started and has no verdict yet.
// While it runs the client must not publish to its own coordinates.
func (l *Load) Running() bool { return l.started && l.res.Verdict == Running }

// Established reports whether the fence is (or was) established.
func (l *Load) Established() bool { return l.established }

// C is the largest delivery of any enumeration query so far.
func (l *Load) C() int { return l.c }

// Pass is the enumeration pass running, from 1 (LoadConfig.Passes).
func (l *Load) Pass() int { return l.pass }

// PassGapDue reports, once, whether the messages the last Feed returned
// start a pass (the first too, under Rules.Load.SettleFence) or the
// round trip after the last pass, and the gap
// to wait: a caller driving the load itself waits LoadConfig.PassGap
// before sending them, as Drive does; the verdict's assumption names that
// wait (with no gap, the assumption is "within a pass").
func (l *Load) PassGapDue() (time.Duration, bool) {
	due := l.gapDue
	l.gapDue = false
	return l.gap, due
}

// Cursor is T and whether it is set.
func (l *Load) Cursor() (nostr.Timestamp, bool) { return l.t, l.tSet }

// Result is the verdict and the collected coordinates so far.
func (l *Load) Result() LoadResult {
	r := l.res
	r.Events = make([]*nostr.Event, 0, len(l.coords))
	for _, ev := range l.coords {
		r.Events = append(r.Events, ev)
	}
	slices.SortFunc(r.Events, func(a, b *nostr.Event) int { return strings.Compare(a.Tags.GetD(), b.Tags.GetD()) })
	return r
}

// Start returns the fence REQ (and, only if the rules count the fence as
// established on sending, the first query). A relay known not to conform
// gets nothing: the load is cannot-prove-complete at once.
func (l *Load) Start() []Out {
	if l.started || l.res.Verdict != Running {
		return nil
	}
	l.started = true
	if l.known {
		detail := "relay known not to meet the relay requirements; no load attempted"
		if l.why != "" {
			detail += " (" + l.why + ")"
		}
		l.finish(CannotProveComplete, ReasonNonConforming, detail)
		return nil
	}
	if !l.rules.Load.FenceFits(l.others, l.maxSub) {
		l.finish(CannotProveComplete, ReasonSubscriptions,
			fmt.Sprintf("%d other subscriptions and the load's %d exceed the relay's %d per connection: the fence could be dropped silently; no load attempted",
				l.others, LoadSubscriptions, l.maxSub))
		return nil
	}
	f := l.rules.Load.EnumerationFilter(l.pubkey, l.n)
	out := []Out{{Kind: OutREQ, SubID: l.FenceID(), Filter: f}}
	l.res.Stats.REQs++
	if l.rules.Load.FenceEstablished(true, false) {
		l.established = true
		out = append(out, l.first()...)
	}
	return out
}

// first issues the first band: until the nonce's far-future second when
// the rules give one, none otherwise.
func (l *Load) first() []Out {
	u, ok := l.rules.Load.FirstUntil(l.nonce)
	if !ok {
		return []Out{l.issue(false, nil, nil)}
	}
	u = min(max(u, 0), MaxCreatedAt)
	l.top = min(l.top, u)
	if l.maxAt > l.top {
		// The fence showed an event the bands would never reach.
		l.finish(CannotProveComplete, ReasonNonConforming,
			fmt.Sprintf("fence delivered created_at %d, above the first band's until %d", l.maxAt, l.top))
		return l.closeAll()
	}
	return []Out{l.issue(false, nil, &u)}
}

// Feed consumes one relay message and returns the messages to send next.
func (l *Load) Feed(m In) []Out {
	if !l.started || l.res.Verdict != Running {
		if m.Kind == InEvent {
			l.res.Stats.Discarded++
		}
		return nil
	}
	switch m.Kind {
	case InEvent:
		if m.BadSig && (m.SubID == l.FenceID() || (l.q != nil && m.SubID == l.q.id)) {
			l.finish(CannotProveComplete, ReasonNonConforming, fmt.Sprintf("relay delivered event %s with an invalid signature", short(m.Event.ID)))
			return l.closeAll()
		}
		return l.event(m.SubID, m.Event)
	case InEOSE:
		return l.eose(m.SubID)
	case InClosed:
		return l.closed(m.SubID, m.Reason)
	case InConnectionLost:
		v, r := l.rules.Load.Lost(l.established)
		if l.established {
			l.finish(v, r, "connection lost: the fence lapsed")
		} else {
			l.finish(v, r, "connection lost before the fence was established")
		}
		return nil
	}
	return nil
}

// Abort ends a running load as failed, for a caller that gives up on the
// relay (a timeout, a shutdown). It returns the CLOSE messages to send.
func (l *Load) Abort(why string) []Out {
	if !l.started || l.res.Verdict != Running {
		if !l.started && l.res.Verdict == Running {
			l.finish(Failed, ReasonRelayFailure, "aborted before it started: "+why)
		}
		return nil
	}
	l.finish(Failed, ReasonRelayFailure, "aborted: "+why)
	return l.closeAll()
}

func (l *Load) event(sub string, ev *nostr.Event) []Out {
	fence := sub == l.FenceID()
	if !fence && (l.q == nil || sub != l.q.id) {
		l.res.Stats.Discarded++
		return nil
	}
	if why := l.malformed(ev); why != "" {
		l.finish(CannotProveComplete, ReasonNonConforming, why)
		return l.closeAll()
	}
	l.res.Stats.Received++
	l.maxAt = max(l.maxAt, ev.CreatedAt)
	if fence {
		return l.fenceEvent(ev)
	}
	q := l.q
	if !q.filter.Matches(ev) {
		l.finish(CannotProveComplete, ReasonNonConforming,
			fmt.Sprintf("%s delivered %s@%d outside its filter %s", q.id, short(ev.ID), ev.CreatedAt, q.filter))
		return l.closeAll()
	}
	l.collect(ev)
	if !q.seen[ev.ID] {
		q.seen[ev.ID] = true
		q.evs = append(q.evs, ev)
		if l.rules.Load.OverLimit(len(q.evs), l.n, false) {
			l.finish(CannotProveComplete, ReasonNonConforming, fmt.Sprintf("%s delivered %d events, more than the requested %d", q.id, len(q.evs), l.n))
			return l.closeAll()
		}
		if len(q.evs) > l.n+fencePrePushes {
			// More than the limit and the pushes a query may be sent on
			// its own subscription meanwhile: a stream the load stops
			// holding. The count at the end-of-stored-events is what
			// judges the relay; this bounds memory, as the fence's does.
			l.finish(CannotProveComplete, ReasonFenceOverflow,
				fmt.Sprintf("%s delivered more than %d events before its end-of-stored-events (%d asked for, %d pushes allowed)", q.id, l.n+fencePrePushes, l.n, fencePrePushes))
			return l.closeAll()
		}
	}
	return nil
}

// results splits a finished query's deliveries: the events that count as
// its results (toward C and the cursor), and how many distinct events it
// delivered in all. A delivery the fence pushed while the query was in
// flight is not a result (Rules.Load.PushIsResult): it may be a push on
// the query's own subscription rather than a stored event.
func (l *Load) results(q *query) (res []*nostr.Event, delivered int) {
	for _, ev := range q.evs {
		if at, ok := l.pushedAt[ev.ID]; ok && at >= q.num && !l.rules.Load.PushIsResult(ev) {
			continue
		}
		res = append(res, ev)
	}
	return res, len(q.evs)
}

func (l *Load) fenceEvent(ev *nostr.Event) []Out {
	l.res.Stats.Fence++
	if !l.fenceEOSE {
		// Before its end-of-stored-events the fence may deliver pushes
		// as well as the n stored events it asked for (a write accepted
		// meanwhile, a replacement included), and nothing tells the two
		// apart: more than n is no evidence against the relay. It is
		// bounded all the same, so that a relay streaming without end
		// costs the load a verdict, not its memory.
		l.fenceStored++
		if l.fenceStored > l.n+fencePrePushes {
			l.finish(CannotProveComplete, ReasonFenceOverflow,
				fmt.Sprintf("fence delivered more than %d events before its end-of-stored-events (%d stored asked for, %d pushes allowed)", l.n+fencePrePushes, l.n, fencePrePushes))
			return l.closeAll()
		}
	}
	f := l.rules.Load.EnumerationFilter(l.pubkey, l.n)
	if !f.MatchesIgnoringTimestampConstraints(ev) {
		l.finish(CannotProveComplete, ReasonNonConforming,
			fmt.Sprintf("fence delivered %s@%d outside its filter", short(ev.ID), ev.CreatedAt))
		return l.closeAll()
	}
	if l.fenceEOSE {
		if _, ok := l.pushedAt[ev.ID]; !ok {
			l.pushedAt[ev.ID] = l.nq
		}
		if l.counted[ev.ID] && !l.rules.Load.PushIsResult(ev) {
			l.collect(ev)
			l.finish(CannotProveComplete, ReasonQueryPush,
				fmt.Sprintf("fence pushed %s@%d after a query counted it as a result: it may have been a push on that query", short(ev.ID), ev.CreatedAt))
			return l.closeAll()
		}
	}
	l.collect(ev)
	if l.rules.Load.FenceCountsForC(ev) {
		l.fenceCount++
		l.c = max(l.c, l.fenceCount)
	}
	if l.rules.Load.FenceMovesCursor(ev) && (!l.tSet || ev.CreatedAt < l.t) {
		l.t, l.tSet = ev.CreatedAt, true
	}
	return nil
}

// malformed reports why an event cannot be used at all (nil, or an id
// that is not the hash of its content); the empty string means usable.
// Signatures are the transport's to verify before feeding (In.BadSig;
// Drive does it).
func (l *Load) malformed(ev *nostr.Event) string {
	switch {
	case ev == nil:
		return "relay delivered an empty event"
	case !isLowerHex(ev.ID, 64):
		return fmt.Sprintf("relay delivered an event with a malformed id %q", short(ev.ID))
	case !ev.CheckID():
		return fmt.Sprintf("relay delivered event %s whose id does not match its content", short(ev.ID))
	case l.maxEv > 0 && EventJSONSize(ev) > l.maxEv:
		return fmt.Sprintf("relay delivered event %s of %d bytes, over the %d-byte bound", short(ev.ID), EventJSONSize(ev), l.maxEv)
	case ev.CreatedAt < 0 || ev.CreatedAt > l.top:
		// Below 0 the cursor's T-1 would wrap; above the first band's
		// until the bands never reach it, and only the fence (which has
		// no until) can show it.
		return fmt.Sprintf("relay delivered event %s at created_at %d, outside [0, %d] the load can step through", short(ev.ID), ev.CreatedAt, l.top)
	}
	return ""
}

// collect keeps ev if it is a read-state coordinate and supersedes what is
// held for its d tag; it reports whether ev is a read-state coordinate.
// Every other event is ignored but counted.
func (l *Load) collect(ev *nostr.Event) bool {
	d := ev.Tags.GetD()
	if !ValidDTag(d) {
		l.res.Stats.Ignored++
		return false
	}
	if held, ok := l.coords[d]; !ok || l.rules.Load.Retain(held, ev) {
		l.coords[d] = ev
	}
	return true
}

func (l *Load) eose(sub string) []Out {
	if sub == l.FenceID() {
		if l.fenceEOSE {
			return nil
		}
		l.fenceEOSE = true
		if l.established || !l.rules.Load.FenceEstablished(true, true) {
			return nil
		}
		l.established = true
		if l.passes > 1 && l.rules.Load.SettleFence(l.passes) {
			l.gapDue = true // the fence's registration settles before the first query
		}
		return l.first()
	}
	if l.q == nil || sub != l.q.id {
		return nil
	}
	q := l.q
	l.q = nil
	out := []Out{{Kind: OutCLOSE, SubID: q.id}}
	if q.ping {
		within := "within a pass, and its push within a round trip"
		if l.gap > 0 {
			within = fmt.Sprintf("within the %s waited before each later pass, and a push of an event the relay accepted before the last pass ended "+
				"arrives within the %s waited before the last round trip (an event accepted during that round trip is not covered)", l.gap, l.gap)
		}
		if l.rules.Load.SettleFence(l.passes) {
			within += ", and that the relay registers the fence for pushes within a pass of answering it"
			if l.gap > 0 {
				within = strings.TrimSuffix(within, "within a pass of answering it") + fmt.Sprintf("within the %s waited after its end-of-stored-events", l.gap)
			}
		}
		l.finish(Complete, ReasonNone, fmt.Sprintf("enumeration exhausted in each of %d passes, and a round trip made after the last; "+
			"complete assuming a replacement the relay splits (deletes, then saves) finishes %s", l.passes, within))
		return append(out, l.closeAll()...)
	}
	res, delivered := l.results(q)
	if why := l.rules.Load.OrderEvidence(q.id, res); why != "" {
		l.finish(CannotProveComplete, ReasonNonConforming, why)
		return append(out, l.closeAll()...)
	}
	if l.rules.Load.OverLimit(len(res), l.n, true) {
		l.finish(CannotProveComplete, ReasonNonConforming, fmt.Sprintf("%s delivered %d results, more than the requested %d", q.id, len(res), l.n))
		return append(out, l.closeAll()...)
	}
	for _, ev := range res {
		l.counted[ev.ID] = true
	}
	if q.pinned {
		return append(out, l.afterPinned(q, len(res), delivered)...)
	}
	return append(out, l.afterBand(q, res, delivered)...)
}

// afterBand handles the end of a band query: the first query or a
// continuation at until = T-1. Only an empty delivery ends the
// enumeration; C and the cursor come from the query's results alone.
func (l *Load) afterBand(q *query, res []*nostr.Event, delivered int) []Out {
	l.c = max(l.c, len(res))
	if l.rules.Load.Finished(delivered, l.n) {
		if l.pass < l.passes {
			// Another pass from the top, on the same fence: its cursor
			// starts again, C stays (the cap does not shrink within a
			// load, R2), and what it finds merges with what is held.
			l.pass++
			l.t, l.tSet, l.retries = 0, false, 0
			l.gapDue = true
			return l.first()
		}
		if l.passes > 1 {
			// One more round trip before the verdict: a push of a
			// replacement finished during the last pass, sent behind
			// that pass's end-of-stored-events by a relay whose pushes
			// lag its answers, arrives before this query's.
			u := MaxCreatedAt
			ping := l.issue(false, &u, &u)
			l.q.ping = true
			l.gapDue = true
			return []Out{ping}
		}
		l.finish(Complete, ReasonNone, fmt.Sprintf("%s delivered %d events: enumeration exhausted", q.id, delivered))
		return l.closeAll()
	}
	if len(res) == 0 {
		// Every delivery was also pushed on the fence while the query was
		// in flight: none is known to be a stored result, so the band
		// cannot be descended from. Asked again, the relay answers from
		// storage that now holds those writes.
		l.retries++
		f, ok := l.rules.Load.Retry(q.filter, l.retries, !l.tSet)
		if !ok || l.retries > maxPushRetries {
			l.finish(CannotProveComplete, ReasonQueryPush,
				fmt.Sprintf("%s: %d bands in a row delivered only events the fence pushed meanwhile", q.id, l.retries))
			return l.closeAll()
		}
		if !l.tSet && f.Until != nil && *f.Until < l.top {
			// A lower first band: every delivery so far must lie below it.
			if l.maxAt > *f.Until {
				l.finish(CannotProveComplete, ReasonNonConforming,
					fmt.Sprintf("relay delivered created_at %d, above the retried first band's until %d", l.maxAt, *f.Until))
				return l.closeAll()
			}
			l.top = *f.Until
		}
		return []Out{l.issue(false, f.Since, f.Until)}
	}
	l.retries = 0
	cursorSet, low := false, nostr.Timestamp(0)
	for _, ev := range res {
		if l.rules.Load.CursorFrom(ev, ValidDTag(ev.Tags.GetD())) && (!cursorSet || ev.CreatedAt < low) {
			cursorSet, low = true, ev.CreatedAt
		}
	}
	if !cursorSet {
		// Under the production rules every delivered event sets the
		// cursor, so a non-empty band always does; a band that set none
		// left nothing to continue below.
		l.finish(Complete, ReasonNone, fmt.Sprintf("%s delivered no event that sets the cursor", q.id))
		return l.closeAll()
	}
	if !l.tSet || low < l.t {
		l.t, l.tSet = low, true
	}
	if l.rules.Load.PinWindow(l.t) {
		t := l.t
		return []Out{l.issue(true, &t, &t)}
	}
	return l.advance()
}

// afterPinned applies step 5 to the pinned window's delivery. The
// comparison takes every distinct event the window delivered, pushes
// included (more events never discharge a second), while C grows only by
// its results.
func (l *Load) afterPinned(q *query, results, delivered int) []Out {
	exhausted := l.rules.Load.Exhausted(delivered, l.c, l.floor)
	l.c = max(l.c, results)
	if !exhausted {
		l.res.Second = l.t
		l.finish(CannotProveComplete, ReasonPlateau,
			fmt.Sprintf("pinned window at second %d delivered %d events, C=%d, L=%d: the cap may have bound inside the second", l.t, delivered, l.c, l.floor))
		return l.closeAll()
	}
	return l.advance()
}

// advance continues below a discharged second T with until = T-1. At T = 0
// there is no older second to query (created_at is unsigned and until:-1
// is not expressible), so the oldest second having been discharged by the
// pinned window completes the enumeration without a further query.
func (l *Load) advance() []Out {
	if l.t == 0 {
		l.finish(Complete, ReasonNone, "second 0 discharged: no older second exists")
		return l.closeAll()
	}
	until := l.t - 1
	return []Out{l.issue(false, nil, &until)}
}

func (l *Load) issue(pinned bool, since, until *nostr.Timestamp) Out {
	l.nq++
	f := l.rules.Load.EnumerationFilter(l.pubkey, l.n)
	f.Since, f.Until = since, until
	l.q = &query{id: fmt.Sprintf("%s-q%d", l.prefix, l.nq), num: l.nq, pinned: pinned, filter: f, seen: map[string]bool{}}
	l.res.Stats.REQs++
	l.res.Stats.Queries++
	return Out{Kind: OutREQ, SubID: l.q.id, Filter: f}
}

func (l *Load) closed(sub, reason string) []Out {
	switch {
	case sub == l.FenceID() && l.established:
		l.finish(CannotProveComplete, ReasonFenceLapsed, "relay closed the fence: "+reason)
	case sub == l.FenceID():
		l.finish(Failed, ReasonRelayFailure, "relay refused the fence: "+reason)
	case l.q != nil && sub == l.q.id:
		l.q = nil
		l.finish(Failed, ReasonRelayFailure, "relay refused "+sub+": "+reason)
	default:
		return nil
	}
	return l.closeAll()
}

// closeAll closes the fence and any query still open.
func (l *Load) closeAll() []Out {
	out := []Out{}
	if l.q != nil {
		out = append(out, Out{Kind: OutCLOSE, SubID: l.q.id})
		l.q = nil
	}
	return append(out, Out{Kind: OutCLOSE, SubID: l.FenceID()})
}

func (l *Load) finish(v Verdict, r Reason, detail string) {
	l.release()
	if v == Complete && l.unproven != "" && l.rules.Load.RequireProof(l.unproven) {
		v, r = CannotProveComplete, ReasonUnproven
		detail += "; the relay is not proven to meet the relay requirements: " + l.unproven
	}
	l.res.Verdict, l.res.Reason, l.res.Detail = v, r, detail
}
