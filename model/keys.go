package model

import "strings"

// Reserved namespace (Reserved Namespace): the stem "ov_" and the marker
// "esc:" are reserved for the override layer.
const (
	EscMarker = "esc:"
	ovStem    = "ov_"
	PrefixS   = "ov_s:"
	PrefixC   = "ov_c:"
	PrefixB   = "ov_b:"

	// MaxKeyBytes is the per-entry key limit (Content Validation).
	MaxKeyBytes = 256
	// MaxEntries is the per-blob entry limit (Content Validation).
	MaxEntries = 10000
	// MaxClientIDChars bounds client_id in UTF-8 characters (Content).
	MaxClientIDChars = 64
)

// KeyKind classifies a wire key of the contexts map.
type KeyKind uint8

const (
	KeyFrontier KeyKind = iota // a (possibly escaped) frontier key
	KeyS                       // ov_s:<ctx>
	KeyC                       // ov_c:<ctx>
	KeyB                       // ov_b:<ctx>
)

func (k KeyKind) String() string {
	return [...]string{"frontier", "ov_s", "ov_c", "ov_b"}[k]
}

// NeedsEscape reports whether a raw context id starts with a reserved stem.
func NeedsEscape(raw string) bool {
	return strings.HasPrefix(raw, ovStem) || strings.HasPrefix(raw, EscMarker)
}

// EscapeKey is the publish-side escaping of a raw context id used as a
// frontier key: "esc:" is prepended when the id starts with "ov_" or "esc:".
//
// It stays exported as a codec helper, beside OverrideKey: whoever writes
// a blob by hand (a test vector, a fixture sized to a budget) needs the
// wire key of a frontier entry as the text defines it. It decides nothing
// for a replica, the codec or the split: those escape through
// Rules.Escape, which Spec sets to this function, so a rule set that
// replaces it is followed everywhere.
func EscapeKey(raw string) string {
	if NeedsEscape(raw) {
		return EscMarker + raw
	}
	return raw
}

// UnescapeKey is the receive-side inverse: strip exactly one leading "esc:".
// Like EscapeKey it is a codec helper for reading a wire key by hand; the
// drivers unescape through Rules.Unescape.
func UnescapeKey(wire string) string {
	return strings.TrimPrefix(wire, EscMarker)
}

// ClassifyKey splits a wire key into its kind and the raw context id it
// belongs to. Override keys carry the raw id after their 5-byte prefix and
// are never escaped; frontier keys are unescaped by unescape. Only the three
// ov_s:/ov_c:/ov_b: prefixes are override keys; any other key (including
// esc:ov_s:… and unknown ov_x: keys) is a frontier key.
func ClassifyKey(wire string, unescape func(string) string) (KeyKind, string) {
	if len(wire) >= 5 && wire[:3] == ovStem && wire[4] == ':' {
		switch wire[3] {
		case 's':
			return KeyS, wire[5:]
		case 'c':
			return KeyC, wire[5:]
		case 'b':
			return KeyB, wire[5:]
		}
	}
	return KeyFrontier, unescape(wire)
}

// OverrideKey is the wire key of one register component for raw context ctx.
func OverrideKey(kind KeyKind, ctx string) string {
	switch kind {
	case KeyS:
		return PrefixS + ctx
	case KeyC:
		return PrefixC + ctx
	case KeyB:
		return PrefixB + ctx
	}
	return ctx
}

// Scheme is the optional read-context scheme of a raw context id (Read
// Context Schemes).
type Scheme uint8

const (
	SchemeOpaque Scheme = iota // a channel or any other opaque id
	SchemeThread               // thread:<64 lowercase hex>
	SchemeMsg                  // msg:<64 lowercase hex>
)

// ContextScheme recognises thread:/msg: keys only when the remainder is
// exactly 64 lowercase hex characters; anything else stays opaque.
func ContextScheme(raw string) Scheme {
	if rest, ok := strings.CutPrefix(raw, "thread:"); ok && isLowerHex(rest, 64) {
		return SchemeThread
	}
	if rest, ok := strings.CutPrefix(raw, "msg:"); ok && isLowerHex(rest, 64) {
		return SchemeMsg
	}
	return SchemeOpaque
}

// ChildPrefixed reports whether a key starts with msg: or thread: at all,
// the test legacy clients use for pruning and trimming (they do not check
// the 64-hex shape).
func ChildPrefixed(key string) bool {
	return strings.HasPrefix(key, "msg:") || strings.HasPrefix(key, "thread:")
}

func isLowerHex(s string, n int) bool {
	if len(s) != n {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

// DTagPrefix starts every read-state d tag (d Tag).
const DTagPrefix = "read-state:"

// ValidSlotID reports whether s is exactly 32 lowercase hex characters.
func ValidSlotID(s string) bool { return isLowerHex(s, 32) }

// ValidDTag reports whether a d tag value is read-state:<32 lowercase hex>.
func ValidDTag(d string) bool {
	rest, ok := strings.CutPrefix(d, DTagPrefix)
	return ok && ValidSlotID(rest)
}
