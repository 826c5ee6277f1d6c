package gen

import (
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/nbd-wtf/go-nostr"
	"github.com/nbd-wtf/go-nostr/nip44"

	"github.com/nip-rs/harness/model"
)

// eventsInput is one events vector; Op says which fields apply.
type eventsInput struct {
	// Op is tags, role, created_at, may_delete, nip44_encrypt,
	// nip44_decrypt or event.
	Op   string     `json:"op"`
	Tags [][]string `json:"tags,omitempty"`
	// role
	Self     *selfInput `json:"self,omitempty"`
	Slot     string     `json:"slot,omitempty"`
	ClientID *string    `json:"client_id,omitempty"`
	// created_at
	Now     int64          `json:"now,omitempty"`
	Fetched []fetchedInput `json:"fetched,omitempty"`
	// may_delete
	Coordinate string `json:"coordinate,omitempty"`
	Overrides  bool   `json:"overrides,omitempty"`
	Carried    bool   `json:"carried,omitempty"`
	Complete   bool   `json:"complete,omitempty"`
	// nip44
	ConversationKey string  `json:"conversation_key,omitempty"`
	Nonce           string  `json:"nonce,omitempty"`
	Plaintext       *string `json:"plaintext,omitempty"`
	PrivateKey      string  `json:"private_key,omitempty"`
	Ciphertext      string  `json:"ciphertext,omitempty"`
	// event
	Event *nostr.Event `json:"event,omitempty"`
}

type selfInput struct {
	ClientID   string   `json:"client_id"`
	Primary    string   `json:"primary"`
	Additional []string `json:"additional,omitempty"`
}

type fetchedInput struct {
	Slot      string `json:"slot"`
	CreatedAt int64  `json:"created_at"`
}

type eventsOutput struct {
	Slot      string `json:"slot,omitempty"`
	Error     string `json:"error,omitempty"`
	Role      string `json:"role,omitempty"`
	CreatedAt *int64 `json:"created_at,omitempty"`
	Allowed   *bool  `json:"allowed,omitempty"`
	// Refusal is the deletion refusal: incomplete_load, current_primary,
	// not_own or not_carried.
	Refusal         string       `json:"refusal,omitempty"`
	ConversationKey string       `json:"conversation_key,omitempty"`
	Ciphertext      string       `json:"ciphertext,omitempty"`
	Plaintext       *string      `json:"plaintext,omitempty"`
	Blob            *codecOutput `json:"blob,omitempty"`
}

// eventErrors maps the core's event errors to codes, in the order
// ParseEvent applies them.
var eventErrors = []struct {
	err  error
	code string
}{
	{model.ErrWrongKind, "wrong_kind"},
	{model.ErrWrongAuthor, "wrong_author"},
	{model.ErrNoDTag, "no_d_tag"},
	{model.ErrManyDTags, "many_d_tags"},
	{model.ErrDTagPrefix, "d_tag_prefix"},
	{model.ErrBadSlotID, "bad_slot_id"},
	{model.ErrNoTTag, "no_t_tag"},
	{model.ErrManyTTags, "many_t_tags"},
	{model.ErrOversized, "oversized"},
	{model.ErrBadID, "bad_id"},
	{model.ErrBadSignature, "bad_signature"},
	{model.ErrDecrypt, "decrypt_failed"},
	{model.ErrContent, "content_invalid"},
}

// EventErrorCodes lists every event error code, in the order the rules
// apply them.
func EventErrorCodes() []string {
	var out []string
	for _, e := range eventErrors {
		out = append(out, e.code)
	}
	return out
}

// DeleteRefusalCodes lists every deletion refusal code.
func DeleteRefusalCodes() []string {
	var out []string
	for _, r := range deleteRefusals {
		out = append(out, r.code)
	}
	return out
}

func eventError(err error) (string, error) {
	for _, e := range eventErrors {
		if errors.Is(err, e.err) {
			return e.code, nil
		}
	}
	return "", fmt.Errorf("unclassified event error %v", err)
}

var deleteRefusals = []struct {
	err  error
	code string
}{
	{model.ErrLoadIncomplete, "incomplete_load"},
	{model.ErrLiveCarrier, "current_primary"},
	{model.ErrNotOwn, "not_own"},
	{model.ErrNotCarried, "not_carried"},
}

var coordKinds = map[string]model.CoordKind{
	"primary": model.CoordPrimary, "additional": model.CoordAdditional, "predecessor": model.CoordPredecessor,
	"orphan": model.CoordOrphan, "peer": model.CoordPeer,
}

func conversationKey(secret string) ([32]byte, string, error) {
	pub, err := nostr.GetPublicKey(secret)
	if err != nil {
		return [32]byte{}, "", err
	}
	k, err := nip44.GenerateConversationKey(pub, secret)
	return k, pub, err
}

