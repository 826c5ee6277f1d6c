package model

// Shape is the wire shape of a canonical override group (Mandatory Canonical
// Publication).
type Shape uint8

const (
	ShapeOmit  Shape = iota // virgin: no keys
	ShapeLive               // ov_s, ov_c, ov_b
	ShapeFloor              // ov_c only, the tombstone floor
)

var shapeNames = [...]string{"omit", "live", "floor"}

func (s Shape) String() string { return shapeNames[s] }

// Shapes lists every Shape in order; the vectors' vocabulary is generated
// from it, so a new shape cannot go undocumented.
func Shapes() []Shape { return enumerate[Shape](len(shapeNames)) }

// Rules is the seam through which every driver (the replica, the slot
// split, the codec, the load procedure) makes each rule decision. Spec()
// returns the production rules; a mutant is a Rules with a field replaced.
// The production functions are unexported, so outside this package a
// decision is reached only through a Rules value. Inside it the drivers
// call through the Rules value they hold too, never the function directly,
// or a mutant silently stops applying (rules_test.go proves each field is
// reached, and reached on every entry point that decides by it).
type Rules struct {
	// Name identifies the rule set in output ("spec" or a mutant id).
	Name string
	// Tie is the tie policy the rule set decides S == C > 0 by (Tie
	// Policy). Spec() is clear-wins, the only conforming policy; WithTie
	// gives the same rules under the other one, for comparison.
	Tie TiePolicy

	// Join merges two registers (Merge Rule, Override Registers).
	Join func(a, b Reg) Reg
	// Live is the liveness predicate (Liveness Predicate, Tie Policy) under
	// tie. Drivers call it through IsLive, which passes the rule set's own
	// Tie.
	Live func(r Reg, f uint32, tie TiePolicy) bool
	// Canonical gives the publication form of r at the publisher's own
	// effective frontier f, where live = IsLive(r, f) (Tombstone Floor,
	// Mandatory Canonical Publication). The replica's local compaction uses
	// the same decision.
	Canonical func(r Reg, f uint32, live bool) (Reg, Shape)
	// MarkUnread is the register half of mark-unread at effective frontier
	// f. read reports whether the context was ever read: the replica holds
	// a frontier entry for it, or for the parent its effective frontier
	// takes (Hierarchical Frontier Rule). f = 0 alone cannot tell a context
	// never read from one read to 0; the production rule decides by f and
	// the register only.
	MarkUnread func(r Reg, f uint32, read bool) (Reg, error)
	// OverrideKeysFit reports, before mark-unread changes anything, an
	// error wrapping ErrKeyTooLong when some ov_s:/ov_c:/ov_b: key of the
	// raw context id ctx would exceed the 256-byte key limit (Bounds and
	// Budget, the 256-byte key limit; Content Validation). Every receiver
	// rejects such a group, so an override the device shows would be one
	// no peer can derive from its publication.
	OverrideKeysFit func(ctx string) error
	// MarkRead is the register half of an explicit mark-read, after the
	// frontier advance to fAfter; live = Live(r, fAfter, tie).
	MarkRead func(r Reg, fAfter uint32, live bool) (Reg, error)
	// UnreadBase is the frontier mark-unread records as B, from the
	// context's own frontier and its effective one (Actions: mark-unread
	// records the effective frontier, so a thread under a channel read past
	// the thread's own value is based where the user saw it).
	UnreadBase func(own, effective uint32) uint32
	// CanonicalFrontier is the frontier a replica decides liveness against
	// when it canonicalises for publication and when it compacts, from the
	// context's own frontier and its effective one (Mandatory Canonical
	// Publication: against the publisher's own effective frontier).
	CanonicalFrontier func(own, effective uint32) uint32

	// SanitizeValue reads a JSON number literal as a wire value (Content
	// Validation: integers in 0..4294967295 only). Spec() reads by the
	// literal; ByValueIntegers() by the value.
	SanitizeValue func(lit string) (uint32, bool)
	// CountEntries is the number the 10,000-entry limit of Content
	// Validation is held to, given the raw members of contexts (duplicates
	// and invalid entries included) and the distinct keys among them. The
	// text reads two ways; Spec() counts members,
	// DistinctKeyLimit() distinct keys.
	CountEntries func(members, distinct int) int
	// BadKeyDiscards decides a contexts key that is not valid UTF-8 (raw
	// bytes, or an unpaired surrogate escape): false drops that entry
	// alone, true discards the whole event. The text reads two ways;
	// Spec() drops the entry, UTF8DiscardsEvent() discards.
	BadKeyDiscards func(key string) bool
	// ValidateGroup accepts or rejects one collected override group before
	// any decoding (Content Validation).
	ValidateGroup func(g Group) (Reg, error)
	// GroupKey classifies a wire key and names the logical context it
	// belongs to, for decoding and for slot grouping (Override Group
	// Co-Location Rule, unescape-before-group).
	GroupKey func(wire string) (KeyKind, string)
	// Escape and Unescape are the reserved-namespace bijection.
	Escape   func(raw string) string
	Unescape func(wire string) string

	// Slots holds the slot and budget decisions.
	Slots SlotRules
	// Load holds the full-state load's decision points.
	Load LoadRules
}

