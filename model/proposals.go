package model

import "github.com/nbd-wtf/go-nostr"

// Proposal is a rule NIP-RS.md does not state that a client needs: a change
// of the text, named, with the sentence proposed for it. Spec() implements
// the text alone; Proposed() applies every proposal on top of it and is the
// rule set a production client should run. Each proposal's witness under
// Spec() and the checks that hold under Proposed() are in ERRATA.md.
type Proposal struct {
	// Name is how -rules, ERRATA.md and the vectors cite it.
	Name string
	// Section is the section of NIP-RS.md the sentence joins.
	Section string
	// Text is the proposed sentence, as the spec would state it.
	Text string
	// Fields names the Rules fields the proposal sets.
	Fields []string
	// Apply sets those fields on r, a rule set that implements the text.
	Apply func(r *Rules)
}

// Proposal names.
const (
	ProposalLongIDRefusal = "refuse-unpublishable-override"
	ProposalPushNotResult = "in-flight-push-not-result"
	ProposalDistinctREQs  = "distinct-load-filters"
	ProposalFenceFits     = "fence-within-capacity"
	ProposalNewestFirst   = "results-newest-first"
	ProposalLimitResults  = "limit-judged-on-results"
	ProposalUnproven      = "unproven-relay-not-complete"
)

// Proposals lists every proposal in the order Proposed applies them.
func Proposals() []Proposal {
	return []Proposal{
		{
			Name:    ProposalLongIDRefusal,
			Section: "Actions (mark-unread); Bounds and Budget",
			Text: "A client MUST refuse mark-unread, reporting failure, on a context whose ov_s:, ov_c: or " +
				"ov_b: key would exceed 256 bytes (a context id over 251 bytes): every receiver rejects " +
				"such a group, so the override would show on this device and on no other. Mark-read on " +
				"such a context advances the frontier only.",
			Fields: []string{"OverrideKeysFit"},
			Apply:  func(r *Rules) { r.OverrideKeysFit = overrideKeysFit },
		},
		{
			Name:    ProposalPushNotResult,
			Section: "Full-State Load, step 3",
			Text: "An event that the fence delivered while a query was in flight MUST NOT count as a result " +
				"of that query (toward C or the cursor T), even when the query delivered it too: a relay may " +
				"push a newly accepted event to every open subscription, so it may not be stored below the " +
				"band. A band whose every delivery was such an event is asked again; a fence push of an event " +
				"a query already counted ends the load as cannot prove complete.",
			Fields: []string{"PushIsResult", "Retry"},
			Apply: func(r *Rules) {
				r.Load.PushIsResult = func(*nostr.Event) bool { return false }
				r.Load.Retry = repeatRetry
			},
		},
		{
			Name:    ProposalDistinctREQs,
			Section: "Full-State Load, steps 1 and 3",
			Text: "The first band MUST carry an until far above every created_at a client writes, chosen per " +
				"load so that two loads do not send the same filter, and a band asked again MUST use a filter " +
				"the load has not sent: a relay that caches answers by filter would otherwise answer from " +
				"before the fence was established.",
			Fields: []string{"FirstUntil", "Retry"},
			Apply: func(r *Rules) {
				r.Load.FirstUntil = nonceUntil
				r.Load.Retry = distinctRetry
			},
		},
		{
			Name:    ProposalFenceFits,
			Section: "Full-State Load, the mutation fence",
			Text: "A client MUST NOT start a load on a connection where its other subscriptions and the " +
				"load's own may exceed the relay's stated subscription capacity: a relay at capacity may " +
				"drop the fence without a word, and a silent fence proves nothing.",
			Fields: []string{"FenceFits"},
			Apply: func(r *Rules) {
				r.Load.FenceFits = func(others, capacity int) bool { return capacity == 0 || others+LoadSubscriptions <= capacity }
			},
		},
		{
			Name:    ProposalNewestFirst,
			Section: "Full-State Load, the relay requirements (newest-first prefix delivery)",
			Text: "A query's results MUST arrive newest first, as NIP-01 orders a limited answer; a result with a " +
				"greater created_at than one the same query delivered before it is evidence that the relay does not " +
				"keep that delivery, and the load MUST be reported as cannot prove complete. The order of events " +
				"sharing a created_at is not judged.",
			Fields: []string{"OrderEvidence"},
			Apply:  func(r *Rules) { r.Load.OrderEvidence = newestFirst },
		},
		{
			Name:    ProposalLimitResults,
			Section: "Full-State Load, step 1",
			Text: "A query that delivers more results than its limit n is evidence against the relay and the load " +
				"MUST be reported as cannot prove complete; the count is taken at that query's end-of-stored-events " +
				"and over its results alone, because a relay may push events it accepts meanwhile onto the query's own " +
				"subscription beside the n it read from storage.",
			Fields: []string{"OverLimit"},
			Apply:  func(r *Rules) { r.Load.OverLimit = limitAtEOSE },
		},
		{
			Name:    ProposalUnproven,
			Section: "Full-State Load, the relay requirements",
			Text: "A client MAY hold a relay unproven when it has no record of the relay meeting the relay " +
				"requirements; a load against an unproven relay runs and collects as usual, but an enumeration that " +
				"runs to its end MUST then be reported as cannot prove complete, naming the missing proof, and not as " +
				"complete.",
			Fields: []string{"RequireProof"},
			Apply:  func(r *Rules) { r.Load.RequireProof = func(why string) bool { return why != "" } },
		},
	}
}

// ProposedName names the rule set Proposed returns.
const ProposedName = "proposed"

// Proposed returns the rules a production client should run: Spec() with
// every proposal of Proposals applied, in order.
func Proposed() *Rules {
	r := Spec()
	for _, p := range Proposals() {
		p.Apply(r)
	}
	r.Name = ProposedName
	return r
}

// Without returns Proposed() with the named proposal left out (the text's
// reading of the fields it sets), named "proposed-without-<name>"; false
// when no proposal has the name.
func Without(name string) (*Rules, bool) {
	r := Spec()
	found := false
	for _, p := range Proposals() {
		if p.Name == name {
			found = true
			continue
		}
		p.Apply(r)
	}
	r.Name = ProposedName + "-without-" + name
	return r, found
}

// repeatRetry asks a band again by the very filter it was sent with, once
// per attempt: the retry the in-flight push rule needs, before
// distinctRetry makes the filter one the load has not sent.
func repeatRetry(prev nostr.Filter, _ int, _ bool) (nostr.Filter, bool) { return prev, true }
