package gen

import (
	"strings"

	"github.com/nip-rs/harness/model"
)

// The rules below are those a client meets only by failing a vector: the
// codes say what an output may hold, not what a step does, when a verdict
// is reached or which reason wins when several apply. VOCABULARY.md states
// them under each kind, each with the NIP-RS section it comes from or the
// proposal it belongs to, so that the vectors are enough to write a client
// from.

// precedenceTier is one rank of a precedence order: its codes either
// exclude one another or, where Met is set, the first the parser meets in
// the text wins.
type precedenceTier struct {
	Codes []string
	Met   bool
}

// precedenceCase is a plaintext where two codes apply and Win is the one
// the vectors give, Lose the one it beats.
type precedenceCase struct {
	Win, Lose, Plaintext string
}

// BlobPrecedence is the order in which the blob-level codes of codec are
// decided: the plaintext's size, then parsing, then the members in the
// order v, client_id, contexts.
func BlobPrecedence() []precedenceTier {
	return []precedenceTier{
		{Codes: []string{BlobTooLarge}},
		{Codes: []string{"not_json", BlobTooDeep}, Met: true},
		{Codes: []string{BlobNotObject}},
		{Codes: []string{"v_missing", "v_not_integer"}},
		{Codes: []string{BlobUnknownVersion}},
		{Codes: []string{"client_id_missing", "client_id_not_string"}},
		{Codes: []string{"client_id_not_utf8"}},
		{Codes: []string{"client_id_length"}},
		{Codes: []string{"contexts_missing", "contexts_not_object"}},
		{Codes: []string{"too_many_entries"}},
	}
}

// DropPrecedence is the order in which a frontier entry's drop codes are
// decided: its key, then its value. Override entries never carry these:
// their group is judged whole (GroupPrecedence).
func DropPrecedence() []precedenceTier {
	return []precedenceTier{
		{Codes: []string{DropKeyNotUTF8}},
		{Codes: []string{DropKeyTooLong}},
		{Codes: []string{DropValueNotNumber}},
		{Codes: []string{DropValueNegative}},
		{Codes: []string{DropValueNotInteger}},
		{Codes: []string{DropValueTooLarge}},
	}
}

// GroupPrecedence is the order for the entries of one override group:
// its shape first, then its members' keys and values.
func GroupPrecedence() []precedenceTier {
	return []precedenceTier{
		{Codes: []string{DropGroupPartial}},
		{Codes: []string{DropGroupInvalid}},
	}
}

// precedenceCases are plaintexts where two codes of adjacent tiers apply;
// TestCodecPrecedence runs each through the production codec. A pair of
// adjacent tiers without a case here is one no plaintext can hit both of.
func precedenceCases() []precedenceCase {
	long := strings.Repeat("k", 300)
	id65 := strings.Repeat("a", 65)
	return []precedenceCase{
		{BlobTooLarge, "not_json", strings.Repeat("x", 70000)},
		{"not_json", BlobNotObject, `[1] x`},
		{BlobTooDeep, "not_json", strings.Repeat("[", 70) + strings.Repeat("]", 70) + ` x`},
		{"not_json", BlobTooDeep, `{"v":1,"client_id":"c","contexts":{}} ` + strings.Repeat("[", 70)},
		{"v_not_integer", BlobUnknownVersion, `{"v":2.0,"client_id":"c","contexts":{}}`},
		{BlobUnknownVersion, "client_id_not_string", `{"v":2,"client_id":5,"contexts":[]}`},
		{"client_id_not_utf8", "client_id_length", `{"v":1,"client_id":"` + id65 + `\ud800","contexts":{}}`},
		{"client_id_length", "contexts_not_object", `{"v":1,"client_id":"","contexts":[]}`},
		{DropKeyNotUTF8, DropKeyTooLong, blob("\"" + long + "\xff\":1")},
		{DropKeyTooLong, DropValueNotNumber, blob(`"` + long + `":"x"`)},
		{DropValueNegative, DropValueNotInteger, blob(`"a":-1.5`)},
		{DropValueNotInteger, DropValueTooLarge, blob(`"a":1.5e20`)},
		{DropGroupPartial, DropGroupInvalid, blob(`"ov_s:x":-1`)},
		{DropGroupInvalid, DropKeyTooLong, blob(`"ov_s:` + long + `":1,"ov_c:` + long + `":1,"ov_b:` + long + `":1`)},
	}
}

// precedenceCode is the code a plaintext gets under rules: the blob-level
// reason, or the reason of its single dropped entry kind.
func precedenceCode(rules *model.Rules, pt string) (string, error) {
	out, err := codecOf(rules, []byte(pt))
	if err != nil {
		return "", err
	}
	if out.Reason != "" {
		return out.Reason, nil
	}
	codes := map[string]bool{}
	for _, d := range out.Dropped {
		codes[d.Reason] = true
	}
	if len(codes) != 1 {
		return "", nil
	}
	for c := range codes {
		return c, nil
	}
	return "", nil
}

