package relaysim

import (
	"fmt"

	"github.com/nip-rs/harness/model"
)

// TieOrder orders events of equal created_at in a capped result.
type TieOrder uint8

const (
	TieIDAsc         TieOrder = iota // lowest id first (NIP-01)
	TieIDDesc                        // highest id first (slicestore, badger HEAD)
	TieInsertionDesc                 // most recently stored first (strfry)
)

// Selection is which of the matching events a capped query returns.
type Selection uint8

const (
	// SelectPrefix returns the first cap events in the relay's order.
	SelectPrefix Selection = iota
	// SelectHeadAndTail returns the first cap-1 events and the last match:
	// a capped subset that is not a prefix.
	SelectHeadAndTail
)

// TagPhase is where a filter's tag constraints apply.
type TagPhase uint8

const (
	TagsBeforeCap      TagPhase = iota // only matching events count toward the cap
	TagsAfterCap                       // the cap selects, then non-matching events are withheld
	TagsSubstringInCap                 // any tag value containing the wanted value matches, names ignored (sqlite LIKE)
)

// SameSecond is how an addressable replacement at the same created_at as
// the stored version is decided.
type SameSecond uint8

const (
	SameSecondLowestID     SameSecond = iota // the lower id wins (NIP-01)
	SameSecondFirstArrival                   // the stored version wins (nostream, nostr-rs-relay)
)

// PushMode is how accepted events reach open subscriptions.
type PushMode uint8

const (
	// PushBarrier queues pushes and delivers every queued push on a
	// connection before any end-of-stored-events on it (the barrier).
	PushBarrier PushMode = iota
	// PushDelayed queues pushes and delivers them only when the driver
	// flushes them: an end-of-stored-events may overtake them.
	PushDelayed
	// PushNone never pushes.
	PushNone
)

// Requirement names one of the five relay requirements of the full-state
// load (model.RelayRequirement).
type Requirement = model.RelayRequirement

const (
	ReqPrefix  = model.ReqPrefix
	ReqCap     = model.ReqCap
	ReqFloor   = model.ReqFloor
	ReqPush    = model.ReqPush
	ReqBarrier = model.ReqBarrier
	ReqAtomic  = model.ReqAtomic
	ReqFresh   = model.ReqFresh
	// ReqTieOrder is R1's tie clause, which the load does not rest on.
	ReqTieOrder = model.ReqTieOrder
	ReqSubs     = model.ReqSubs
)

