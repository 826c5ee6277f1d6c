package history

import (
	"fmt"
	"math"

	"github.com/nip-rs/harness/search"
)

// checkState runs the state invariants on s.
func (w *World) checkState(s state) []search.Finding {
	var fs []search.Finding
	c, u := s.cursor, w.U
	if c.HasNewest && c.HasOldest {
		gap := s.missing(u, func(t int, d int64) bool {
			in := d >= c.OldestMs && d <= c.NewestMs
			return in && !s.isLate(t) && (c.Pending == nil || !c.Pending.Contains(d))
		})
		if len(gap) > 0 {
			fs = append(fs, search.Finding{Inv: InvNoGap, Detail: fmt.Sprintf("cursor %s claims complete, the store lacks %s a relay holds", c, ints(gap))})
		}
	}
	if c.Exhausted {
		below := s.missing(u, func(_ int, d int64) bool { return !c.HasOldest || d < c.OldestMs })
		if len(below) > 0 {
			fs = append(fs, search.Finding{Inv: InvEarned, Detail: fmt.Sprintf("cursor %s is exhausted, relays still hold %s below it", c, ints(below))})
		}
		if !s.fetched {
			fs = append(fs, search.Finding{Inv: InvNotificationOnly, Detail: fmt.Sprintf("cursor %s is exhausted, no round ever fetched a wrap (store %s came from live notifications)", c, maskString(s.store))})
		}
	}
	return fs
}

// roundRun is what one round transition did.
type roundRun struct {
	post     state
	cursor   Cursor
	progress Progress
	strayed  [relays]bool // the relay sent a wrap outside a page's window
}

// runRound runs the round of transition rt from s against the simulated
// relays.
func (w *World) runRound(s state, rt roundTrans) (roundRun, error) {
	u := w.U
	store := newMemoryStoreSorted(s.events(u, s.store))
	rs := make([]*Relay, relays)
	for i := range rs {
		rs[i] = &Relay{Events: s.events(u, s.held[i]), Mode: rt.b[i].mode, FromPage: rt.b[i].from}
	}
	if u.Cap > 0 {
		rs[1].Cap = u.Cap
	} else if !u.Unrecorded {
		rs[1].Record = Unbounded
	}
	if !u.Unrecorded {
		rs[0].Record = Unbounded
	}
	post := s
	round, err := NewRound(u.Round, w.Rules, s.cursor, rt.intent, relays, store)
	if err != nil {
		return roundRun{}, err
	}
	if err := round.SetNow(s.now(u)); err != nil {
		return roundRun{}, err
	}
	cur, prog := Drive(round, rs, func(page int) {
		if !rt.mid || page != 1 || post.next != s.next {
			return
		}
		e := Event{ID: eventID(post.next), CreatedAtMs: u.dateOf(post.next)}
		for i := range rs {
			rs[i].Events = append(rs[i].Events, e)
			SortNewestFirst(rs[i].Events)
			post.held[i] |= bit(post.next)
		}
		store.Add(e) // the live subscription delivers it too
		post.next++
	})
	if rt.mid && post.next == s.next {
		// The round had no second page: the wrap lands after it.
		for i := range rs {
			post.held[i] |= bit(post.next)
		}
		post.store |= bit(post.next)
		post.next++
	}
	for _, e := range store.all() {
		post.store |= bit(slotOf(e))
	}
	post.cursor = cur
	post.fetched = s.fetched || prog.Fetched > 0
	rr := roundRun{post: post, cursor: cur, progress: prog}
	for i, rl := range rs {
		rr.strayed[i] = rl.Strayed
	}
	return rr, nil
}

func quietMode(m Mode) bool { return m == Answers || m == AuthThenAnswers }

// pageBound is the most pages a round may ask: the newest page, a bridge
// and a repair of CatchUpPages each, the older pass's budget, and for each
// of them the pinned re-asks of its oldest second (CatchUpPages + 1 at
// most) and one probe.
func pageBound(cfg Config) int {
	return (1 + 2*cfg.CatchUpPages + max(cfg.CatchUpPages, cfg.LoadOlderPages)) * (cfg.CatchUpPages + 3)
}

// round is the round transition and its checks.
func (w *World) round(s state, rt roundTrans) (state, []search.Finding) {
	n, _, fs := w.roundProgress(s, rt)
	return n, fs
}

