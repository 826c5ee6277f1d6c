package history

import "math"

// What a round accepts from outside, and what it learns about relays. A
// persisted cursor, the clock and every created_at a relay sends are
// outside input: each is checked against [0, MaxTimeMs] before any
// arithmetic, so no window the round asks for or reads overflows.

// inRange reports whether a created_at is one the walk reads.
func inRange(t int64) bool { return t >= 0 && t <= MaxTimeMs }

// checkCursor refuses a persisted cursor the walk could not have written.
func checkCursor(c Cursor) error {
	switch {
	case c.HasNewest && !inRange(c.NewestMs):
		return errorf("saved cursor: newest %d outside 0..%d", c.NewestMs, MaxTimeMs)
	case c.HasOldest && !inRange(c.OldestMs):
		return errorf("saved cursor: oldest %d outside 0..%d", c.OldestMs, MaxTimeMs)
	case c.HasNewest && c.HasOldest && c.OldestMs > c.NewestMs:
		return errorf("saved cursor: oldest %d above newest %d", c.OldestMs, c.NewestMs)
	}
	if p := c.Pending; p != nil {
		// A repair that walked its region down to below its since leaves
		// it empty (since > until): harmless, it is walked no further.
		if !p.HasSince || !p.HasUntil || !inRange(p.SinceMs) || p.UntilMs < -1 || p.UntilMs > MaxTimeMs {
			return errorf("saved cursor: pending region %s is not a window inside 0..%d", p, MaxTimeMs)
		}
	}
	return nil
}

// clampWindow is w with its bounds inside [0, MaxTimeMs]: the store is
// read only there, whatever the live subscription put in it.
func clampWindow(w Window) Window {
	if !w.HasSince || w.SinceMs < 0 {
		w.HasSince, w.SinceMs = true, 0
	}
	if !w.HasUntil || w.UntilMs > MaxTimeMs {
		w.HasUntil, w.UntilMs = true, MaxTimeMs
	}
	return w
}

// below is the until of the page after one whose oldest wrap is at
// oldestMs, through the rules' Boundary; false when it would be negative
// (no older created_at exists).
func (r *Round) below(oldestMs int64) (int64, bool) {
	u := r.rules.Boundary(oldestMs)
	return min(u, MaxTimeMs), u >= 0
}

// SetNow gives the round the local clock (ms), which rules with a
// Ceiling bound the newest page by. It must precede the first Next.
func (r *Round) SetNow(nowMs int64) error {
	if r.started {
		return errorf("the clock is set before the first page")
	}
	if !inRange(nowMs) {
		return errorf("clock %d outside 0..%d", nowMs, MaxTimeMs)
	}
	r.nowMs, r.hasNow = nowMs, true
	return nil
}

// Record gives the round a relay's capability record: the largest limit
// it is known to answer in full (the probe's measured cap). It must
// precede the first Next.
func (r *Round) Record(relay, honours int) error {
	if r.started {
		return errorf("capability records are given before the first page")
	}
	if relay < 0 || relay >= len(r.honours) || honours < 0 {
		return errorf("capability record: relay %d of %d, limit %d", relay, len(r.honours), honours)
	}
	r.honours[relay] = honours
	return nil
}

// capacity is what the round knows of relay's cap when it judges a page
// of the given limit.
func (r *Round) capacity(relay, limit int) Capacity {
	k := Capacity{Honours: r.honours[relay]}
	for _, p := range r.seen[relay] {
		if p[0] <= limit {
			k.Seen = max(k.Seen, p[1])
		}
	}
	return k
}

// learn records a relay's answer: a page it filled shows it honours that
// limit; any answer shows its cap at that limit is at least what it sent.
func (r *Round) learn(relay, limit, delivered int) {
	if delivered >= limit {
		r.honours[relay] = max(r.honours[relay], limit)
	}
	for i, p := range r.seen[relay] {
		if p[0] == limit {
			r.seen[relay][i][1] = max(p[1], delivered)
			return
		}
	}
	r.seen[relay] = append(r.seen[relay], [2]int{limit, delivered})
}

// Unbounded is a capability record for a relay known to answer any limit
// the walk asks in full.
const Unbounded = math.MaxInt
