package gen

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"sync"

	"github.com/nbd-wtf/go-nostr"

	"github.com/nip-rs/harness/model"
)

const secLoad = "Full-State Load"

// loadInput is one full-state load against a scripted relay: the load's
// configuration and every relay message it is fed, in wire order.
type loadInput struct {
	Config loadConfigIn `json:"config"`
	// Frames are relay frames as JSON arrays (["EVENT", sub, event],
	// ["EOSE", sub], ["CLOSED", sub, reason]), or ["LOST"] for the
	// connection dropping.
	Frames []json.RawMessage `json:"frames"`
}

type loadConfigIn struct {
	PubKey string `json:"pubkey"`
	Limit  int    `json:"limit"`
	// SubPrefix names the load's subscriptions: <prefix>-fence and
	// <prefix>-q1, -q2, ... in the order the queries are sent.
	SubPrefix string `json:"sub_prefix"`
	// FirstUntil is the first band's until, far above every created_at,
	// so that no two loads send the same first band (proposal
	// distinct-load-filters, the defence against relays caching results
	// by filter; the text's first band has no until).
	FirstUntil         int64  `json:"first_until"`
	OtherSubs          int    `json:"other_subs,omitempty"`
	RelayMaxSubs       int    `json:"relay_max_subs,omitempty"`
	Unproven           string `json:"unproven,omitempty"`
	KnownNonConforming bool   `json:"known_non_conforming,omitempty"`
	// Passes is how many full enumerations the load runs before it may
	// say complete (absent: one): the client option against relays that
	// split replacements (model.LoadConfig.Passes).
	Passes int `json:"passes,omitempty"`
}

// loadOutput is what the load sent and decided.
type loadOutput struct {
	// Start is what the load sends before any relay message; Replies[i]
	// what it sends right after frame i (often nothing).
	Start   []json.RawMessage   `json:"start"`
	Replies [][]json.RawMessage `json:"replies"`
	// Waits lists, in order, the frames (by index) after which a load of
	// several passes waits its gap (model.Load.PassGapDue) before sending
	// that frame's reply: after the fence's end-of-stored-events, before
	// each later pass and before the round trip that ends the last.
	Waits   []int  `json:"waits,omitempty"`
	Verdict string `json:"verdict"`
	Reason  string `json:"reason"`
	// PlateauSecond is the second a plateau verdict could not discharge.
	PlateauSecond *int64 `json:"plateau_second,omitempty"`
	// Coordinates is every read-state coordinate collected (d tag ->
	// the retained version's id), whatever the verdict.
	Coordinates map[string]string `json:"coordinates"`
}

// nonceFor inverts the proposed first band's until: the nonce whose first
// band ends at u.
func nonceFor(u int64) (uint32, error) {
	d := int64(model.MaxCreatedAt) - u
	firstUntil := model.Proposed().Load.FirstUntil
	for _, n := range []int64{d / 4, d/4 + 1<<14} {
		if n > 0 && n <= 1<<32-1 {
			if got, _ := firstUntil(uint32(n)); int64(got) == u {
				return uint32(n), nil
			}
		}
	}
	return 0, fmt.Errorf("first_until %d is not a first band this core sends", u)
}

// parseFrame reads one scripted relay frame.
func parseFrame(raw json.RawMessage) (model.In, error) {
	var head []json.RawMessage
	if err := json.Unmarshal(raw, &head); err != nil || len(head) == 0 {
		return model.In{}, fmt.Errorf("frame %s: not a JSON array", raw)
	}
	var kind string
	if err := json.Unmarshal(head[0], &kind); err != nil {
		return model.In{}, fmt.Errorf("frame %s: no message type", raw)
	}
	if kind == "LOST" {
		return model.In{Kind: model.InConnectionLost}, nil
	}
	m, ok := model.ParseIn(raw)
	if !ok {
		return model.In{}, fmt.Errorf("frame %s: not an EVENT, EOSE or CLOSED frame", raw)
	}
	return m, nil
}

