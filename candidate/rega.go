package candidate

import (
	"cmp"
	"fmt"

	"github.com/nip-rs/harness/model"
)

// Op is what a candidate-A register records: a set (mark-unread) or a
// clear (mark-read).
type Op uint8

const (
	OpClear Op = iota
	OpSet
)

func (o Op) String() string {
	if o == OpSet {
		return "SET"
	}
	return "CLEAR"
}

// RegA is candidate A's per-context register: the operation with the
// highest (counter, tiebreak) wins, the tiebreak being the client id of the
// installation that performed it. The zero value is "no register".
type RegA struct {
	Counter  uint32
	Tiebreak string
	Op       Op
	Baseline uint32
}

// Virgin reports the absent register.
func (r RegA) Virgin() bool { return r == RegA{} }

func (r RegA) String() string {
	if r.Virgin() {
		return "none"
	}
	return fmt.Sprintf("(%d,%s,%s,%d)", r.Counter, r.Tiebreak, r.Op, r.Baseline)
}

// tieOp is the op a tie policy prefers when counter and tiebreak are equal.
func tieOp(t model.TiePolicy) Op {
	if t == model.SetWins {
		return OpSet
	}
	return OpClear
}

// compareA orders registers lexicographically by counter, then tiebreak,
// then whether the op is the one the tie policy prefers.
func compareA(a, b RegA, tie model.TiePolicy) int {
	if c := cmp.Compare(a.Counter, b.Counter); c != 0 {
		return c
	}
	if c := cmp.Compare(a.Tiebreak, b.Tiebreak); c != 0 {
		return c
	}
	w := tieOp(tie)
	return cmp.Compare(b2i(a.Op == w), b2i(b.Op == w))
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// JoinA is candidate A's merge: the larger register in the lexicographic
// order wins whole; equal orders keep a's operation with the larger
// baseline. The absent register is the identity.
func JoinA(a, b RegA, tie model.TiePolicy) RegA {
	switch {
	case a.Virgin():
		return b
	case b.Virgin():
		return a
	}
	switch compareA(a, b, tie) {
	case 1:
		return a
	case -1:
		return b
	}
	a.Baseline = max(a.Baseline, b.Baseline)
	return a
}

// LiveA is candidate A's verdict: a set whose baseline the frontier has
// not passed.
func LiveA(r RegA, f uint32) bool { return r.Op == OpSet && !r.Virgin() && f <= r.Baseline }
