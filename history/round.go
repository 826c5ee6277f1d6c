package history

type phase int

const (
	phaseNewest phase = iota
	phaseBridge
	phaseRepair
	phaseOlder
	phaseDone
)

// Round is one channel round, sans I/O. Drive it with Next, then Deliver,
// EOSE or Closed for each relay asked, or Timeout; when Done, Result is the
// merged cursor and the round's progress.
type Round struct {
	cfg    Config
	rules  *Rules
	intent Intent
	saved  Cursor
	// floor is saved with its newest at the rules' BridgeFloor: what the
	// bridge walks down to and records as unbridged.
	floor Cursor
	store Store
	out   []bool // relays out of the walk
	all   []int  // every relay, the page's relays until one drops out
	buf   pageState

	phase  phase
	budget int
	until  int64
	page   *pageState

	proposed  Cursor
	newest    PageSummary
	newestOK  bool
	bridged   bool
	recorded  bool
	unbridged Window
	// repaired is the region this round's repair pass walked after the
	// bridge left unbridged what it did (from the saved pending region's
	// until down to the repair's next until): a region the bridge left
	// inside it was read after the bridge, and is not pending again.
	repaired    Window
	hasRepaired bool
	contiguous  bool
	progress    Progress
	anyFailed   bool

	// The clock (SetNow) and what is known of each relay's cap (Record,
	// and the pages of this round).
	nowMs   int64
	hasNow  bool
	honours []int
	seen    [][][2]int // by relay: (limit, delivered) of its answered pages
	started bool
	pin     pinState
}

type pageState struct {
	page      Page
	open      []bool // by relay: asked and not yet settled
	nopen     int
	delivered []int   // by relay: wraps counted against the limit
	readable  []int   // by relay: wraps read (in the window, in range)
	low       []int64 // by relay: the oldest created_at it delivered in the window
	atLow     []int   // by relay: how many of its wraps were at that created_at
	failed    []bool
}

// NewRound starts a round over relays 0..relays-1 for a channel whose
// persisted cursor is saved.
func NewRound(cfg Config, rules *Rules, saved Cursor, intent Intent, relays int, store Store) (*Round, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if relays < 1 {
		return nil, errorf("a round needs at least one relay, got %d", relays)
	}
	if rules == nil || store == nil {
		return nil, errorf("a round needs rules and a store")
	}
	if intent != CatchUp && intent != Older {
		return nil, errorf("unknown intent %d", intent)
	}
	if err := checkCursor(saved); err != nil {
		return nil, err
	}
	r := &Round{cfg: cfg, rules: rules, intent: intent, saved: saved, store: store, out: make([]bool, relays),
		all: make([]int, relays), buf: pageState{open: make([]bool, relays), delivered: make([]int, relays), readable: make([]int, relays), low: make([]int64, relays), atLow: make([]int, relays), failed: make([]bool, relays)},
		honours: make([]int, relays), seen: make([][][2]int, relays)}
	for i := range r.all {
		r.all[i] = i
	}
	r.progress.Pages = make([]Page, 0, 4)
	r.proposed.Pending = saved.Pending
	// The bridge never walks above the saved newest nor below the saved
	// oldest: below it is the older pass's region (or exhausted).
	r.floor = saved
	if saved.HasNewest {
		r.floor.NewestMs = max(min(rules.BridgeFloor(saved, cfg.OverlapMs), saved.NewestMs), 0)
		if saved.HasOldest {
			r.floor.NewestMs = max(r.floor.NewestMs, saved.OldestMs)
		}
	}
	if intent == CatchUp {
		r.phase = phaseNewest
	} else {
		r.startOlder()
	}
	return r, nil
}

// Done reports whether the round has finished.
func (r *Round) Done() bool { return r.phase == phaseDone && r.page == nil }

