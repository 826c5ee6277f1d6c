package model

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"

	"github.com/nbd-wtf/go-nostr"
	"github.com/nbd-wtf/go-nostr/nip44"
)

// Event constants (Event Structure, t Tag).
const (
	// KindReadState is the kind of every read-state event (NIP-78).
	KindReadState = 30078
	// TTagValue is the value of the one required t tag.
	TTagValue = "read-state"
)

// Reasons ParseEvent ignores an event. Each is distinct; ParseEvent wraps
// them with detail, so test with errors.Is. An event with any of them
// contributes nothing to the merge.
var (
	ErrNilEvent     = errors.New("no event")
	ErrWrongKind    = errors.New("event kind is not 30078")
	ErrWrongAuthor  = errors.New("event is not authored by the user")
	ErrNoDTag       = errors.New("event has no d tag")
	ErrManyDTags    = errors.New("event has more than one d tag")
	ErrDTagPrefix   = errors.New("d tag lacks the read-state: prefix")
	ErrBadSlotID    = errors.New("slot id is not 32 lowercase hex characters")
	ErrNoTTag       = errors.New("event has no read-state t tag")
	ErrManyTTags    = errors.New("event has more than one read-state t tag")
	ErrOversized    = errors.New("event exceeds the size limit")
	ErrBadID        = errors.New("event id does not match its content")
	ErrBadSignature = errors.New("event signature is invalid")
	ErrDecrypt      = errors.New("content does not decrypt")
	ErrContent      = errors.New("decrypted content is not a valid blob")
	ErrBadKey       = errors.New("invalid private key")
)

// SelfKeys is the user's key pair with the NIP-44 conversation key of
// encrypt-to-self (Content): the user's private key as the local party and
// the user's own public key as the remote one. Deriving it costs an ECDH, so
// it is computed once.
type SelfKeys struct {
	Secret string // hex private key
	Public string // hex x-only public key
	conv   [32]byte
}

// NewSelfKeys derives the public key and conversation key of a hex private
// key.
func NewSelfKeys(secret string) (*SelfKeys, error) {
	if !isLowerHex(secret, 64) {
		return nil, fmt.Errorf("%w: not 64 lowercase hex characters", ErrBadKey)
	}
	pub, err := nostr.GetPublicKey(secret)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrBadKey, err)
	}
	// go-nostr takes the remote public key first, then the local secret.
	conv, err := nip44.GenerateConversationKey(pub, secret)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrBadKey, err)
	}
	return &SelfKeys{Secret: secret, Public: pub, conv: conv}, nil
}

// Encrypt encrypts plaintext to self with NIP-44 v2 (random nonce).
func (k *SelfKeys) Encrypt(plaintext []byte) (string, error) {
	return nip44.Encrypt(string(plaintext), k.conv)
}

// Decrypt decrypts a NIP-44 v2 payload encrypted to self.
func (k *SelfKeys) Decrypt(payload string) ([]byte, error) {
	pt, err := nip44.Decrypt(payload, k.conv)
	if err != nil {
		return nil, err
	}
	return []byte(pt), nil
}

// NewSlotID returns a fresh random slot id: 16 bytes from crypto/rand as 32
// lowercase hex characters (d Tag).
func NewSlotID() (string, error) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("slot id: %w", err)
	}
	return hex.EncodeToString(b[:]), nil
}

// DTag is the d tag value of slot id slot.
func DTag(slot string) string { return DTagPrefix + slot }

// BuildEvent builds and signs the read-state event carrying blob at slot:
// kind 30078, exactly the tags [d read-state:<slot>] and [t read-state],
// content the NIP-44 encryption to self of EncodeBlob(blob).
func BuildEvent(k *SelfKeys, slot string, createdAt int64, blob Blob) (*nostr.Event, error) {
	if !ValidSlotID(slot) {
		return nil, fmt.Errorf("build event: %w: %q", ErrBadSlotID, slot)
	}
	pt := EncodeBlob(blob)
	if len(pt) > nip44MaxPlaintext {
		return nil, fmt.Errorf("build event: plaintext is %d bytes, NIP-44 allows %d", len(pt), nip44MaxPlaintext)
	}
	content, err := k.Encrypt(pt)
	if err != nil {
		return nil, fmt.Errorf("build event: encrypt: %w", err)
	}
	ev := &nostr.Event{
		Kind:      KindReadState,
		CreatedAt: nostr.Timestamp(createdAt),
		Tags:      nostr.Tags{{"d", DTag(slot)}, {"t", TTagValue}},
		Content:   content,
	}
	if err := ev.Sign(k.Secret); err != nil {
		return nil, fmt.Errorf("build event: sign: %w", err)
	}
	return ev, nil
}

