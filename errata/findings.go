package errata

import (
	"github.com/nip-rs/harness/amendments"
	"github.com/nip-rs/harness/model"
)

// Severity orders the findings: what a user loses first.
type Severity int

const (
	// Lost: an override is lost, resurrected, or shown on one device and
	// never on another.
	Lost Severity = iota + 1
	// FalseComplete: a load says complete, or a walk's cursor claims a
	// region, without holding everything in it.
	FalseComplete
	// Liveness: progress or cost, nothing shown wrong.
	Liveness
	// Clarification: the text is silent or reads two ways, the harness
	// decides, and nothing its searches find goes wrong under the text's
	// literal reading; only answers differ (the vectors say which).
	Clarification
)

func (s Severity) String() string {
	switch s {
	case Lost:
		return "an override lost, resurrected or not shared"
	case FalseComplete:
		return "completeness claimed without it"
	case Clarification:
		return "a clarification, nothing found broken"
	}
	return "liveness and efficiency"
}

// Layer says which rule set a finding's witness runs under, and so how it
// is replayed and what evidence is computed for it.
type Layer string

const (
	LayerModel     Layer = "model"     // model.Spec / model.Proposed, an explorer universe
	LayerLoad      Layer = "load"      // model.Spec / model.Proposed, a load search over a relay profile
	LayerRelay     Layer = "relay"     // a relay requirement: the load cannot defend, the relay must
	LayerHistory   Layer = "history"   // history.Spec / history.Proposed, a walk variant
	LayerCommunity Layer = "community" // community.Spec / community.Heal, a community universe
	// LayerRelax: a requirement of the text that the load does not need;
	// its evidence is a search that finds nothing without it, and it has
	// no witness.
	LayerRelax Layer = "relax"
	// LayerClarify: a load proposal that decides what the text leaves
	// open, where the text's literal reading breaks nothing the load's
	// searches find. It has no witness; its evidence is those searches
	// under proposed with the proposal left out, and the load vectors the
	// two readings decide differently.
	LayerClarify Layer = "clarification"
)

// HasWitness reports whether the finding has a stored witness: every
// layer but a relaxation and a clarification.
func (f Finding) HasWitness() bool { return f.Layer != LayerRelax && f.Layer != LayerClarify }

// Finding is one thing the text gets wrong or leaves open, and its fix.
type Finding struct {
	// ID names the fix: a model proposal (model.Proposals), a relay
	// amendment (amendments.Relays), a history or community fix.
	ID       string
	Severity Severity
	Layer    Layer
	// Document is the text the finding is about.
	Document string
	Section  string
	// Says is what the text says, in our words; Wrong what goes wrong.
	Says, Wrong string
	// Proposal is the sentence proposed for the text.
	Proposal string
	// Where is what the witness runs in: a universe (model), a relay
	// profile (load, relay), a walk variant (history), a community
	// universe (community).
	Where string
	// Invariant is the check the witness breaks under the text.
	Invariant string
	// Defence says what the client can do against a relay finding, and
	// under what assumption (amendments.Relay.Covered).
	Defence string
	// Without names the rule set that is the proposal minus this fix (a
	// mutant of the catalogue, or "" where proposed without it is the
	// text itself or the fix is the relay's).
	Without string
}

// Documents.
const (
	NIPRS   = "NIP-RS.md"
	History = "community-history-sync.md"
)

// All lists every finding, by severity, then in catalogue order.
func All() []Finding {
	var out []Finding
	for _, s := range []Severity{Lost, FalseComplete, Liveness, Clarification} {
		for _, f := range catalogue() {
			if f.Severity == s {
				out = append(out, f)
			}
		}
	}
	return out
}

// Lookup finds a finding by ID.
func Lookup(id string) (Finding, bool) {
	for _, f := range All() {
		if f.ID == id {
			return f, true
		}
	}
	return Finding{}, false
}

func proposal(name string) model.Proposal {
	for _, p := range model.Proposals() {
		if p.Name == name {
			return p
		}
	}
	panic("errata: no model proposal " + name) // a programming error, caught by every test
}

func relay(name string) amendments.Relay {
	for _, r := range amendments.Relays() {
		if r.Name == name {
			return r
		}
	}
	panic("errata: no relay amendment " + name)
}

func fromProposal(name string, sev Severity, layer Layer, says, wrong, where, inv, without string) Finding {
	p := proposal(name)
	return Finding{ID: p.Name, Severity: sev, Layer: layer, Document: NIPRS, Section: p.Section, Says: says, Wrong: wrong,
		Proposal: p.Text, Where: where, Invariant: inv, Without: without}
}

func fromRelay(name, says string) Finding {
	r := relay(name)
	return Finding{ID: r.Name, Severity: FalseComplete, Layer: LayerRelay, Document: NIPRS, Section: r.Section, Says: says,
		Wrong: r.Rationale, Proposal: r.Title, Where: r.Profile, Invariant: "soundness", Defence: r.Covered}
}