// Profile is a relay's behaviour.
type Profile struct {
	Name string
	// Cap is the number of events a query delivers at most, given the
	// requested limit and how many REQs the connection processed before
	// it (nth, from 0).
	Cap    func(requested, nth int) int
	Ties   TieOrder
	Select Selection
	Tags   TagPhase
	Same   SameSecond
	// DeleteThenSave splits a replacement: the old version is removed at
	// once, the new one stored (and pushed) only when Settle runs.
	DeleteThenSave bool
	// SettleBeforePass finishes every split replacement before a load's
	// next enumeration pass reads the store: the timing assumption of a
	// load run with LoadConfig.Passes > 1 (a split is shorter than a
	// pass). The world of package props applies it; a client loading
	// over such a relay runs two passes.
	SettleBeforePass bool
	// FlushBeforePass sends every push queued (PushDelayed) before a
	// load's next pass and before the round trip that ends its last: the
	// timing assumption of a multi-pass load about pushes (a push the
	// relay queued behind an end-of-stored-events goes out within the
	// client's gap, LoadConfig.PassGap). The world of package props
	// applies it.
	FlushBeforePass bool
	// RegisterLate registers a subscription for pushes only when the
	// driver says so (Conn.Register), after its stored events and its
	// end-of-stored-events went out: an event accepted in between is
	// never pushed to it (rely v1.2.2 queues each REQ for a worker and
	// hands the subscription to its broadcaster afterwards). It breaks R4
	// for a subscription just answered, not for one registered since.
	RegisterLate bool
	// RegisterBeforePass registers every late subscription before a
	// load's next pass and before the round trip that ends its last: the
	// timing assumption of a multi-pass load about registration (it
	// finishes within the client's gap, LoadConfig.PassGap). The world of
	// package props applies it.
	RegisterBeforePass bool
	// AckAtSave acknowledges a split replacement when its new version is
	// saved, as khatru sends OK after saving: until then it is no part of
	// what a complete load must hold (Coordinates).
	AckAtSave bool
	// KeepStale stores every arrival, even one older than the stored
	// version, removing only versions older than it.
	KeepStale bool
	// SinceExclusive and UntilExclusive treat the bounds as strict.
	SinceExclusive, UntilExclusive bool
	Push                           PushMode
	// QueryPush keeps a query's subscription open for pushes until its
	// end-of-stored-events goes out: the end-of-stored-events waits in the
	// push queue, and every push accepted meanwhile (to the fence and to
	// the query's own subscription alike) is queued ahead of it. khatru
	// registers each REQ as a listener before answering it, and none of
	// the five requirements forbids it.
	QueryPush bool
	// CacheTTL caches each query's result by its filter JSON for this many
	// ticks (a tick is one processed message or accepted write); writes do
	// not invalidate it. 0 disables the cache.
	CacheTTL int
	// LoadGap spaces a scenario's loads: before each load starts, the
	// relay processes every message still pending on the connection, then
	// idles this many ticks (Relay.Idle). A profile whose cache must not
	// outlive a load sets it to the cache's TTL, so that a load meets only
	// entries its own REQs made. It describes the clients the relay
	// serves, not the relay.
	LoadGap int
	// MaxSubs keeps at most this many subscriptions open on a connection:
	// a REQ past it silently drops the oldest one (no CLOSED, no NOTICE),
	// as @nostr-relay/core does at 20. 0 means no bound.
	MaxSubs int
	// InOrder reads a connection's messages strictly in the order they
	// were sent, whatever message the driver asks it to process (a
	// single-threaded relay: @nostr-relay/core on node).
	InOrder bool
	// AdvertisedSubs is the capacity the relay states (NIP-11
	// limitation.max_subscriptions), which a client can plan around; 0
	// states none.
	AdvertisedSubs int
	// SoftDelete keeps deleted rows, counting them toward the cap and
	// withholding them after it.
	SoftDelete bool
	// Breaks lists the relay requirements the profile violates.
	Breaks []Requirement
	// Note says where the behaviour comes from.
	Note string
}

// Conforms reports whether the profile meets all five requirements.
func (p Profile) Conforms() bool { return len(p.Breaks) == 0 }

func (p Profile) String() string { return p.Name }

func capAt(c int) func(int, int) int {
	return func(req, _ int) int { return min(req, c) }
}

// Conformant honours the five requirements; it applies tag constraints
// after the cap (which the spec permits) and queues pushes, delivering
// them before any end-of-stored-events.
func Conformant(cap int) Profile {
	return Profile{
		Name: "conformant", Cap: capAt(cap), Tags: TagsAfterCap,
		Note: "meets R1-R5; tags after the cap and queued pushes are both permitted",
	}
}

// NonPrefix returns a capped subset that is not the newest prefix.
func NonPrefix(cap int) Profile {
	p := Conformant(cap)
	p.Name, p.Select, p.Breaks = "non-prefix", SelectHeadAndTail, []Requirement{ReqPrefix}
	p.Note = "capped result is the newest cap-1 and the oldest match"
	return p
}

// CapShrinking serves the first two REQs on a connection (the fence and
// the first band) at its cap and every later one at 2: the cap falls
// within the load, never below the floor.
func CapShrinking(cap int) Profile {
	p := Conformant(cap)
	p.Name, p.Breaks = "cap-shrinking", []Requirement{ReqCap}
	p.Cap = func(req, nth int) int {
		if nth < 2 {
			return min(req, cap)
		}
		return min(req, 2)
	}
	p.Note = "cap falls to 2 after the first band on the connection"
	return p
}

// FloorOne delivers at most one event per query.
func FloorOne(int) Profile {
	p := Conformant(1)
	p.Name, p.Breaks = "floor-1", []Requirement{ReqFloor}
	p.Note = "cap 1 (a MaxLimit/QueryLimit of 1)"
	return p
}