// roundProgress is round with the round's own account of itself, which
// the walk's liveness check reads (a round that refused to start reports
// itself failed).
func (w *World) roundProgress(s state, rt roundTrans) (state, Progress, []search.Finding) {
	rr, err := w.runRound(s, rt)
	if err != nil {
		return s, Progress{Failed: true}, []search.Finding{{Inv: InvTerminates, Detail: "the round refused to start: " + err.Error()}}
	}
	n, prog, u := rr.post, rr.progress, w.U
	// A round that reports a second it could not prove complete (a relay
	// capped inside it) has told the truth about an incomplete read, as
	// a failed relay does: it is not held to the progress checks.
	quiet := quietMode(rt.b[0].mode) && quietMode(rt.b[1].mode) && !rt.mid && prog.Unproven == 0
	n.quiet = 0
	if quiet {
		n.quiet = 1 + int(rt.intent)
	}
	var fs []search.Finding
	add := func(inv int, format string, a ...any) {
		fs = append(fs, search.Finding{Inv: inv, Detail: fmt.Sprintf(format, a...)})
	}
	if bound := pageBound(u.Round); len(prog.Pages) > bound {
		add(InvTerminates, "the round asked %d pages, more than its budgets allow (%d)", len(prog.Pages), bound)
	}
repeat:
	for i, p := range prog.Pages {
		for _, q := range prog.Pages[:i] {
			if p.Pass == q.Pass && p.Window == q.Window && p.Limit == q.Limit {
				add(InvTerminates, "the round asked the %s page %s twice", p.Pass, p.Window)
				break repeat
			}
		}
	}
	pre, post := s.cursor, n.cursor
	if p, ok := wasted(pre, u.Round.OverlapMs, prog.Pages); ok {
		add(InvEfficient, "the %s page %s asks again what the saved cursor %s proves complete", p.Pass, p.Window, pre)
	}
	switch {
	case pre.HasNewest && (!post.HasNewest || post.NewestMs < pre.NewestMs):
		add(InvMonotone, "newest moved back: %s -> %s", pre, post)
	case pre.HasOldest && (!post.HasOldest || post.OldestMs > pre.OldestMs):
		add(InvMonotone, "oldest moved forward: %s -> %s", pre, post)
	case pre.Exhausted && !post.Exhausted:
		add(InvMonotone, "exhausted was cleared by a round: %s -> %s", pre, post)
	}
	fs = append(fs, w.failureChecks(rt, pre, post, prog, rr.strayed)...)
	if quietMode(rt.b[0].mode) && quietMode(rt.b[1].mode) && !rt.mid && u.Cap == 0 {
		for _, us := range prog.UnprovenSeconds {
			if !s.undecidable(u, us) {
				add(InvStated, "the round stated second %d unproven, though every relay holds another wrap in the page's window %s and answers any limit", us.SecondMs, us.Origin)
				break
			}
		}
	}
	if quiet && rt.intent == CatchUp && pre.HasNewest && s.late != 0 {
		// A wrap that arrived in the claimed newest second (or within the
		// overlap below it) is what the warm open's since is for.
		// One the round recorded as still to repair is not claimed: H8
		// holds the repair to account.
		late := s.missing(u, func(t int, d int64) bool {
			return s.isLate(t) && d >= pre.NewestMs-u.Round.OverlapMs && (post.Pending == nil || !post.Pending.Contains(d))
		})
		var still []int
		for _, t := range late {
			if n.store&bit(t) == 0 {
				still = append(still, t)
			}
		}
		if len(still) > 0 {
			add(InvNoGap, "a quiet catch-up from %s left %s, which arrived inside the claimed region, unfetched", pre, ints(still))
		}
	}
	n.late &^= n.store
	if quiet && s.quiet != 0 && pre.HasOldest && !pre.Exhausted {
		below := s.missing(u, func(_ int, d int64) bool { return d < pre.OldestMs })
		if len(below) > 0 && n.store == s.store && post.OldestMs >= pre.OldestMs {
			add(InvResume, "a repeated quiet %s round left %s below oldest unfetched and moved nothing (cursor %s)", rt.intent, ints(below), post)
		}
	}
	if quiet && rt.intent == CatchUp && s.quiet == 1 && pre.HasOldest {
		hole := s.missing(u, func(t int, d int64) bool {
			return d >= pre.OldestMs && (!s.isLate(t) || (pre.Pending != nil && pre.Pending.Contains(d)))
		})
		healed := false
		for _, t := range hole {
			healed = healed || n.store&bit(t) != 0
		}
		moved := post.NewestMs != pre.NewestMs || !samePending(post.Pending, pre.Pending)
		if len(hole) > 0 && !healed && !moved {
			add(InvHeal, "a repeated quiet catch-up left the hole %s unrepaired and moved nothing (cursor %s)", ints(hole), post)
		}
	}
	return n, prog, fs
}

