package gen

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"

	"github.com/nbd-wtf/go-nostr"
	"github.com/nbd-wtf/go-nostr/nip44"

	"github.com/nip-rs/harness/model"
)

const (
	secTags    = "Event Structure; d Tag; t Tag"
	secIdent   = "d Tag (conflict); Fetching; Writing"
	secSkew    = "Clock Skew"
	secDelete  = "Client-ID Rotation; Orphaned Blob Deletion"
	secNIP44   = "Content (NIP-44 encryption to self)"
	secEvent   = "Event Structure; Content; Content Validation"
	keyUser    = "0000000000000000000000000000000000000000000000000000000000000001"
	keyOther   = "0000000000000000000000000000000000000000000000000000000000000002"
	slotA      = "0123456789abcdef0123456789abcdef"
	slotB      = "fedcba9876543210fedcba9876543210"
	slotC      = "00000000000000000000000000000000"
	createdAt0 = 1700000000
)

// fixedNonce is a deterministic 32-byte nonce per label.
func fixedNonce(label string) [32]byte { return sha256.Sum256([]byte("nip-rs vectors nonce " + label)) }

func strPtr(s string) *string { return &s }

func eventsCases() ([]Case, error) {
	var cs []Case
	add := func(id, sec, desc string, in eventsInput) {
		cs = append(cs, Case{ID: "events/" + id, Section: sec, Description: desc, Input: in})
	}
	d, t := []string{"d", model.DTag(slotA)}, []string{"t", model.TTagValue}
	for _, c := range []struct {
		id, desc string
		tags     [][]string
	}{
		{"valid", "one d tag read-state:<32 hex> and one t tag", [][]string{d, t}},
		{"valid-order", "tag order does not matter", [][]string{t, d}},
		{"extra-tags", "unrelated tags are allowed", [][]string{d, t, {"p", "x"}, {"t", "other"}}},
		{"no-d", "no d tag", [][]string{t}},
		{"two-d", "two d tags", [][]string{d, {"d", model.DTag(slotB)}, t}},
		{"d-empty", "a d tag without a value", [][]string{{"d"}, t}},
		{"d-prefix", "a d tag without the read-state: prefix", [][]string{{"d", slotA}, t}},
		{"d-uppercase", "an upper-case slot id", [][]string{{"d", model.DTag(strings.ToUpper(slotA))}, t}},
		{"d-short", "a 31-character slot id", [][]string{{"d", model.DTag(slotA[:31])}, t}},
		{"d-long", "a 33-character slot id", [][]string{{"d", model.DTag(slotA + "0")}, t}},
		{"d-non-hex", "a slot id with a non-hex character", [][]string{{"d", model.DTag(slotA[:31] + "g")}, t}},
		{"no-t", "no t tag", [][]string{d}},
		{"t-other-value", "a t tag with another value only", [][]string{d, {"t", "readstate"}}},
		{"two-t", "two read-state t tags", [][]string{d, t, t}},
		{"empty-tag", "an empty tag is skipped", [][]string{{}, d, t}},
	} {
		sec := secTags
		if c.id == "no-d" || c.id == "d-prefix" {
			sec += "; Invalid Cases"
		}
		add("tags/"+c.id, sec, c.desc, eventsInput{Op: "tags", Tags: c.tags})
	}

	self := &selfInput{ClientID: "me", Primary: slotA, Additional: []string{slotB}}
	for _, slot := range []string{slotA, slotB, slotC} {
		for _, id := range []string{"me", "peer"} {
			add(fmt.Sprintf("role/%s/%s", slot[:4], id), secIdent,
				fmt.Sprintf("a blob with client_id %q at slot %s…, for an installation %q with primary %s… and additional %s…", id, slot[:4], "me", slotA[:4], slotB[:4]),
				eventsInput{Op: "role", Self: self, Slot: slot, ClientID: strPtr(id)})
		}
	}
	specSelf := &selfInput{ClientID: "client-A", Primary: "aaa111aaa111aaa111aaa111aaa111aa"}
	add("role/spec-vector", "d Tag (conflict); Conflict Detection Vector",
		"the spec's Conflict Detection Vector: client-A finds client-B's blob at its own primary coordinate",
		eventsInput{Op: "role", Self: specSelf, Slot: specSelf.Primary, ClientID: strPtr("client-B")})

	skew, err := specClockSkew()
	if err != nil {
		return nil, err
	}
	add("created-at/spec-vector", secSkew+"; Clock Skew Vector", "the spec's clock skew vector: one past the newest fetched version", skew)
	for _, c := range []struct {
		id, desc string
		now      int64
		fetched  []fetchedInput
	}{
		{"none-fetched", "nothing fetched at the slot: the local clock", 100, nil},
		{"older", "a fetched version older than the clock: the clock", 100, []fetchedInput{{slotA, 99}}},
		{"equal", "a fetched version at the clock: one past it", 100, []fetchedInput{{slotA, 100}}},
		{"newer", "a fetched version ahead of the clock: one past it", 100, []fetchedInput{{slotA, 250}}},
		{"other-slot", "versions at other slots do not count", 100, []fetchedInput{{slotB, 500}}},
		{"max-of-relays", "the newest over every relay's version", 100, []fetchedInput{{slotA, 150}, {slotA, 120}, {slotB, 900}}},
		{"saturate", "no created_at past the largest", 100, []fetchedInput{{slotA, math.MaxInt64}}},
	} {
		add("created-at/"+c.id, secSkew, c.desc, eventsInput{Op: "created_at", Now: c.now, Slot: slotA, Fetched: c.fetched})
	}

	for _, kind := range []string{"primary", "additional", "predecessor", "orphan", "peer"} {
		for _, complete := range []bool{true, false} {
			for _, ov := range []bool{false, true} {
				for _, carried := range []bool{false, true} {
					add(fmt.Sprintf("may-delete/%s/complete-%t/overrides-%t/carried-%t", kind, complete, ov, carried), secDelete,
						"whether a deletion request may be sent for one coordinate on one relay",
						eventsInput{Op: "may_delete", Coordinate: kind, Complete: complete, Overrides: ov, Carried: carried})
				}
			}
		}
	}

	plains := []string{
		`{"v":1,"client_id":"c","contexts":{}}`,
		blob(`"group:general":1700001000,"ov_s:group:dev":2,"ov_c:group:dev":1,"ov_b:group:dev":1700000500,"group:dev":1700000500`),
		"x",
		strings.Repeat("a", 32) + strings.Repeat("b", 33),
	}
	for ki, key := range []string{keyUser, keyOther} {
		conv, _, err := conversationKey(key)
		if err != nil {
			return nil, err
		}
		for pi, p := range plains {
			n := fixedNonce(fmt.Sprintf("%d/%d", ki, pi))
			add(fmt.Sprintf("nip44-encrypt/key%d/%d", ki+1, pi), secNIP44, "NIP-44 v2 encryption with a fixed conversation key and nonce",
				eventsInput{Op: "nip44_encrypt", ConversationKey: hex.EncodeToString(conv[:]), Nonce: hex.EncodeToString(n[:]), Plaintext: strPtr(p)})
		}
	}

	spec, err := specCiphertext()
	if err != nil {
		return nil, err
	}
	add("nip44-decrypt/spec-vector", secNIP44+"; Ciphertext Test Vector", "the spec's Ciphertext Test Vector: decrypt to self and parse", spec)
	conv, _, err := conversationKey(keyUser)
	if err != nil {
		return nil, err
	}
	for i, p := range []string{plains[0], plains[1], `{"v":2,"client_id":"c","contexts":{}}`, blob(`"a":-1,"ov_s:x":1`), `[]`} {
		n := fixedNonce(fmt.Sprintf("decrypt/%d", i))
		ct, err := nip44.Encrypt(p, conv, nip44.WithCustomNonce(n[:]))
		if err != nil {
			return nil, err
		}
		add(fmt.Sprintf("nip44-decrypt/%d", i), secNIP44, "decrypt to self, then Content Validation of the plaintext",
			eventsInput{Op: "nip44_decrypt", PrivateKey: keyUser, Ciphertext: ct})
	}
	otherConv, _, err := conversationKey(keyOther)
	if err != nil {
		return nil, err
	}
	n := fixedNonce("decrypt/other")
	ct, err := nip44.Encrypt(plains[0], otherConv, nip44.WithCustomNonce(n[:]))
	if err != nil {
		return nil, err
	}
	add("nip44-decrypt/other-key", secNIP44, "a payload encrypted to another user does not decrypt",
		eventsInput{Op: "nip44_decrypt", PrivateKey: keyUser, Ciphertext: ct})

	evs, err := eventCases(conv, otherConv)
	if err != nil {
		return nil, err
	}
	for _, e := range evs {
		add("event/"+e.id, secEvent, e.desc, eventsInput{Op: "event", PrivateKey: keyUser, Event: e.ev})
	}
	return cs, nil
}

