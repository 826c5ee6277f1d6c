package history

import "strings"

// Settle is what a CLOSED message means for a relay's wait on a page.
type Settle int

const (
	// Wait keeps the relay in the page: the REQ is re-issued under the same
	// id once the AUTH handshake completes.
	Wait Settle = iota
	// Refuse settles the relay as refused: it is out of the walk for the
	// rest of the round and blocks exhaustion and every cursor advance.
	Refuse
)

// PageSummary is what the round learned from one settled page.
type PageSummary struct {
	// Complete is the page's verdict: no relay asked failed it.
	Complete bool
	// Bottomed: every relay that answered delivered a short page.
	Bottomed bool
	// Count is the wraps the store holds in the page's window (up to the
	// limit); Oldest and Newest their times when Count > 0.
	Count          int
	OldestMs       int64
	NewestMs       int64
	Raw            int // wraps the relays delivered, summed
	AnsweredRelays int
	// Full: some relay delivered the whole limit. AtOldest: how many of
	// the wraps read back share the oldest one's created_at.
	Full     bool
	AtOldest int
}

// Rules is every judgement the walk makes, as function values: a round
// decides only through them, so a variant replaces one field.
type Rules struct {
	// Name names the rule set in witnesses.
	Name string
	// Opening is the newest pass's window for a saved cursor.
	Opening func(saved Cursor, overlapMs int64) Window
	// Boundary is the until of the page after one whose oldest wrap is at
	// oldestMs: exclusive, so consecutive pages never share a wrap.
	Boundary func(oldestMs int64) int64
	// Bottomed judges one relay's page: it delivered fewer than the limit,
	// given what is known of the relay's capacity.
	Bottomed func(delivered, limit int, known Capacity) bool
	// Complete judges a page: asked relays, of which failed did not answer.
	Complete func(asked, failed int) bool
	// Closed reads a CLOSED message's reason.
	Closed func(reason string) Settle
	// AuthFailed reads an AUTH handshake's failure.
	AuthFailed func() Settle
	// BridgeNeeded: after the newest page, is there a region between it and
	// the saved newest still to walk.
	BridgeNeeded func(newest PageSummary, saved Cursor) bool
	// AdvanceNewest: may newest move to the newest page's top, given the
	// newest page's verdict, whether the bridge completed, and whether the
	// unbridged rest was recorded in the cursor.
	AdvanceNewest func(newestOK, bridged, recorded bool) bool
	// Unbridged records what a bridge that ran out of budget left unwalked,
	// between the saved newest and its last boundary; ok false records
	// nothing (the document's rules).
	Unbridged func(saved Cursor, untilMs int64) (Window, bool)
	// SkipOlder: the older pass is skipped for this saved cursor.
	SkipOlder func(saved Cursor) bool
	// OlderFrom is the older pass's first until: below the saved oldest,
	// else below the oldest wrap this round saw (seen false: none).
	OlderFrom func(saved Cursor, seenMs int64, seen bool) (int64, bool)
	// Exhausted: may a complete, bottomed older page seal the channel, given
	// the wraps the round's relays delivered and whether any relay failed.
	Exhausted func(roundRaw int, anyFailed bool) bool
	// Failed is the verdict on wraps delivered (a page's or the whole
	// round's) and whether a relay failed: an all-empty read is a failure,
	// never an empty channel. A failed newest page does not advance newest.
	Failed func(roundRaw int, anyFailed bool) bool
	// Merge folds a round's proposal into the saved cursor.
	Merge func(saved, proposed Cursor) Cursor
	// Rekey is the cursor after a rekey adoption changed the channel's
	// planes.
	Rekey func(c Cursor) Cursor

	// The proposal's decision points (Proposed); the document's rules keep
	// today's behaviour in each.

	// Pin: after a complete page the relays did not prove short, ask its
	// oldest second again pinned (since = until = that second) with the
	// limit raised by the wraps held there, until a pinned page is proven
	// short; false walks on below with Boundary alone, and wraps sharing
	// that second beyond the page are never asked.
	Pin func(s PageSummary) bool
	// ProveCap: after a pinned page a relay answered short without proof
	// (its cap unknown above what it sent), ask the page the second came
	// from again at the pinned limit: a relay that sends more there has
	// shown a cap above its pinned answer, which proves the second whole.
	// false: the second is reported unproven at once.
	ProveCap func() bool
	// PinHeld: the pin's first limit is raised by every wrap the store
	// already holds at the second (earlier rounds' pins included), not
	// only those the page read back. A second wider than one round's
	// raised limits reach is then asked higher by each later round, as
	// each round that left it full stored more of it; false restarts
	// every round at the same limits, and the walk never ends there.
	PinHeld func() bool
	// Stray is what a wrap delivered outside the page's window means for
	// its relay: Wait ignores the wrap (the relay stays in the walk), Refuse
	// takes it as evidence that the relay ignores filters.
	Stray func() Settle
	// Impossible: is created_at one no honest writer produces (before 0,
	// or past every time the walk reads). A relay that sends such a wrap
	// inside the page's filter obeyed the filter; the wrap is ignored
	// rather than taken for a stray, and one dated past every readable
	// time still counts against the limit, as it took a place in the
	// answer.
	Impossible func(createdAtMs int64) bool
	// Ceiling is the until of the newest page at local time nowMs: ok false
	// asks without one, and a wrap dated ahead becomes the cursor's newest.
	Ceiling func(nowMs, skewMs int64) (untilMs int64, ok bool)
	// BridgeFloor is how far down the bridge walks: the saved newest (the
	// document), or the newest page's own since (newest - overlap), so
	// that a wrap that reached a relay late inside the overlap is read
	// even when more than a page arrived above it.
	BridgeFloor func(saved Cursor, overlapMs int64) int64
}

