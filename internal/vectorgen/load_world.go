package vectorgen

import (
	"fmt"

	"github.com/nbd-wtf/go-nostr"

	"github.com/nip-rs/harness/model"
	"github.com/nip-rs/harness/props"
	"github.com/nip-rs/harness/relaysim"
)

// loadWorld runs a props scenario (props.Step, the steps of the load's
// property checks and of the L mutants' witnesses) over a simulated relay
// the way props.World does, and records, for every load it starts, each
// relay message the load was fed and what the load sent back. props.World
// feeds its loads internally, so the recording needs its own driver;
// TestLoadWorldMatchesProps holds it to the same verdicts as props.World.
type loadWorld struct {
	cfg     props.Config
	rules   *model.Rules
	relay   *relaysim.Relay
	conn    *relaysim.Conn
	load    *model.Load
	loads   int
	others  int
	clock   int64
	slots   int
	apps    int
	salt    int
	recs    []*loadRec
	unprove string
}

// loadRec is one load as a relay saw it: its configuration, the messages
// it sent on start, then each relay message fed to it and its reply.
type loadRec struct {
	cfg     model.LoadConfig
	start   []model.Out
	frames  []model.In
	replies [][]model.Out
	result  model.LoadResult
	// lastREQ is the last REQ the load sent; falseComplete says its
	// complete verdict missed or misread a coordinate the relay held
	// when that REQ read storage (props.World's soundness check).
	lastREQ       string
	falseComplete bool
}

// sent records what the load sent and, once it has a verdict, judges it.
func (w *loadWorld) sent(out []model.Out) {
	r := w.rec()
	for _, o := range out {
		if o.Kind == model.OutREQ {
			r.lastREQ = o.SubID
		}
	}
	was := r.result.Verdict
	r.result = w.load.Result()
	if was != model.Running || r.result.Verdict != model.Complete {
		return
	}
	truth, ok := w.conn.Snapshot(r.lastREQ)
	got := map[string]*nostr.Event{}
	for _, ev := range r.result.Events {
		got[ev.Tags.GetD()] = ev
	}
	for d, want := range truth {
		if have, held := got[d]; !held || relaysim.Newer(want, have) {
			r.falseComplete = true
		}
	}
	r.falseComplete = r.falseComplete || !ok
}

func newLoadWorld(cfg props.Config, rules *model.Rules, unproven string) (*loadWorld, error) {
	prof, err := relaysim.ByName(cfg.Profile, cfg.Cap)
	if err != nil {
		return nil, err
	}
	if cfg.N < 1 {
		return nil, fmt.Errorf("load scenario: n=%d", cfg.N)
	}
	r := relaysim.New(prof)
	r.Record = true
	return &loadWorld{cfg: cfg, rules: rules, relay: r, clock: props.StartClock, unprove: unproven}, nil
}

func (w *loadWorld) running() bool { return w.load != nil && w.load.Running() }

func (w *loadWorld) rec() *loadRec { return w.recs[len(w.recs)-1] }

// apply performs one step with props.World's semantics.
func (w *loadWorld) apply(s props.Step) {
	switch s.Op {
	case props.OpStart:
		w.start()
	case props.OpProcess:
		if w.conn != nil && w.conn.Inbound() > 0 {
			n := w.conn.Inbound()
			_ = w.conn.Process(n - 1 - s.I%n)
		}
	case props.OpDeliver:
		w.deliver(s.I)
	case props.OpRound:
		if w.conn != nil && w.conn.Inbound() > 0 {
			_ = w.conn.Process(w.conn.Inbound() - 1)
		}
		w.deliver(0)
	case props.OpFlush:
		if w.conn != nil {
			k := s.I
			if k == 0 {
				k = w.conn.Pushes()
			}
			w.conn.Flush(k)
		}
	case props.OpSettle:
		w.relay.Settle()
	case props.OpPublish:
		w.publish(s)
	case props.OpForeign:
		for i := range max(s.Count, 1) {
			w.apps++
			d := fmt.Sprintf("app:%d", w.apps)
			if w.apps%2 == 0 {
				d = fmt.Sprintf("app:read-state-draft:%d", w.apps)
			}
			at := s.At
			if s.Spread {
				at -= int64(i)
			}
			w.write(d, at, false)
		}
	case props.OpDelete:
		if live := w.relay.Events(); len(live) > 0 {
			w.relay.Delete(live[s.I%len(live)].ID)
		}
	case props.OpTick:
		w.clock += int64(max(s.I, 1))
	case props.OpLapse:
		if w.conn != nil {
			w.conn.Lose()
		}
	case props.OpOpen:
		if w.conn == nil || w.conn.Lost() || w.others >= w.cfg.Others {
			return
		}
		w.others++
		w.conn.Send(model.Out{Kind: model.OutREQ, SubID: fmt.Sprintf("other%d", w.others),
			Filter: nostr.Filter{Kinds: []int{1}, Authors: []string{props.UserPubKey}, Limit: 1}})
	case props.OpCloseFence:
		if w.conn != nil && w.load != nil {
			w.conn.CloseSub(w.load.FenceID(), "error: closed by the relay")
		}
	}
}

