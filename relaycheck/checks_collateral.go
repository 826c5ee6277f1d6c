package relaycheck

import (
	"context"
	"fmt"
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
	var wanted []string
	for i := range 3 {
		ev := p.event(fmt.Sprintf("read-state:%032x", 0xdd00+i), at-nostr.Timestamp(i))
		coords = append(coords, ev)
		wanted = append(wanted, ev.Tags.GetD())
	}
	if _, why := p.publishWithin(ctx, d, coords...); why != "" {
		return []Check{unknown(id, ReqNoCollateral, why)}
	}
	var sent []string
	for i, md := range malformedD {
		ev := p.event(md, at-5-nostr.Timestamp(i))
		sent = append(sent, fmt.Sprintf("EVENT d=%q", md))
		start := time.Now()
		if _, why := p.publishWithin(ctx, d, ev); why != "" && time.Since(start) >= d {
			return []Check{unknown(id, ReqNoCollateral, fmt.Sprintf("d=%q: no answer within %s (%s); a relay that stalls on it may also delete", md, d, why))}
		}
		// A refusal is fine: the relay keeps what it has.
	}
	f := p.filter(10, nil, nil)
	f.Tags = nostr.TagMap{"d": wanted}
	a, err := p.queryWithin(ctx, d, "collateral", f)
	if err != nil || a.Refused {
		return []Check{unknown(id, ReqNoCollateral, failed(err, a))}
	}
	kept := map[string]bool{}
	for _, ev := range a.Events {
		kept[ev.ID] = true
	}
	var lost []*nostr.Event
	for _, ev := range coords {
		if !kept[ev.ID] {
			lost = append(lost, ev)
		}
	}
	if len(lost) == 0 {
		return []Check{{ID: id, Requirement: ReqNoCollateral, Verdict: Conforms, Trials: len(malformedD),
			Detail: fmt.Sprintf("%d coordinates kept through events with d = %q", len(coords), malformedD)}}
	}
	return []Check{{ID: id, Requirement: ReqNoCollateral, Verdict: Violates, Trials: len(malformedD),
		Detail: fmt.Sprintf("%d of %d coordinates deleted by events with d = %q (data loss)", len(lost), len(coords), malformedD),
		Evidence: []Evidence{{Sent: fmt.Sprintf("%d coordinates; %v; %s", len(coords), sent, reqText("collateral", f)), Got: describeAll(a.Events),
			Want: fmt.Sprintf("all of %v", describeAll(coords))}}}}
}
