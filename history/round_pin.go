package history

import "math"

// The pinned re-ask of a page's oldest second (rules with Pin): the
// same-second safe boundary the proposed rules add to the document's walk,
// and the probe that proves a short pinned answer (rules with ProveCap).

// pinState is the pinned re-ask of a page's oldest second (rules with Pin).
type pinState struct {
	on     bool
	full   PageSummary // the page whose oldest second is pinned
	origin Window      // that page's window
	limit  int
	tries  int
	sent   []int // by relay: wraps of the pinned second it sent on the page before
	// The probe (ProveCap): planned after a short pinned answer that
	// proved nothing; answer holds each relay's pinned answer to judge
	// again once the probe has shown what the relay can send.
	probe, probed bool
	answer        []int
}

// startPin plans the pinned re-ask of the oldest second of page ps, whose
// summary is s: the limit is raised by the wraps already held there, and
// each relay's count of wraps of that second is kept to check its answer.
func (r *Round) startPin(ps *pageState, s PageSummary) {
	held := s.AtOldest
	if r.rules.PinHeld() {
		held = max(held, r.heldAt(s.OldestMs))
	}
	r.pin = pinState{on: true, full: s, origin: ps.page.Window, limit: r.cfg.PageWraps + held, tries: 1, sent: make([]int, len(r.out))}
	for _, i := range ps.page.Relays {
		if ps.readable[i] > 0 && ps.low[i] == s.OldestMs {
			r.pin.sent[i] = ps.atLow[i]
		}
	}
}

// heldAt is how many wraps the store holds at second t: what earlier
// rounds' pins read of it survives in the store, so the next pin starts
// above it. The limit only sizes the question; the count is bounded by
// the wraps of one second.
func (r *Round) heldAt(t int64) int {
	return len(r.store.Query(Window{HasSince: true, SinceMs: t, HasUntil: true, UntilMs: t}, math.MaxInt))
}

// pinPage is the page the pin asks next: the pinned second, or the probe
// (the page it came from at the pinned limit).
func (r *Round) pinPage(p Page) Page {
	if r.pin.probe {
		p.Window, p.Limit, p.Probe = r.pin.origin, r.pin.limit, true
		return p
	}
	t := r.pin.full.OldestMs
	p.Window, p.Limit, p.Pinned = Window{HasSince: true, SinceMs: t, HasUntil: true, UntilMs: t}, r.pin.limit, true
	return p
}

// checkPinned: a relay that sent wraps of the pinned second on the page
// before and fewer of them now does not answer the filter as NIP-01 says
// (a since taken as exclusive, as khatru's slicestore does), so its short
// answer proves nothing; under rules that take strays as evidence it
// leaves the round.
func (r *Round) checkPinned(ps *pageState) {
	if r.rules.Stray() != Refuse {
		return
	}
	for _, i := range ps.page.Relays {
		if !ps.failed[i] && ps.delivered[i] < r.pin.sent[i] {
			ps.nopen++ // fail settles a relay still open
			r.fail(i, FailStray, "the pinned second answered with fewer wraps than the page before")
		}
	}
}

// afterPin judges a pinned page: proven short, the pinned second is
// complete and the page it came from goes on as it would have; full, the
// second is asked again with a higher limit (at most CatchUpPages more
// times, then left incomplete for a later round); short but not provably
// so, the probe is asked once (ProveCap)
// when it can tell more than the pinned page did; otherwise, or failed,
// the second cannot be proven complete and the page it came from counts
// as incomplete.
func (r *Round) afterPin(ps *pageState, s PageSummary) {
	switch {
	case s.Complete && s.Bottomed:
	case s.Complete && s.Full && r.pin.tries <= r.cfg.CatchUpPages:
		r.pin.tries++
		r.pin.limit = r.cfg.PageWraps + s.Count
		return
	case s.Complete && s.Full:
		// Still full once the round's budget of raised limits is spent:
		// not a second no question could prove, only one this round did
		// not reach. The page counts as incomplete and a later round
		// goes on; the round states nothing about the second (H10).
		// Under PinHeld the later round starts above what this one
		// stored of the second, so the rounds reach its end.
		r.progress.Unproven++
		r.pin.full.Complete = false
	case s.Complete && !r.pin.probed && r.pin.origin != ps.page.Window && r.rules.ProveCap():
		r.pin.probe, r.pin.probed = true, true
		r.pin.answer = make([]int, len(r.out))
		for _, i := range ps.page.Relays {
			r.pin.answer[i] = ps.delivered[i]
		}
		return
	default:
		r.unproven()
	}
	r.endPin()
}

// afterProbe judges the pinned answers again with what the probe showed
// of each relay's cap (Round.learn has recorded the probe's answers): the
// second is complete when the probe is complete and every relay's pinned
// answer is now proven short.
func (r *Round) afterProbe(ps *pageState, s PageSummary) {
	ok := s.Complete
	for _, i := range ps.page.Relays {
		if ok && !r.rules.Bottomed(r.pin.answer[i], r.pin.limit, r.capacity(i, r.pin.limit)) {
			ok = false
		}
	}
	if !ok {
		r.unproven()
	}
	r.endPin()
}

// unproven reports the pinned second as one the round could not prove
// complete: the page it came from counts as incomplete.
func (r *Round) unproven() {
	r.progress.Unproven++
	r.progress.UnprovenSeconds = append(r.progress.UnprovenSeconds, UnprovenSecond{SecondMs: r.pin.full.OldestMs, Origin: r.pin.origin})
	r.pin.full.Complete = false
}

// endPin ends the pin and goes on from the page it came from.
func (r *Round) endPin() {
	full := r.pin.full
	r.pin = pinState{}
	r.advance(full)
}
