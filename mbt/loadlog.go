package mbt

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sort"

	"github.com/nip-rs/harness/model"
)

// LogLoad is a load record: one thing a hosted device's full-state load
// against one relay did (package doc, "Load records"). Exactly one of
// Start, Sent, Received, Wait and Verdict is set.
type LogLoad struct {
	// Relay tells apart the loads one device runs on several relays at
	// once; empty is a relay like any other.
	Relay    string          `json:"relay,omitempty"`
	Start    *LoadStart      `json:"start,omitempty"`
	Sent     json.RawMessage `json:"sent,omitempty"`
	Received json.RawMessage `json:"received,omitempty"`
	// Wait is {}: the load waited its gap (a load of several passes)
	// before sending what the last frame received asks for.
	Wait    *struct{}        `json:"wait,omitempty"`
	Verdict *LoadVerdictLine `json:"verdict,omitempty"`
}

// waitMark stands in the model's queue of messages to send for the gap a
// load of several passes waits before the messages after it.
const waitMark = "(its gap: a wait record)"

// LoadStart is a load's configuration, as the load vectors' input.config
// spells it.
type LoadStart struct {
	PubKey             string `json:"pubkey"`
	Limit              int    `json:"limit"`
	SubPrefix          string `json:"sub_prefix"`
	FirstUntil         int64  `json:"first_until"`
	OtherSubs          int    `json:"other_subs,omitempty"`
	RelayMaxSubs       int    `json:"relay_max_subs,omitempty"`
	Unproven           string `json:"unproven,omitempty"`
	KnownNonConforming bool   `json:"known_non_conforming,omitempty"`
	Passes             int    `json:"passes,omitempty"`
}

// LoadVerdictLine is the verdict a client logs for a load, as the load
// vectors' expected output spells it. PlateauSecond is required with a
// plateau and refused without one; Coordinates are compared when logged.
type LoadVerdictLine struct {
	Verdict       string            `json:"verdict"`
	Reason        string            `json:"reason"`
	PlateauSecond *int64            `json:"plateau_second,omitempty"`
	Coordinates   map[string]string `json:"coordinates,omitempty"`
}

// readLoad checks a load record's form: one kind, a frame that is a JSON
// array the load vocabulary knows, a configuration the model accepts.
func readLoad(raw json.RawMessage) (*LogLoad, error) {
	var ld LogLoad
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&ld); err != nil {
		return nil, err
	}
	kinds := 0
	for _, set := range []bool{ld.Start != nil, ld.Sent != nil, ld.Received != nil, ld.Wait != nil, ld.Verdict != nil} {
		if set {
			kinds++
		}
	}
	if kinds != 1 {
		return nil, errors.New("want exactly one of start, sent, received, wait and verdict")
	}
	switch {
	case ld.Start != nil:
		if _, err := ld.Start.config(nil); err != nil {
			return nil, fmt.Errorf("start: %v", err)
		}
	case ld.Sent != nil:
		if _, err := canonicalFrame(ld.Sent); err != nil {
			return nil, fmt.Errorf("sent: %v", err)
		}
	case ld.Received != nil:
		if _, err := relayFrame(ld.Received); err != nil {
			return nil, fmt.Errorf("received: %v", err)
		}
	case ld.Verdict != nil:
		if ld.Verdict.Verdict == "" || ld.Verdict.Reason == "" {
			return nil, errors.New("verdict: want verdict and reason")
		}
	}
	return &ld, nil
}

// config is the model's configuration of the logged start, under rules.
func (s *LoadStart) config(rules *model.Rules) (model.LoadConfig, error) {
	nonce, err := nonceOf(s.FirstUntil)
	if err != nil {
		return model.LoadConfig{}, err
	}
	if s.SubPrefix == "" {
		return model.LoadConfig{}, errors.New("no sub_prefix: a log names the load's subscriptions")
	}
	return model.LoadConfig{PubKey: s.PubKey, Limit: s.Limit, SubPrefix: s.SubPrefix, Nonce: nonce,
		OtherSubs: s.OtherSubs, RelayMaxSubs: s.RelayMaxSubs, Unproven: s.Unproven, KnownNonConforming: s.KnownNonConforming,
		Passes: s.Passes, Connection: new(byte), Rules: rules}, nil
}