// wasted returns the first page whose window meets the region the saved
// cursor proves complete, outside the overlap band [newest - overlap,
// newest] a warm open re-asks on purpose (wherever it falls): [oldest,
// newest] without the pending region, and everything below oldest once
// exhausted.
func wasted(c Cursor, overlap int64, pages []Page) (Page, bool) {
	type span struct{ lo, hi int64 }
	var known []span
	if c.HasNewest && c.HasOldest {
		top := c.NewestMs - overlap - 1
		if p := c.Pending; p != nil {
			known = append(known, span{c.OldestMs, min(top, p.SinceMs-1)}, span{p.UntilMs + 1, top})
		} else {
			known = append(known, span{c.OldestMs, top})
		}
	}
	if c.Exhausted && c.HasOldest {
		below := c.OldestMs - 1
		if c.HasNewest {
			below = min(below, c.NewestMs-overlap-1)
		}
		known = append(known, span{math.MinInt64, below})
	}
	for _, p := range pages {
		lo, hi := int64(math.MinInt64), int64(math.MaxInt64)
		if p.Window.HasSince {
			lo = p.Window.SinceMs
		}
		if p.Window.HasUntil {
			hi = p.Window.UntilMs
		}
		for _, k := range known {
			if max(lo, k.lo) <= min(hi, k.hi) {
				return p, true
			}
		}
	}
	return Page{}, false
}

// failureChecks: a relay failing from its first page blocks every cursor
// change, and the round reports exactly the relays that failed, as they
// failed: a relay that ignored a page's window is reported as a stray.
func (w *World) failureChecks(rt roundTrans, pre, post Cursor, prog Progress, strayed [relays]bool) []search.Finding {
	var fs []search.Finding
	for i, b := range rt.b {
		if b.mode.Fails() && b.from == 0 && !sameCursor(post, pre) {
			fs = append(fs, search.Finding{Inv: InvFailedRelay, Detail: fmt.Sprintf("relay%d %s, yet the cursor moved: %s -> %s", i, b, pre, post)})
			break
		}
	}
	for i, b := range rt.b {
		want := ""
		switch {
		case b.mode.Fails() && len(prog.Pages) > b.from:
			want = b.mode.FailKind()
		case strayed[i]:
			want = FailStray
		}
		got := ""
		for _, e := range prog.Errors {
			if e.Relay == i {
				got = e.Kind
			}
		}
		if got != want {
			fs = append(fs, search.Finding{Inv: InvFailedRelay, Detail: fmt.Sprintf("relay%d %s: the round reports %q, want %q", i, b, got, want)})
		}
	}
	return fs
}

// undecidable reports whether some relay holds wraps of the unproven
// second and no other readable wrap in the window of the page it came
// from: no answer it can give shows whether its cap stops inside the
// second.
func (s state) undecidable(u UniverseConfig, us UnprovenSecond) bool {
	for _, h := range s.held {
		at, other := false, false
		for t := 1; t < s.next; t++ {
			if h&bit(t) == 0 || !s.addressable(t) {
				continue
			}
			d := s.date(u, t)
			switch {
			case !inRange(d) || !us.Origin.Contains(d):
			case d == us.SecondMs:
				at = true
			default:
				other = true
			}
		}
		if at && !other {
			return true
		}
	}
	return false
}

func samePending(a, b *Window) bool { return (a == nil) == (b == nil) && (a == nil || *a == *b) }

func sameCursor(a, b Cursor) bool {
	pa, pb := a.Pending, b.Pending
	a.Pending, b.Pending = nil, nil
	return a == b && samePending(pa, pb)
}
