package model

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"
)

// Blob-level outcomes of parsing (Content Validation). Both are returned
// wrapped with the reason; test with errors.Is.
var (
	// ErrInvalidBlob: the blob MUST be discarded (not JSON, not an object, v
	// missing or not an integer, client_id or contexts missing or malformed,
	// more than 10,000 entries, oversized or too deeply nested plaintext).
	ErrInvalidBlob = errors.New("invalid blob")
	// ErrUnknownVersion: v is an integer other than 1, so the blob MUST be
	// ignored. It is not malformed; a later schema may define it.
	ErrUnknownVersion = errors.New("unknown blob version")
)

// Reasons recorded in a Report for dropped entries.
const (
	ReasonKeyTooLong      = "key over 256 bytes"
	ReasonKeyNotUTF8      = "key is not valid UTF-8"
	ReasonValueRejected   = "value not an integer in 0..4294967295"
	ReasonValueNegative   = "value is signed (only 0..4294967295 is accepted)"
	ReasonValueNotInteger = "value has a fraction or exponent (only integer literals are accepted)"
	ReasonValueTooLarge   = "value exceeds 4294967295"
	// ReasonGroupRejected prefixes the drop of every sibling of a rejected
	// override group; the group rule's error follows.
	ReasonGroupRejected = "override group rejected: "
)

// Report says what parsing dropped from a blob it accepted.
type Report struct {
	// Entries is the number of raw entries in contexts, duplicates and
	// invalid entries included (the count the 10,000 limit applies to
	// under Spec; Rules.CountEntries decides).
	Entries int
	// Duplicates lists, sorted, the wire keys that occurred more than once;
	// the last occurrence was used.
	Duplicates []string
	// Drops lists every dropped wire key with its reason, sorted by key then
	// reason.
	Drops []Drop
}

// rawContext is one contexts member as scanned, before validation.
type rawContext struct {
	key    string
	utf8OK bool
	kind   jsonKind
	lit    string // the number literal when kind == kindNumber
}

// document is the top level of a plaintext blob; later duplicate members
// replace earlier ones (RFC 8259 last-wins, applied to the top level too).
type document struct {
	hasV, hasClientID, hasContexts bool
	vKind, clientIDKind, ctxKind   jsonKind
	vLit                           string
	clientID                       string
	clientIDUTF8                   bool
	// contexts holds at most maxContextMembers members; entries counts
	// them all. Every member is kept, not only the first MaxEntries: a
	// rule set that counts distinct keys (Rules.CountEntries) must see
	// past 10,000 members to tell duplicates apart.
	contexts []rawContext
	entries  int
}

// maxContextMembers bounds the contexts members the scanner keeps. The
// shortest member, "":0 with its comma, takes 5 bytes, so no plaintext of
// at most MaxPlaintextBytes holds as many (TestContextMembersBound): the
// size check reached first is what bounds the memory, and this bound only
// states it where the members are kept.
const maxContextMembers = MaxPlaintextBytes/5 + 1

// ParseBlob parses and validates decrypted plaintext with the production
// rules. See ParseBlobWith.
func ParseBlob(data []byte) (Blob, Report, error) { return ParseBlobWith(Proposed(), data) }

// ParseBlobWith parses decrypted plaintext and applies every rule of Content
// Validation through rules (nil means Proposed()). A blob that must be discarded
// yields an error wrapping ErrInvalidBlob; a blob with an unknown v yields
// one wrapping ErrUnknownVersion. Otherwise the Blob holds the kept wire
// entries (sorted, unique, keys in wire form: frontier keys still escaped,
// accepted override groups in the shape they arrived in) and the Report
// says what was dropped and why. Nothing is decoded here; MergeBlobs and
// Replica.Receive decode the kept entries.
func ParseBlobWith(rules *Rules, data []byte) (Blob, Report, error) {
	if rules == nil {
		rules = Proposed()
	}
	doc, rep, raws, err := scanContexts(rules, data)
	if err != nil {
		return Blob{}, Report{}, err
	}
	es, drops := validateContexts(rules, raws)
	rep.Drops = sortDrops(drops)
	return Blob{V: 1, ClientID: doc.clientID, Contexts: es}, rep, nil
}

// scanContexts applies the blob-level rules and resolves duplicate context
// keys (last wins), returning the raw entries and the report so far.
func scanContexts(rules *Rules, data []byte) (document, Report, []rawContext, error) {
	doc, err := scanBlob(data)
	if err != nil {
		return doc, Report{}, nil, err
	}
	rep, raws, err := doc.resolve(rules)
	return doc, rep, raws, err
}