func wireOuts(outs []model.Out) ([]json.RawMessage, error) {
	res := []json.RawMessage{}
	for _, o := range outs {
		b, err := o.Wire()
		if err != nil {
			return nil, err
		}
		res = append(res, b)
	}
	return res, nil
}

// parsedLoad is a load input read once: replaying the vectors under every
// mutant of the catalogue reads each input dozens of times, and the load
// neither changes a fed event nor keeps the slice.
type parsedLoad struct {
	cfg    loadConfigIn
	nonce  uint32
	frames []model.In
}

var loadInputs sync.Map // string(input) -> *parsedLoad

func readLoadInput(raw json.RawMessage) (*parsedLoad, error) {
	if p, ok := loadInputs.Load(string(raw)); ok {
		return p.(*parsedLoad), nil
	}
	var in loadInput
	if err := json.Unmarshal(raw, &in); err != nil {
		return nil, err
	}
	nonce, err := nonceFor(in.Config.FirstUntil)
	if err != nil {
		return nil, err
	}
	p := &parsedLoad{cfg: in.Config, nonce: nonce, frames: make([]model.In, len(in.Frames))}
	for i, f := range in.Frames {
		if p.frames[i], err = parseFrame(f); err != nil {
			return nil, fmt.Errorf("frame %d: %w", i, err)
		}
	}
	loadInputs.Store(string(raw), p)
	return p, nil
}

func computeLoad(rules *model.Rules, raw json.RawMessage) (any, error) {
	p, err := readLoadInput(raw)
	if err != nil {
		return nil, err
	}
	c, nonce, frames := p.cfg, p.nonce, p.frames
	l, err := model.NewLoad(model.LoadConfig{PubKey: c.PubKey, Limit: c.Limit, SubPrefix: c.SubPrefix, Nonce: nonce,
		OtherSubs: c.OtherSubs, RelayMaxSubs: c.RelayMaxSubs, Unproven: c.Unproven, KnownNonConforming: c.KnownNonConforming,
		Passes: c.Passes, Connection: new(byte), Rules: rules})
	if err != nil {
		return nil, err
	}
	// A load the frames leave running holds its prefix on this vector's
	// own connection until aborted; its recorded verdict stays running.
	defer l.Abort("vector over")
	out := loadOutput{Replies: [][]json.RawMessage{}, Coordinates: map[string]string{}}
	if out.Start, err = wireOuts(l.Start()); err != nil {
		return nil, err
	}
	for i, m := range frames {
		r, err := wireOuts(l.Feed(m))
		if err != nil {
			return nil, err
		}
		if _, due := l.PassGapDue(); due {
			out.Waits = append(out.Waits, i)
		}
		out.Replies = append(out.Replies, r)
	}
	res := l.Result()
	out.Verdict, out.Reason = res.Verdict.String(), res.Reason.String()
	if res.Reason == model.ReasonPlateau {
		s := int64(res.Second)
		out.PlateauSecond = &s
	}
	for _, ev := range res.Events {
		out.Coordinates[ev.Tags.GetD()] = ev.ID
	}
	return out, nil
}

// userSecret signs the scripted relay's events: the secret key 1, whose
// public key is the scenarios' user (props.UserPubKey).
const userSecret = "0000000000000000000000000000000000000000000000000000000000000001"

// frameEncoder writes a recorded load's relay messages as signed wire
// frames; one signature per event, whatever the number of frames it is in.
type frameEncoder struct{ sigs map[string]string }

