package model

import (
	"fmt"
	"math/bits"
	"strconv"
)

// Size limits of one published coordinate (Bounds and Budget, Debounce and
// Pruning, Content Validation).
const (
	// PlaintextBudget is the per-blob plaintext budget, measured with
	// EncodedSize.
	PlaintextBudget = 32 * 1024
	// DefaultMaxEventBytes is the relay event size limit assumed when none
	// is configured (commonly 64 KB, NIP-01).
	DefaultMaxEventBytes = 64 * 1024
	// DefaultMaxCoordinates bounds primary plus additional coordinates. Every
	// coordinate is one more event each full-state load must enumerate until
	// it is deleted, so the count is capped; beyond it frontier entries are
	// evicted instead.
	DefaultMaxCoordinates = 8
	// nip44MaxPlaintext is the largest plaintext NIP-44 v2 encrypts.
	nip44MaxPlaintext = 0xffff
)

// Budget is the size policy of one publication.
type Budget struct {
	// PlaintextBytes is the per-blob plaintext budget (EncodedSize).
	PlaintextBytes int
	// MaxEventBytes is the relay's event size limit, compared with the
	// event's JSON object as go-nostr serialises it (EventSize). 0 means no
	// relay limit beyond NIP-44's own.
	MaxEventBytes int
	// MaxCoordinates bounds primary plus additional coordinates; 0 means no
	// bound.
	MaxCoordinates int
	// MaxEntries bounds the entries of one blob (the receiver's 10,000-entry
	// rule).
	MaxEntries int
	// Horizon, when positive, lets frontier entries older than Now-Horizon be
	// dropped before writing (Debounce and Pruning). Override entries are
	// never dropped.
	Horizon int64
	// Now is the writer's clock in unix seconds, used with Horizon.
	Now int64
}

// DefaultBudget is the production policy: 32 KiB plaintext, a 64 KB relay
// event limit, at most DefaultMaxCoordinates coordinates, no horizon.
func DefaultBudget() Budget {
	return Budget{
		PlaintextBytes: PlaintextBudget,
		MaxEventBytes:  DefaultMaxEventBytes,
		MaxCoordinates: DefaultMaxCoordinates,
		MaxEntries:     MaxEntries,
	}
}

// BlobCapacity is the largest plaintext (EncodedSize) one coordinate may
// carry: the plaintext budget, the largest plaintext whose event fits
// MaxEventBytes at the widest created_at, and NIP-44's maximum, whichever is
// smallest. It is an error when no plaintext at all fits.
func (b Budget) BlobCapacity() (int, error) {
	c := nip44MaxPlaintext
	if b.PlaintextBytes > 0 {
		c = min(c, b.PlaintextBytes)
	}
	if b.MaxEventBytes > 0 {
		c = min(c, MaxPlaintextForEvent(b.MaxEventBytes))
	}
	if c < 1 {
		return 0, fmt.Errorf("budget admits no plaintext (plaintext %d bytes, event limit %d bytes)", b.PlaintextBytes, b.MaxEventBytes)
	}
	return c, nil
}

func (b Budget) maxEntries() int {
	if b.MaxEntries > 0 {
		return b.MaxEntries
	}
	return MaxEntries
}

// NIP44PaddedLen is the length NIP-44 v2 pads a plaintext of n bytes to
// (excluding its 2-byte length prefix): 32 up to 32 bytes, otherwise the
// next multiple of a chunk that is an eighth of the next power of two (at
// least 32).
func NIP44PaddedLen(n int) int {
	if n <= 32 {
		return 32
	}
	nextPower := 1 << bits.Len(uint(n-1))
	chunk := max(32, nextPower/8)
	return chunk * ((n-1)/chunk + 1)
}

// CiphertextLen is the length of the base64 NIP-44 v2 payload for an n-byte
// plaintext: version (1) + nonce (32) + length prefix (2) + padded
// plaintext + MAC (32), base64 with padding.
func CiphertextLen(n int) int {
	raw := 1 + 32 + 2 + NIP44PaddedLen(n) + 32
	return 4 * ((raw + 2) / 3)
}

// eventEnvelope is a read-state event's JSON object with every variable
// field empty, in go-nostr's field order. EventSize adds the variable parts.
const eventEnvelope = `{"kind":30078,"id":"","pubkey":"","created_at":,"tags":[["d","read-state:"],["t","read-state"]],"content":"","sig":""}`

// widestCreatedAt is the created_at used when a size must hold for any
// timestamp: the longest decimal form of an int64.
const widestCreatedAt = -1 << 63

// EventSize is the exact size in bytes of the JSON object of a read-state
// event built by BuildEvent for an n-byte plaintext at createdAt: computed
// from NIP-44's padding rule, not by encrypting (events_test.go checks it
// against built events).
func EventSize(n int, createdAt int64) int {
	return len(eventEnvelope) + 64 + 64 + len(strconv.FormatInt(createdAt, 10)) + 32 + CiphertextLen(n) + 128
}

// MaxPlaintextForEvent is the largest plaintext length whose event fits
// limit bytes at any created_at, or 0 if none does.
func MaxPlaintextForEvent(limit int) int {
	lo, hi := 0, nip44MaxPlaintext // invariant: lo fits (or is 0), hi+1 does not matter
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if EventSize(mid, widestCreatedAt) <= limit {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo
}