// resolve applies, to a document that passed check, the two blob-level
// rules that read two ways, through rules: a key that is not valid UTF-8
// (Rules.BadKeyDiscards), then the entry limit (Rules.CountEntries), which
// needs the distinct keys last-wins leaves. It returns the entries
// last-wins keeps.
func (doc *document) resolve(rules *Rules) (Report, []rawContext, error) {
	if doc.entries > len(doc.contexts) {
		// Not reached on input within MaxPlaintextBytes; refused rather
		// than counted wrong should the size check ever change.
		return Report{}, nil, invalid("contexts has %d members, more than a plaintext can hold", doc.entries)
	}
	for _, r := range doc.contexts {
		if !r.utf8OK && rules.BadKeyDiscards(r.key) {
			return Report{}, nil, invalid("contexts key %q is not valid UTF-8", r.key)
		}
	}
	rep := Report{Entries: doc.entries}
	raws := lastWins(doc.contexts, &rep)
	if n := rules.CountEntries(doc.entries, len(raws)); n > MaxEntries {
		return Report{}, nil, invalid("contexts has %d entries, over the limit of %d", n, MaxEntries)
	}
	return rep, raws, nil
}

// scanBlob reads the plaintext and applies the blob-level rules in the
// order Content Validation lists them: JSON, v, the version, client_id,
// contexts (the entry count is scanContexts', through the rules).
func scanBlob(data []byte) (document, error) {
	var doc document
	if len(data) > MaxPlaintextBytes {
		return doc, invalid("plaintext is %d bytes, over the NIP-44 maximum %d", len(data), MaxPlaintextBytes)
	}
	s := &scanner{data: string(data)} // the one copy of the plaintext
	s.ws()
	if s.peek() != '{' {
		kind, _, err := s.skip(0)
		if err == nil {
			err = s.end()
		}
		if err != nil {
			return doc, syntaxError(err)
		}
		return doc, invalid("plaintext is %v, not an object", kind)
	}
	err := s.members(1, func(key string, _ bool) error { return doc.member(s, key) })
	if err == nil {
		err = s.end()
	}
	if err != nil {
		return doc, syntaxError(err)
	}
	return doc, doc.check()
}

// syntaxError wraps a scanner error: too deep is a limit of ours, anything
// else is not JSON.
func syntaxError(err error) error {
	if errors.Is(err, errTooDeep) {
		return invalid("%v", err)
	}
	return invalid("not valid JSON: %v", err)
}

// member reads the value of one top-level member.
func (doc *document) member(s *scanner, key string) error {
	switch key {
	case "v":
		kind, lit, err := s.skip(1)
		doc.hasV, doc.vKind, doc.vLit = true, kind, lit
		return err
	case "client_id":
		if s.peek() == '"' {
			id, ok, err := s.str()
			doc.hasClientID, doc.clientIDKind, doc.clientID, doc.clientIDUTF8 = true, kindString, id, ok
			return err
		}
		kind, _, err := s.skip(1)
		doc.hasClientID, doc.clientIDKind, doc.clientID = true, kind, ""
		return err
	case "contexts":
		doc.hasContexts, doc.entries = true, 0
		if s.peek() != '{' {
			kind, _, err := s.skip(1)
			doc.ctxKind = kind
			return err
		}
		doc.ctxKind = kindObject
		// A repeated contexts member replaces the earlier one and reuses
		// its memory. Nothing is reserved ahead from an estimate over the
		// rest of the input: a reservation per member, repeated thousands
		// of times, would cost far more than the input (the slice grows by
		// doubling instead, bounded by what the largest member holds).
		doc.contexts = doc.contexts[:0]
		return s.members(2, func(k string, ok bool) error {
			kind, lit, err := s.skip(2)
			if doc.entries++; doc.entries <= maxContextMembers {
				doc.contexts = append(doc.contexts, rawContext{key: k, utf8OK: ok, kind: kind, lit: lit})
			}
			return err
		})
	}
	_, _, err := s.skip(1) // unknown top-level keys are ignored
	return err
}

func (doc *document) check() error {
	switch {
	case !doc.hasV:
		return invalid("v is missing")
	case doc.vKind != kindNumber:
		return invalid("v is %v, not an integer", doc.vKind)
	case !isIntegerLiteral(doc.vLit):
		return invalid("v is %s, not an integer literal", doc.vLit)
	case doc.vLit != "1":
		return fmt.Errorf("%w: v is %s", ErrUnknownVersion, doc.vLit)
	case !doc.hasClientID:
		return invalid("client_id is missing")
	case doc.clientIDKind != kindString:
		return invalid("client_id is %v, not a string", doc.clientIDKind)
	case !doc.clientIDUTF8:
		return invalid("client_id is not valid UTF-8")
	}
	if n := utf8.RuneCountInString(doc.clientID); n < 1 || n > MaxClientIDChars {
		return invalid("client_id has %d characters, want 1..%d", n, MaxClientIDChars)
	}
	switch {
	case !doc.hasContexts:
		return invalid("contexts is missing")
	case doc.ctxKind != kindObject:
		return invalid("contexts is %v, not an object", doc.ctxKind)
	}
	return nil
}

func invalid(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrInvalidBlob}, args...)...)
}

// isIntegerLiteral reports whether a JSON number literal has no fraction and
// no exponent (a sign is allowed: -3 is an integer, just not a valid value).
func isIntegerLiteral(lit string) bool {
	return lit != "" && !strings.ContainsAny(lit, ".eE")
}