func (f *frameEncoder) frame(m model.In) (json.RawMessage, error) {
	switch m.Kind {
	case model.InConnectionLost:
		return json.RawMessage(`["LOST"]`), nil
	case model.InEOSE:
		return nostr.EOSEEnvelope(m.SubID).MarshalJSON()
	case model.InClosed:
		return nostr.ClosedEnvelope{SubscriptionID: m.SubID, Reason: m.Reason}.MarshalJSON()
	case model.InEvent:
		ev := *m.Event
		sig, ok := f.sigs[ev.ID]
		if ev.Sig != "" {
			sig, ok = ev.Sig, true // signed already (by another author)
		}
		if !ok {
			if err := ev.Sign(userSecret); err != nil {
				return nil, err
			}
			if ev.ID != m.Event.ID {
				return nil, fmt.Errorf("signing changed event %s", m.Event.ID)
			}
			sig = ev.Sig
			f.sigs[ev.ID] = sig
		}
		ev.Sig = sig
		sub := m.SubID
		b, err := nostr.EventEnvelope{SubscriptionID: &sub, Event: ev}.MarshalJSON()
		return bytes.Clone(b), err
	}
	return nil, fmt.Errorf("relay message kind %s", m.Kind)
}

// loadVectorInput turns a recorded load into a vector input.
func (f *frameEncoder) input(r *loadRec) (loadInput, error) {
	u, _ := model.Proposed().Load.FirstUntil(r.cfg.Nonce)
	in := loadInput{Config: loadConfigIn{PubKey: r.cfg.PubKey, Limit: r.cfg.Limit, SubPrefix: r.cfg.SubPrefix, FirstUntil: int64(u),
		OtherSubs: r.cfg.OtherSubs, RelayMaxSubs: r.cfg.RelayMaxSubs, Unproven: r.cfg.Unproven, KnownNonConforming: r.cfg.KnownNonConforming,
		Passes: r.cfg.Passes},
		Frames: []json.RawMessage{}}
	for _, m := range r.frames {
		b, err := f.frame(m)
		if err != nil {
			return in, err
		}
		in.Frames = append(in.Frames, b)
	}
	return in, nil
}

func loadKind() Kind {
	return Kind{
		Name:        "load",
		Description: "The full-state load against a scripted relay: every relay frame in wire order (from simulated relays of many profiles, including the non-conforming ones and the false-complete traps, and from the witnesses of the load's mutants) -> the REQs and CLOSEs the load sends after each, its verdict and reason, and the coordinates it collected.",
		HowToRun: "Start a full-state load with input.config: the user's pubkey, the explicit limit n of every query, first_until, the other subscriptions on the connection and the relay's advertised capacity, and unproven. " +
			"The expected outputs are those of the proposed rules (NIP-RS.md with every proposal of ERRATA.md); a vector whose expected output the text alone does not give names the proposals it needs in its proposals member, and a vector without that member holds under the text as written. " +
			"Three inputs belong to proposals, not to the text: first_until is the first band's until, far above every created_at, so that no two loads send the same filter to a relay caching results by filter (distinct-load-filters; send it as yours, the text's first band has no until); " +
			"other_subs and relay_max_subs decide whether the load is attempted at all (fence-within-capacity); " +
			"unproven (non-empty: the client holds the relay unproven, with no record of it meeting the relay requirements) turns an enumeration that ends into cannot-prove-complete, reason unproven (unproven-relay-not-complete; the text loads such a relay as any other). " +
			"Compare the messages sent at start with expected.start. Then feed input.frames one by one in order (['LOST'] is the connection dropping) and after frame i compare what the load sends with expected.replies[i]. " +
			loadSubscriptions + " Filters compare as JSON values. " + closeDiscipline + " " +
			"With passes (two or more full enumerations, a client option), waits lists the frames after which the load waits its gap before sending that frame's reply: after the fence's end-of-stored-events, before each later pass and before the last round trip; compare it when your load has passes (absent: none). " +
			"At the end compare verdict (" + strings.Join(names(model.Verdicts()), ", ") + "; running if the frames end first), reason (" + strings.Join(names(model.Reasons()), ", ") + "), plateau_second, and coordinates (d tag -> the retained event id). Events are signed by the secret key 1.",
		Cases:   loadCases,
		Compute: computeLoad,
	}
}
