package model

import (
	"errors"
	"fmt"
	"math"
)

// MaxU32 is the largest value a frontier or override counter may hold on the
// wire (Manual-Unread Override Layer, Wire Encoding).
const MaxU32 = math.MaxUint32

// Reg is one context's override register: set counter S, clear counter C and
// baseline B (the effective frontier at the most recent mark-unread). The
// zero Reg is the virgin register.
type Reg struct {
	S, C, B uint32
}

// Virgin reports whether the register was never activated (S == 0, C == 0).
// The baseline is ignored: a register with no counters carries no override.
func (r Reg) Virgin() bool { return r.S == 0 && r.C == 0 }

// Ceiling is max(S, C), the value a tombstone floor preserves.
func (r Reg) Ceiling() uint32 { return max(r.S, r.C) }

func (r Reg) String() string { return fmt.Sprintf("(%d,%d,%d)", r.S, r.C, r.B) }

// TiePolicy decides S == C > 0. ClearWins is the only conforming policy
// (Tie Policy); SetWins exists so the checks can compare the two.
type TiePolicy uint8

const (
	ClearWins TiePolicy = iota
	SetWins
)

func (t TiePolicy) String() string {
	if t == SetWins {
		return "set"
	}
	return "clear"
}

// ParseTiePolicy reads "clear" or "set".
func ParseTiePolicy(s string) (TiePolicy, error) {
	switch s {
	case "clear":
		return ClearWins, nil
	case "set":
		return SetWins, nil
	}
	return 0, fmt.Errorf("unknown tie policy %q (want clear or set)", s)
}

// ParseTies reads a list of policies to run under: "clear", "set", or
// "both" (clear-wins first, the conforming policy). It is what a command's
// -tie flag takes, kept beside the policies so that a new one is parsed
// where it is defined.
func ParseTies(s string) ([]TiePolicy, error) {
	if s == "both" {
		return []TiePolicy{ClearWins, SetWins}, nil
	}
	t, err := ParseTiePolicy(s)
	if err != nil {
		return nil, fmt.Errorf("-tie: %v (or both)", err)
	}
	return []TiePolicy{t}, nil
}

// joinReg is the componentwise max (Merge Rule, Override Registers).
func joinReg(a, b Reg) Reg {
	return Reg{S: max(a.S, b.S), C: max(a.C, b.C), B: max(a.B, b.B)}
}

// liveReg is the liveness predicate against the merged effective frontier f
// (Liveness Predicate): S > 0, f <= B, and S > C (or S == C under SetWins).
func liveReg(r Reg, f uint32, tie TiePolicy) bool {
	if r.S == 0 || f > r.B {
		return false
	}
	if tie == SetWins {
		return r.S >= r.C
	}
	return r.S > r.C
}

// canonicalReg is the publication form (Mandatory Canonical Publication,
// Tombstone Floor): live unchanged, dead folded to (0, max(S,C), 0), virgin
// omitted (ok == false).
func canonicalReg(r Reg, f uint32, tie TiePolicy) (canon Reg, ok bool) {
	if r.Virgin() {
		return Reg{}, false
	}
	if liveReg(r, f, tie) {
		return r, true
	}
	return Reg{C: r.Ceiling()}, true
}

// Errors returned by the actions. They are wrapped with context; test with
// errors.Is.
var (
	// ErrCounterCeiling: max(S, C) is already MaxU32, so no representable
	// increment exists; wrapping is prohibited (Actions).
	ErrCounterCeiling = errors.New("override counter at uint32 ceiling")
	// ErrStillActive: an explicit mark-read at the ceiling left the override
	// active, so it must be reported as failed (Actions).
	ErrStillActive = errors.New("override still active after mark-read")
	// ErrKeyTooLong: a key of the context's override group would exceed
	// the 256-byte key limit, so every receiver would reject the group; the
	// mark-unread is refused like one at the counter ceiling (Bounds and
	// Budget, the 256-byte key limit).
	ErrKeyTooLong = errors.New("override key over 256 bytes")
)

// markUnreadReg is the mark-unread action: S := max(S,C)+1, B := the
// effective frontier f, C unchanged. At the ceiling it refuses and returns
// the register unchanged.
func markUnreadReg(r Reg, f uint32) (Reg, error) {
	if r.Ceiling() == MaxU32 {
		return r, fmt.Errorf("mark-unread refused: %w", ErrCounterCeiling)
	}
	return Reg{S: r.Ceiling() + 1, C: r.C, B: f}, nil
}

// MaxOverrideContextBytes is the longest raw context id whose override
// keys all fit the 256-byte key limit: 256 minus the 5-byte prefix.
const MaxOverrideContextBytes = MaxKeyBytes - len(PrefixS)

// overrideKeysFit is the production check behind mark-unread's refusal of
// a context whose ov_* keys would exceed MaxKeyBytes. The three prefixes
// have one length, so the longest key is len(PrefixS)+len(ctx).
func overrideKeysFit(ctx string) error {
	if n := len(ctx); n > MaxOverrideContextBytes {
		return fmt.Errorf("mark-unread refused: %w (context id of %d bytes; at most %d fit)", ErrKeyTooLong, n, MaxOverrideContextBytes)
	}
	return nil
}

// markReadReg is the counter half of an explicit mark-read; fAfter is the
// effective frontier after the frontier advance, which the caller performs
// first (the advance stands even when this fails). C := max(S,C)+1. At the
// ceiling the counters stay, and the action succeeds only if the override is
// already inactive at fAfter.
func markReadReg(r Reg, fAfter uint32, tie TiePolicy) (Reg, error) {
	return markReadDecision(r, fAfter, liveReg(r, fAfter, tie))
}

var errStillActiveAtCeiling = fmt.Errorf("mark-read failed: %w: %w", ErrCounterCeiling, ErrStillActive)