// nonceOf is the nonce whose first band ends at first_until: the model
// draws first bands from a fixed set of seconds far above every
// created_at, and a log's load must be one of them to be the model's.
func nonceOf(u int64) (uint32, error) {
	d := int64(model.MaxCreatedAt) - u
	for _, n := range []int64{d / 4, d/4 + 1<<14} {
		if n > 0 && n <= 1<<32-1 {
			if got, _ := model.Proposed().Load.FirstUntil(uint32(n)); int64(got) == u {
				return uint32(n), nil
			}
		}
	}
	return 0, fmt.Errorf("first_until %d is not a first band the model sends", u)
}

// canonicalFrame is a frame as compact JSON with sorted members, so that
// two spellings of one message compare equal (filters compare as JSON
// values).
func canonicalFrame(raw json.RawMessage) (string, error) {
	var v []any
	if err := json.Unmarshal(raw, &v); err != nil || len(v) == 0 {
		return "", errors.New("want a non-empty JSON array")
	}
	b, err := json.Marshal(v)
	if err != nil {
		return "", err
	}
	return string(b), nil
}

// relayFrame reads a received frame: EVENT, EOSE, CLOSED or ["LOST"].
func relayFrame(raw json.RawMessage) (model.In, error) {
	s, err := canonicalFrame(raw)
	if err != nil {
		return model.In{}, err
	}
	if s == `["LOST"]` {
		return model.In{Kind: model.InConnectionLost}, nil
	}
	m, ok := model.ParseIn(raw)
	if !ok {
		return model.In{}, errors.New(`not an EVENT, EOSE or CLOSED frame, nor ["LOST"]`)
	}
	return m, nil
}

// runningLoad is one logged load replayed on the model.
type runningLoad struct {
	l       *model.Load
	pending []string // what the model sends next, not yet logged
	done    bool     // the verdict is logged
}

// loadChecker replays every load of a log on the model's sans-I/O load.
type loadChecker struct {
	rules *model.Rules
	loads map[string]*runningLoad // device + "/" + relay
}

func newLoadChecker(rules *model.Rules) *loadChecker {
	return &loadChecker{rules: rules, loads: map[string]*runningLoad{}}
}

// release frees the subscription prefixes of loads the log left running.
func (c *loadChecker) release() {
	keys := make([]string, 0, len(c.loads))
	for k := range c.loads {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		c.loads[k].l.Abort("log over")
	}
}

