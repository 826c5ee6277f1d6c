package gen

import (
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/nip-rs/harness/model"
)

// codecInput is a decrypted plaintext: as a string when it is valid UTF-8,
// else as base64 of its bytes.
type codecInput struct {
	Plaintext       *string `json:"plaintext,omitempty"`
	PlaintextBase64 string  `json:"plaintext_base64,omitempty"`
}

func plaintextInput(p string) codecInput {
	if utf8.ValidString(p) {
		return codecInput{Plaintext: &p}
	}
	return codecInput{PlaintextBase64: base64.StdEncoding.EncodeToString([]byte(p))}
}

func (in codecInput) bytes() ([]byte, error) {
	if in.Plaintext != nil {
		return []byte(*in.Plaintext), nil
	}
	return base64.StdEncoding.DecodeString(in.PlaintextBase64)
}

// codecOutput is what a receiver does with a plaintext.
type codecOutput struct {
	// Outcome is "accept", "discard" (malformed: MUST be discarded) or
	// "ignore" (unknown version).
	Outcome string `json:"outcome"`
	// Reason is the blob-level reason code of a discard or ignore.
	Reason   string            `json:"reason,omitempty"`
	ClientID *string           `json:"client_id,omitempty"`
	Entries  map[string]uint32 `json:"entries,omitempty"`
	// EntryCount is the number of raw contexts members, duplicates and
	// invalid ones included.
	EntryCount *int        `json:"entry_count,omitempty"`
	Duplicates []string    `json:"duplicates,omitempty"`
	Dropped    []codecDrop `json:"dropped,omitempty"`
}

// codecDrop is one dropped wire key; KeyHex replaces Key when the key is not
// valid UTF-8 (it is then given as the bytes the receiver decoded, a lone
// surrogate escape as its three-byte generalized UTF-8 form).
type codecDrop struct {
	Key    string `json:"key,omitempty"`
	KeyHex string `json:"key_hex,omitempty"`
	Reason string `json:"reason"`
}

func computeCodec(rules *model.Rules, raw json.RawMessage) (any, error) {
	var in codecInput
	if err := json.Unmarshal(raw, &in); err != nil {
		return nil, err
	}
	pt, err := in.bytes()
	if err != nil {
		return nil, err
	}
	return codecOf(rules, pt)
}

// codecOf parses a plaintext through rules into the vector output.
func codecOf(rules *model.Rules, pt []byte) (codecOutput, error) {
	b, rep, err := model.ParseBlobWith(rules, pt)
	if err != nil {
		code, cerr := blobReason(err)
		if cerr != nil {
			return codecOutput{}, cerr
		}
		if errors.Is(err, model.ErrUnknownVersion) {
			return codecOutput{Outcome: OutcomeIgnore, Reason: code}, nil
		}
		return codecOutput{Outcome: OutcomeDiscard, Reason: code}, nil
	}
	out := codecOutput{Outcome: OutcomeAccept, ClientID: &b.ClientID, Entries: map[string]uint32{}, EntryCount: &rep.Entries}
	for _, e := range b.Contexts {
		out.Entries[e.Key] = e.Value
	}
	for _, d := range rep.Duplicates {
		out.Duplicates = append(out.Duplicates, keyText(d))
	}
	for _, d := range rep.Drops {
		code, err := dropReason(d.Reason)
		if err != nil {
			return codecOutput{}, err
		}
		cd := codecDrop{Key: d.Key, Reason: code}
		if !utf8.ValidString(d.Key) {
			cd = codecDrop{KeyHex: hex.EncodeToString([]byte(d.Key)), Reason: code}
		}
		out.Dropped = append(out.Dropped, cd)
	}
	return out, nil
}

func keyText(k string) string {
	if utf8.ValidString(k) {
		return k
	}
	return "hex:" + hex.EncodeToString([]byte(k))
}

// Drop reason codes of the codec vectors.
const (
	DropKeyTooLong      = "key_too_long"
	DropKeyNotUTF8      = "key_not_utf8"
	DropValueNotNumber  = "value_not_number"
	DropValueNegative   = "value_negative"
	DropValueNotInteger = "value_not_integer"
	DropValueTooLarge   = "value_too_large"
	DropValueRejected   = "value_rejected"
	DropGroupPartial    = "group_partial"
	DropGroupInvalid    = "group_invalid_sibling"
)

// dropReasons maps the core's per-entry report texts to codes; the
// group codes and value_not_number are matched by shape in dropReason.
var dropReasons = []struct{ reason, code string }{
	{model.ReasonKeyTooLong, DropKeyTooLong},
	{model.ReasonKeyNotUTF8, DropKeyNotUTF8},
	{model.ReasonValueNegative, DropValueNegative},
	{model.ReasonValueNotInteger, DropValueNotInteger},
	{model.ReasonValueTooLarge, DropValueTooLarge},
	{model.ReasonValueRejected, DropValueRejected},
}