type evCase struct {
	id, desc string
	ev       *nostr.Event
}

// eventCases builds signed events with fixed nonces (BIP-340 signing in
// go-nostr is deterministic), one per check ParseEvent makes.
func eventCases(conv, otherConv [32]byte) ([]evCase, error) {
	good := blob(`"chan":1700000000,"ov_c:chan":2`)
	build := func(label, signer string, kind int, tags nostr.Tags, plaintext string, key [32]byte) (*nostr.Event, error) {
		n := fixedNonce("event/" + label)
		content, err := nip44.Encrypt(plaintext, key, nip44.WithCustomNonce(n[:]))
		if err != nil {
			return nil, err
		}
		ev := &nostr.Event{Kind: kind, CreatedAt: createdAt0, Tags: tags, Content: content}
		return ev, ev.Sign(signer)
	}
	stdTags := nostr.Tags{{"d", model.DTag(slotA)}, {"t", model.TTagValue}}
	var out []evCase
	for _, c := range []struct {
		id, desc, signer string
		kind             int
		tags             nostr.Tags
		pt               string
		key              [32]byte
	}{
		{"valid", "a well-formed event of the user's", keyUser, model.KindReadState, stdTags, good, conv},
		{"valid-drops", "a valid event whose blob has dropped entries", keyUser, model.KindReadState, stdTags, blob(`"a":1.5,"ov_s:x":1,"b":3`), conv},
		{"wrong-kind", "kind 30079 is ignored", keyUser, 30079, stdTags, good, conv},
		{"wrong-author", "an event by another key is ignored", keyOther, model.KindReadState, stdTags, good, otherConv},
		{"no-d", "no d tag", keyUser, model.KindReadState, nostr.Tags{{"t", model.TTagValue}}, good, conv},
		{"bad-slot", "a malformed slot id", keyUser, model.KindReadState, nostr.Tags{{"d", "read-state:xyz"}, {"t", model.TTagValue}}, good, conv},
		{"no-t", "no t tag", keyUser, model.KindReadState, nostr.Tags{{"d", model.DTag(slotA)}}, good, conv},
		{"foreign-content", "content encrypted to someone else does not decrypt", keyUser, model.KindReadState, stdTags, good, otherConv},
		{"invalid-blob", "content that decrypts to a malformed blob is unusable", keyUser, model.KindReadState, stdTags, `{"v":1}`, conv},
		{"unknown-version", "content with v 2 is unusable here", keyUser, model.KindReadState, stdTags, `{"v":2,"client_id":"c","contexts":{}}`, conv},
	} {
		ev, err := build(c.id, c.signer, c.kind, c.tags, c.pt, c.key)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", c.id, err)
		}
		out = append(out, evCase{c.id, c.desc, ev})
	}
	// Tampering after signing.
	ev, err := build("tampered", keyUser, model.KindReadState, stdTags, good, conv)
	if err != nil {
		return nil, err
	}
	ev.CreatedAt++
	out = append(out, evCase{"bad-id", "created_at changed after signing: the id no longer matches", ev})
	ev, err = build("bad-sig", keyUser, model.KindReadState, stdTags, good, conv)
	if err != nil {
		return nil, err
	}
	ev.CreatedAt++
	ev.ID = ev.GetID()
	out = append(out, evCase{"bad-signature", "id recomputed after a change: the signature no longer verifies", ev})
	return out, nil
}