// tiersText renders tiers as "a, then b or c, then ...".
func tiersText(tiers []precedenceTier) string {
	var parts []string
	for _, t := range tiers {
		codes := make([]string, len(t.Codes))
		for i, c := range t.Codes {
			codes[i] = "`" + c + "`"
		}
		s := strings.Join(codes, " or ")
		if t.Met {
			s += " (whichever the parser meets first, reading from the start)"
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, ", then ")
}

// kindRules are the rules of kind the vectors hold beside their codes, in
// the order VOCABULARY.md lists them.
func kindRules(kind string) []string {
	switch kind {
	case "codec":
		return []string{
			"**One reason per discard or drop.** Where several apply, the first in this order is given. The blob: " +
				tiersText(BlobPrecedence()) + " (Content Validation lists the checks; it does not rank them, so this order is the vectors' and a client giving another reason for the same plaintext fails them: `{\"v\":2,\"client_id\":5}` is ignored as `unknown_version`, and `{\"v\":2.0,...}` discarded as `v_not_integer`). " +
				"A frontier entry: " + tiersText(DropPrecedence()) + " (a key that is not UTF-8 and over 256 bytes is `key_not_utf8`; `-1.5` is `value_negative`, `1.5e20` `value_not_integer`). " +
				"An override group: " + tiersText(GroupPrecedence()) + ", and its entries never carry a key or value code of their own (Content Validation: the group is judged whole before any per-entry rule).",
		}
	case "register":
		return []string{
			"**Script steps.** A step member left out means 0 (an absent `ts` is 0). " +
				"`advance` {ctx, ts}: the context's frontier becomes max(frontier, ts); it creates the frontier entry even at 0, which the candidate then carries (Hierarchical Frontier Rule). " +
				"`mark_unread` {ctx}: the action at the context's effective frontier (Actions). " +
				"`mark_read` {ctx, ts}: `advance` to ts, then the action (Actions), so it too creates a frontier entry even at 0. " +
				"`compact` {ctx}: the context's register becomes its canonical form at its effective frontier, a dead override its tombstone floor (Tombstone Floor); on a context the installation never saw it creates nothing. " +
				"`publish`: the candidate becomes the last published blob; `needs_republish` compares the candidate with it, canonical against canonical, and never having published counts as an empty blob (Live Subscription and Convergence). " +
				"`receive` {client_id, entries}: `entries` is validated as a blob's `contexts` (Content Validation, groups judged whole) and what is kept is merged by maximum, frontier keys unescaped (Merge Rule; Reserved Namespace); receiving only `ov_*` keys for a context stores its register but creates no frontier entry.",
			"**contexts.** A context appears when its effective frontier is above 0 or an override keeps it unread (live); a stored context with neither, a frontier entry at 0 or a received floor, is absent. `registers` holds every stored context, those included.",
			"**A context too long for override keys** (an id over 251 bytes, so `ov_s:` plus it exceeds 256 bytes): `mark_unread` is refused with `key_too_long` and changes nothing; `mark_read` advances the frontier and leaves the register as it is, no counter increment and no floor, with no error (proposal refuse-unpublishable-override: no receiver would accept the keys, so the override would exist on this device alone).",
		}
	case "load":
		return []string{
			"**When non-conforming is decided.** An event outside the query's filter (wrong author or kind, created_at outside since/until) or malformed ends the load at that EVENT frame, on a query or on the fence. More results than the limit n (proposal limit-judged-on-results) and results not newest first (proposal results-newest-first) end it at that query's EOSE: both are judged over the query's results, and a push on the query's own subscription may arrive beside them until then.",
			"**Results newest first** (proposal results-newest-first): only created_at order is judged: a result with a greater created_at than one the same query delivered before it is the evidence; the order of results sharing a created_at is not judged.",
			"**In-flight pushes are not results** (proposal in-flight-push-not-result; Full-State Load, step 3). Once the fence is established, an event the fence delivers while a band is in flight is not a result of that band, even when the band delivers it too: it moves neither C nor the cursor T. A band whose every delivery was such an event is asked again with its `until` one second lower, so that no filter repeats (proposal distinct-load-filters). A pinned window counts such deliveries all the same: a larger count only makes step 5 more cautious. A fence push of an event some query already counted as a result ends the load as cannot-prove-complete, reason `query-push`: that result may itself have been a push.",
			"**Passes** (config `passes`, a client option; absent means 1). Each pass runs the enumeration again from the first band at `first_until`, keeping what it collected; after the last pass the load makes one final round trip, a query with `{\"since\": 4294967295, \"until\": 4294967295}`, and its EOSE (not the empty band before it) gives the verdict. A load of several passes waits a gap (so that split replacements and pushes queued behind an end-of-stored-events land before it reads on) after the fence's end-of-stored-events, before its first band (a relay may answer the fence before it registers it for pushes), before each later pass and before the final round trip; the vectors carry no clock, so `waits` lists the frames after which the wait comes, and a client compares where it waits, not how long.",
		}
	}
	return nil
}