// NoPush never pushes accepted events to open subscriptions.
func NoPush(cap int) Profile {
	p := Conformant(cap)
	p.Name, p.Push, p.Breaks = "no-push", PushNone, []Requirement{ReqPush}
	p.Note = "accepts writes without pushing them"
	return p
}

// PushAfterEOSE pushes, but only when the driver flushes: an
// end-of-stored-events can overtake a pending push.
func PushAfterEOSE(cap int) Profile {
	p := Conformant(cap)
	p.Name, p.Push, p.Breaks = "push-after-eose", PushDelayed, []Requirement{ReqBarrier}
	p.Note = "pushes delayed independently of query answers"
	return p
}

// StrfryLike: ties by insertion order, tags before the cap, atomic
// lowest-id replacement, pushes from a debounced monitor (no barrier).
func StrfryLike(cap int) Profile {
	return Profile{
		Name: "strfry-like", Cap: capAt(cap), Ties: TieInsertionDesc, Tags: TagsBeforeCap, Push: PushDelayed,
		Breaks: []Requirement{ReqPrefix, ReqBarrier},
		Note:   "strfry: levId-desc ties, debounced DB-change monitor pushes",
	}
}

// KhatruSliceLike: khatru 0.8.4 over slicestore: id-desc ties, since
// treated as exclusive, delete-then-save replacement keeping stale
// versions, no barrier.
func KhatruSliceLike(cap int) Profile {
	return Profile{
		Name: "khatru-slice-like", Cap: capAt(cap), Ties: TieIDDesc, Tags: TagsBeforeCap,
		SinceExclusive: true, DeleteThenSave: true, KeepStale: true, Push: PushDelayed,
		Breaks: []Requirement{ReqPrefix, ReqBarrier, ReqAtomic},
		Note:   "khatru 0.8.4 + slicestore 0.9.0: exclusive since, non-atomic replacement, two versions kept",
	}
}

// SQLiteSubstringTagLike: NIP-01 order, but a tag constraint matches any
// tag value containing the wanted value, inside the cap (eventstore
// sqlite3 LIKE). Otherwise conformant, to isolate the tag behaviour.
func SQLiteSubstringTagLike(cap int) Profile {
	p := Conformant(cap)
	p.Name, p.Tags = "sqlite-substring-tag-like", TagsSubstringInCap
	p.Note = "eventstore sqlite3: tags LIKE '%value%' inside the cap"
	return p
}

// SoftDeletedRows: deleted rows still count toward the cap and are
// withheld after it (nostream). Otherwise conformant.
func SoftDeletedRows(cap int) Profile {
	p := Conformant(cap)
	p.Name, p.SoftDelete = "soft-deleted-rows", true
	p.Note = "nostream: soft-deleted rows consume the LIMIT, filtered after it"
	return p
}

// Cached serves a repeated identical filter from a result cache that
// writes do not invalidate (the in-flight repopulation race of
// @nostr-relay/core), shared by every connection. Otherwise conformant:
// R1-R5 as the spec states them speak of what a query returns given the
// relay's storage and cap, not of when the relay read that storage, so
// nothing in them forbids answering a filter asked before from the
// earlier answer. A load never sends a filter twice, nor another load's
// first band (LoadRules.FirstUntil, LoadRules.Retry), but a later load's
// continuation can equal an earlier load's on unchanged data, so the
// load survives it only in part: R7 covers the rest.
func Cached(cap int) Profile {
	p := Conformant(cap)
	p.Name, p.CacheTTL = "cached", 40
	p.Note = "@nostr-relay/core: filter result cache repopulated with a pre-write snapshot"
	return p
}

// CachedInLoad caches each query's result by its exact filter JSON, as
// Cached does, but every entry expires before the scenario's next load
// starts: the TTL is 40 ticks and the loads are 40 ticks apart
// (LoadGap), so a load meets only entries its own REQs made. It
// also pushes onto queries still being answered (QueryPush), so that a
// load retries bands. It meets R1-R5; it is the in-load half of
// @nostr-relay/core's cache. A load survives it by its fence alone:
// every entry it meets was read from storage once the fence was open,
// and every write after that reaches the fence as a push, so even a
// repeated filter answered from the cache misses nothing (NOTE.md,
// "What the spec should say about relays"). Loads closer together than
// the TTL are R7's (Cached).
func CachedInLoad(cap int) Profile {
	p := ConformantQueryPush(cap)
	p.Name, p.CacheTTL, p.LoadGap = "cached-in-load", 40, 40
	p.Note = "a filter result cache living 40 ticks, loads at least 40 ticks apart; pushes onto queries in flight"
	return p
}

