package relaycheck

import (
	"context"
	"time"
)

// pacer places a race check's queries in time. A query sent at once
// after the write usually reads the store before the write reaches it
// (on a store that syncs to disk, in nearly every trial), so the trial
// says nothing; a query sent long after reads a finished write and says
// nothing either. The race is at the edge: the query reads just as the
// write lands. The pacer finds that edge by a staircase: the delay
// before the query doubles (plus a step) after a trial that was not
// exercised and shrinks by a quarter after one that was, which holds
// about 70% of trials exercised with the query close behind the write.
//
// The trials are then not identically distributed, which the stopping
// rule allows: with no violation in n exercised trials, if every one of
// them had a violation probability of at least r, seeing none had
// probability at most (1-r)^n, so the bound holds for the trials' rate
// whatever delay each was run at.
type pacer struct {
	delay, step, max time.Duration
}

// newPacer starts at no delay; the delay never exceeds max.
func newPacer(max time.Duration) *pacer {
	return &pacer{step: 50 * time.Microsecond, max: max}
}

// wait sleeps for the current delay, or until ctx ends.
func (p *pacer) wait(ctx context.Context) {
	if p.delay <= 0 {
		return
	}
	t := time.NewTimer(p.delay)
	defer t.Stop()
	select {
	case <-t.C:
	case <-ctx.Done():
	}
}

// update moves the delay after a trial.
func (p *pacer) update(exercised bool) {
	if exercised {
		p.delay -= p.delay / 4
	} else {
		p.delay = min(2*p.delay+p.step, p.max)
	}
}