func catalogue() []Finding {
	return []Finding{
		fromProposal(model.ProposalLongIDRefusal, Lost, LayerModel,
			"Mark-unread writes the override on any context; separately, every key over 256 bytes is rejected by a receiver, and an override group with a rejected member is rejected whole.",
			"On a context id of 252 bytes or more the device shows the override it just set, while its ov_* keys exceed 256 bytes and every peer drops the group: the devices disagree for good.",
			"long-id", "N1-cross-device-convergence", "M31"),
		fromProposal(model.ProposalPushNotResult, FalseComplete, LayerLoad,
			"Step 3 sets the cursor from the events a query delivers; the relay requirements let a relay push a newly accepted event to every open subscription, the query's own included.",
			"A write accepted while a query is answered, dated below the band, is pushed on the query and counted as a result: the cursor drops below events never delivered, and the load says complete without a coordinate.",
			"conformant-query-push", "soundness", "L11"),
		fromProposal(model.ProposalFenceFits, FalseComplete, LayerLoad,
			"The fence is opened on the load's connection whatever else that connection holds; nothing bounds a connection's subscriptions.",
			"A relay that drops its oldest subscription past a stated capacity drops the fence without a word; a silent fence looks like a fence with nothing to push, and a write during the load is missed by a complete load.",
			"sub-capped", "soundness", "L12"),
		fromProposal(model.ProposalDistinctREQs, FalseComplete, LayerLoad,
			"The first band is the enumeration filter itself, with no until, so every load on the same account sends the same first REQ.",
			"A relay that answers a filter it saw before from its earlier answer (R1-R5 speak of what is stored, not of when it was read) gives a later load the snapshot an earlier load took, from before a write the later load's fence never sees.",
			"cached", "soundness", ""),
		fromProposal(model.ProposalNewestFirst, Clarification, LayerClarify,
			"The newest-first requirement says which events a capped result consists of; nothing says in what order a query's results arrive, or what a client makes of an order.",
			"Nothing found: the cursor is the lowest created_at and C a count, so the order of a conforming relay's results changes neither. The readings differ on a query whose results arrive out of created_at order: the text's reading goes on, the proposal stops the load as cannot prove complete.",
			"", "", ""),
		fromProposal(model.ProposalLimitResults, Clarification, LayerClarify,
			"Step 1 bounds a delivery by the requested limit; nothing says what a client makes of a query that delivers more, or when it counts.",
			"Nothing found: both readings end the load as cannot prove complete on more than n results. They differ in when: the text's reading stops at the delivery past n, the proposal at the query's end-of-stored-events, counting results only, so that pushes on the query's own subscription (in-flight-push-not-result) beside n stored events are no evidence.",
			"", "", ""),
		fromProposal(model.ProposalUnproven, Clarification, LayerClarify,
			"A client must not load against a relay it knows, or has evidence, to break the relay requirements; complete is deliberately not conditioned on positive proof of them.",
			"Nothing found by the load's searches, which draw only relays the client has no word about. The readings differ on a load the client marks unproven (a relay with no conformance record): the text's reading says complete when the enumeration ends, the proposal cannot prove complete, naming the missing proof.",
			"", "", ""),
		{ID: "r1-tie-clause", Severity: Liveness, Layer: LayerRelax, Document: NIPRS, Section: "Full-State Load (relay requirements: newest-first prefix delivery)",
			Says: "A capped result must hold the newest events by created_at, ties broken by lowest id.",
			Wrong: "The tie clause is stricter than the load needs: a cap cuts inside the delivery's oldest second only, step 4 reads that second again " +
				"by the pinned window, and step 5 discharges it only when the window delivers fewer than max(C, L), which by R2 is the whole second in any order. " +
				"badger, lmdb and @nostr-relay/core order ties by insertion, so a client that requires the clause refuses them for nothing.",
			Proposal: "A capped result MUST consist of the newest events by created_at for the filter. (The order of events sharing a created_at is not constrained.)",
			Where:    "insertion-ties", Invariant: "soundness"},
		fromRelay("relay-atomic-replacement",
			"The relay requirements say nothing of how an addressable event is replaced."),
		fromRelay("relay-fresh-answers",
			"The relay requirements say what a query returns from storage, not when the relay read that storage."),
		fromRelay("relay-subscription-capacity",
			"The relay requirements say nothing of a bound on a connection's subscriptions."),
		{ID: "bridge-pending-region", Severity: FalseComplete, Layer: LayerHistory, Document: History, Section: "3. A channel round over page subscriptions",
			Says:     "A catch-up round walks at most its page budget from the top and then restarts from the top in the next round.",
			Wrong:    "A burst larger than the budget is never repaired: every round re-reads the same top pages and the cursor claims the region below them (the document's own stated limitation).",
			Proposal: "A round that stops its bridge at the budget MUST record the region it did not walk in the cursor, and the next round MUST resume there before it advances the newest.",
			Where:    "default", Invariant: "H8-heal"},
		{ID: "pin-shared-second", Severity: FalseComplete, Layer: LayerHistory, Document: History, Section: "3. A channel round over page subscriptions",
			Says:  "A page's next page asks until the page's oldest created_at minus one second.",
			Wrong: "Wraps sharing the oldest second of a full page beyond what the page held are skipped, while the cursor claims the second.",
			Proposal: "When a page is full, its oldest second MUST be asked again pinned (since = until = that second) with the limit raised by every wrap the client already holds at that second, earlier rounds' included, until a pinned answer is proven short; " +
				"a second still full when the round's raised limits are spent leaves the page incomplete, and the next round asks it above what it then holds. " +
				"A short pinned answer that proves nothing (the relay's cap unknown above it) MUST be proven by asking the page it came from again at the pinned limit, where the relay sends more if its cap is above that answer; a second still unproven makes the page incomplete and is reported.",
			Where: "ties", Invariant: "H4-no-gap", Without: "H12"},
		{ID: "cap-detection", Severity: FalseComplete, Layer: LayerHistory, Document: History, Section: "3. A channel round over page subscriptions",
			Says:     "A page shorter than its limit ends the walk: the relay has nothing older.",
			Wrong:    "A relay that caps answers below the page looks bottomed out, and the channel is sealed with history missing.",
			Proposal: "A short answer MUST prove a relay bottomed out only when the relay is known to honour the limit (a capability record, or an earlier page it filled) or delivered fewer than it did to a page of at most this limit; otherwise the walk asks again below.",
			Where:    "capped", Invariant: "H4-no-gap", Without: "H13"},
		{ID: "clock-ceiling", Severity: FalseComplete, Layer: LayerHistory, Document: History, Section: "3. A channel round over page subscriptions",
			Says:     "The newest page has no upper bound.",
			Wrong:    "A wrap dated ahead of the clock becomes the cursor's newest; wraps published later with true dates fall below it and are never fetched while the cursor claims them.",
			Proposal: "The newest page MUST ask until local time plus the allowed clock skew, never without an until.",
			Where:    "future", Invariant: "H5-exhausted-earned", Without: "H14"},
		{ID: "stray-is-evidence", Severity: FalseComplete, Layer: LayerHistory, Document: History, Section: "3. A channel round over page subscriptions",
			Says:  "A relay's answer to a page is counted by the wraps that fall inside the page's window.",
			Wrong: "A relay that ignores the window replays its newest wraps; none counts, the page looks short, and the channel is sealed unread.",
			Proposal: "A wrap outside the page's window MUST be taken as evidence against its relay, which leaves the round; it MUST NOT make the page short. " +
				"A wrap inside the page's filter dated before 0 or past the latest time the walk reads MUST be ignored: it is neither read nor held against its relay, and one dated past that time counts against the limit.",
			Where: "strays", Invariant: "H3-failed-relay", Without: "H15"},
		{ID: "bridge-floor", Severity: FalseComplete, Layer: LayerHistory, Document: History, Section: "3. A channel round over page subscriptions",
			Says:     "The bridge walks down to the saved newest.",
			Wrong:    "A wrap that reached a relay late, dated inside the overlap below the saved newest, is never read once more than a page arrived above it.",
			Proposal: "The bridge MUST walk down to the newest page's since (the overlap included), never only to the saved newest.",
			Where:    "backdate", Invariant: "H4-no-gap", Without: "H18"},
		{ID: "rekey-rewalk-new-plane", Severity: FalseComplete, Layer: LayerCommunity, Document: History, Section: "6. Held epochs and rekey adoption",
			Says:     "Adopting a rotation keeps the channel's cursor as it is.",
			Wrong:    "A round that started before the member held the new epoch moves the cursor over wraps sealed under it; after adoption the cursor claims them and they are never read.",
			Proposal: "Adopting a rotation MUST move the cursor's newest back to just before the rotation, and a round started under an older key generation MUST NOT move the cursor.",
			Where:    "epochs", Invariant: "E6-new-plane"},
		{ID: "rekey-drop-refused", Severity: FalseComplete, Layer: LayerCommunity, Document: History, Section: "6. Held epochs and rekey adoption (the read cutoff)",
			Says:     "The read cutoff refuses wraps sealed under a retired key after its rotation, as they are read.",
			Wrong:    "A wrap forged under the retired key and read before the member adopted the rotation stays in the store, shown as history, after the cutoff would refuse it.",
			Proposal: "Adopting a rotation MUST drop the stored wraps its read cutoff now refuses.",
			Where:    "epochs", Invariant: "E7-retired-kept"},
	}
}
