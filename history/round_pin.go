package history

// The pinned re-ask of a page's oldest second (rules with Pin): the
// same-second safe boundary the proposed rules add to the document's walk.

// pinState is the pinned re-ask of a page's oldest second (rules with Pin).
type pinState struct {
	on    bool
	full  PageSummary // the page whose oldest second is pinned
	limit int
	tries int
	sent  []int // by relay: wraps of the pinned second it sent on the page before
}

// startPin plans the pinned re-ask of the oldest second of page ps, whose
// summary is s: the limit is raised by the wraps already held there, and
// each relay's count of wraps of that second is kept to check its answer.
func (r *Round) startPin(ps *pageState, s PageSummary) {
	r.pin = pinState{on: true, full: s, limit: r.cfg.PageWraps + s.AtOldest, tries: 1, sent: make([]int, len(r.out))}
	for _, i := range ps.page.Relays {
		if ps.delivered[i] > 0 && ps.low[i] == s.OldestMs {
			r.pin.sent[i] = ps.atLow[i]
		}
	}
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
// times); short but not provably so, or failed, the second cannot be
// proven complete and the page it came from counts as incomplete.
func (r *Round) afterPin(s PageSummary) {
	full := r.pin.full
	switch {
	case s.Complete && s.Bottomed:
	case s.Complete && s.Full && r.pin.tries <= r.cfg.CatchUpPages:
		r.pin.tries++
		r.pin.limit = r.cfg.PageWraps + s.Count
		return
	default:
		r.progress.Unproven++
		full.Complete = false
	}
	r.pin = pinState{}
	r.advance(full)
}
