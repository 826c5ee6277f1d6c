package amendments

import "github.com/nip-rs/harness/model"

// Relay is a proposed addition to the relay requirements of Full-State
// Load: a behaviour measured on a real relay that R1-R5 as written allow
// and under which a load meeting them claims complete without a
// coordinate. It changes no model.Rules (the requirement is the relay's),
// so it is not among All: a run of the amendment would run the spec's own
// rules. It names the relaysim profile showing the behaviour, the props
// witness of the false complete under the production rules, and the
// LoadRules fields by which the load defends itself, in full or in part.
type Relay struct {
	// Name is how NOTE.md cites it; it names no rule set.
	Name string
	// Requirement is the requirement the amendment adds.
	Requirement model.RelayRequirement
	// Title is the sentence proposed for the spec.
	Title string
	// Section is the spec section the sentence joins.
	Section string
	// Rationale says what goes wrong without it, and on which relay.
	Rationale string
	// Profile is the relaysim profile that breaks the requirement.
	Profile string
	// Witness is the props witness (props/testdata/witness/<Witness>.json)
	// of the false complete over Profile under the production rules.
	Witness string
	// Defences lists the LoadRules fields that keep a load sound against
	// a relay breaking the requirement, in full or in part; Covered says
	// which (the rest stays with the relay).
	Defences []string
	Covered  string
}

// Relays lists the relay amendments, in requirement order.
func Relays() []Relay {
	return []Relay{
		{
			Name:        "relay-atomic-replacement",
			Requirement: model.ReqAtomic,
			Title: "A relay MUST replace an addressable event atomically: a query never finds neither " +
				"version of a coordinate, nor the older one once the newer was acknowledged.",
			Section: "Full-State Load (relay requirements)",
			Rationale: "khatru v0.8.x deletes the stored version, then saves the new one; a query in the gap " +
				"finds neither, and the fence, which was pushed nothing yet, cannot show it.",
			Profile:  "delete-then-save",
			Witness:  "necessity-delete-then-save",
			Defences: []string{"Passes"},
			Covered: "a load run with two passes (model.LoadConfig.Passes) reads the coordinate again and makes one round trip more, " +
				"sound over delete-then-save-settling and, with a gap (LoadConfig.PassGap), over split-late-push-settling (R5 broken too); " +
				"it rests on a timing assumption the verdict states (a split finishes, and a push of an event accepted before the last pass " +
				"arrives, within the gap, or within a pass and a round trip without one); without it nothing inside the load is sound, " +
				"since the gap is invisible to the fence",
		},
		{
			Name:        "relay-fresh-answers",
			Requirement: model.ReqFresh,
			Title: "A relay MUST answer every REQ from storage holding every write it acknowledged " +
				"before the REQ arrived, even for a filter it answered before.",
			Section: "Full-State Load (relay requirements)",
			Rationale: "@nostr-relay/core caches results by the filter's JSON for 1 s, shared by every " +
				"connection: a load repeating an earlier load's filter within that second is answered " +
				"from before a write made between the two.",
			Profile:  "cached",
			Witness:  "profile-cached-soundness",
			Defences: []string{"FirstUntil", "Retry"},
			Covered: "a cache that outlives no load (cached-in-load, gated; the fence alone suffices) and " +
				"another load's first band; not a continuation equal to a load's within the cache's life",
		},
		{
			Name:        "relay-subscription-capacity",
			Requirement: model.ReqSubs,
			Title: "A relay that bounds the subscriptions of a connection MUST state the bound " +
				"(NIP-11 limitation.max_subscriptions) or refuse past it with CLOSED, never drop one silently.",
			Section: "Full-State Load (relay requirements)",
			Rationale: "@nostr-relay/core silently evicts the oldest subscription past 20: an evicted fence " +
				"looks exactly like a fence with nothing to push.",
			Profile:  "sub-evicting",
			Witness:  "necessity-sub-evicting",
			Defences: []string{"FenceFits"},
			Covered:  "a stated capacity (sub-capped, gated; mutant L12); an unstated one is the relay's",
		},
	}
}