func computeEvents(rules *model.Rules, raw json.RawMessage) (any, error) {
	var in eventsInput
	if err := json.Unmarshal(raw, &in); err != nil {
		return nil, err
	}
	switch in.Op {
	case "tags":
		ev := &nostr.Event{Tags: make(nostr.Tags, len(in.Tags))}
		for i, t := range in.Tags {
			ev.Tags[i] = nostr.Tag(t)
		}
		slot, err := model.EventSlot(ev)
		if err != nil {
			code, cerr := eventError(err)
			return eventsOutput{Error: code}, cerr
		}
		return eventsOutput{Slot: slot}, nil
	case "role":
		if in.Self == nil || in.ClientID == nil {
			return nil, errors.New("role: self and client_id required")
		}
		self := model.Self{ClientID: in.Self.ClientID, Primary: in.Self.Primary, Additional: in.Self.Additional}
		return eventsOutput{Role: rules.Slots.Role(self, in.Slot, *in.ClientID).String()}, nil
	case "created_at":
		fs := make([]model.FetchedBlob, len(in.Fetched))
		for i, f := range in.Fetched {
			fs[i] = model.FetchedBlob{Slot: f.Slot, CreatedAt: f.CreatedAt}
		}
		t := model.CreatedAtFor(rules, in.Now, fs, in.Slot)
		return eventsOutput{CreatedAt: &t}, nil
	case "may_delete":
		kind, ok := coordKinds[in.Coordinate]
		if !ok {
			return nil, fmt.Errorf("may_delete: coordinate %q", in.Coordinate)
		}
		derr := rules.Slots.MayDelete(model.DeleteFacts{Kind: kind, Overrides: in.Overrides, Carried: in.Carried, Complete: in.Complete})
		out := eventsOutput{Allowed: boolPtr(derr == nil)}
		if derr != nil {
			for _, r := range deleteRefusals {
				if errors.Is(derr, r.err) {
					out.Refusal = r.code
				}
			}
			if out.Refusal == "" {
				return nil, fmt.Errorf("unclassified refusal %v", derr)
			}
		}
		return out, nil
	case "nip44_encrypt":
		key, nonce, err := hex32(in.ConversationKey, in.Nonce)
		if err != nil || in.Plaintext == nil {
			return nil, fmt.Errorf("nip44_encrypt: %v", err)
		}
		ct, err := nip44.Encrypt(*in.Plaintext, key, nip44.WithCustomNonce(nonce[:]))
		if err != nil {
			return nil, err
		}
		return eventsOutput{Ciphertext: ct}, nil
	case "nip44_decrypt":
		key, _, err := conversationKey(in.PrivateKey)
		if err != nil {
			return nil, err
		}
		pt, err := nip44.Decrypt(in.Ciphertext, key)
		if err != nil {
			code, cerr := eventError(model.ErrDecrypt)
			return eventsOutput{ConversationKey: hex.EncodeToString(key[:]), Error: code}, cerr
		}
		b, err := codecOf(rules, []byte(pt))
		if err != nil {
			return nil, err
		}
		return eventsOutput{ConversationKey: hex.EncodeToString(key[:]), Plaintext: &pt, Blob: &b}, nil
	case "event":
		k, err := model.NewSelfKeys(in.PrivateKey)
		if err != nil {
			return nil, err
		}
		slot, _, _, perr := model.ParseEvent(rules, k, in.Event, model.DefaultMaxEventBytes)
		out := eventsOutput{Slot: slot}
		if perr != nil {
			if out.Error, err = eventError(perr); err != nil {
				return nil, err
			}
			return out, nil
		}
		pt, err := k.Decrypt(in.Event.Content)
		if err != nil {
			return nil, err
		}
		b, err := codecOf(rules, pt)
		if err != nil {
			return nil, err
		}
		out.Blob = &b
		return out, nil
	}
	return nil, fmt.Errorf("unknown events op %q", in.Op)
}

func hex32(a, b string) ([32]byte, [32]byte, error) {
	var x, y [32]byte
	for i, s := range []string{a, b} {
		d, err := hex.DecodeString(s)
		if err != nil || len(d) != 32 {
			return x, y, fmt.Errorf("not 32 hex bytes: %q", s)
		}
		copy([]*[32]byte{&x, &y}[i][:], d)
	}
	return x, y, nil
}

func eventsKind() Kind {
	return Kind{
		Name:        "events",
		Description: "The kind 30078 event rules: d and t tags, fetched-blob identification and slot conflict, created_at under clock skew, coordinate deletion, NIP-44 encryption with a fixed conversation key and nonce, decryption to self, and whole signed events.",
		HowToRun:    "Dispatch on input.op. tags: validate the tag list, compare slot or error. role: identify a fetched blob at slot with client_id for an installation self. created_at: the created_at of the next publish at slot given now and the fetched versions. may_delete: the deletion rule for one coordinate on one relay. nip44_encrypt: encrypt plaintext with conversation_key and nonce, compare ciphertext exactly. nip44_decrypt: derive the conversation key of private_key with its own public key, decrypt, compare plaintext and the codec outcome. event: authenticate, decrypt and validate event for the user of private_key, compare slot, error, and the codec outcome.",
		Cases:       eventsCases,
		Compute:     computeEvents,
	}
}