// DeleteThenSaveGap replaces a coordinate by removing the old version at
// once and storing the new one only at Settle: a query in between finds
// neither (khatru v0.8.x over lmdb, sqlite3, badger). Otherwise
// conformant; it breaks R6.
func DeleteThenSaveGap(cap int) Profile {
	p := Conformant(cap)
	p.Name, p.DeleteThenSave, p.Breaks = "delete-then-save", true, []Requirement{ReqAtomic}
	p.Note = "khatru v0.8.x: replacement deletes, then saves; a query in the gap finds neither version"
	return p
}

// DeleteThenSaveSettling splits replacements as DeleteThenSaveGap does
// (it breaks R6) and acknowledges one when its new version is saved, as
// khatru v0.8.x does, and finishes every split before a load's next pass
// reads the store: a split shorter than a pass (microseconds against
// several round trips). The load survives it with two passes
// (model.LoadConfig.Passes).
func DeleteThenSaveSettling(cap int) Profile {
	p := DeleteThenSaveGap(cap)
	p.Name, p.SettleBeforePass, p.AckAtSave = "delete-then-save-settling", true, true
	p.Note = "khatru v0.8.x's split replacement, each split finished before a load's next pass"
	return p
}

// SplitLatePushSettling is what khatru v0.8.x over lmdb and badger, the
// newest khatru and rely do, as the probe measures them: a replacement
// split as DeleteThenSaveSettling splits it (R6 broken), and pushes that
// an end-of-stored-events may overtake (R5 broken), under the timing
// assumption of a client's multi-pass load with its gap: every split
// finishes, and every queued push goes out, before the load's next pass
// and before the round trip that ends its last (LoadConfig.PassGap).
func SplitLatePushSettling(cap int) Profile {
	p := DeleteThenSaveSettling(cap)
	p.Name, p.Push, p.FlushBeforePass = "split-late-push-settling", PushDelayed, true
	p.Breaks = []Requirement{ReqBarrier, ReqAtomic}
	p.Note = "split replacements and pushes behind EOSE, each finished before a load's next pass and its last round trip"
	return p
}

// LateRegistration registers each subscription for pushes only some time
// after answering it (RegisterLate), with no bound on how long: an event
// accepted in between reaches neither the query nor the fence. Otherwise
// conformant; it breaks R4 for a subscription just answered.
func LateRegistration(cap int) Profile {
	p := Conformant(cap)
	p.Name, p.RegisterLate, p.Breaks = "late-registration", true, []Requirement{ReqPush}
	p.Note = "rely v1.2.2: a subscription registered for pushes after its end-of-stored-events"
	return p
}

// LateRegistrationSettling registers late as LateRegistration does, under
// the timing assumption of a client's multi-pass load with its gap:
// every subscription is registered before the load's next pass and
// before the round trip that ends its last (LoadConfig.PassGap). The
// probe shows the assumption's premise on a real relay with its
// push-settled check: a subscription answered a gap ago gets every push.
func LateRegistrationSettling(cap int) Profile {
	p := LateRegistration(cap)
	p.Name, p.RegisterBeforePass = "late-registration-settling", true
	p.Note = "late registration, each subscription registered before a load's next pass and its last round trip"
	return p
}

// RacySettling is every race a client's two passes with a gap defend at
// once: replacements split (R6), pushes an end-of-stored-events may
// overtake (R5) and subscriptions registered late (R4 for one just
// answered), each finished before the load's next pass and its last
// round trip. No relay measured has all three; the gate admits a relay
// with any of them to such a client, so the soundness search covers
// them together.
func RacySettling(cap int) Profile {
	p := SplitLatePushSettling(cap)
	p.Name, p.RegisterLate, p.RegisterBeforePass = "racy-settling", true, true
	p.Breaks = []Requirement{ReqPush, ReqBarrier, ReqAtomic}
	p.Note = "split replacements, pushes behind EOSE and late registration, each finished before a load's next pass and its last round trip"
	return p
}

