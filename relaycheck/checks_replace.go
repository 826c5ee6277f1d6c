package relaycheck

import (
	"context"
	"fmt"

	"github.com/nbd-wtf/go-nostr"
)

// checkReplacement: an addressable coordinate holds one version, the
// NIP-01 latest (greatest created_at, then lowest id), whatever order the
// versions arrive in. A relay keeping two is harmless to a load's
// soundness (the load keeps the latest) but a second version at the
// coordinate's second makes a one-coordinate pinned window reach the
// floor, so such a load never proves complete.
func (p *prober) checkReplacement(ctx context.Context) []Check {
	at := p.base + replaceAt
	pairAt := func(d string, t nostr.Timestamp) (lo, hi *nostr.Event) {
		a, b := p.event(d, t), p.event(d, t)
		if a.ID < b.ID {
			return a, b
		}
		return b, a
	}
	type tc struct{ id, d string }
	cases := []tc{{"replace-newer", "relaycheck:rep-newer"}, {"replace-older", "relaycheck:rep-older"},
		{"replace-same-high-first", "relaycheck:rep-hilo"}, {"replace-same-low-first", "relaycheck:rep-lohi"}}
	var out []Check
	for i, c := range cases {
		t := at - nostr.Timestamp(2*i)
		var order []*nostr.Event
		var want *nostr.Event
		switch i {
		case 0:
			old, nw := p.event(c.d, t-1), p.event(c.d, t)
			order, want = []*nostr.Event{old, nw}, nw
		case 1:
			old, nw := p.event(c.d, t-1), p.event(c.d, t)
			order, want = []*nostr.Event{nw, old}, nw
		case 2:
			lo, hi := pairAt(c.d, t)
			order, want = []*nostr.Event{hi, lo}, lo
		case 3:
			lo, hi := pairAt(c.d, t)
			order, want = []*nostr.Event{lo, hi}, lo
		}
		for _, ev := range order {
			p.publish(ctx, ev) // a refusal of the superseded version is right
		}
		// Bounded to the case's two seconds (and the one below, in case
		// since is exclusive): a relay may apply tags after its cap (the
		// spec permits it), so the window must hold few other events.
		f := p.filter(10, ts(t-2), ts(t))
		f.Tags = nostr.TagMap{"d": {c.d}}
		a, err := p.query(ctx, c.id, f)
		if err != nil || a.Refused {
			out = append(out, unknown(c.id, ReqReplacement, failed(err, a)))
			continue
		}
		chk := Check{ID: c.id, Requirement: ReqReplacement, Verdict: Conforms, Detail: "one version, the latest, is kept"}
		if len(a.Events) != 1 || a.Events[0].ID != want.ID {
			chk.Verdict = Violates
			chk.Detail = fmt.Sprintf("published %s, then %s: the relay holds %d versions", short(order[0]), short(order[1]), len(a.Events))
			chk.Evidence = []Evidence{{Sent: reqText(c.id, f), Got: describeAll(a.Events), Want: describe(want)}}
		}
		out = append(out, chk)
	}
	return out
}

func short(ev *nostr.Event) string { return fmt.Sprintf("%s@%d", ev.ID[:8], ev.CreatedAt) }

// checkAtomic tries atomic replacement (R6) sequentially: the writer
// replaces one coordinate version after version, each newer than the
// last, and without waiting for the OK the reader asks for the
// coordinate by its d tag. The answer must hold a version: never
// neither (a relay that deletes, then saves, shows the gap), and never
// only versions older than the one acknowledged before. A trial is
// exercised when the answer holds the new version (the query ran after
// the replacement began); an answer with only the previous version tells
// nothing.
func (p *prober) checkAtomic(ctx context.Context) []Check {
	const id = "atomic"
	d := "relaycheck:atomic"
	start := p.base + atomicAt - nostr.Timestamp(p.seq.cap)
	prev := p.event(d, start)
	if _, why := p.publish(ctx, prev); why != "" {
		return []Check{unknown(id, ReqAtomic, why)}
	}
	exercised, trials := 0, 0
	pace := newPacer(p.raceDelayMax())
	for i := 1; i <= p.seq.cap && !p.seq.done(exercised); i++ {
		trials++
		next := p.event(d, start+nostr.Timestamp(i))
		sub := fmt.Sprintf("atom-%d", i)
		// The window holds the two versions' seconds and the one below
		// (since may be exclusive) only: nothing else competes for the
		// cap, and no two trials ask the same filter (a result cache is
		// R7's concern, not this check's).
		f := p.filter(10, ts(prev.CreatedAt-1), ts(next.CreatedAt))
		f.Tags = nostr.TagMap{"d": {d}}
		answers, why := p.atomicTrial(ctx, sub, f, next, pace)
		if why != "" {
			chk := unknown(id, ReqAtomic, fmt.Sprintf("trial %d: %s", trials, why))
			chk.Trials, chk.Exercised = trials, exercised
			return []Check{chk}
		}
		hit := false
		for _, got := range answers {
			newest := nip01Order(got)
			var bad string
			switch {
			case len(got) == 0:
				bad = "found neither version"
			case newest[0].CreatedAt < prev.CreatedAt:
				bad = "found only versions older than the acknowledged " + short(prev)
			}
			if bad != "" {
				return []Check{{ID: id, Requirement: ReqAtomic, Verdict: Violates, Trials: trials, Exercised: exercised + 1,
					Detail: fmt.Sprintf("trial %d: one of %d queries racing the replacement of %s by %s %s", trials, atomicQueries, short(prev), short(next), bad),
					Evidence: []Evidence{{Sent: "EVENT " + next.ID + "; " + reqText(sub, f), Got: describeAll(got),
						Want: describe(prev) + " or " + describe(next)}}}}
			}
			for _, ev := range got {
				hit = hit || ev.ID == next.ID
			}
		}
		if hit {
			exercised++
		}
		pace.update(hit)
		prev = next
	}
	return []Check{p.seq.conclude(id, ReqAtomic, trials, exercised, "a trial is exercised when one of its queries found the new version")}
}

// atomicQueries is how many queries race each replacement: sent
// together, right after the replacement, so that a relay answering them
// concurrently (khatru handles each REQ in a goroutine) reads its store
// at several instants of the write, a gap between deleting the old
// version and saving the new one among them.
const atomicQueries = 8

// atomicTrial publishes next on the writer and, before its OK, queries f
// on the reader atomicQueries times at once, after the pacer's delay; it returns every answer
// once next is acknowledged, or why the trial failed.
func (p *prober) atomicTrial(ctx context.Context, sub string, f nostr.Filter, next *nostr.Event, pace *pacer) ([][]*nostr.Event, string) {
	c, cancel := context.WithTimeout(ctx, p.opts.Timeout)
	defer cancel()
	p.published = append(p.published, next)
	if err := p.w.Send(c, &nostr.EventEnvelope{Event: *next}); err != nil {
		return nil, err.Error()
	}
	pace.wait(c)
	subs := make([]string, atomicQueries)
	for i := range subs {
		subs[i] = fmt.Sprintf("%s-%d", sub, i)
	}
	as, err := p.r.QueryAll(c, subs, f)
	if err != nil {
		return nil, err.Error()
	}
	var got [][]*nostr.Event
	for i, a := range as {
		if a.Refused {
			return nil, failed(nil, a)
		}
		p.note(subs[i], f, a, false)
		_ = p.r.Unsub(c, subs[i])
		got = append(got, a.Events)
	}
	if ok, reason, err := waitOK(c, p.w, next.ID); err != nil || !ok {
		return nil, fmt.Sprintf("publish: %v %s", err, reason)
	}
	return got, ""
}