// Next returns the page to ask for: the outstanding one while it is not
// settled, a new one otherwise; false when the round is done.
func (r *Round) Next() (Page, bool) {
	r.started = true
	if r.page != nil {
		return r.page.page, true
	}
	live := r.all
	if r.anyFailed {
		live = nil
		for i, o := range r.out {
			if !o {
				live = append(live, i)
			}
		}
	}
	if len(live) == 0 && r.phase != phaseDone {
		r.finish()
	}
	var w Window
	switch r.phase {
	case phaseNewest:
		w = r.rules.Opening(r.saved, r.cfg.OverlapMs)
		if r.hasNow {
			if until, ok := r.rules.Ceiling(r.nowMs, r.cfg.SkewMs); ok {
				w.HasUntil, w.UntilMs = true, until
			}
		}
	case phaseBridge:
		w = Window{HasSince: true, SinceMs: r.floor.NewestMs, HasUntil: true, UntilMs: r.until}
	case phaseRepair:
		w = Window{HasSince: true, SinceMs: r.proposed.Pending.SinceMs, HasUntil: true, UntilMs: r.until}
	case phaseOlder:
		w = Window{HasUntil: true, UntilMs: r.until}
	default:
		return Page{}, false
	}
	// The first four phases are the passes, in the same order.
	p := Page{Pass: Pass(r.phase), Window: w, Limit: r.cfg.PageWraps, Relays: live}
	if r.pin.on {
		p = r.pinPage(p)
	}
	// One page is outstanding at a time, so its state is reused.
	ps := &r.buf
	ps.page, ps.nopen = p, len(live)
	clear(ps.open)
	clear(ps.delivered)
	clear(ps.readable)
	clear(ps.low)
	clear(ps.atLow)
	clear(ps.failed)
	for _, i := range live {
		ps.open[i] = true
	}
	r.page = ps
	r.progress.Pages = append(r.progress.Pages, p)
	return p, true
}

// Deliver hands the round wraps a relay sent on the outstanding page. A
// wrap outside the page's window (or outside every window the walk reads,
// MaxTimeMs), or one past the page's limit, is a stray: the rules decide
// whether it is ignored (past the limit: counted) or ends the relay's part
// in the round as evidence against it. A wrap inside the page's filter
// whose created_at the rules call impossible is neither read nor held
// against the relay (impossible). Wraps from a relay not asked, or after
// it settled, are ignored: the round reads the page back from the store
// with the page's own filter.
func (r *Round) Deliver(relay int, events []Event) {
	if !r.asked(relay) {
		return
	}
	ps := r.page
	for _, e := range events {
		if ps.delivered[relay] >= ps.page.Limit && r.rules.Stray() == Refuse {
			// NIP-01: a relay sends at most limit events for a filter.
			r.fail(relay, FailStray, "more wraps than the limit "+optMs(true, int64(ps.page.Limit)))
			r.settleIfDone()
			return
		}
		t := e.CreatedAtMs
		if !inRange(t) && ps.page.Window.Contains(t) && r.rules.Impossible(t) {
			r.impossible(relay, t)
			continue
		}
		if !inRange(t) || !ps.page.Window.Contains(t) {
			if r.rules.Stray() == Refuse {
				r.fail(relay, FailStray, "a wrap at "+optMs(true, t)+" outside "+ps.page.Window.String())
				r.settleIfDone()
				return
			}
			continue
		}
		if ps.readable[relay] == 0 || t < ps.low[relay] {
			ps.low[relay], ps.atLow[relay] = t, 0
		}
		if t == ps.low[relay] {
			ps.atLow[relay]++
		}
		ps.delivered[relay]++
		ps.readable[relay]++
		if r.store.Add(e) {
			r.progress.Stored++
		}
	}
}

// impossible takes a wrap dated where no honest writer dates one, sent
// inside the page's filter. Before 0 it sorts after every readable wrap,
// so a relay sends it only once it has sent every readable wrap of the
// window: it takes no readable wrap's place and is dropped. Past
// MaxTimeMs it sorts before every readable wrap and took the place of
// one: it counts against the limit (the page is not taken for short),
// and is not read.
func (r *Round) impossible(relay int, t int64) {
	if t > MaxTimeMs {
		r.page.delivered[relay]++
	}
}

// Invalid reports a message of a relay for the outstanding page that no
// honest relay sends (an event whose signature does not verify): the
// rules' Stray decides, as for a wrap outside the window.
func (r *Round) Invalid(relay int, reason string) {
	if !r.asked(relay) || r.rules.Stray() != Refuse {
		return
	}
	r.fail(relay, FailStray, reason)
	r.settleIfDone()
}

// EOSE settles a relay's answer to the outstanding page.
func (r *Round) EOSE(relay int) {
	if !r.asked(relay) {
		return
	}
	r.page.open[relay] = false
	r.page.nopen--
	r.settleIfDone()
}

// Closed reports a CLOSED for the outstanding page. The rules decide
// whether the relay keeps waiting (auth-required: the REQ is re-issued after
// AUTH) or is refused and drops out of the walk.
func (r *Round) Closed(relay int, reason string) {
	if !r.asked(relay) {
		return
	}
	if r.rules.Closed(reason) == Wait {
		return
	}
	r.fail(relay, FailRefused, reason)
	r.settleIfDone()
}

