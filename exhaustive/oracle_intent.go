package exhaustive

import (
	"encoding/binary"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/nip-rs/harness/model"
)

// The intent oracle judges what a user should see from the history of the
// actions they performed, not from the registers the rules computed. The
// network universes record that history as harness metadata next to each
// device (never inside a blob):
//
//   - an intent event is a mark-unread (a set, with the effective frontier at
//     that moment as its baseline), an explicit mark-read (a clear), or an
//     advance that turned the device's own live register dead (a natural
//     clear). It is named (device, sequence number); the sequence counts
//     that device's events on that context and survives a reinstall, so
//     names stay unique.
//   - each event carries its causal past: the set of events on the same
//     context its device knew when it acted, as one bit mask of sequence
//     numbers per device. Masks rather than vector clocks, because a
//     reinstalled device's next event does not know the events its previous
//     installation made.
//   - a device knows, per context, the antichain of maximal events it has
//     heard of. Its own event replaces the antichain (it dominates everything
//     the device knew); a message carries the sender's antichains as they
//     were at publish time and the receiver keeps the maximal elements of
//     the union; a reinstall forgets them.
//
// judgeIntent states which histories the oracle judges and what it expects
// (NOTE.md, "Network universes", states the definition and why).

// intentKind is the kind of an intent event.
type intentKind uint8

const (
	intentSet          intentKind = iota + 1 // mark-unread
	intentClear                              // explicit mark-read
	intentNaturalClear                       // advance past the baseline of the own live register
)

func (k intentKind) String() string {
	switch k {
	case intentSet:
		return "set"
	case intentClear:
		return "clear"
	case intentNaturalClear:
		return "natural-clear"
	}
	return fmt.Sprintf("intent(%d)", uint8(k))
}

// maxIntentSeq bounds the events one device makes on one context (the bit
// masks of a causal past hold 64).
const maxIntentSeq = 64

// intentEvent is one intent event on one context.
type intentEvent struct {
	dev  uint8
	seq  uint8 // 1-based
	kind intentKind
	b    uint32   // a set's baseline
	past []uint64 // per device: bit s-1 set when that device's event s is in the past
}

func (e intentEvent) bit() uint64 { return 1 << (e.seq - 1) }

// before reports whether e is in f's causal past.
func (e intentEvent) before(f intentEvent) bool { return f.past[e.dev]&e.bit() != 0 }

func (e intentEvent) same(f intentEvent) bool { return e.dev == f.dev && e.seq == f.seq }

func (e intentEvent) String() string {
	s := fmt.Sprintf("%s by d%d#%d", e.kind, e.dev, e.seq)
	if e.kind == intentSet {
		s += fmt.Sprintf(" B=%d", e.b)
	}
	return s
}

// antichain is a set of pairwise concurrent events, sorted by (dev, seq).
type antichain []intentEvent

// clock is the causal past the antichain stands for: every event in it and
// in the past of one of its events.
func (a antichain) clock(devices int) []uint64 {
	c := make([]uint64, devices)
	for _, e := range a {
		for d, m := range e.past {
			c[d] |= m
		}
		c[e.dev] |= e.bit()
	}
	return c
}

// merge is the maximal elements of a ∪ b.
func (a antichain) merge(b antichain) antichain {
	all := append(slices.Clone(a), b...)
	var out antichain
	for i, e := range all {
		keep := true
		for j, f := range all {
			if e.before(f) || (e.same(f) && j < i) {
				keep = false
				break
			}
		}
		if keep {
			out = append(out, e)
		}
	}
	slices.SortFunc(out, func(x, y intentEvent) int {
		if x.dev != y.dev {
			return int(x.dev) - int(y.dev)
		}
		return int(x.seq) - int(y.seq)
	})
	return out
}

// appendKey is the exact encoding of the antichain.
func (a antichain) appendKey(buf []byte) []byte {
	buf = binary.AppendUvarint(buf, uint64(len(a)))
	for _, e := range a {
		buf = append(buf, e.dev, e.seq, byte(e.kind))
		buf = binary.AppendUvarint(buf, uint64(e.b))
		for _, m := range e.past {
			buf = binary.AppendUvarint(buf, m)
		}
	}
	return buf
}

func (a antichain) String() string {
	if len(a) == 0 {
		return "{}"
	}
	var s []string
	for _, e := range a {
		s = append(s, e.String())
	}
	return "{" + strings.Join(s, ", ") + "}"
}

// renamed is the antichain with devices renamed by perm (device i becomes
// perm[i]).
func (a antichain) renamed(perm []int) antichain {
	out := make(antichain, len(a))
	for i, e := range a {
		past := make([]uint64, len(e.past))
		for d, m := range e.past {
			past[perm[d]] = m
		}
		out[i] = intentEvent{dev: uint8(perm[e.dev]), seq: e.seq, kind: e.kind, b: e.b, past: past}
	}
	return antichain(nil).merge(out) // re-sorted
}

