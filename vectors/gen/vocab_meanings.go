package gen

import "github.com/nip-rs/harness/model"

// The meaning of every code the vectors' outputs carry, with the section of
// NIP-RS.md (or, for the history kind, of community-history-sync.md) that
// decides it. Vocabulary pairs these with the enumerations of the code
// that produces the outputs and fails when the two disagree.

const (
	secCV     = "Content Validation"
	secCVGrp  = "Content Validation (override groups)"
	secCont   = "Content"
	secEvt    = "d Tag; t Tag"
	secFL     = "Full-State Load"
	secHist   = "community-history-sync.md, a channel round over page subscriptions"
	secToSelf = "Content (NIP-44 encryption to self)"
)

var outcomeMeanings = map[string]meaning{
	OutcomeAccept:  {"the blob is valid: merge its kept entries (dropped ones are listed)", secCV},
	OutcomeDiscard: {"the blob is malformed: the whole event is discarded", secCV},
	OutcomeIgnore:  {"the blob has a schema version this NIP does not define: the event is ignored", secCV},
}

var blobMeanings = map[string]meaning{
	BlobUnknownVersion:     {"v is an integer other than 1 (outcome ignore)", secCV},
	BlobTooLarge:           {"the plaintext is longer than 65,535 bytes, more than a NIP-44 ciphertext can carry", secCont},
	BlobNotObject:          {"the plaintext is JSON but not an object", secCont},
	BlobTooDeep:            {"the plaintext nests arrays or objects more than 64 deep; a resource bound of this parser where the text is silent", secCV},
	"not_json":             {"the plaintext is not one valid JSON value (empty, truncated, or followed by another value)", secCV},
	"v_missing":            {"the object has no v member", secCV},
	"v_not_integer":        {"v is not an integer literal", secCV},
	"client_id_missing":    {"the object has no client_id member", secCV},
	"client_id_not_utf8":   {"client_id is a string whose bytes are not valid UTF-8 (a lone surrogate escape included)", secCV},
	"client_id_not_string": {"client_id is not a string", secCV},
	"client_id_length":     {"client_id has fewer than 1 or more than 64 characters (Unicode code points)", secCV},
	"contexts_missing":     {"the object has no contexts member", secCV},
	"contexts_not_object":  {"contexts is not a JSON object", secCV},
	"too_many_entries":     {"contexts has more than 10,000 members, duplicates counted (distinct_keys_expected counts distinct keys)", secCV},
	"key_not_utf8":         {"only in utf8_discard_expected: a contexts key that is not valid UTF-8 discards the whole event under that reading", secCV},
}

var dropMeanings = map[string]meaning{
	DropKeyTooLong:      {"the wire key is longer than 256 bytes", secCV},
	DropKeyNotUTF8:      {"the wire key is not valid UTF-8 (raw bytes or a lone surrogate escape); given as key_hex", secCont},
	DropValueNotNumber:  {"the value is not a JSON number (a string, boolean, null, array or object)", secCV},
	DropValueNegative:   {"the value is a negative (signed) number", secCV},
	DropValueNotInteger: {"the value has a fraction or an exponent (1.0, 1e3): not an integer literal; by_value_expected reads it by value", secCV},
	DropValueTooLarge:   {"the value is an integer above 4294967295", secCV},
	DropValueRejected:   {"the value is a number literal outside 0..4294967295 that no narrower code describes", secCV},
	DropGroupPartial:    {"an ov_* entry whose group is neither the complete live triple nor a lone ov_c floor: the whole group is dropped, the frontier entry kept", secCVGrp},
	DropGroupInvalid:    {"an ov_* entry whose group has the right keys but an invalid sibling (value or key length): the whole group is dropped", secCVGrp},
}

var eventErrorMeanings = map[string]meaning{
	"wrong_kind":      {"the event's kind is not 30078", "Event Structure"},
	"wrong_author":    {"the event is not authored by the user", "Fetching"},
	"no_d_tag":        {"the event has no d tag: ignored", "d Tag"},
	"many_d_tags":     {"the event has more than one d tag: ignored", "d Tag"},
	"d_tag_prefix":    {"the d tag does not begin with read-state: (ignored)", "d Tag"},
	"bad_slot_id":     {"the slot id after read-state: is not exactly 32 lowercase hex characters: ignored", "d Tag"},
	"no_t_tag":        {"the event has no [\"t\", \"read-state\"] tag: ignored", "t Tag"},
	"many_t_tags":     {"the event has more than one [\"t\", \"read-state\"] tag: ignored", "t Tag"},
	"oversized":       {"the serialized event exceeds the receiver's size limit (64 KiB in the vectors): discarded", secCV},
	"bad_id":          {"the event id is not the hash of its serialization", "Event Structure (NIP-01)"},
	"bad_signature":   {"the event's signature does not verify", "Event Structure (NIP-01)"},
	"decrypt_failed":  {"the content does not decrypt with the user's conversation key to self", secToSelf},
	"content_invalid": {"the content decrypts but the plaintext is not a valid blob (see the codec reasons; the blob member says which)", secCV},
}

