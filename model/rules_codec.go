package model

// Two sentences of Content Validation read two ways, each decided through
// one Rules field: what the 10,000-entry limit counts (CountEntries) and
// what a key that is not valid UTF-8 costs (BadKeyDiscards). Spec() takes
// the literal reading of each; the other reading is a rule set of its own,
// catalogued beside the mutants (mutants.Readings) so the checks can run
// under it.

// countMembers is the text's literal reading of the entry limit: a blob
// "containing" more than 10,000 context entries is one whose contexts
// object holds more than 10,000 members as written. Duplicate resolution
// is a later SHOULD of the same section (use the last value), so a
// duplicate is still an entry the blob contains.
func countMembers(members, _ int) int { return members }

// countDistinct reads the entry limit over context entries as the map
// last-wins leaves: a duplicate key is one entry however often it occurs.
func countDistinct(_, distinct int) int { return distinct }

// dropBadKey is the text's literal reading of a key that is not valid
// UTF-8: the blob-level rules name only the JSON, v, client_id and
// contexts (client_id's UTF-8 is named, a key's is not), while a context
// id that fails a bound is discarded as an entry with "the rest of the
// blob still processed". A key that is not a UTF-8 string is not a context
// id, so its entry alone goes.
func dropBadKey(string) bool { return false }

// DistinctKeyLimitName names the rule set of DistinctKeyLimit.
const DistinctKeyLimitName = "distinct-key-limit"

// DistinctKeyLimit returns the production rules with one decision changed:
// the 10,000-entry limit counts distinct keys, so a blob of
// 10,001 members of which fewer than 10,001 are distinct is accepted. The
// parser keeps every member to count them (bounded by the plaintext size,
// maxContextMembers). NOTE.md, "The entry limit and a key that is not UTF-8", weighs it; a spec author
// can run the checks with it (cmd/explore -rules distinct-key-limit).
func DistinctKeyLimit() *Rules {
	r := Proposed()
	r.Name = DistinctKeyLimitName
	r.CountEntries = countDistinct
	return r
}

// UTF8DiscardsEventName names the rule set of UTF8DiscardsEvent.
const UTF8DiscardsEventName = "utf8-discards-event"

// UTF8DiscardsEvent returns the production rules with one decision
// changed: a contexts key that is not valid UTF-8 discards the whole event,
// as the first rule of Content Validation would if the plaintext, holding
// bytes JSON text may not hold (RFC 8259 requires UTF-8), is not valid
// JSON. An unpaired surrogate escape is valid JSON syntax but names no
// UTF-8 string, so it discards the event too: the reading is about the
// key, not its spelling. A spec author can run the checks with it
// (cmd/explore -rules utf8-discards-event).
func UTF8DiscardsEvent() *Rules {
	r := Proposed()
	r.Name = UTF8DiscardsEventName
	r.BadKeyDiscards = func(string) bool { return true }
	return r
}