// expectation is the oracle's verdict on one context.
type expectation uint8

const (
	unjudged expectation = iota
	expectDead
	expectLive
)

func (x expectation) String() string {
	return [...]string{"not judged", "not live", "live"}[x]
}

// judgeIntent is the oracle: what the user should see on a context whose
// surviving maximal intent events are m, once every device has merged the
// frontier fFinal, under the tie policy.
//
//   - no event: nothing was ever marked, so not live;
//   - one event (the actions form a causal chain as the survivors see it): a
//     clear or natural clear means not live; a set with baseline B means live
//     iff fFinal <= B (a frontier advance past the baseline reads as read);
//   - several events with the same causal past (siblings of one history,
//     whose counters are therefore equal): a set ties with an explicit clear,
//     so any explicit clear means not live under clear-wins, while under
//     set-wins the sets decide; natural clears only advanced a frontier,
//     which fFinal already accounts for. With no deciding set the context
//     is not live. Under set-wins it is live iff fFinal <= the largest
//     baseline among the sets. Under clear-wins it is live if fFinal <= the
//     smallest baseline (no sibling is ever overtaken) and not live if
//     fFinal exceeds the largest; in between it is not judged: a sibling set
//     overtaken by the frontier is published as a tombstone floor whose
//     counter ties with the other sets, and whether that floor reaches them
//     before their live triple reaches its device is a race the counters
//     settle, not an intent;
//   - anything else (concurrent actions from different pasts, where the
//     counters decide by how many actions each side saw, not by any intent)
//     is not judged.
func judgeIntent(m antichain, fFinal uint32, tie model.TiePolicy) (expectation, string) {
	exp, why := judge(m, fFinal, tie)
	return exp, why.String()
}

// judge is judgeIntent with its reason left unformatted until a finding
// needs it: the oracle judges every context of every state.
func judge(m antichain, fFinal uint32, tie model.TiePolicy) (expectation, reason) {
	switch len(m) {
	case 0:
		return expectDead, reason{form: reasonNoEvent}
	case 1:
		e := m[0]
		if e.kind != intentSet {
			return expectDead, reason{form: reasonLastAction, kind: e.kind}
		}
		return liveIff(fFinal <= e.b), reason{form: reasonLastSet, b: e.b, f: fFinal}
	}
	for _, e := range m[1:] {
		if !slices.Equal(e.past, m[0].past) {
			return unjudged, reason{form: reasonConcurrent}
		}
	}
	clear, set := false, false
	minB, maxB := uint32(math.MaxUint32), uint32(0)
	for _, e := range m {
		switch e.kind {
		case intentClear:
			clear = true
		case intentSet:
			set = true
			minB, maxB = min(minB, e.b), max(maxB, e.b)
		}
	}
	switch {
	case clear && tie == model.ClearWins:
		return expectDead, reason{form: reasonClearWins}
	case !set:
		return expectDead, reason{form: reasonSiblingClears}
	case tie == model.SetWins:
		return liveIff(fFinal <= maxB), reason{form: reasonLargest, b: maxB, f: fFinal}
	case fFinal <= minB:
		return expectLive, reason{form: reasonSmallest, b: minB, f: fFinal}
	case fFinal > maxB:
		return expectDead, reason{form: reasonLargest, b: maxB, f: fFinal}
	}
	return unjudged, reason{form: reasonOvertook}
}

// reason is why judge decided: a form and the numbers it names.
type reason struct {
	form uint8
	kind intentKind
	b, f uint32
}

const (
	reasonNoEvent = iota
	reasonLastAction
	reasonLastSet
	reasonConcurrent
	reasonClearWins
	reasonSiblingClears
	reasonLargest
	reasonSmallest
	reasonOvertook
)

func (r reason) String() string {
	switch r.form {
	case reasonNoEvent:
		return "no surviving intent event"
	case reasonLastAction:
		return "the last action is a " + r.kind.String()
	case reasonLastSet:
		return fmt.Sprintf("the last action is a set with baseline %d, merged frontier %d", r.b, r.f)
	case reasonConcurrent:
		return "concurrent actions from different pasts"
	case reasonClearWins:
		return "sibling set and clear: clear wins"
	case reasonSiblingClears:
		return "sibling clears"
	case reasonLargest:
		return fmt.Sprintf("sibling sets, largest baseline %d, merged frontier %d", r.b, r.f)
	case reasonSmallest:
		return fmt.Sprintf("sibling sets, smallest baseline %d, merged frontier %d", r.b, r.f)
	}
	return "sibling sets, the frontier overtook some of them"
}

func liveIff(live bool) expectation {
	if live {
		return expectLive
	}
	return expectDead
}
