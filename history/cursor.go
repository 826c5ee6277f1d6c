package history

import (
	"errors"
	"fmt"
)

// ErrConfig marks a configuration or input a round refuses.
var ErrConfig = errors.New("history")

func errorf(format string, a ...any) error {
	return fmt.Errorf("%w: %s", ErrConfig, fmt.Sprintf(format, a...))
}

// Cursor is a channel's persisted walk state. The region [Oldest, Newest]
// is verifiably complete: every wrap the community's relays held there when
// it was walked is in the store (except Pending, under rules that record
// one). Exhausted says nothing older than Oldest exists on any relay that
// answered.
type Cursor struct {
	HasNewest bool
	NewestMs  int64
	HasOldest bool
	OldestMs  int64
	Exhausted bool
	// Pending is a region inside [Oldest, Newest] a bridge left unwalked
	// because its page budget ran out. The document's rules never set it
	// (the known limitation); Healing does, and repairs it on later rounds.
	Pending *Window
}

func (c Cursor) String() string {
	s := "newest=" + optMs(c.HasNewest, c.NewestMs) + " oldest=" + optMs(c.HasOldest, c.OldestMs)
	if c.Exhausted {
		s += " exhausted"
	}
	if c.Pending != nil {
		s += " pending=" + c.Pending.String()
	}
	return s
}

func optMs(ok bool, v int64) string {
	if !ok {
		return "-"
	}
	return fmt.Sprint(v)
}

// Window is a page filter's time bounds, both inclusive as in NIP-01.
type Window struct {
	HasSince bool
	SinceMs  int64
	HasUntil bool
	UntilMs  int64
}

func (w Window) String() string {
	return "[" + optMs(w.HasSince, w.SinceMs) + ", " + optMs(w.HasUntil, w.UntilMs) + "]"
}

// Contains reports whether a wrap created at t lies in the window.
func (w Window) Contains(t int64) bool {
	return (!w.HasSince || t >= w.SinceMs) && (!w.HasUntil || t <= w.UntilMs)
}

// Opening is the window a channel's newest pass opens with: nothing held,
// no since (ask for everything, page down from there); something held, only
// what is new, from overlap below the saved newest.
func Opening(c Cursor, overlapMs int64) Window {
	if !c.HasNewest {
		return Window{}
	}
	return Window{HasSince: true, SinceMs: max(c.NewestMs-overlapMs, 0)}
}

// OlderThan is the window strictly below a boundary wrap's time.
func OlderThan(boundaryMs int64) Window {
	return Window{HasUntil: true, UntilMs: boundaryMs - 1}
}

// Between is the bridge's window: from the saved newest up to (excluding)
// the oldest wrap the newest page saw.
func Between(sinceMs, boundaryMs int64) Window {
	return Window{HasSince: true, SinceMs: sinceMs, HasUntil: true, UntilMs: boundaryMs - 1}
}

// Merge folds a round's proposal into the saved cursor monotonically:
// newest moves forward only, oldest back only, exhausted is sticky. The
// pending region is the proposal's: a round that walked it reports what is
// left of it.
func Merge(saved, proposed Cursor) Cursor {
	out := saved
	if proposed.HasNewest && (!out.HasNewest || proposed.NewestMs > out.NewestMs) {
		out.HasNewest, out.NewestMs = true, proposed.NewestMs
	}
	if proposed.HasOldest && (!out.HasOldest || proposed.OldestMs < out.OldestMs) {
		out.HasOldest, out.OldestMs = true, proposed.OldestMs
	}
	out.Exhausted = saved.Exhausted || proposed.Exhausted
	out.Pending = proposed.Pending
	return out
}
