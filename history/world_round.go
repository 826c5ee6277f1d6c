package history

import (
	"fmt"

	"github.com/nip-rs/harness/search"
)

// checkState runs the state invariants on s.
func checkState(s state) []search.Finding {
	var fs []search.Finding
	c := s.cursor
	if c.HasNewest && c.HasOldest {
		gap := s.missing(func(t int) bool {
			in := int64(t) >= c.OldestMs && int64(t) <= c.NewestMs
			return in && (c.Pending == nil || !c.Pending.Contains(int64(t)))
		})
		if len(gap) > 0 {
			fs = append(fs, search.Finding{Inv: InvNoGap, Detail: fmt.Sprintf("cursor %s claims complete, the store lacks %s a relay holds", c, ints(gap))})
		}
	}
	if c.Exhausted {
		below := s.missing(func(t int) bool { return !c.HasOldest || int64(t) < c.OldestMs })
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
}

// runRound runs the round of transition rt from s against the simulated
// relays.
func (w *World) runRound(s state, rt roundTrans) (roundRun, error) {
	store := &MemoryStore{sorted: s.events(s.store)} // newest first already
	rs := make([]*Relay, relays)
	for i := range rs {
		rs[i] = &Relay{Events: s.events(s.held[i]), Mode: rt.b[i].mode, FromPage: rt.b[i].from}
	}
	post := s
	round, err := NewRound(w.U.Round, w.Rules, s.cursor, rt.intent, relays, store)
	if err != nil {
		return roundRun{}, err
	}
	cur, prog := Drive(round, rs, func(page int) {
		if !rt.mid || page != 1 || post.next != s.next {
			return
		}
		e := Event{ID: eventID(post.next), CreatedAtMs: int64(post.next)}
		for i := range rs {
			rs[i].Events = append(rs[i].Events, e)
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
	for _, e := range store.sorted {
		post.store |= bit(int(e.CreatedAtMs))
	}
	post.cursor = cur
	post.fetched = s.fetched || prog.Fetched > 0
	return roundRun{post: post, cursor: cur, progress: prog}, nil
}

func quietMode(m Mode) bool { return m == Answers || m == AuthThenAnswers }

// round is the round transition and its checks.
func (w *World) round(s state, rt roundTrans) (state, []search.Finding) {
	rr, err := w.runRound(s, rt)
	if err != nil {
		return s, []search.Finding{{Inv: InvTerminates, Detail: "the round refused to start: " + err.Error()}}
	}
	n, prog := rr.post, rr.progress
	quiet := quietMode(rt.b[0].mode) && quietMode(rt.b[1].mode) && !rt.mid
	n.quiet = 0
	if quiet {
		n.quiet = 1 + int(rt.intent)
	}
	var fs []search.Finding
	add := func(inv int, format string, a ...any) {
		fs = append(fs, search.Finding{Inv: inv, Detail: fmt.Sprintf(format, a...)})
	}
	cfg := w.U.Round
	if bound := 1 + 2*cfg.CatchUpPages + max(cfg.CatchUpPages, cfg.LoadOlderPages); len(prog.Pages) > bound {
		add(InvTerminates, "the round asked %d pages, more than its budgets allow (%d)", len(prog.Pages), bound)
	}
repeat:
	for i, p := range prog.Pages {
		for _, q := range prog.Pages[:i] {
			if p.Pass == q.Pass && p.Window == q.Window {
				add(InvTerminates, "the round asked the %s page %s twice", p.Pass, p.Window)
				break repeat
			}
		}
	}
	pre, post := s.cursor, n.cursor
	switch {
	case pre.HasNewest && (!post.HasNewest || post.NewestMs < pre.NewestMs):
		add(InvMonotone, "newest moved back: %s -> %s", pre, post)
	case pre.HasOldest && (!post.HasOldest || post.OldestMs > pre.OldestMs):
		add(InvMonotone, "oldest moved forward: %s -> %s", pre, post)
	case pre.Exhausted && !post.Exhausted:
		add(InvMonotone, "exhausted was cleared by a round: %s -> %s", pre, post)
	}
	fs = append(fs, w.failureChecks(rt, pre, post, prog)...)
	if quiet && s.quiet != 0 && pre.HasOldest && !pre.Exhausted {
		below := s.missing(func(t int) bool { return int64(t) < pre.OldestMs })
		if len(below) > 0 && n.store == s.store && post.OldestMs >= pre.OldestMs {
			add(InvResume, "a repeated quiet %s round left %s below oldest unfetched and moved nothing (cursor %s)", rt.intent, ints(below), post)
		}
	}
	if quiet && rt.intent == CatchUp && s.quiet == 1 && pre.HasOldest {
		hole := s.missing(func(t int) bool { return int64(t) >= pre.OldestMs })
		healed := false
		for _, t := range hole {
			healed = healed || n.store&bit(t) != 0
		}
		moved := post.NewestMs != pre.NewestMs || !samePending(post.Pending, pre.Pending)
		if len(hole) > 0 && !healed && !moved {
			add(InvHeal, "a repeated quiet catch-up left the hole %s unrepaired and moved nothing (cursor %s)", ints(hole), post)
		}
	}
	return n, fs
}

// failureChecks: a relay failing from its first page blocks every cursor
// change, and the round reports exactly the relays that failed, as they
// failed.
func (w *World) failureChecks(rt roundTrans, pre, post Cursor, prog Progress) []search.Finding {
	var fs []search.Finding
	for i, b := range rt.b {
		if b.mode.Fails() && b.from == 0 && !sameCursor(post, pre) {
			fs = append(fs, search.Finding{Inv: InvFailedRelay, Detail: fmt.Sprintf("relay%d %s, yet the cursor moved: %s -> %s", i, b, pre, post)})
			break
		}
	}
	for i, b := range rt.b {
		want := ""
		if b.mode.Fails() && len(prog.Pages) > b.from {
			want = b.mode.FailKind()
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

func samePending(a, b *Window) bool { return (a == nil) == (b == nil) && (a == nil || *a == *b) }

func sameCursor(a, b Cursor) bool {
	pa, pb := a.Pending, b.Pending
	a.Pending, b.Pending = nil, nil
	return a == b && samePending(pa, pb)
}