var roleMeanings = map[string]meaning{
	"peer":           {"another installation's blob: merged, never written", "Fetching; Writing"},
	"own":            {"this client_id at this installation's primary coordinate: its own blob", "Fetching"},
	"own-additional": {"this client_id at one of its known additional coordinates", "d Tag"},
	"conflict":       {"another client_id at one of this installation's coordinates: do not publish there, choose a new slot id", "d Tag"},
	"orphan":         {"this client_id at a coordinate it does not know (rotation orphan, restored duplicate): merged, never published to, kept until carried forward", "Writing; Orphaned Blob Deletion"},
	"unreadable":     {"the version authenticates but its content cannot be used: not merged", "Fetching"},
}

var refusalMeanings = map[string]meaning{
	"incomplete_load": {"no complete full-state load stands behind the deletion", secFL},
	"current_primary": {"the coordinate is the installation's current primary, never deleted", "Orphaned Blob Deletion"},
	"not_own":         {"the coordinate belongs to another installation", "Writing"},
	"not_carried":     {"it carries override state not yet carried forward and accepted on this relay", "Client-ID Rotation; Orphaned Blob Deletion"},
}

var actionMeanings = map[string]meaning{
	"still_active":    {"mark-read at the counter ceiling left the override active: the action is reported failed (the frontier advance stands)", "Actions"},
	"counter_ceiling": {"max(S, C) is 4294967295: no counter increment exists, the register is unchanged", "Actions"},
	"key_too_long":    {"mark-unread on a context whose ov_* keys would exceed 256 bytes: refused (proposal " + model.ProposalLongIDRefusal + ")", "Actions; Bounds and Budget"},
}

var shapeMeanings = map[string]meaning{
	"omit":  {"a virgin register (S = C = 0): no ov_* keys on the wire", "Tombstone Floor; Mandatory Canonical Publication"},
	"live":  {"an active override: ov_s, ov_c and ov_b as they are", "Mandatory Canonical Publication"},
	"floor": {"a dead override: ov_c alone at max(S, C), the tombstone floor", "Tombstone Floor"},
}

var splitMeanings = map[string]meaning{
	"override_budget":  {"the override-bearing groups do not fit the primary: nothing is published or dropped, override actions fail", "Bounds and Budget"},
	"coordinate_limit": {"the frontier-only groups need more coordinates than the budget allows after eviction", "Bounds and Budget; d Tag"},
	"overflow":         {"a coordinate's encoded blob would exceed the plaintext budget", "Bounds and Budget"},
}

var evictMeanings = map[string]meaning{
	"dominated": {"a thread:/msg: entry at or below its channel's effective frontier", "Eviction"},
	"horizon":   {"a frontier entry older than the time horizon", "Debounce and Pruning"},
	"budget":    {"a frontier entry evicted to fit the budget (msg: first, then thread:, then others)", "Bounds and Budget; Override State Durability"},
}

var verdictMeanings = map[string]meaning{
	"running":               {"no verdict yet: the frames ended first", secFL},
	"complete":              {"every read-state coordinate was retrieved", secFL},
	"cannot-prove-complete": {"the load ran but is potentially incomplete; reason says why", secFL},
	"failed":                {"the relay did not carry the load (refused the fence or a query, or dropped the connection before the fence was established)", secFL},
}

var loadReasonMeanings = map[string]meaning{
	"none":           {"with complete or running", secFL},
	"plateau":        {"a window pinned to one second delivered at least max(C, L) events: the cap may have bound inside it; plateau_second names it", secFL + ", step 5"},
	"fence-lapsed":   {"the fence was closed by the relay, or the connection lost, after it was established", secFL + " (the mutation fence)"},
	"relay-failure":  {"the relay refused the fence or a query, or the connection dropped before the fence was established", secFL},
	"non-conforming": {"the relay is known not to meet the relay requirements (known_non_conforming), or showed it: an event outside the query's filter, a malformed one, more than the limit", secFL + " (the relay requirements)"},
	"query-push":     {"a query's delivery may have been a push on its own subscription, so the cursor cannot rest on it (proposal " + model.ProposalPushNotResult + ")", secFL + ", step 3"},
	"unproven":       {"the enumeration ended but the relay is held unproven (input unproven; proposal " + model.ProposalUnproven + ")", secFL + " (the relay requirements)"},
	"subscriptions":  {"other_subs and the load's two subscriptions exceed relay_max_subs: no load attempted (proposal " + model.ProposalFenceFits + ")", secFL + " (the mutation fence)"},
	"fence-overflow": {"the fence or a query delivered more than n plus 64 events before its end-of-stored-events: a bound of the load, not evidence against the relay", secFL},
}

var passMeanings = map[string]meaning{
	"newest": {"the round's opening page, from the newest history down", secHist},
	"bridge": {"a page down from the newest page toward the saved newest cursor", secHist},
	"repair": {"a page down a recorded pending region", secHist},
	"older":  {"a page below the saved oldest cursor", secHist},
}

var failMeanings = map[string]meaning{
	"refused": {"the relay sent a CLOSED the round does not wait on, or its AUTH failed; reason is the relay's text as given in the input", secHist},
	"silent":  {"the relay had not settled the page by its deadline; no reason", secHist},
	"stray":   {"the relay delivered a wrap outside the page's window or past its limit; reason is an English account", secHist},
}