// AuthFailed reports that a relay's AUTH handshake failed while it was
// asked for the outstanding page.
func (r *Round) AuthFailed(relay int, reason string) {
	if !r.asked(relay) {
		return
	}
	if r.rules.AuthFailed() == Wait {
		return
	}
	r.fail(relay, FailRefused, reason)
	r.settleIfDone()
}

// Timeout is the page's deadline: every relay still open is silent.
func (r *Round) Timeout() {
	if r.page == nil {
		return
	}
	for i, o := range r.page.open {
		if o {
			r.fail(i, FailSilent, "")
		}
	}
	r.settleIfDone()
}

func (r *Round) fail(relay int, kind, reason string) {
	r.page.open[relay] = false
	r.page.nopen--
	r.page.failed[relay] = true
	r.out[relay] = true
	r.anyFailed = true
	r.progress.Errors = append(r.progress.Errors, RelayError{Relay: relay, Kind: kind, Reason: reason})
}

func (r *Round) settleIfDone() {
	if r.page.nopen > 0 {
		return
	}
	ps := r.page
	if ps.page.Pinned {
		r.checkPinned(ps)
	}
	r.page = nil
	// A relay out of the walk fails every later page of the round: the
	// region was never read from it.
	out := 0
	for _, o := range r.out {
		if o {
			out++
		}
	}
	s := PageSummary{Complete: r.rules.Complete(len(r.out), out), Bottomed: true}
	// A relay that delivered fewer than the limit without proving it had
	// no more (a cap below the limit) read the window only down to its
	// oldest wrap: the page is read back from the store no deeper, or
	// another relay's older wraps would make the region below look read.
	read, cut := clampWindow(ps.page.Window), false
	for _, i := range ps.page.Relays {
		r.progress.Fetched += ps.delivered[i]
		if ps.failed[i] {
			continue
		}
		d := ps.delivered[i]
		s.AnsweredRelays++
		s.Raw += d
		if !r.rules.Bottomed(d, ps.page.Limit, r.capacity(i, ps.page.Limit)) {
			s.Bottomed = false
			low := ps.low[i]
			if ps.readable[i] == 0 {
				low = MaxTimeMs + 1 // it read nothing of the window
			}
			if d > 0 && d < ps.page.Limit && (!cut || low > read.SinceMs) {
				read.SinceMs, cut = max(read.SinceMs, low), true
			}
		}
		s.Full = s.Full || d >= ps.page.Limit
		r.learn(i, ps.page.Limit, d)
	}
	if got := r.store.Query(read, ps.page.Limit); len(got) > 0 {
		s.Count, s.NewestMs, s.OldestMs = len(got), got[0].CreatedAtMs, got[len(got)-1].CreatedAtMs
		for _, e := range got {
			if e.CreatedAtMs == s.OldestMs {
				s.AtOldest++
			}
		}
	}
	switch {
	case ps.page.Pinned:
		r.afterPin(ps, s)
		return
	case ps.page.Probe:
		r.afterProbe(ps, s)
		return
	}
	if s.Complete && r.rules.Pin(s) {
		r.startPin(ps, s)
		return
	}
	r.advance(s)
}

// advance moves the round on from a settled page of the current phase.
func (r *Round) advance(s PageSummary) {
	switch r.phase {
	case phaseNewest:
		r.newest = s
		r.newestOK = s.Complete && !r.rules.Failed(s.Raw, false)
		r.bridged = true
		if r.newestOK && r.rules.BridgeNeeded(s, r.floor) {
			if until, ok := r.below(s.OldestMs); ok {
				r.bridged = false
				r.phase, r.budget, r.until = phaseBridge, r.cfg.CatchUpPages, until
				return
			}
		}
		r.afterBridge()
	case phaseBridge:
		switch {
		case !s.Complete:
		case s.Bottomed:
			r.bridged = true
		default:
			until, ok := r.below(s.OldestMs)
			if !ok {
				r.bridged = true // no created_at below the page exists
				break
			}
			r.until = until
			if r.budget--; r.budget > 0 {
				return
			}
			r.unbridged, r.recorded = r.rules.Unbridged(r.floor, r.until)
		}
		r.afterBridge()
	case phaseRepair:
		switch {
		case !s.Complete:
		case s.Bottomed:
			r.proposed.Pending = nil
		default:
			until, ok := r.below(s.OldestMs)
			if !ok {
				r.proposed.Pending = nil // no created_at below the page exists
				break
			}
			r.until = until
			p := *r.proposed.Pending
			p.UntilMs = r.until
			r.proposed.Pending = &p
			if r.budget--; r.budget > 0 {
				return
			}
		}
		r.recordUnbridged()
		r.startOlder()
	case phaseOlder:
		if !s.Complete {
			r.contiguous = false
		} else if r.contiguous && s.Count > 0 && (!r.proposed.HasOldest || s.OldestMs < r.proposed.OldestMs) {
			r.proposed.HasOldest, r.proposed.OldestMs = true, s.OldestMs
		}
		until, more := r.below(s.OldestMs)
		if s.Bottomed || (!more && s.Count > 0) {
			if s.Complete && r.contiguous && r.rules.Exhausted(r.progress.Fetched, r.anyFailed) {
				r.proposed.Exhausted = true
			}
			r.finish()
			return
		}
		if !more {
			r.finish()
			return
		}
		r.until = until
		if r.budget--; r.budget <= 0 {
			r.finish()
		}
	}
}