// InsertionTies orders same-second events most recently stored first
// (badger, lmdb, @nostr-relay/core). Otherwise conformant; it breaks only
// R1's tie clause (ties by lowest id), which the load does not rest on
// (model.ReqTieOrder).
func InsertionTies(cap int) Profile {
	p := Conformant(cap)
	p.Name, p.Ties, p.Breaks = "insertion-ties", TieInsertionDesc, []Requirement{ReqTieOrder}
	p.Note = "badger, lmdb, @nostr-relay/core: ties under a cap in insertion order"
	return p
}

// SubEvicting keeps at most 3 subscriptions per connection, silently
// dropping the oldest, and advertises no capacity (@nostr-relay/core at
// 20). Otherwise conformant; it breaks R8.
func SubEvicting(cap int) Profile {
	p := Conformant(cap)
	p.Name, p.MaxSubs, p.InOrder, p.Breaks = "sub-evicting", 3, true, []Requirement{ReqSubs}
	p.Note = "@nostr-relay/core: the 21st subscription evicts the oldest, no CLOSED, no NOTICE, no stated limit"
	return p
}

// SubCapped keeps at most 3 subscriptions per connection, silently
// dropping the oldest, reads a connection's messages in order, and
// advertises its capacity: a client that
// counts its subscriptions can keep the fence (LoadRules.FenceFits).
// It meets R1-R5, and R8 for a client within the advertised capacity.
func SubCapped(cap int) Profile {
	p := Conformant(cap)
	p.Name, p.MaxSubs, p.AdvertisedSubs, p.InOrder = "sub-capped", 3, 3, true
	p.Note = "silent eviction past an advertised max_subscriptions of 3"
	return p
}

// ConformantQueryPush is Conformant with QueryPush: it meets R1-R5 and
// also pushes onto queries still being answered.
func ConformantQueryPush(cap int) Profile {
	p := Conformant(cap)
	p.Name, p.QueryPush = "conformant-query-push", true
	p.Note = "meets R1-R5; an event accepted while a query is answered is pushed on that query before its EOSE (khatru)"
	return p
}

// Breaking lists the profiles that each break one requirement.
func Breaking(cap int) []Profile {
	return []Profile{NonPrefix(cap), CapShrinking(cap), FloorOne(cap), NoPush(cap), LateRegistration(cap), PushAfterEOSE(cap),
		DeleteThenSaveGap(cap), SubEvicting(cap)}
}

// RealLike lists the profiles that mimic real relays.
func RealLike(cap int) []Profile {
	return []Profile{StrfryLike(cap), KhatruSliceLike(cap), SQLiteSubstringTagLike(cap), SoftDeletedRows(cap), Cached(cap), InsertionTies(cap),
		DeleteThenSaveSettling(cap), SplitLatePushSettling(cap), LateRegistrationSettling(cap), RacySettling(cap)}
}

// Quirks lists the profiles that meet the five requirements in a way
// the conformant profile does not, and that the load must survive: a
// push onto the query's own subscription, silent eviction past an
// advertised capacity, a result cache that outlives no load. (Cached
// is not among them: a later load's continuation can repeat an earlier
// load's filter; NOTE.md, "What the spec should say about relays".)
func Quirks(cap int) []Profile {
	return []Profile{ConformantQueryPush(cap), SubCapped(cap), CachedInLoad(cap)}
}

// All lists every named profile, conformant first.
func All(cap int) []Profile {
	return append(append(append([]Profile{Conformant(cap)}, Breaking(cap)...), RealLike(cap)...), Quirks(cap)...)
}

// ByName returns the named profile at the given cap.
func ByName(name string, cap int) (Profile, error) {
	for _, p := range All(cap) {
		if p.Name == name {
			return p, nil
		}
	}
	return Profile{}, fmt.Errorf("relaysim: no profile %q", name)
}