// Capacity is what the round knows of one relay's cap when it judges a
// page of that relay.
type Capacity struct {
	// Honours is the largest limit the relay is known to answer in full: a
	// capability record (the probe's), or a page that delivered its whole
	// limit. 0: unknown.
	Honours int
	// Seen is the most wraps the relay delivered to an earlier page whose
	// limit was at most this page's: its cap is at least that.
	Seen int
}

// Spec is the walk as community-history-sync.md states it.
func Spec() *Rules {
	return &Rules{
		Name:     "spec",
		Opening:  Opening,
		Boundary: func(oldestMs int64) int64 { return oldestMs - 1 },
		Bottomed: func(delivered, limit int, _ Capacity) bool { return delivered < limit },
		Complete: func(asked, failed int) bool { return asked > 0 && failed == 0 },
		Closed: func(reason string) Settle {
			if strings.HasPrefix(reason, "auth-required:") {
				return Wait
			}
			return Refuse
		},
		AuthFailed: func() Settle { return Refuse },
		BridgeNeeded: func(newest PageSummary, saved Cursor) bool {
			return saved.HasNewest && !newest.Bottomed && newest.Count > 0 && newest.OldestMs > saved.NewestMs
		},
		AdvanceNewest: func(newestOK, bridged, _ bool) bool { return newestOK && bridged },
		Unbridged:     func(Cursor, int64) (Window, bool) { return Window{}, false },
		SkipOlder:     func(saved Cursor) bool { return saved.Exhausted },
		OlderFrom: func(saved Cursor, seenMs int64, seen bool) (int64, bool) {
			switch {
			case saved.HasOldest:
				return saved.OldestMs - 1, true
			case seen:
				return seenMs - 1, true
			}
			return 0, false
		},
		Exhausted: func(raw int, anyFailed bool) bool { return raw > 0 && !anyFailed },
		Failed:    func(raw int, anyFailed bool) bool { return raw == 0 || anyFailed },
		Merge:     Merge,
		Rekey: func(c Cursor) Cursor {
			c.Exhausted = false
			return c
		},
		Pin:         func(PageSummary) bool { return false },
		ProveCap:    func() bool { return false },
		PinHeld:     func() bool { return false },
		Stray:       func() Settle { return Wait },
		Impossible:  func(int64) bool { return false },
		Ceiling:     func(int64, int64) (int64, bool) { return 0, false },
		BridgeFloor: func(saved Cursor, _ int64) int64 { return saved.NewestMs },
	}
}

// Healing is Spec with the fix the document names for its known limitation:
// a bridge that runs out of budget records the region it left (the cursor's
// Pending field), newest still advances, and later catch-up rounds walk the
// pending region down with their own budget until it bottoms out.
func Healing() *Rules {
	r := Spec()
	r.Name = "healing"
	r.AdvanceNewest = func(newestOK, bridged, recorded bool) bool { return newestOK && (bridged || recorded) }
	r.Unbridged = func(saved Cursor, untilMs int64) (Window, bool) {
		return Window{HasSince: true, SinceMs: saved.NewestMs, HasUntil: true, UntilMs: untilMs}, true
	}
	return r
}

// Proposed is Healing with the fixes this harness proposes for the holes
// its search finds in the document's walk (NOTE.md, "Paged history walk"):
//
//   - same-second safe boundary: the oldest second of a page the relays did
//     not prove short is asked again pinned, the limit raised by the wraps
//     already held there, until a pinned page is proven short (Pin);
//     a short pinned answer that proves nothing is proven by the page it
//     came from asked again at the pinned limit (ProveCap);
//   - pin from the store: the pin's first limit is raised by every wrap
//     the store holds at the second, so a second still full when one
//     round's raised limits are spent is asked higher by the next round
//     rather than at the same limits forever (PinHeld);
//   - cap detection: a short answer proves a relay bottomed out only when
//     the relay is known to honour the limit (a capability record, or an
//     earlier page it filled), or it delivered fewer than it did to a page
//     of at most this limit, or nothing at all; otherwise the walk asks
//     again below (Bottomed);
//   - a clock bound: the newest page asks nothing dated more than the clock
//     skew ahead of local time, so a wrap from the future never becomes the
//     cursor's newest (Ceiling);
//   - a wrap outside the page's window is evidence against its relay, which
//     leaves the walk, never a short page (Stray), unless its created_at is
//     one no honest writer produces: such a wrap is ignored (Impossible);
//   - the bridge walks down to the newest page's since, the overlap
//     included, not to the saved newest (BridgeFloor).
func Proposed() *Rules {
	r := Healing()
	r.Name = "proposed"
	r.Pin = func(s PageSummary) bool { return !s.Bottomed && s.Count > 0 }
	r.ProveCap = func() bool { return true }
	r.PinHeld = func() bool { return true }
	r.Bottomed = func(delivered, limit int, k Capacity) bool {
		return delivered == 0 || (delivered < limit && (limit <= k.Honours || delivered < k.Seen))
	}
	r.Stray = func() Settle { return Refuse }
	r.Impossible = func(t int64) bool { return !inRange(t) }
	r.Ceiling = func(nowMs, skewMs int64) (int64, bool) { return min(nowMs, MaxTimeMs-skewMs) + skewMs, true }
	r.BridgeFloor = func(saved Cursor, overlapMs int64) int64 { return Opening(saved, overlapMs).SinceMs }
	return r
}

// Clone returns a copy a variant can change.
func (r *Rules) Clone() *Rules {
	c := *r
	return &c
}

// RuleSets are the named rule sets this package defines, by name.
func RuleSets() map[string]func() *Rules {
	return map[string]func() *Rules{"spec": Spec, "healing": Healing, "proposed": Proposed}
}