// compareRaw orders raw entries by key, with every key that is not valid
// UTF-8 (it will be dropped) after and apart from the valid ones. Keys are
// compared as decoded, an unpaired surrogate escape keeping its own code
// point (appendSurrogate), so no invalid key can shadow a valid one as its
// duplicate.
func compareRaw(a, b rawContext) int {
	if a.utf8OK != b.utf8OK {
		if a.utf8OK {
			return -1
		}
		return 1
	}
	return strings.Compare(a.key, b.key)
}

// lastWins sorts raws by key and keeps the last occurrence of each key in
// wire order (the sort is stable), recording the duplicated keys in rep.
func lastWins(raws []rawContext, rep *Report) []rawContext {
	slices.SortStableFunc(raws, compareRaw)
	out := raws[:0]
	for i, r := range raws {
		if i+1 < len(raws) && compareRaw(raws[i+1], r) == 0 {
			continue
		}
		if i > 0 && compareRaw(raws[i-1], r) == 0 {
			rep.Duplicates = append(rep.Duplicates, r.key)
		}
		out = append(out, r)
	}
	slices.Sort(rep.Duplicates)
	return out
}

// entryValue sanitises one raw value through rules; reason is empty when the
// value is accepted.
func entryValue(rules *Rules, r rawContext) (v uint32, reason string) {
	if r.kind != kindNumber {
		return 0, "value is " + r.kind.String() + ", not an integer"
	}
	if v, ok := rules.SanitizeValue(r.lit); ok {
		return v, ""
	}
	return 0, literalReason(r.lit)
}

// literalReason explains, for the report only, why a number literal was
// refused; the decision itself is Rules.SanitizeValue's.
func literalReason(lit string) string {
	switch {
	case strings.HasPrefix(lit, "-"):
		return ReasonValueNegative
	case !isIntegerLiteral(lit):
		return ReasonValueNotInteger
	case len(lit) > 10 || len(lit) == 10 && lit > "4294967295":
		return ReasonValueTooLarge
	}
	return ReasonValueRejected
}

// keyReason is the per-entry key rule: valid UTF-8, at most 256 bytes.
func keyReason(r rawContext) string {
	switch {
	case !r.utf8OK:
		return ReasonKeyNotUTF8
	case len(r.key) > MaxKeyBytes:
		return ReasonKeyTooLong
	}
	return ""
}

// sibling is one override entry waiting for its group's verdict.
type sibling struct {
	ctx    string
	kind   KeyKind
	key    string
	value  uint32
	reason string // why this entry alone is invalid ("" if valid)
}

// validateContexts applies the per-entry rules to frontier entries and the
// group rule to override entries, which are collected per raw context and
// validated as whole groups before any per-entry discard touches them.
func validateContexts(rules *Rules, raws []rawContext) ([]Entry, []Drop) {
	es := make([]Entry, 0, len(raws))
	var drops []Drop
	var sibs []sibling
	for _, r := range raws {
		v, reason := entryValue(rules, r)
		if kr := keyReason(r); kr != "" {
			reason = kr
		}
		kind, ctx := rules.GroupKey(r.key)
		if kind != KeyFrontier {
			sibs = append(sibs, sibling{ctx: ctx, kind: kind, key: r.key, value: v, reason: reason})
			continue
		}
		if reason != "" {
			drops = append(drops, Drop{Key: r.key, Reason: reason})
			continue
		}
		es = append(es, Entry{Key: r.key, Value: v})
	}
	slices.SortStableFunc(sibs, func(a, b sibling) int { return strings.Compare(a.ctx, b.ctx) })
	for i := 0; i < len(sibs); {
		j := i
		g := Group{Ctx: sibs[i].ctx}
		for ; j < len(sibs) && sibs[j].ctx == g.Ctx; j++ {
			g.Put(sibs[j].kind, Slot{Present: true, Valid: sibs[j].reason == "", Value: sibs[j].value})
		}
		_, err := rules.ValidateGroup(g)
		for _, sb := range sibs[i:j] {
			switch {
			case err != nil:
				reason := ReasonGroupRejected + err.Error()
				if sb.reason != "" {
					reason += "; this entry: " + sb.reason
				}
				drops = append(drops, Drop{Key: sb.key, Reason: reason})
			case sb.reason != "":
				// An accepted group can only hold an invalid sibling under
				// a non-production group rule; the entry has no value.
				drops = append(drops, Drop{Key: sb.key, Reason: sb.reason})
			default:
				es = append(es, Entry{Key: sb.key, Value: sb.value})
			}
		}
		i = j
	}
	return SortEntries(es), drops
}

func sortDrops(ds []Drop) []Drop {
	slices.SortFunc(ds, func(a, b Drop) int {
		if c := strings.Compare(a.Key, b.Key); c != 0 {
			return c
		}
		return strings.Compare(a.Reason, b.Reason)
	})
	return ds
}