// check takes one load record: nil when the model allows it there, the
// record's Unexplained otherwise, an error for a start the model refuses.
func (c *loadChecker) check(rec LogRecord) (*Unexplained, error) {
	ld := rec.Load
	key := rec.Device + "/" + ld.Relay
	run := c.loads[key]
	un := &Unexplained{Line: rec.Line, Step: rec.Step, Device: rec.Device}
	refuse := func(what, says string, allows ...string) (*Unexplained, error) {
		un.What, un.Says, un.Allows = what, says, allows
		return un, nil
	}
	pendingFirst := func(what, says string) (*Unexplained, error) {
		if run.pending[0] == waitMark {
			return refuse(what, says, "load wait {} first (the gap before a pass)")
		}
		return refuse(what, says, "load sent "+run.pending[0]+" first")
	}
	switch {
	case ld.Start != nil:
		says := jsonText(ld.Start)
		if run != nil && !run.done {
			return refuse("load start", says, "none: the load on this relay has no logged verdict yet")
		}
		cfg, err := ld.Start.config(c.rules)
		if err != nil {
			return nil, &LogError{rec.Line, "load start: " + err.Error()}
		}
		if run != nil {
			run.l.Abort("replaced")
		}
		l, err := model.NewLoad(cfg)
		if err != nil {
			return nil, &LogError{rec.Line, "load start: " + err.Error()}
		}
		run = &runningLoad{l: l}
		c.loads[key] = run
		outs := l.Start()
		if _, due := l.PassGapDue(); due {
			run.pending = append(run.pending, waitMark)
		}
		return nil, run.send(outs)
	case run == nil:
		return refuse("load", jsonText(ld), "none: no load was started on this relay")
	case ld.Sent != nil:
		says, _ := canonicalFrame(ld.Sent)
		if len(run.pending) == 0 {
			if run.l.Verdict() != model.Running {
				return refuse("load sent", says, "nothing: the load has its verdict ("+run.l.Verdict().String()+")")
			}
			return refuse("load sent", says, "nothing until the relay's next frame")
		}
		if says != run.pending[0] {
			return pendingFirst("load sent", says)
		}
		run.pending = run.pending[1:]
		return nil, nil
	case ld.Wait != nil:
		if len(run.pending) == 0 || run.pending[0] != waitMark {
			if len(run.pending) > 0 {
				return pendingFirst("load wait", "{}")
			}
			return refuse("load wait", "{}", "none: no pass starts here")
		}
		run.pending = run.pending[1:]
		return nil, nil
	case ld.Received != nil:
		says, _ := canonicalFrame(ld.Received)
		if len(run.pending) > 0 {
			return pendingFirst("load received", says)
		}
		m, _ := relayFrame(ld.Received)
		if m.Kind == model.InEvent && m.Event != nil {
			// As a transport does before feeding: an event whose
			// signature fails is evidence against the relay.
			if ok, err := m.Event.CheckSignature(); !ok || err != nil {
				m.BadSig = true
			}
		}
		outs := run.l.Feed(m)
		if _, due := run.l.PassGapDue(); due {
			run.pending = append(run.pending, waitMark)
		}
		return nil, run.send(outs)
	default:
		says := jsonText(ld.Verdict)
		if len(run.pending) > 0 {
			return pendingFirst("load verdict", says)
		}
		if run.done {
			return refuse("load verdict", says, "none: the verdict is logged already")
		}
		if run.l.Verdict() == model.Running {
			return refuse("load verdict", says, "none: the load has no verdict yet (it waits for the relay's next frame)")
		}
		want := verdictLine(run.l.Result())
		if !sameVerdict(*ld.Verdict, want) {
			return refuse("load verdict", says, jsonText(want))
		}
		run.done = true
		return nil, nil
	}
}

// send queues what the model sends, as canonical frames.
func (r *runningLoad) send(outs []model.Out) error {
	for _, o := range outs {
		b, err := o.Wire()
		if err != nil {
			return err
		}
		s, err := canonicalFrame(b)
		if err != nil {
			return err
		}
		r.pending = append(r.pending, s)
	}
	return nil
}

// verdictLine is the model's verdict as a log spells it.
func verdictLine(res model.LoadResult) LoadVerdictLine {
	v := LoadVerdictLine{Verdict: res.Verdict.String(), Reason: res.Reason.String(), Coordinates: map[string]string{}}
	if res.Reason == model.ReasonPlateau {
		s := int64(res.Second)
		v.PlateauSecond = &s
	}
	for _, ev := range res.Events {
		v.Coordinates[ev.Tags.GetD()] = ev.ID
	}
	return v
}

// sameVerdict compares a logged verdict with the model's: verdict and
// reason always, the plateau second when either side names one, the
// coordinates when logged.
func sameVerdict(got, want LoadVerdictLine) bool {
	if got.Verdict != want.Verdict || got.Reason != want.Reason {
		return false
	}
	if (got.PlateauSecond == nil) != (want.PlateauSecond == nil) ||
		(got.PlateauSecond != nil && *got.PlateauSecond != *want.PlateauSecond) {
		return false
	}
	if got.Coordinates == nil {
		return true
	}
	return jsonText(got.Coordinates) == jsonText(want.Coordinates)
}