func (w *loadWorld) start() {
	if w.running() {
		return
	}
	w.loads++
	if gap := w.relay.Profile().LoadGap; gap > 0 {
		for w.conn != nil && !w.conn.Lost() && w.conn.Inbound() > 0 {
			_ = w.conn.Process(0)
		}
		w.relay.Idle(gap)
	}
	if w.conn == nil || w.conn.Lost() {
		w.conn, w.others = w.relay.Connect(), 0
	}
	cfg := model.LoadConfig{PubKey: props.UserPubKey, Limit: w.cfg.N, Rules: w.rules, SubPrefix: fmt.Sprintf("L%d", w.loads),
		Nonce: uint32(w.loads), Connection: w.conn, OtherSubs: w.cfg.Others, RelayMaxSubs: w.relay.Profile().AdvertisedSubs,
		Unproven: w.unprove, Passes: w.cfg.Passes}
	l, err := model.NewLoad(cfg)
	if err != nil {
		return
	}
	w.load = l
	w.recs = append(w.recs, &loadRec{cfg: cfg})
	out := l.Start()
	w.rec().start = out
	w.sent(out)
	w.conn.Send(out...)
}

func (w *loadWorld) deliver(k int) {
	if w.conn == nil || w.load == nil {
		return
	}
	if k == 0 {
		k = w.conn.Outbound()
	}
	for range k {
		m, ok := w.conn.Next()
		if !ok {
			return
		}
		pass := w.load.Pass()
		out := w.load.Feed(m)
		_, due := w.load.PassGapDue()
		if due {
			// As props.World: within the load's gap, splits finish before
			// the next pass and queued pushes go out.
			if w.relay.Profile().SettleBeforePass && w.load.Pass() > pass {
				for w.relay.Settle() {
				}
			}
			if w.relay.Profile().FlushBeforePass && w.conn.Pushes() > 0 {
				w.conn.Flush(w.conn.Pushes())
			}
		}
		r := w.rec()
		r.frames = append(r.frames, m)
		r.replies = append(r.replies, out)
		w.sent(out)
		w.conn.Send(out...)
		if due && w.relay.Profile().FlushBeforePass && w.running() && w.load.Pass() == pass {
			// As props.World: the last round trip runs with nothing
			// landing during it.
			for w.running() {
				switch {
				case w.conn.Outbound() > 0:
					w.deliver(1)
				case w.conn.Inbound() > 0:
					_ = w.conn.Process(0)
				case w.conn.Pushes() > 0:
					w.conn.Flush(w.conn.Pushes())
				default:
					return
				}
			}
		}
	}
}

// finish runs the current load to its verdict with no interference, as
// props.World.Finish does.
func (w *loadWorld) finish() {
	for w.conn != nil {
		delayed := w.relay.Profile().Push == relaysim.PushDelayed
		switch {
		case w.conn.Outbound() > 0:
			w.deliver(1)
		case w.conn.Pushes() > 0 && !delayed:
			w.conn.Flush(w.conn.Pushes())
		case w.conn.Inbound() > 0:
			_ = w.conn.Process(w.conn.Inbound() - 1)
		case w.conn.Pushes() > 0:
			w.conn.Flush(w.conn.Pushes())
		case w.relay.Pending() > 0:
			w.relay.Settle()
		default:
			if w.load != nil && w.load.Running() {
				w.load.Abort("scenario over") // a stuck load: its recorded verdict stays running
			}
			return
		}
	}
}

func (w *loadWorld) publish(s props.Step) {
	if s.When == props.WhenSame && w.slots > 0 {
		s.I %= w.slots
	}
	if s.I >= w.slots {
		s.I = w.slots
		w.slots++
	}
	d := fmt.Sprintf("read-state:%032x", s.I+1)
	cur := w.relay.Coordinates()[d]
	at := w.clock
	switch s.When {
	case props.WhenAt:
		at = s.At
	case props.WhenAbove:
		for _, ev := range w.relay.Events() {
			at = max(at, int64(ev.CreatedAt)+1)
		}
		w.clock = max(w.clock, at)
	case props.WhenBelow:
		for _, ev := range w.relay.Events() {
			at = min(at, int64(ev.CreatedAt)-1)
		}
	case props.WhenSame:
		if cur != nil {
			at = int64(cur.CreatedAt)
			for range 64 {
				ev := w.build(d, at, true)
				if (ev.ID < cur.ID) == s.Lower {
					w.relay.Publish(ev)
					return
				}
			}
		}
	}
	w.write(d, at, true)
}

func (w *loadWorld) build(d string, at int64, readState bool) *nostr.Event {
	w.salt++
	tags := nostr.Tags{{"d", d}}
	if readState {
		tags = append(tags, nostr.Tag{"t", "read-state"})
	}
	ev := &nostr.Event{PubKey: props.UserPubKey, CreatedAt: nostr.Timestamp(max(at, 0)), Kind: 30078, Tags: tags,
		Content: fmt.Sprintf("w%d", w.salt)}
	ev.ID = ev.GetID()
	return ev
}

func (w *loadWorld) write(d string, at int64, readState bool) {
	w.relay.Publish(w.build(d, at, readState))
}

// runLoadScenario runs a soundness scenario (the steps, then the last load
// to its verdict) or a quiescent one (the writes, every split replacement
// settled, one load to its verdict), and returns every load it recorded.
func runLoadScenario(cfg props.Config, check string, steps []props.Step, unproven string) ([]*loadRec, error) {
	w, err := newLoadWorld(cfg, model.Proposed(), unproven)
	if err != nil {
		return nil, err
	}
	for _, s := range steps {
		w.apply(s)
	}
	if check == props.CheckQuiescent {
		for w.relay.Pending() > 0 {
			w.relay.Settle()
		}
		w.apply(props.Step{Op: props.OpStart})
	}
	w.finish()
	return w.recs, nil
}
