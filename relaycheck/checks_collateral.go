package relaycheck

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/nbd-wtf/go-nostr"
)

// malformedD are d tags a client might send by mistake that a relay
// matching d values by prefix takes for other coordinates of the user's
// read state (eventstore sqlite3 deleted one of them).
var malformedD = []string{"read-state", "read-state:", ""}

// checkCollateral: a few read-state coordinates of the probe's key, then
// one event with each malformed d; every coordinate must remain (a
// publication deletes only what it replaces). Each exchange is bounded by
// Options.CollateralTimeout, since a relay may stall on such an event;
// the check then ends unknown.
func (p *prober) checkCollateral(ctx context.Context) []Check {
	const id = "collateral-d"
	d := p.opts.CollateralTimeout
	at := p.base + collAt
	var coords []*nostr.Event
	for i := range 3 {
		ev := p.event(fmt.Sprintf("read-state:%032x", 0xdd00+i), at-nostr.Timestamp(2*i))
		coords = append(coords, ev)
	}
	if _, why := p.publishWithin(ctx, d, coords...); why != "" {
		return []Check{unknown(id, ReqNoCollateral, why)}
	}
	var sent []string
	for i, md := range malformedD {
		// Newer than the coordinates: a relay replacing "older versions"
		// of what its d match returns deletes exactly those.
		ev := p.event(md, at+1+nostr.Timestamp(i))
		sent = append(sent, fmt.Sprintf("EVENT d=%q", md))
		start := time.Now()
		if _, why := p.publishWithin(ctx, d, ev); why != "" && time.Since(start) >= d {
			return []Check{unknown(id, ReqNoCollateral, fmt.Sprintf("d=%q: no answer within %s (%s); a relay that stalls on it may also delete", md, d, why))}
		}
		// A refusal is fine: the relay keeps what it has.
	}
	// Each coordinate is asked alone, in a window of its own second and
	// the one below (which holds nothing of the user's: a relay may treat
	// since as exclusive), limit 1: the cap cannot hide it, and nothing
	// else competes for the cap if tags apply after it.
	var lost []*nostr.Event
	var evidence []Evidence
	for i, ev := range coords {
		f := p.filter(1, ts(ev.CreatedAt-1), ts(ev.CreatedAt))
		f.Tags = nostr.TagMap{"d": {ev.Tags.GetD()}}
		sub := fmt.Sprintf("collateral-%d", i)
		a, err := p.queryWithin(ctx, d, sub, f)
		if err != nil || a.Refused {
			return []Check{unknown(id, ReqNoCollateral, sub+": "+failed(err, a))}
		}
		if len(a.Events) == 0 || a.Events[0].ID != ev.ID {
			lost = append(lost, ev)
			evidence = append(evidence, Evidence{Sent: strings.Join(sent, "; ") + "; " + reqText(sub, f), Got: describeAll(a.Events), Want: describe(ev)})
		}
	}
	if len(lost) == 0 {
		return []Check{{ID: id, Requirement: ReqNoCollateral, Verdict: Conforms, Trials: len(malformedD),
			Detail: fmt.Sprintf("%d coordinates kept through events with d = %q", len(coords), malformedD)}}
	}
	return []Check{{ID: id, Requirement: ReqNoCollateral, Verdict: Violates, Trials: len(malformedD),
		Detail:   fmt.Sprintf("%d of %d coordinates deleted by events with d = %q (data loss)", len(lost), len(coords), malformedD),
		Evidence: evidence}}
}