// DropCodes lists every code dropReason can give, in its order.
func DropCodes() []string {
	var out []string
	for _, d := range dropReasons {
		out = append(out, d.code)
	}
	return append(out, DropValueNotNumber, DropGroupPartial, DropGroupInvalid)
}

// dropReason maps the core's report text to a stable code.
func dropReason(r string) (string, error) {
	if g, ok := strings.CutPrefix(r, model.ReasonGroupRejected); ok {
		switch {
		case strings.HasPrefix(g, model.ErrGroupPartial.Error()):
			return DropGroupPartial, nil
		case strings.HasPrefix(g, model.ErrGroupInvalid.Error()):
			return DropGroupInvalid, nil
		}
		return "", fmt.Errorf("unclassified group drop %q", r)
	}
	for _, d := range dropReasons {
		if r == d.reason {
			return d.code, nil
		}
	}
	if strings.HasPrefix(r, "value is ") && strings.HasSuffix(r, ", not an integer") {
		return DropValueNotNumber, nil
	}
	return "", fmt.Errorf("unclassified drop %q", r)
}

// Codec outcomes.
const (
	OutcomeAccept  = "accept"
	OutcomeDiscard = "discard"
	OutcomeIgnore  = "ignore"
)

// Outcomes lists the codec outcomes.
func Outcomes() []string { return []string{OutcomeAccept, OutcomeDiscard, OutcomeIgnore} }

// Blob-level codes blobReason gives outside the blobReasons table.
const (
	BlobUnknownVersion = "unknown_version"
	BlobTooDeep        = "too_deep"
	BlobNotObject      = "not_object"
	BlobTooLarge       = "plaintext_too_large"
)

// BlobCodes lists every code blobReason can give: the ignore code, then
// the discard codes in the order the parser checks them.
func BlobCodes() []string {
	out := []string{BlobUnknownVersion, BlobTooLarge, BlobNotObject, BlobTooDeep}
	for _, r := range blobReasons {
		if r.code != "" {
			out = append(out, r.code)
		}
	}
	return out
}

// blobReasons maps the start of the core's blob-level error detail to a
// stable code, first match wins.
var blobReasons = []struct{ prefix, code string }{
	{"plaintext is ", ""}, // refined below: too large or not an object
	{"not valid JSON", "not_json"},
	{"v is missing", "v_missing"},
	{"v is ", "v_not_integer"},
	{"client_id is missing", "client_id_missing"},
	{"client_id is not valid UTF-8", "client_id_not_utf8"},
	{"client_id is ", "client_id_not_string"},
	{"client_id has ", "client_id_length"},
	{"contexts is missing", "contexts_missing"},
	{"contexts is ", "contexts_not_object"},
	{"contexts has ", "too_many_entries"},
	{"contexts key ", "key_not_utf8"}, // only where a key not UTF-8 discards the event
}

// blobReason maps a ParseBlob error to a stable code.
func blobReason(err error) (string, error) {
	if errors.Is(err, model.ErrUnknownVersion) {
		return BlobUnknownVersion, nil
	}
	msg, ok := strings.CutPrefix(err.Error(), model.ErrInvalidBlob.Error()+": ")
	if !ok {
		return "", fmt.Errorf("unclassified blob error %v", err)
	}
	if strings.Contains(msg, "nesting deeper than") {
		return BlobTooDeep, nil
	}
	for _, r := range blobReasons {
		if !strings.HasPrefix(msg, r.prefix) {
			continue
		}
		if r.code != "" {
			return r.code, nil
		}
		if strings.HasSuffix(msg, "not an object") {
			return BlobNotObject, nil
		}
		return BlobTooLarge, nil
	}
	return "", fmt.Errorf("unclassified blob error %v", err)
}

func codecKind() Kind {
	return Kind{
		Name:        "codec",
		Description: "Content Validation of one decrypted plaintext: discard, ignore, or the kept wire entries with every dropped key and its reason code.",
		HowToRun:    "Feed input.plaintext (or the bytes of input.plaintext_base64) to your blob parser. Compare outcome and reason; on accept compare client_id, the kept entries (wire keys, not unescaped), entry_count, duplicates and each dropped key's reason code. by_value_expected is what a parser that reads number literals by value decides instead, distinct_keys_expected what one that counts distinct keys toward the 10,000-entry limit decides, utf8_discard_expected what one that discards the event for a key that is not valid UTF-8 decides.",
		Cases:       codecCases,
		Compute:     computeCodec,
		Needs:       codecNeeds,
		Readings:    true,
	}
}