// Spec returns the rules NIP-RS.md states, and only those: where the text
// is silent Spec takes the most literal reading (NOTE.md, "What spec
// means"). A production client runs Proposed(), which adds the harness's
// named proposals (proposals.go); ERRATA.md shows, for each, what goes
// wrong under Spec.
func Spec() *Rules {
	return &Rules{
		Name:              "spec",
		Tie:               ClearWins,
		Join:              joinReg,
		Live:              liveReg,
		Canonical:         canonicalForm,
		MarkUnread:        markUnreadDecision,
		OverrideKeysFit:   func(string) error { return nil }, // the text refuses nothing by key length
		MarkRead:          markReadDecision,
		UnreadBase:        effectiveFrontier,
		CanonicalFrontier: effectiveFrontier,
		SanitizeValue:     sanitizeValue,
		CountEntries:      countMembers,
		BadKeyDiscards:    dropBadKey,
		ValidateGroup:     validateGroup,
		GroupKey:          groupKey,
		Escape:            EscapeKey,
		Unescape:          UnescapeKey,
		Slots:             specSlotRules(),
		Load:              specLoadRules(),
	}
}

// Clone returns a shallow copy that a mutant may modify.
func (r *Rules) Clone() *Rules {
	c := *r
	return &c
}

// WithTie returns a copy of r that decides ties by t; r is unchanged.
func (r *Rules) WithTie(t TiePolicy) *Rules {
	c := r.Clone()
	c.Tie = t
	return c
}

// IsLive is the liveness decision under the rule set's own tie policy: the
// only way a driver asks Live.
func (r *Rules) IsLive(reg Reg, f uint32) bool { return r.Live(reg, f, r.Tie) }

// canonicalForm is the production canonicalisation given liveness.
func canonicalForm(r Reg, _ uint32, live bool) (Reg, Shape) {
	switch {
	case r.Virgin():
		return Reg{}, ShapeOmit
	case live:
		return r, ShapeLive
	default:
		return Reg{C: r.Ceiling()}, ShapeFloor
	}
}

// effectiveFrontier is the production choice of frontier for a rule that
// takes the own and the effective one: the effective frontier.
func effectiveFrontier(_, effective uint32) uint32 { return effective }

// markUnreadDecision is the production mark-unread: markUnreadReg,
// whether or not the context was ever read (Actions puts no condition on
// it).
func markUnreadDecision(r Reg, f uint32, _ bool) (Reg, error) { return markUnreadReg(r, f) }

func markReadDecision(r Reg, _ uint32, live bool) (Reg, error) {
	if r.Ceiling() == MaxU32 {
		if live {
			return r, errStillActiveAtCeiling
		}
		return r, nil
	}
	return Reg{S: r.S, C: r.Ceiling() + 1, B: r.B}, nil
}

// groupKey is the production key classification: override keys by their raw
// suffix, frontier keys unescaped.
func groupKey(wire string) (KeyKind, string) { return ClassifyKey(wire, UnescapeKey) }
