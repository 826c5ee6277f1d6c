package community

import (
	"fmt"
	"strings"
)

// The document's constants.
const (
	// RekeyLookahead is the channel rekey watch's window past the held
	// epoch (CHANNEL_REKEY_LOOKAHEAD).
	RekeyLookahead = 8
	// MaxPriorEpochs bounds the retired keys a member keeps per channel
	// under rekey-heal (NOTE.md, "A long rekey chain"): each is a plane
	// the walk pages and the live REQ asks once more, and a rotator can
	// publish any number of rotations. Eight rekey watch windows back.
	MaxPriorEpochs = 8 * RekeyLookahead
	// LiveReplay bounds the live subscription's stored replay per relay.
	LiveReplay = 500
	// CursorOverlap is the seam a warm window reopens, in seconds.
	CursorOverlap = 60
	// SideEventFactor sizes the side-event budget from the row budget.
	SideEventFactor = 4
	// StaleAfter: a channel whose last complete round is older is re-run
	// by the scheduler, in seconds.
	StaleAfter = 300
	// MinRoundInterval: the scheduler starts a channel's round at most
	// once per this many seconds.
	MinRoundInterval = 30
	// PumpWindow is the pump's fixed batching window, in milliseconds.
	PumpWindow = 200
	// KindWrap and KindWrapEphemeral are the two wrap kinds.
	KindWrap          = 1059
	KindWrapEphemeral = 21059
)

// Cursor is a channel's cursor reduced to what the mechanisms here touch:
// the complete region [Oldest, Newest] and Exhausted.
type Cursor struct {
	Has            bool
	Newest, Oldest int
	Exhausted      bool
}

func (c Cursor) String() string {
	if !c.Has {
		return "none"
	}
	s := fmt.Sprintf("[%d,%d]", c.Oldest, c.Newest)
	if c.Exhausted {
		s += " exhausted"
	}
	return s
}

// Rules is every judgement the mechanisms make, as function values: the
// model decides only through them, so a variant replaces one field.
type Rules struct {
	// Name names the rule set in witnesses.
	Name string

	// Readable is the read cutoff: may a key (current or retired) read a
	// wrap sealed at at.
	Readable func(k HeldKey, at int) bool
	// RetireAt is the cutoff a rotation published at rotationAt gives the
	// key it steps off, when the member adopts it at adoptedAt.
	RetireAt func(rotationAt, adoptedAt int) int
	// Keep is the priors kept when the current key is superseded (the
	// superseded key is appended after them).
	Keep func(priors []HeldKey) []HeldKey
	// Judge decides the next epoch from the complete rotations published at
	// it and the member's join time: adopt one (its index), the member is
	// removed or stranded, or not yet.
	Judge func(at []Rotation, joinedAt int) (Verdict, int)
	// Chain: after n adoptions in one pass, does the pass go on.
	Chain func(n int) bool
	// Watch is the epochs the rekey watch addresses for a held epoch.
	Watch func(held int) []int
	// Rewatch: is the rekey watch re-installed after an adoption (the
	// plane set changed), so that a later rotation still reaches the
	// member and wakes its adoption pass.
	Rewatch func() bool
	// OnAdopt is the channel's cursor after an adoption of a rotation
	// published at rotationAt.
	OnAdopt func(c Cursor, rotationAt int) Cursor
	// Purge: does an adoption drop a stored wrap sealed at at under the
	// key it has just retired (k).
	Purge func(k HeldKey, at int) bool
	// Commit: may a round that started at key generation roundGen move
	// the cursor now that the generation is gen.
	Commit func(roundGen, gen int) bool

	// LiveEpoch: does the live subscription address a held epoch, given
	// whether it was retired and whether it was asked since.
	LiveEpoch func(k HeldKey, askedSinceRetired bool) bool
	// LiveWindow is the live subscription's since over the channels'
	// cursors (nil: a channel with no cursor): ok false means no since.
	LiveWindow func(newest []*int) (since int, ok bool)
	// LiveKinds are the wrap kinds the live and page filters ask for.
	LiveKinds func() []int
	// LivePlane: is a channel subscribed, given whether it is private and
	// whether its key is held.
	LivePlane func(private, keyHeld bool) bool
	// Reinstall: does a delivered rotation re-install the live REQ at once
	// (the plane set changed).
	Reinstall func() bool

	// SideBudget is the side events a timeline read takes for a row limit.
	SideBudget func(limit int) int
	// Select picks the timeline's rows and side events from a span's rows
	// (newest first): the rows shown and the side events folded.
	Select func(rows []Row, limit, sideBudget int) (messages, side []Row)

	// Stale: is a channel due for a polled round at now, given its last
	// complete round.
	Stale func(now int, lastOK *int) bool
	// Gate: may the poll start a channel's round at now, given its last
	// start.
	Gate func(now int, lastStart *int) bool
	// Pick chooses which of the due channels the poll starts.
	Pick func(due []int) []int
	// OnRequest is a round request's effect: start now, or mark dirty.
	OnRequest func(running bool) (start, dirty bool)
	// FollowUp: does a round that ends with dirty set run once more.
	FollowUp func(dirty bool) bool

	// Negentropy maps a relay's NIP-77 answer to what the catch-up does
	// with that relay.
	Negentropy func(o NegOutcome) NegPath

	// Honest is what a channel panel tells from a round's progress.
	Honest func(p Progress) Panel

	// RouteOf routes a subscription id: the standing ids parse, a page
	// or rekey id resolves through its registry.
	RouteOf func(id string, pages, watches map[string]int) Route
	// Settle reads an end-of-stored-events or CLOSED for a page.
	Settle func(n Notification) (Settled, bool)
	// WindowEnds: does the pump's batch close at now, given the time of
	// its first and of its latest notification.
	WindowEnds func(first, last, now int) bool
	// Signals are the community signals a closed batch emits for the
	// communities in it (one entry per event, in arrival order).
	Signals func(events []int) []int
}