// EventJSONSize is the size of the event's JSON object as go-nostr
// serialises it, the size a relay limit and ParseEvent's limit compare.
func EventJSONSize(ev *nostr.Event) int {
	b, err := ev.MarshalJSON()
	if err != nil {
		return 0
	}
	return len(b)
}

// EventSlot applies the tag rules (d Tag, t Tag) and returns the slot id:
// exactly one d tag, of the form read-state:<32 lowercase hex>, and exactly
// one t tag with value read-state.
func EventSlot(ev *nostr.Event) (string, error) {
	var d []string
	ts := 0
	for _, tag := range ev.Tags {
		if len(tag) == 0 {
			continue
		}
		switch tag[0] {
		case "d":
			v := ""
			if len(tag) > 1 {
				v = tag[1]
			}
			d = append(d, v)
		case "t":
			if len(tag) > 1 && tag[1] == TTagValue {
				ts++
			}
		}
	}
	switch {
	case len(d) == 0:
		return "", ErrNoDTag
	case len(d) > 1:
		return "", fmt.Errorf("%w (%d)", ErrManyDTags, len(d))
	}
	slot, ok := strings.CutPrefix(d[0], DTagPrefix)
	if !ok {
		return "", fmt.Errorf("%w: %q", ErrDTagPrefix, d[0])
	}
	if !ValidSlotID(slot) {
		return "", fmt.Errorf("%w: %q", ErrBadSlotID, slot)
	}
	switch {
	case ts == 0:
		return "", ErrNoTTag
	case ts > 1:
		return "", fmt.Errorf("%w (%d)", ErrManyTTags, ts)
	}
	return slot, nil
}

// ParseEvent authenticates, decrypts and validates one fetched event, in
// this order: kind, author, tags (EventSlot), size (maxEventBytes, 0 for no
// limit), id, signature, decryption, then ParseBlobWith(rules, plaintext).
// The slot id is returned whenever the tags were valid, even when a later
// step fails, so a caller can tell which coordinate an unusable event
// occupies. On any error the Blob is empty: nothing may be merged.
func ParseEvent(rules *Rules, k *SelfKeys, ev *nostr.Event, maxEventBytes int) (slot string, blob Blob, rep Report, err error) {
	if ev == nil {
		return "", Blob{}, Report{}, ErrNilEvent
	}
	if ev.Kind != KindReadState {
		return "", Blob{}, Report{}, fmt.Errorf("%w: kind %d", ErrWrongKind, ev.Kind)
	}
	if ev.PubKey != k.Public {
		return "", Blob{}, Report{}, fmt.Errorf("%w: pubkey %.16q", ErrWrongAuthor, ev.PubKey)
	}
	if slot, err = EventSlot(ev); err != nil {
		return "", Blob{}, Report{}, err
	}
	if maxEventBytes > 0 {
		if n := EventJSONSize(ev); n > maxEventBytes {
			return slot, Blob{}, Report{}, fmt.Errorf("%w: %d bytes, limit %d", ErrOversized, n, maxEventBytes)
		}
	}
	// CheckID indexes the id unguarded (go-nostr v0.38.2), so its shape is
	// checked first.
	if !isLowerHex(ev.ID, 64) || !ev.CheckID() {
		return slot, Blob{}, Report{}, fmt.Errorf("%w: %.16q", ErrBadID, ev.ID)
	}
	if ok, serr := ev.CheckSignature(); !ok {
		if serr != nil {
			return slot, Blob{}, Report{}, fmt.Errorf("%w: %w", ErrBadSignature, serr)
		}
		return slot, Blob{}, Report{}, ErrBadSignature
	}
	pt, derr := k.Decrypt(ev.Content)
	if derr != nil {
		return slot, Blob{}, Report{}, fmt.Errorf("%w: %w", ErrDecrypt, derr)
	}
	b, rep, perr := ParseBlobWith(rules, pt)
	if perr != nil {
		return slot, Blob{}, Report{}, fmt.Errorf("%w: %w", ErrContent, perr)
	}
	return slot, b, rep, nil
}
