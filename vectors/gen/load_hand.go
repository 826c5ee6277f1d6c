package gen

import (
	"fmt"

	"github.com/nbd-wtf/go-nostr"

	"github.com/nip-rs/harness/model"
	"github.com/nip-rs/harness/props"
)

// otherSecret signs the events of an author other than the user.
const otherSecret = "0000000000000000000000000000000000000000000000000000000000000002"

// handLoadCases are scripted relays written by hand, one per way a load
// ends that the simulated relays reach rarely or never: a push voiding a
// counted result, a band of pushes only (in either order of band and fence), a refused or lapsed fence, a
// lost connection, a refused query, evidence against the relay, and the
// loads not attempted.
func handLoadCases(enc *frameEncoder) ([]Case, error) {
	evOf := func(secret, d string, at nostr.Timestamp, content string) (*nostr.Event, error) {
		ev := &nostr.Event{CreatedAt: at, Kind: 30078, Tags: nostr.Tags{{"d", d}}, Content: content}
		if model.ValidDTag(d) {
			ev.Tags = append(ev.Tags, nostr.Tag{"t", "read-state"})
		}
		return ev, ev.Sign(secret)
	}
	var errs []error
	mk := func(secret, d string, at nostr.Timestamp, content string) *nostr.Event {
		ev, err := evOf(secret, d, at, content)
		errs = append(errs, err)
		return ev
	}
	a := mk(userSecret, model.DTag("0000000000000000000000000000000a"), 100, "a")
	b := mk(userSecret, model.DTag("0000000000000000000000000000000b"), 90, "b")
	w := mk(userSecret, model.DTag("0000000000000000000000000000000c"), 100, "w")
	back := mk(userSecret, "app:backdated", 10, "f")
	stranger := mk(otherSecret, model.DTag("0000000000000000000000000000000d"), 95, "x")
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	const p = "h"
	f, q1, q2 := p+"-fence", p+"-q1", p+"-q2"
	ev := func(sub string, e *nostr.Event) model.In { return model.In{Kind: model.InEvent, SubID: sub, Event: e} }
	eose := func(sub string) model.In { return model.In{Kind: model.InEOSE, SubID: sub} }
	closed := func(sub, why string) model.In { return model.In{Kind: model.InClosed, SubID: sub, Reason: why} }
	lost := model.In{Kind: model.InConnectionLost}
	base := model.LoadConfig{PubKey: props.UserPubKey, Limit: 2, SubPrefix: p, Nonce: 1}
	type hand struct {
		id, desc string
		cfg      func(c *model.LoadConfig)
		frames   []model.In
	}
	var cs []Case
	for _, h := range []hand{
		{"push-voids-result", "the fence pushes, after the band ended, an event the band counted as a result: it may have been a push on the band itself", nil,
			[]model.In{eose(f), ev(q1, a), ev(q1, back), eose(q1), ev(f, back)}},
		{"push-only-band", "a band delivers only an event the fence pushed while it was in flight: no result, so the band is asked again with a lower until", nil,
			[]model.In{eose(f), ev(f, w), ev(q1, w), eose(q1), ev(q2, w), ev(q2, a), eose(q2)}},
		{"push-after-band-result", "a band delivers an event and the fence pushes the same event later in the band's flight: the push voids the delivery " +
			"whichever came first (in-flight-push-not-result), so the band has no result and is asked again with a lower until", nil,
			[]model.In{eose(f), ev(q1, w), ev(f, w), eose(q1), ev(q2, w), ev(q2, a), eose(q2)}},
		{"fence-refused", "the relay refuses the fence before its end-of-stored-events", nil,
			[]model.In{closed(f, "auth-required: members only")}},
		{"fence-closed", "the relay closes the fence once it is established", nil,
			[]model.In{eose(f), ev(q1, a), closed(f, "error: shutting down")}},
		{"lost-before-fence", "the connection drops before the fence is established", nil, []model.In{lost}},
		{"lost-after-fence", "the connection drops while the first band is answered", nil, []model.In{eose(f), ev(q1, a), lost}},
		{"query-refused", "the relay refuses the first band", nil, []model.In{eose(f), closed(q1, "rate-limited: slow down")}},
		{"other-author", "a band delivers an event of another author: outside its filter", nil, []model.In{eose(f), ev(q1, a), ev(q1, stranger)}},
		{"over-limit", "a band delivers more events than its limit", nil, []model.In{eose(f), ev(q1, a), ev(q1, w), ev(q1, b), eose(q1)}},
		{"over-limit-with-push", "a band delivers its limit of stored events and, on its own subscription, a write the fence pushed meanwhile: " +
			"the push is no result (in-flight-push-not-result), the count is taken at the end-of-stored-events over results (limit-judged-on-results), and the load goes on", nil,
			[]model.In{eose(f), ev(f, w), ev(q1, a), ev(q1, b), ev(q1, w), eose(q1)}},
		{"not-newest-first", "a band delivers an older event before a newer one", nil, []model.In{eose(f), ev(q1, b), ev(q1, a), eose(q1)}},
		{"fence-push-before-eose", "the fence delivers one event more than its limit before its end-of-stored-events: a push of a write accepted meanwhile may arrive there, so it is collected and is no evidence; the load goes on", nil, []model.In{ev(f, a), ev(f, w), ev(f, b), eose(f)}},
		{"foreign-below-cursor", "an event that is not read state still moves the cursor (step 3)", nil,
			[]model.In{eose(f), ev(q1, a), ev(q1, back), eose(q1)}},
		{"known-non-conforming", "a relay the client knows not to meet the relay requirements: no load is attempted",
			func(c *model.LoadConfig) { c.KnownNonConforming = true }, nil},
		{"subscriptions-full", "the client's 19 other subscriptions and the load's 2 exceed the relay's advertised 20: no load is attempted",
			func(c *model.LoadConfig) { c.OtherSubs, c.RelayMaxSubs = 19, 20 }, nil},
		{"subscriptions-fit", "the client's 18 other subscriptions and the load's 2 fit the relay's advertised 20",
			func(c *model.LoadConfig) { c.OtherSubs, c.RelayMaxSubs = 18, 20 }, []model.In{eose(f)}},
	} {
		cfg := base
		if h.cfg != nil {
			h.cfg(&cfg)
		}
		in, err := enc.input(&loadRec{cfg: cfg, frames: h.frames})
		if err != nil {
			return nil, fmt.Errorf("load/hand-%s: %w", h.id, err)
		}
		cs = append(cs, Case{ID: "load/hand-" + h.id, Section: secLoad, Description: h.desc, Input: in})
	}
	return cs, nil
}