// Spec is the document's rules.
func Spec() *Rules {
	return &Rules{
		Name:     "spec",
		Readable: readable,
		RetireAt: func(rotationAt, _ int) int { return rotationAt },
		Keep:     func(priors []HeldKey) []HeldKey { return priors },
		Judge:    judge,
		Chain:    func(int) bool { return true },
		Watch:    watch,
		Rewatch:  func() bool { return true },
		OnAdopt: func(c Cursor, _ int) Cursor {
			c.Exhausted = false
			return c
		},
		Purge:  func(HeldKey, int) bool { return false },
		Commit: func(int, int) bool { return true },

		LiveEpoch:  func(k HeldKey, asked bool) bool { return !k.Retired || !asked },
		LiveWindow: liveWindow,
		LiveKinds:  func() []int { return []int{KindWrap, KindWrapEphemeral} },
		LivePlane:  func(_, held bool) bool { return held },
		Reinstall:  func() bool { return true },

		SideBudget: func(limit int) int { return SideEventFactor * limit },
		Select:     selectRows,

		Stale:     func(now int, lastOK *int) bool { return lastOK == nil || now-*lastOK > StaleAfter },
		Gate:      func(now int, lastStart *int) bool { return lastStart == nil || now-*lastStart >= MinRoundInterval },
		Pick:      func(due []int) []int { return due },
		OnRequest: func(running bool) (bool, bool) { return !running, running },
		FollowUp:  func(dirty bool) bool { return dirty },

		Negentropy: negentropy,
		Honest:     honest,

		RouteOf: routeOf,
		Settle: func(n Notification) (Settled, bool) {
			switch {
			case n.Type == EOSE:
				return Replayed, true
			case n.Type == Closed && !strings.HasPrefix(n.Reason, "auth-required:"):
				return Refused, true
			}
			return 0, false
		},
		WindowEnds: func(first, _, now int) bool { return now-first >= PumpWindow },
		Signals:    collapse,
	}
}

// keepNewest keeps the newest MaxPriorEpochs-1 priors, leaving room for
// the key superseded now: a member holds at most MaxPriorEpochs retired
// keys besides the current one. The kept priors are a reslice: the
// caller's appends move them to a new array once the old one is full, at
// most twice the bound, so neither time nor memory grows with the chain.
func keepNewest(priors []HeldKey) []HeldKey {
	if n := len(priors) - (MaxPriorEpochs - 1); n > 0 {
		return priors[n:]
	}
	return priors
}

// Heal is Spec with the fixes for the two findings of the epochs universe.
// An adoption moves the cursor's newest back to just before the rotation,
// so the new plane's region is walked again, and a round that started
// under an older key generation moves no cursor (its reads stay in the
// store). And an adoption drops the stored wraps its cutoff now refuses,
// which were read before the member knew of the rotation. And a member
// keeps at most MaxPriorEpochs retired keys (the newest), counting the
// epochs it lets go, so a long rekey chain bounds the keys held and the
// live REQ.
func Heal() *Rules {
	r := Spec()
	r.Name = "rekey-heal"
	r.Purge = func(k HeldKey, at int) bool { return !readable(k, at) }
	r.OnAdopt = func(c Cursor, rotationAt int) Cursor {
		c.Exhausted = false
		switch {
		case !c.Has || c.Newest < rotationAt:
		case c.Oldest >= rotationAt:
			return Cursor{} // the whole region is the new plane's: walk it cold
		default:
			c.Newest = rotationAt - 1
		}
		return c
	}
	r.Commit = func(roundGen, gen int) bool { return roundGen == gen }
	r.Keep = keepNewest
	return r
}

// Clone returns a copy a variant can change.
func (r *Rules) Clone() *Rules {
	c := *r
	return &c
}

// RuleSets are the named rule sets this package defines.
func RuleSets() map[string]func() *Rules {
	return map[string]func() *Rules{"spec": Spec, "rekey-heal": Heal}
}

// Known reports whether an invariant's violation is a known finding of the
// document's rules under r: the new plane's region a rekey leaves unread
// (every rule set whose adoption leaves newest past the rotation), and a
// wrap read before an adoption under the key it retired, kept after it
// (every rule set whose adoption purges nothing).
func Known(r *Rules, invariant string) bool {
	switch invariant {
	case InvNewPlane:
		return r.OnAdopt(Cursor{Has: true, Newest: 10, Oldest: 0}, 5).Newest >= 5
	case InvKept:
		return !r.Purge(HeldKey{Retired: true, RetiredAt: 1}, 2)
	}
	return false
}