func readSpecVector(name string, v any) error {
	root, err := repoRoot()
	if err != nil {
		return err
	}
	b, err := os.ReadFile(filepath.Join(root, "model", "testdata", "vectors", name))
	if err != nil {
		return err
	}
	return json.Unmarshal(b, v)
}

// specClockSkew is the spec's clock skew vector from the core's test data.
func specClockSkew() (eventsInput, error) {
	var v struct {
		SlotID  string `json:"slot_id"`
		Fetched []struct {
			CreatedAt int64 `json:"created_at"`
		} `json:"fetched"`
		Now int64 `json:"now"`
	}
	if err := readSpecVector("clock_skew.json", &v); err != nil {
		return eventsInput{}, err
	}
	in := eventsInput{Op: "created_at", Now: v.Now, Slot: v.SlotID}
	for _, f := range v.Fetched {
		in.Fetched = append(in.Fetched, fetchedInput{Slot: v.SlotID, CreatedAt: f.CreatedAt})
	}
	return in, nil
}

// specCiphertext is the spec's Ciphertext Test Vector from the core's test
// data.
func specCiphertext() (eventsInput, error) {
	var v struct {
		PrivateKey string `json:"private_key"`
		Ciphertext string `json:"ciphertext"`
	}
	if err := readSpecVector("ciphertext.json", &v); err != nil {
		return eventsInput{}, err
	}
	return eventsInput{Op: "nip44_decrypt", PrivateKey: v.PrivateKey, Ciphertext: v.Ciphertext}, nil
}