// afterBridge decides the newest advance, then runs the repair pass when a
// pending region was saved, then the older pass.
func (r *Round) afterBridge() {
	if r.rules.AdvanceNewest(r.newestOK, r.bridged, r.recorded) && r.newest.Count > 0 {
		r.proposed.HasNewest, r.proposed.NewestMs = true, r.newest.NewestMs
		if !r.saved.HasOldest {
			r.proposed.HasOldest, r.proposed.OldestMs = true, r.newest.OldestMs
		}
	}
	if r.proposed.Pending != nil {
		r.phase, r.budget, r.until = phaseRepair, r.cfg.CatchUpPages, r.proposed.Pending.UntilMs
		r.repaired, r.hasRepaired = Window{HasSince: true, SinceMs: r.proposed.Pending.SinceMs, HasUntil: true, UntilMs: r.until}, true
		return
	}
	r.recordUnbridged()
	r.startOlder()
}

// recordUnbridged joins what this round's bridge left unwalked to the
// pending region still to repair (their hull: re-walking the complete part
// between them only re-reads wraps already stored).
func (r *Round) recordUnbridged() {
	if !r.recorded || !r.proposed.HasNewest {
		return
	}
	u := r.unbridged
	if r.hasRepaired && r.proposed.Pending != nil {
		r.repaired.SinceMs = r.until + 1 // it stopped there; below is still pending
	}
	if r.hasRepaired && r.repaired.SinceMs <= u.SinceMs && u.UntilMs <= r.repaired.UntilMs {
		// The repair read the whole of it after the bridge left it.
		r.recorded = false
		return
	}
	if u.SinceMs > u.UntilMs {
		// The bridge's last page reached its floor: nothing is left
		// unwalked, and an empty region must not widen the pending one.
		r.recorded = false
		return
	}
	if p := r.proposed.Pending; p != nil {
		u.SinceMs, u.UntilMs = min(u.SinceMs, p.SinceMs), max(u.UntilMs, p.UntilMs)
	}
	r.proposed.Pending = &u
	r.recorded = false
}

func (r *Round) startOlder() {
	if r.rules.SkipOlder(r.saved) {
		r.finish()
		return
	}
	seen := r.intent == CatchUp && r.newest.Count > 0
	until, ok := r.rules.OlderFrom(r.saved, r.newest.OldestMs, seen)
	if !ok || until < 0 {
		r.finish()
		return
	}
	r.contiguous = r.saved.HasOldest || r.proposed.HasOldest
	r.phase, r.until = phaseOlder, until
	r.budget = r.cfg.CatchUpPages
	if r.intent == Older {
		r.budget = r.cfg.LoadOlderPages
	}
}

func (r *Round) finish() {
	r.phase = phaseDone
	r.progress.Failed = r.rules.Failed(r.progress.Fetched, r.anyFailed)
	r.progress.Exhausted = r.proposed.Exhausted
}

// Result is the cursor to persist and the round's progress. Before the
// round is done it is the saved cursor.
func (r *Round) Result() (Cursor, Progress) {
	if !r.Done() {
		return r.saved, r.progress
	}
	return r.rules.Merge(r.saved, r.proposed), r.progress
}

// asked reports whether relay is waited on for the outstanding page.
func (r *Round) asked(relay int) bool {
	return r.page != nil && relay >= 0 && relay < len(r.page.open) && r.page.open[relay]
}
