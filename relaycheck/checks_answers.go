package relaycheck

import (
	"fmt"

	"github.com/nbd-wtf/go-nostr"
)

// answerLog collects what Conn.Query refused to keep across the whole
// probe: events that are not what the filter asked for (a malformed or
// forged id, a bad signature, an event outside the filter) and events past
// the filter's bound. A check that saw such an answer would otherwise
// blame the stray event on whatever it measures (an extra event in a
// barrier trial looks like a push), so the probe reports them once, as
// evidence against R1: the answer to a filter is the newest events that
// match it, and nothing else.
type answerLog struct {
	queries  int
	rejected []string // the first few, for evidence
	nReject  int
	excess   int // past the bound in answers no write raced
	where    []string
}

const maxLoggedAnswers = 5

// note records one answer. quiet says no write of the probe raced the
// query, so an answer over its bound cannot be a push on the query's own
// subscription (which khatru does, and no requirement forbids).
func (p *prober) note(sub string, f nostr.Filter, a Answer, quiet bool) {
	// Answers to tag filters count too, although the load sends none
	// and the tags check reports a tag fault on its own: a stopgap, like
	// the tie clause in LoadRequirements. Today it is what refuses khatru
	// v0.8.4 over sqlite3 (its substring #d match answers the atomic
	// check's filter with other coordinates), whose R6 violation the
	// sampled check misses in some runs.
	l := &p.answers
	l.queries++
	l.nReject += len(a.Rejected)
	for _, r := range a.Rejected {
		if len(l.rejected) < maxLoggedAnswers {
			l.rejected = append(l.rejected, sub+": "+r)
		}
	}
	if quiet && a.Excess > 0 {
		l.excess += a.Excess
		if len(l.where) < maxLoggedAnswers {
			l.where = append(l.where, fmt.Sprintf("%s: %d events past the bound of %s", sub, a.Excess, reqText(sub, f)))
		}
	}
}

// checkAnswers is the check the log gives at the end of the probe.
func (p *prober) checkAnswers() Check {
	l := p.answers
	c := Check{ID: "answers-valid", Requirement: ReqPrefix, Verdict: Conforms, Trials: l.queries,
		Detail: fmt.Sprintf("every event in %d answers had a valid id and signature, matched its filter and fit its limit", l.queries)}
	if l.queries == 0 {
		return unknown("answers-valid", ReqPrefix, "no answer was read")
	}
	if l.nReject == 0 && l.excess == 0 {
		return c
	}
	c.Verdict = Violates
	c.Detail = fmt.Sprintf("%d events not matching their filter or not valid events, %d events past a limit with no write racing", l.nReject, l.excess)
	for _, r := range l.rejected {
		c.Evidence = append(c.Evidence, Evidence{Sent: r, Want: "valid events matching the filter"})
	}
	for _, w := range l.where {
		c.Evidence = append(c.Evidence, Evidence{Sent: w, Want: "at most the limit"})
	}
	return c
}
