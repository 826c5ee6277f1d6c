package mutants

import (
	"slices"
	"strconv"
	"strings"

	"github.com/nip-rs/harness/model"
	"github.com/nip-rs/harness/ruleset"
)

// spec is the production rule set the mutants are made from.
var spec = model.Proposed()

// Core lists the mutants of the override layer: M1–M9 as the formal note
// defines them (M3 and M5 made real), then one per further normative rule of
// the core that a wrong implementation could plausibly break. Each is a
// change to model.Rules and nothing else.
func Core() []Mutant {
	return []Mutant{
		{
			ID: "M1", Rule: "baseline dominance: a frontier past B deactivates the override",
			Section: "Liveness Predicate (F <= B)",
			Change: ruleset.OnModel(func(r *model.Rules) {
				r.Live = func(g model.Reg, _ uint32, t model.TiePolicy) bool { return spec.Live(g, 0, t) }
			}),
			ExpectedBy: []string{"directed:bounded-growth", "directed:exact-wire-shapes", "directed:action-conformance", "directed:merge-closure", "explore:network-whole", "explore:network", "explore:long-id", "simulate:long-id"},
		},
		{
			ID: "M2", Rule: "the max(S,C)+1 counter bump",
			Section: "Actions (mark-unread, mark-read)",
			Change: ruleset.OnModel(func(r *model.Rules) {
				r.MarkUnread = func(g model.Reg, f uint32, read bool) (model.Reg, error) {
					if g.Ceiling() == model.MaxU32 {
						return spec.MarkUnread(g, f, read)
					}
					return model.Reg{S: g.S + 1, C: g.C, B: f}, nil
				}
				r.MarkRead = func(g model.Reg, f uint32, live bool) (model.Reg, error) {
					if g.Ceiling() == model.MaxU32 {
						return spec.MarkRead(g, f, live)
					}
					return model.Reg{S: g.S, C: g.C + 1, B: g.B}, nil
				}
			}),
			ExpectedBy: []string{"directed:cross-device-suppression", "directed:deep-history", "directed:action-conformance", "explore:network-whole", "explore:network", "explore:long-id", "simulate:long-id"},
		},
		{
			ID: "M3", Rule: "clear-wins on every installation",
			Section: "Tie Policy",
			// One replica decides ties by set-wins whatever the policy its
			// peers use. Its rule set names the policy: Apply runs after
			// the run's tie is given (Mutant.RulesUnder), so device 0 stays
			// set-wins under clear-wins and set-wins runs alike.
			Change:     ruleset.OnModel(func(r *model.Rules) { r.Tie = model.SetWins }),
			OneDevice:  true,
			ExpectedBy: []string{"explore:ceiling", "explore:hierarchy", "explore:network-whole", "explore:network", "explore:long-id"},
			SetWinsEquivalent: "M3 is one installation deciding ties by set-wins; under set-wins every " +
				"installation already does, so the mutant is the run's own rules",
		},
		{
			ID: "M4", Rule: "a dead register compacts to its tombstone floor, never to nothing",
			Section: "Tombstone Floor",
			Change: ruleset.OnModel(func(r *model.Rules) {
				r.Canonical = func(g model.Reg, f uint32, live bool) (model.Reg, model.Shape) {
					if !live && f > g.B {
						return model.Reg{}, model.ShapeOmit // delete on dominance
					}
					return spec.Canonical(g, f, live)
				}
			}),
			ExpectedBy: []string{"directed:bounded-growth", "directed:identity-free-reinstall", "directed:exact-wire-shapes", "directed:cross-device-suppression", "directed:deep-history", "explore:network-whole", "explore:network", "explore:long-id", "simulate:long-id"},
		},
		{
			ID: "M5", Rule: "values are integers in 0..4294967295",
			Section: "Content Validation; Wire Encoding",
			// The sanitiser reads any digit string and wraps it modulo 2^32.
			Change:     ruleset.OnModel(func(r *model.Rules) { r.SanitizeValue = wrappingSanitizer }),
			ExpectedBy: []string{"directed:codec-conformance"},
		},
		{
			ID: "M6", Rule: "componentwise-max join",
			Section: "Merge Rule (Override Registers)",
			// Last writer wins: a non-virgin incoming register replaces the
			// held one whole.
			Change: ruleset.OnModel(func(r *model.Rules) {
				r.Join = func(a, b model.Reg) model.Reg {
					if b != (model.Reg{}) {
						return b
					}
					return a
				}
			}),
			ExpectedBy: []string{"directed:identity-free-reinstall", "directed:cross-device-suppression", "directed:join-commutative", "explore:reference", "explore:network-whole", "explore:network", "explore:long-id", "simulate:long-id"},
		},
		{
			ID: "M7", Rule: "canonical publication: dead registers as the floor",
			Section: "Mandatory Canonical Publication",
			// Every stored register is published raw as three keys.
			Change: ruleset.OnModel(func(r *model.Rules) {
				r.Canonical = func(g model.Reg, _ uint32, _ bool) (model.Reg, model.Shape) {
					if g.Virgin() {
						return model.Reg{}, model.ShapeOmit
					}
					return g, model.ShapeLive
				}
			}),
			ExpectedBy: []string{"directed:bounded-growth", "directed:exact-wire-shapes", "explore:hierarchy", "directed:merge-closure",
				"simulate:network-whole", "explore:network-whole", "simulate:hierarchy", "simulate:network", "explore:network", "explore:long-id", "simulate:long-id"},
		},
		{
			ID: "M8", Rule: "slots are assigned per logical context, not per entry",
			Section: "Override Group Co-Location Rule",
			// Every wire entry is its own group.
			Change: ruleset.OnModel(func(r *model.Rules) {
				r.Slots.GroupOf = func(wire string, _ model.KeyKind, _ string) string { return wire }
			}),
			ExpectedBy: []string{"directed:multi-slot-union", "directed:escaped-slot-grouping", "directed:interleaved-grouping", "directed:slot-split-conformance"},
		},
		{
			ID: "M9", Rule: "unescape before group",
			Section: "Override Group Co-Location Rule (corollary)",
			// A frontier entry is grouped by its escaped wire key.
			Change: ruleset.OnModel(func(r *model.Rules) {
				r.Slots.GroupOf = func(wire string, kind model.KeyKind, raw string) string {
					if kind == model.KeyFrontier {
						return wire
					}
					return raw
				}
			}),
			ExpectedBy: []string{"directed:escaped-slot-grouping", "directed:slot-split-conformance"},
		},
		{
			ID: "M10", Rule: "only a complete triple or a lone ov_c floor is accepted",
			Section: "Content Validation (override groups)",
			// A partial group is zero-filled instead of rejected.
			Change: ruleset.OnModel(func(r *model.Rules) {
				r.ValidateGroup = func(g model.Group) (model.Reg, error) {
					for _, s := range []model.Slot{g.S, g.C, g.B} {
						if s.Present && !s.Valid {
							return model.Reg{}, model.ErrGroupInvalid
						}
					}
					return model.Reg{S: g.S.Value, C: g.C.Value, B: g.B.Value}, nil
				}
			}),
			ExpectedBy: []string{"directed:codec-conformance"},
		},
		{
			ID: "M11", Rule: "no per-entry discard before the group is collected",
			Section: "Content Validation (override groups)",
			// Invalid siblings are dropped one by one and what is left is
			// judged as a group.
			Change: ruleset.OnModel(func(r *model.Rules) {
				r.ValidateGroup = func(g model.Group) (model.Reg, error) {
					for _, s := range []*model.Slot{&g.S, &g.C, &g.B} {
						if s.Present && !s.Valid {
							*s = model.Slot{}
						}
					}
					return spec.ValidateGroup(g)
				}
			}),
			ExpectedBy: []string{"directed:codec-conformance"},
		},
		{
			ID: "M12", Rule: "strip exactly one esc: on receive",
			Section: "Reserved Namespace",
			Change: ruleset.OnModel(func(r *model.Rules) {
				unescape := func(w string) string {
					for strings.HasPrefix(w, model.EscMarker) {
						w = w[len(model.EscMarker):]
					}
					return w
				}
				r.Unescape = unescape
				r.GroupKey = func(w string) (model.KeyKind, string) { return model.ClassifyKey(w, unescape) }
			}),
			ExpectedBy: []string{"directed:reserved-namespace", "directed:codec-conformance"},
		},
		{
			ID: "M13", Rule: "escape reserved ids on publish",
			Section:    "Reserved Namespace",
			Change:     ruleset.OnModel(func(r *model.Rules) { r.Escape = func(raw string) string { return raw } }),
			ExpectedBy: []string{"directed:reserved-namespace"},
		},
		{
			ID: "M14", Rule: "canonicalise against the publisher's own effective frontier",
			Section: "Mandatory Canonical Publication",
			// Liveness for publication is judged at the frontier the
			// register carries (its baseline, set where it was marked)
			// rather than the publisher's own: a register dead only because
			// the frontier passed B is published live.
			Change: ruleset.OnModel(func(r *model.Rules) {
				r.Canonical = func(g model.Reg, f uint32, live bool) (model.Reg, model.Shape) {
					return spec.Canonical(g, f, live || g.S > g.C)
				}
			}),
			ExpectedBy: []string{"directed:bounded-growth", "directed:exact-wire-shapes", "explore:long-id", "simulate:long-id"},
		},
		{
			ID: "M15", Rule: "a virgin register is omitted from the wire",
			Section: "Tombstone Floor; Mandatory Canonical Publication",
			Change: ruleset.OnModel(func(r *model.Rules) {
				r.Canonical = func(g model.Reg, f uint32, live bool) (model.Reg, model.Shape) {
					if g.Virgin() {
						return g, model.ShapeLive // three keys, S = C = 0
					}
					return spec.Canonical(g, f, live)
				}
			}),
			ExpectedBy: []string{"directed:exact-wire-shapes"},
		},
		{
			ID: "M16", Rule: "the tombstone is (0, max(S,C), 0)",
			Section: "Tombstone Floor",
			// The floor keeps the register's baseline and is published as
			// three keys.
			Change: ruleset.OnModel(func(r *model.Rules) {
				r.Canonical = func(g model.Reg, f uint32, live bool) (model.Reg, model.Shape) {
					c, s := spec.Canonical(g, f, live)
					if s == model.ShapeFloor {
						return model.Reg{C: c.C, B: g.B}, model.ShapeLive
					}
					return c, s
				}
			}),
			ExpectedBy: []string{"directed:bounded-growth", "directed:exact-wire-shapes", "explore:long-id", "simulate:long-id"},
		},
		{
			ID: "M17", Rule: "mark-unread sets B to the current effective frontier",
			Section: "Actions (mark-unread)",
			// B := max(B, F): a baseline above the frontier survives.
			Change:     ruleset.OnModel(func(r *model.Rules) { r.MarkUnread = model.MarkUnreadKeepBaseline }),
			ExpectedBy: []string{"directed:action-conformance"},
		},
		{
			ID: "M18", Rule: "created_at is max_fetched + 1 when the clock is not past it",
			Section: "Clock Skew",
			Change: ruleset.OnModel(func(r *model.Rules) {
				r.Slots.CreatedAt = func(now, maxFetched int64, fetched bool) int64 {
					if fetched {
						return max(now, maxFetched)
					}
					return now
				}
			}),
			ExpectedBy: []string{"directed:clock-skew-conformance"},
		},
		{
			ID: "M19", Rule: "override groups live only in the primary coordinate",
			Section: "d Tag; Override Group Co-Location Rule",
			// Groups are dealt next-fit in key order, override-bearing or not.
			Change: ruleset.OnModel(func(r *model.Rules) {
				r.Slots.Assign = func(groups []model.SlotGroup, c model.Capacity) ([]int, error) {
					flat := make([]model.SlotGroup, len(groups))
					for i, g := range groups {
						g.Override = false
						flat[i] = g
					}
					return spec.Slots.Assign(flat, c)
				}
			}),
			ExpectedBy: []string{"directed:slot-split-conformance"},
		},
		{
			ID: "M20", Rule: "a dominated incoming entry does not by itself trigger a re-publish",
			Section: "Eviction; Live Subscription and Convergence",
			// The trigger compares the candidate before eviction: the
			// production comparison, handed the candidate as what is published.
			Change: ruleset.OnModel(func(r *model.Rules) {
				r.Slots.Republish = func(candidate, _, last []model.Entry) bool { return spec.Slots.Republish(candidate, candidate, last) }
			}),
			ExpectedBy: []string{"directed:dominated-republish", "liveness:hierarchy-pair"},
		},
		{
			ID: "M21", Rule: "eviction never touches ov_* entries",
			Section: "Override State Durability; Debounce and Pruning",
			// ov_* entries are evictable, after every frontier entry.
			Change: ruleset.OnModel(func(r *model.Rules) {
				r.Slots.EvictOrder = func(c model.EvictCandidate) (int, bool) {
					if c.Kind != model.KeyFrontier {
						return model.EvictClassContext + 1, true
					}
					return spec.Slots.EvictOrder(c)
				}
			}),
			ExpectedBy: []string{"directed:slot-split-conformance"},
		},
		{
			ID: "M22", Rule: "an explicit mark-read at the ceiling fails while the override stays active",
			Section: "Actions (mark-read)",
			Change: ruleset.OnModel(func(r *model.Rules) {
				r.MarkRead = func(g model.Reg, f uint32, live bool) (model.Reg, error) {
					if g.Ceiling() == model.MaxU32 {
						return g, nil // reported successful either way
					}
					return spec.MarkRead(g, f, live)
				}
			}),
			ExpectedBy: []string{"directed:action-conformance"},
		},
		{
			ID: "M23", Rule: "counters never wrap at the ceiling",
			Section: "Actions (mark-unread)",
			Change: ruleset.OnModel(func(r *model.Rules) {
				r.MarkUnread = func(g model.Reg, f uint32, _ bool) (model.Reg, error) {
					return model.Reg{S: g.Ceiling() + 1, C: g.C, B: f}, nil // wraps to 0
				}
			}),
			ExpectedBy: []string{"directed:action-conformance", "explore:ceiling"},
		},
		{
			ID: "M24", Rule: "a conflicted coordinate is never published to",
			Section: "d Tag (conflict)",
			// Another client_id at the own primary is taken as the own blob.
			Change: ruleset.OnModel(func(r *model.Rules) {
				r.Slots.Role = func(self model.Self, slot, clientID string) model.BlobRole {
					if slot == self.Primary {
						return model.RoleOwn
					}
					return spec.Slots.Role(self, slot, clientID)
				}
			}),
			ExpectedBy: []string{"directed:identity-conformance"},
		},
		{
			ID: "M25", Rule: "a coordinate carrying ov_* entries is deleted only after carry-forward",
			Section: "Client-ID Rotation; Orphaned Blob Deletion",
			Change: ruleset.OnModel(func(r *model.Rules) {
				r.Slots.MayDelete = func(f model.DeleteFacts) error {
					f.Carried = true
					return spec.Slots.MayDelete(f)
				}
			}),
			ExpectedBy: []string{"directed:deletion-conformance"},
		},
		{
			ID: "M26", Rule: "a child entry is dominated only at or below its channel",
			Section: "Eviction",
			// The comparison is inverted: children newer than their
			// channel are evicted.
			Change: ruleset.OnModel(func(r *model.Rules) {
				r.Slots.Dominated = func(raw string, own, parent uint32, resolved bool) bool {
					return resolved && model.ContextScheme(raw) != model.SchemeOpaque && own >= parent
				}
			}),
			ExpectedBy: []string{"directed:slot-split-conformance", "directed:dominated-republish"},
		},
		{
			ID: "M27", Rule: "an override is active only if S > 0",
			Section: "Liveness Predicate (S > 0)",
			// Dropping S > 0 changes nothing where S > C is required.
			Change: ruleset.OnModel(func(r *model.Rules) {
				r.Live = func(g model.Reg, f uint32, t model.TiePolicy) bool {
					if f > g.B {
						return false
					}
					if t == model.SetWins {
						return g.S >= g.C
					}
					return g.S > g.C
				}
			}),
			Equivalent: "under clear-wins S > C already implies S > 0, for every register and frontier",
		},
		{
			ID: "M28", Rule: "a channel read advances the channel to its newest top-level message, not a reply",
			Section: "Write Discipline",
			// The newest message of the channel, replies included.
			Change: ruleset.OnModel(func(r *model.Rules) {
				r.Slots.ChannelRead = func(msgs []model.ChannelMessage) (uint32, bool) {
					all := make([]model.ChannelMessage, len(msgs))
					for i, m := range msgs {
						all[i] = model.ChannelMessage{CreatedAt: m.CreatedAt, TopLevel: true}
					}
					return spec.Slots.ChannelRead(all)
				}
			}),
			ExpectedBy: []string{"directed:hierarchy-conformance"},
		},
		{
			ID: "M29", Rule: "mark-unread records the effective frontier as B, not the context's own",
			Section: "Actions (mark-unread); Hierarchical Frontier Rule",
			// A thread marked unread under a channel read past it is based
			// at the thread's own, lower, frontier: dead at once.
			Change:     ruleset.OnModel(func(r *model.Rules) { r.UnreadBase = func(own, _ uint32) uint32 { return own } }),
			ExpectedBy: []string{"explore:hierarchy", "simulate:hierarchy"},
		},
		{
			ID: "M30", Rule: "canonicalisation and compaction decide liveness at the effective frontier",
			Section: "Mandatory Canonical Publication; Hierarchical Frontier Rule",
			// Liveness is decided at the context's own frontier, so a child
			// the channel has overtaken publishes its dead register raw.
			Change:     ruleset.OnModel(func(r *model.Rules) { r.CanonicalFrontier = func(own, _ uint32) uint32 { return own } }),
			ExpectedBy: []string{"explore:hierarchy", "simulate:hierarchy"},
		},
		{
			ID: "M31", Rule: "mark-unread is refused where an override key would exceed 256 bytes",
			Section: "Bounds and Budget (256-byte key limit); Content Validation",
			// The refusal is gone: a 252-byte context is marked unread on
			// the device while every receiver rejects its 257-byte group.
			Change:     ruleset.OnModel(func(r *model.Rules) { r.OverrideKeysFit = func(string) error { return nil } }),
			ExpectedBy: []string{"explore:long-id", "simulate:long-id"},
		},
		{
			ID: "M32", Rule: "an unchanged canonical result is not re-published",
			Section: "Live Subscription and Convergence",
			// The suppression compares frontier entries only: a result
			// holding an override register always counts as changed, so a
			// device re-publishes it on every trigger. No state is wrong;
			// two devices write to each other forever.
			Change: ruleset.OnModel(func(r *model.Rules) {
				r.Slots.Republish = func(candidate, published, last []model.Entry) bool {
					return spec.Slots.Republish(candidate, published, last) || slices.ContainsFunc(published, func(e model.Entry) bool {
						k, _ := spec.GroupKey(e.Key)
						return k != model.KeyFrontier
					})
				}
			}),
			ExpectedBy: []string{"liveness:network-pair", "liveness:hierarchy-pair"},
		},
		{
			ID: "M33", Rule: "a changed override group triggers a re-publish",
			Section: "Live Subscription and Convergence",
			// The trigger compares frontier entries only: a mark-unread
			// or mark-read that moves no frontier is never published, so
			// the other devices never learn of it. No state is wrong and
			// no write repeats; the safety search publishes freely, so
			// only the eventual-agreement check sees it.
			Change: ruleset.OnModel(func(r *model.Rules) {
				frontiers := func(es []model.Entry) []model.Entry {
					return slices.DeleteFunc(slices.Clone(es), func(e model.Entry) bool {
						k, _ := spec.GroupKey(e.Key)
						return k != model.KeyFrontier
					})
				}
				r.Slots.Republish = func(candidate, published, last []model.Entry) bool {
					return spec.Slots.Republish(frontiers(candidate), frontiers(published), frontiers(last))
				}
			}),
			ExpectedBy: []string{CheckAgreement("network-pair")},
		},
	}
}

// wrappingSanitizer accepts any plain digit string and keeps its value
// modulo 2^32.
func wrappingSanitizer(lit string) (uint32, bool) {
	if lit == "" || len(lit) > 20 || strings.Trim(lit, "0123456789") != "" {
		return 0, false
	}
	v, err := strconv.ParseUint(lit, 10, 64)
	if err != nil {
		return 0, false
	}
	return uint32(v), true
}

// All lists every mutant: Core, then Load, then History.
func All() []Mutant { return append(append(append(Core(), Load()...), History()...), Community()...) }

// Lookup finds a mutant by id.
func Lookup(id string) (Mutant, bool) {
	for _, m := range All() {
		if m.ID == id {
			return m, true
		}
	}
	return Mutant{}, false
}
