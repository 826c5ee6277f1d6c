package history

import (
	"fmt"
	"strings"
)

// state is one global state of the universe.
type state struct {
	held    [relays]int32 // wraps each relay stores, bit t for created_at t
	store   int32         // wraps in the client's store
	cursor  Cursor
	rekeyed bool  // the prior epoch (t=1) is addressable
	fetched bool  // some round fetched a wrap from a relay
	quiet   int   // the last action: 1 a quiet catch-up, 2 a quiet older round, 0 anything else
	next    int   // slot of the next wrap published
	late    int32 // wraps dated inside the second the cursor claimed when they arrived
	future  int32 // wraps a member dated far ahead (hostile universe)
	back    int32 // wraps a member dated the overlap back (Backdate)
	absurd  int32 // wraps a member dated before 0 (Absurd)
}

const width = 14

func initial() state {
	s := state{next: 2}
	s.held[0] = bit(1)
	return s
}

func (s state) encode() []int32 {
	row := make([]int32, width)
	row[0], row[1], row[2] = s.held[0], s.held[1], s.store
	row[3], row[4] = -1, -1
	if s.cursor.HasNewest {
		row[3] = int32(s.cursor.NewestMs)
	}
	if s.cursor.HasOldest {
		row[4] = int32(s.cursor.OldestMs)
	}
	var f int32
	for i, b := range []bool{s.cursor.Exhausted, s.cursor.Pending != nil, s.rekeyed, s.fetched} {
		if b {
			f |= 1 << i
		}
	}
	row[5] = f
	if p := s.cursor.Pending; p != nil {
		row[6], row[7] = int32(p.SinceMs), int32(p.UntilMs)
	}
	row[8], row[9] = int32(s.next), int32(s.quiet)
	row[10], row[11], row[12], row[13] = s.late, s.future, s.back, s.absurd
	return row
}

func decode(row []int32) state {
	s := state{held: [relays]int32{row[0], row[1]}, store: row[2]}
	if row[3] >= 0 {
		s.cursor.HasNewest, s.cursor.NewestMs = true, int64(row[3])
	}
	if row[4] >= 0 {
		s.cursor.HasOldest, s.cursor.OldestMs = true, int64(row[4])
	}
	f := row[5]
	s.cursor.Exhausted = f&1 != 0
	if f&2 != 0 {
		s.cursor.Pending = &Window{HasSince: true, SinceMs: int64(row[6]), HasUntil: true, UntilMs: int64(row[7])}
	}
	s.rekeyed, s.fetched = f&4 != 0, f&8 != 0
	s.next, s.quiet = int(row[8]), int(row[9])
	s.late, s.future, s.back, s.absurd = row[10], row[11], row[12], row[13]
	return s
}

func (s state) addressable(t int) bool { return t != 1 || s.rekeyed }

// heldAnywhere reports whether some relay stores the wrap at t.
func (s state) heldAnywhere(t int) bool {
	for _, h := range s.held {
		if h&bit(t) != 0 {
			return true
		}
	}
	return false
}

// now is the universe's clock in a state: the date of the next wrap.
func (s state) now(u UniverseConfig) int64 { return u.dateOf(s.next) }

// date is the created_at of the wrap in slot t.
func (s state) date(u UniverseConfig, t int) int64 {
	if s.future&bit(t) != 0 {
		return farAhead + int64(t)
	}
	if s.absurd&bit(t) != 0 {
		return -int64(t) // before 0: no honest writer's date
	}
	if s.back&bit(t) != 0 {
		return max(u.dateOf(t)-u.Round.OverlapMs, 2) // never into the prior epoch's second
	}
	return u.dateOf(t)
}

// missing lists the addressable wraps some relay holds and the store does
// not, for which keep(slot, created_at) is true. A wrap dated in the
// future is not yet due and never missing; one dated before 0 is no wrap
// the walk reads.
func (s state) missing(u UniverseConfig, keep func(t int, d int64) bool) []int {
	var out []int
	for t := 1; t < s.next; t++ {
		if s.addressable(t) && s.heldAnywhere(t) && s.store&bit(t) == 0 && (s.future|s.absurd)&bit(t) == 0 && keep(t, s.date(u, t)) {
			out = append(out, t)
		}
	}
	return out
}

func (s state) isLate(t int) bool { return s.late&bit(t) != 0 }

// maxSlots bounds created_at in the universe (UniverseConfig.Validate).
const maxSlots = 21

var eventIDs = func() (out [maxSlots + 1]string) {
	for t := range out {
		out[t] = fmt.Sprintf("w%d", t)
	}
	return out
}()

func eventID(t int) string { return eventIDs[t] }

// events are the addressable wraps of mask, newest first.
func (s state) events(u UniverseConfig, mask int32) []Event {
	var out []Event
	for t := s.next - 1; t >= 1; t-- {
		if mask&bit(t) != 0 && s.addressable(t) {
			out = append(out, Event{ID: eventID(t), CreatedAtMs: s.date(u, t)})
		}
	}
	if u.Tick > 1 || s.future != 0 || s.back != 0 || s.absurd != 0 {
		SortNewestFirst(out)
	}
	return out
}

// slotOf is the slot of a wrap event (its id is w<slot>).
func slotOf(e Event) int {
	t := 0
	for _, c := range e.ID[1:] {
		t = t*10 + int(c-'0')
	}
	return t
}

func maskString(m int32) string {
	var ts []string
	for t := 1; t < 31; t++ {
		if m&bit(t) != 0 {
			ts = append(ts, fmt.Sprint(t))
		}
	}
	return "{" + strings.Join(ts, ",") + "}"
}

// String renders the state on one line per part, as witnesses print it.
func (s state) String() string {
	ep := "prior epoch sealed"
	if s.rekeyed {
		ep = "prior epoch held"
	}
	extra := ""
	if s.future != 0 {
		extra += " future-dated " + maskString(s.future)
	}
	if s.back != 0 {
		extra += " backdated " + maskString(s.back)
	}
	if s.absurd != 0 {
		extra += " dated-before-0 " + maskString(s.absurd)
	}
	if s.late != 0 {
		extra += " late " + maskString(s.late)
	}
	return fmt.Sprintf("  relay0 %s relay1 %s store %s%s\n  cursor %s (%s)", maskString(s.held[0]), maskString(s.held[1]), maskString(s.store), extra, s.cursor, ep)
}

func ints(ts []int) string {
	var ss []string
	for _, t := range ts {
		ss = append(ss, fmt.Sprint(t))
	}
	return "{" + strings.Join(ss, ",") + "}"
}
