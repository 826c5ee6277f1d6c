package props

import (
	"fmt"
	"slices"
	"strings"

	"github.com/nbd-wtf/go-nostr"

	"github.com/nip-rs/harness/model"
	"github.com/nip-rs/harness/relaysim"
)

// UserPubKey is the user whose history the scenarios build. Events are
// unsigned; their ids are the hash of their serialisation.
const UserPubKey = "79be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798"

// StartClock is the second the scenarios' clock starts at.
const StartClock = 100

// Config is a scenario's fixed part: the relay profile, its cap (profiles
// with a cap of their own, floor-1, ignore it) and the limit n the loads
// request.
type Config struct {
	Profile string `json:"profile"`
	Cap     int    `json:"cap"`
	N       int    `json:"n"`
	// Others is the most subscriptions the loading installation opens on
	// its connection besides the load's (OpOpen), declared to every load
	// (model.LoadConfig.OtherSubs). Drawn only over a relay that bounds
	// its subscriptions.
	Others int `json:"others,omitempty"`
	// Passes is every load's LoadConfig.Passes: two over a relay whose
	// races finish before a load's next pass (relaysim.Profile's
	// SettleBeforePass, FlushBeforePass, RegisterBeforePass), none
	// otherwise.
	Passes int `json:"passes,omitempty"`
}

func (c Config) String() string {
	s := fmt.Sprintf("profile=%s cap=%d n=%d", c.Profile, c.Cap, c.N)
	if c.Others > 0 {
		s += fmt.Sprintf(" others=%d", c.Others)
	}
	if c.Passes > 0 {
		s += fmt.Sprintf(" passes=%d", c.Passes)
	}
	return s
}

// Step operations.
const (
	OpStart      = "start"       // start a load (if none runs), on a new connection if the last one dropped
	OpProcess    = "process"     // the relay handles the I-th newest pending client message (mod pending)
	OpDeliver    = "deliver"     // the client reads I relay messages (0: all)
	OpFlush      = "flush"       // the relay sends I queued pushes (0: all)
	OpSettle     = "settle"      // the relay finishes its oldest split replacement
	OpPublish    = "publish"     // another installation publishes read-state slot I (a new one if I >= slots)
	OpForeign    = "foreign"     // another application writes Count events at second At (Spread: At, At-1, ...)
	OpDelete     = "delete"      // the I-th live stored event (mod count) is deleted
	OpTick       = "tick"        // the clock advances I seconds
	OpLapse      = "lapse"       // the load's connection drops
	OpCloseFence = "close-fence" // the relay closes the fence
	OpRound      = "round"       // the relay handles the newest pending client message, then the client reads everything
	OpOpen       = "open"        // the installation opens another subscription on the load's connection (up to Config.Others)
)

// Publish timings.
const (
	WhenNow   = "now"   // at the clock
	WhenSame  = "same"  // at the coordinate's current second (a same-second replacement)
	WhenAbove = "above" // one second above everything stored (a move above the cursor)
	WhenBelow = "below" // one second below everything stored (a skewed clock, a restored backup)
	WhenAt    = "at"    // at second At
)

// Step is one action of a scenario.
type Step struct {
	Op    string `json:"op"`
	I     int    `json:"i,omitempty"`
	At    int64  `json:"at,omitempty"`
	Count int    `json:"count,omitempty"`
	When  string `json:"when,omitempty"`
	Lower bool   `json:"lower,omitempty"`
	// Spread writes foreign events at consecutive seconds down from At.
	Spread bool `json:"spread,omitempty"`
}

func (s Step) String() string {
	switch s.Op {
	case OpPublish:
		out := fmt.Sprintf("publish rs%d %s", s.I+1, s.When)
		if s.When == WhenAt {
			out += fmt.Sprintf(" %d", s.At)
		}
		if s.When == WhenSame {
			out += map[bool]string{true: " lower-id", false: " higher-id"}[s.Lower]
		}
		return out
	case OpForeign:
		if s.Spread {
			return fmt.Sprintf("foreign %d from %d down", s.Count, s.At)
		}
		return fmt.Sprintf("foreign %d@%d", s.Count, s.At)
	case OpProcess, OpDeliver, OpFlush, OpDelete, OpTick:
		return fmt.Sprintf("%s %d", s.Op, s.I)
	}
	return s.Op
}

// Violation is a check that failed.
type Violation struct {
	Check  string // "soundness", "quiescent", "stuck", "termination"
	Detail string
}

func (v *Violation) Error() string { return v.Check + ": " + v.Detail }

// World is one scenario in progress: the relay, the loading
// installation's current connection and load, the other writers, and the
// log of what happened.
type World struct {
	cfg   Config
	rules *model.Rules
	relay *relaysim.Relay
	conn  *relaysim.Conn
	load  *model.Load
	// gapDue: the load just asked for its gap (model.Load.PassGapDue).
	gapDue  bool
	loads   int
	others  int // subscriptions OpOpen opened on the current connection
	lastREQ string
	clock   int64
	slots   int
	apps    int
	salt    int
	log     []string
	results []model.LoadResult
	// obs is told what the loads exchange (Observe); unproven is every
	// load's model.LoadConfig.Unproven (HoldUnproven).
	obs      Observer
	unproven string
	// finishUsed is how many messages the last Finish counted while a
	// load ran, and finishBound the bound it was held to.
	finishUsed, finishBound int
}

// NewWorld builds an empty scenario.
func NewWorld(cfg Config, rules *model.Rules) (*World, error) {
	prof, err := relaysim.ByName(cfg.Profile, cfg.Cap)
	if err != nil {
		return nil, err
	}
	if cfg.N < 1 {
		return nil, fmt.Errorf("props: n=%d", cfg.N)
	}
	r := relaysim.New(prof)
	r.Record = true
	return &World{cfg: cfg, rules: rules, relay: r, clock: StartClock}, nil
}

// Log is what happened, one line per step or message.
func (w *World) Log() []string { return w.log }

// Results lists the verdicts of the loads that finished, in order.
func (w *World) Results() []model.LoadResult { return w.results }

// Relay is the scenario's relay.
func (w *World) Relay() *relaysim.Relay { return w.relay }

func (w *World) logf(format string, args ...any) { w.log = append(w.log, fmt.Sprintf(format, args...)) }

// Running reports whether a load is running.
func (w *World) Running() bool { return w.load != nil && w.load.Running() }

// Apply performs one step. Steps that do not apply in the current state
// (processing with nothing pending, starting while a load runs) change
// nothing. It returns the violation the step exposed, if any.
func (w *World) Apply(s Step) *Violation {
	w.logf("%s", s)
	switch s.Op {
	case OpStart:
		if w.Running() {
			return nil
		}
		w.loads++
		if gap := w.relay.Profile().LoadGap; gap > 0 {
			// Loads spaced gap ticks apart: the previous load's last
			// messages reach the relay, then gap ticks pass.
			for w.conn != nil && !w.conn.Lost() && w.conn.Inbound() > 0 {
				_ = w.conn.Process(0)
			}
			w.relay.Idle(gap)
		}
		if w.conn == nil || w.conn.Lost() {
			w.conn, w.others = w.relay.Connect(), 0
		}
		// Each load's nonce is its number: distinct first bands, and the
		// same filters on every replay.
		cfg := model.LoadConfig{PubKey: UserPubKey, Limit: w.cfg.N, Rules: w.rules, SubPrefix: fmt.Sprintf("L%d", w.loads),
			Nonce: uint32(w.loads), Connection: w.conn, OtherSubs: w.cfg.Others, RelayMaxSubs: w.relay.Profile().AdvertisedSubs,
			Passes: w.cfg.Passes, Unproven: w.unproven}
		l, err := model.NewLoad(cfg)
		if err != nil {
			w.logf("  load refused: %v", err)
			return nil
		}
		w.load = l
		outs := l.Start()
		if w.obs != nil {
			w.obs.LoadStarted(cfg, outs)
		}
		w.send(outs)
		if !l.Running() {
			return w.verdict()
		}
	case OpProcess:
		if w.conn == nil || w.conn.Inbound() == 0 {
			return nil
		}
		n := w.conn.Inbound()
		_ = w.conn.Process(n - 1 - s.I%n)
	case OpDeliver:
		return w.deliver(s.I)
	case OpRound:
		if w.conn != nil && w.conn.Inbound() > 0 {
			_ = w.conn.Process(w.conn.Inbound() - 1)
		}
		return w.deliver(0)
	case OpFlush:
		if w.conn != nil {
			// The relay's broadcaster catches up: a subscription it
			// registers late (relaysim.Profile.RegisterLate) is
			// registered by now.
			if n := w.conn.Register(); n > 0 {
				w.logf("  relay registers %d subscriptions for pushes", n)
			}
			k := s.I
			if k == 0 {
				k = w.conn.Pushes()
			}
			w.conn.Flush(k)
		}
	case OpSettle:
		w.relay.Settle()
	case OpPublish:
		w.publish(s)
	case OpForeign:
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
	case OpDelete:
		if live := w.relay.Events(); len(live) > 0 {
			ev := live[s.I%len(live)]
			w.relay.Delete(ev.ID)
			w.logf("  deleted %s", label(ev))
		}
	case OpTick:
		w.clock += int64(max(s.I, 1))
	case OpLapse:
		if w.conn != nil {
			w.conn.Lose()
		}
	case OpOpen:
		if w.conn == nil || w.conn.Lost() || w.others >= w.cfg.Others {
			return nil
		}
		w.others++
		o := model.Out{Kind: model.OutREQ, SubID: fmt.Sprintf("other%d", w.others),
			Filter: nostr.Filter{Kinds: []int{1}, Authors: []string{UserPubKey}, Limit: 1}}
		w.logf("  → %s", describeOut(o))
		w.conn.Send(o)
	case OpCloseFence:
		if w.conn != nil && w.load != nil {
			w.conn.CloseSub(w.load.FenceID(), "error: closed by the relay")
		}
	default:
		w.logf("  unknown op")
	}
	return nil
}

func (w *World) send(outs []model.Out) {
	for _, o := range outs {
		if o.Kind == model.OutREQ {
			w.lastREQ = o.SubID
		}
		w.logf("  → %s", describeOut(o))
	}
	w.conn.Send(outs...)
}

// roundTrip runs the relay and the load with nothing else happening until
// the load has a verdict or nothing is left to exchange.
func (w *World) roundTrip() *Violation {
	for w.load.Running() {
		switch {
		case w.conn.Outbound() > 0:
			if v := w.deliver(1); v != nil {
				return v
			}
		case w.conn.Inbound() > 0:
			_ = w.conn.Process(0)
		case w.conn.Pushes() > 0:
			w.conn.Flush(w.conn.Pushes())
		default:
			return nil
		}
	}
	return nil
}

// deliver feeds up to k relay messages (all if k is 0) to the load.
func (w *World) deliver(k int) *Violation {
	if w.conn == nil {
		return nil
	}
	if k == 0 {
		k = w.conn.Outbound()
	}
	for range k {
		m, ok := w.conn.Next()
		if !ok {
			return nil
		}
		w.logf("  ← %s", describeIn(m))
		was, pass, est := w.load.Verdict(), w.load.Pass(), w.load.Established()
		outs := w.load.Feed(m)
		if w.obs != nil {
			w.obs.Fed(m, outs)
		}
		_, due := w.load.PassGapDue()
		// The gap after the fence's answer, before the first pass
		// (model's Rules.Load.SettleFence), is no last round trip.
		fenceGap := due && !est && w.load.Established()
		w.gapDue = due && !fenceGap
		if due {
			// The timing assumption of a multi-pass load (its gap,
			// model.LoadConfig.PassGap): every split replacement is
			// finished before the next pass reads, every subscription is
			// registered for pushes, and every queued push has gone out,
			// before the next pass and the last round trip.
			prof := w.relay.Profile()
			if prof.SettleBeforePass && (w.load.Pass() > pass || fenceGap) {
				for w.relay.Settle() {
					w.logf("  relay settles a split replacement before pass %d", w.load.Pass())
				}
			}
			// Registration after the splits settle: the order least
			// favourable to the load (a push the settling sends is lost).
			if prof.RegisterBeforePass && w.conn.Unregistered() > 0 {
				w.logf("  relay registers its %d late subscriptions within the load's gap", w.conn.Unregistered())
				w.conn.Register()
			}
			if prof.FlushBeforePass && w.conn.Pushes() > 0 {
				w.logf("  relay sends its %d queued pushes within the load's gap", w.conn.Pushes())
				// Outbound in order: they reach the load before any
				// answer to what it sends next.
				w.conn.Flush(w.conn.Pushes())
			}
		}
		w.send(outs)
		if ping := w.load.Running() && w.load.Pass() == pass; ping && w.gapDue && w.relay.Profile().FlushBeforePass {
			// The last round trip, under the same assumption: what the
			// relay accepted before it was sent is all it must show
			// (the verdict says so), so nothing lands during it.
			w.gapDue = false
			if v := w.roundTrip(); v != nil {
				return v
			}
			was = w.load.Verdict() // the round trip judged it
		}
		if was == model.Running && w.load.Verdict() != model.Running {
			if v := w.verdict(); v != nil {
				return v
			}
		}
	}
	return nil
}

// verdict records a finished load and checks soundness of a complete one.
func (w *World) verdict() *Violation {
	res := w.load.Result()
	w.results = append(w.results, res)
	w.logf("  verdict %s (%s): %s", res.Verdict, res.Reason, res.Detail)
	v := w.sound(res)
	if w.obs != nil {
		w.obs.Verdict(res, v)
	}
	return v
}

// sound checks a verdict against what the relay held when the load's
// last query read its storage: a complete one must have collected every
// read-state coordinate at that version or a newer one.
func (w *World) sound(res model.LoadResult) *Violation {
	if res.Verdict != model.Complete {
		return nil
	}
	truth, ok := w.conn.Snapshot(w.lastREQ)
	if !ok {
		return &Violation{"soundness", "complete with no query read: " + res.Detail}
	}
	got := map[string]*nostr.Event{}
	for _, ev := range res.Events {
		got[ev.Tags.GetD()] = ev
	}
	ds := make([]string, 0, len(truth))
	for d := range truth {
		ds = append(ds, d)
	}
	slices.Sort(ds)
	var bad []string
	for _, d := range ds {
		want := truth[d]
		have, ok := got[d]
		switch {
		case !ok:
			bad = append(bad, fmt.Sprintf("%s missing", label(want)))
		case relaysim.Newer(want, have):
			bad = append(bad, fmt.Sprintf("%s collected, relay held %s", label(have), label(want)))
		}
	}
	if len(bad) > 0 {
		return &Violation{"soundness", fmt.Sprintf("false complete after %s: %s", w.lastREQ, strings.Join(bad, "; "))}
	}
	return nil
}

func (w *World) publish(s Step) {
	if s.When == WhenSame && w.slots > 0 {
		s.I %= w.slots // a same-second replacement needs a coordinate to replace
	}
	if s.I >= w.slots {
		s.I = w.slots
		w.slots++
	}
	d := fmt.Sprintf("read-state:%032x", s.I+1)
	cur := w.relay.Coordinates()[d]
	at := w.clock
	switch s.When {
	case WhenAt:
		at = s.At
	case WhenAbove:
		for _, ev := range w.relay.Events() {
			at = max(at, int64(ev.CreatedAt)+1)
		}
		w.clock = max(w.clock, at)
	case WhenBelow:
		for _, ev := range w.relay.Events() {
			at = min(at, int64(ev.CreatedAt)-1)
		}
	case WhenSame:
		if cur != nil {
			at = int64(cur.CreatedAt)
			for range 64 {
				ev := w.build(d, at, true)
				if (ev.ID < cur.ID) == s.Lower {
					w.accept(ev)
					return
				}
			}
		}
	}
	w.write(d, at, true)
}

func (w *World) build(d string, at int64, readState bool) *nostr.Event {
	w.salt++
	tags := nostr.Tags{{"d", d}}
	if readState {
		tags = append(tags, nostr.Tag{"t", "read-state"})
	}
	ev := &nostr.Event{PubKey: UserPubKey, CreatedAt: nostr.Timestamp(max(at, 0)), Kind: 30078, Tags: tags,
		Content: fmt.Sprintf("w%d", w.salt)}
	ev.ID = ev.GetID()
	return ev
}

func (w *World) write(d string, at int64, readState bool) { w.accept(w.build(d, at, readState)) }

func (w *World) accept(ev *nostr.Event) {
	ok, why := w.relay.Publish(ev)
	if ok {
		w.logf("  stored %s", label(ev))
	} else {
		w.logf("  rejected %s: %s", label(ev), why)
	}
}

// close gives up a load the scenario left running, so that it holds no
// subscription prefix past the scenario.
func (w *World) close() {
	if w.load != nil {
		w.load.Abort("scenario over")
	}
}

// Finish lets the current load run to its verdict with no further
// interference: the relay answers the newest pending message first (the
// order is the relay's to choose; newest-first is the one that keeps an
// earlier REQ waiting longest), pushes go out (delayed ones only when
// nothing else is pending), split replacements settle last. The schedule
// is fair: every pending client message is processed, every queued push
// flushed and every split settled unless the load ends first. A running
// load left with nothing to exchange is a liveness violation ("stuck"),
// and so is one still running after TerminationBound messages
// ("termination"): without that bound a load that loops would never
// return.
func (w *World) Finish() *Violation {
	w.logf("finish")
	terms, used := w.terms(), 0
	bound := terms.bound()
	w.finishBound = bound
	defer func() { w.finishUsed = used }()
	for w.conn != nil {
		if w.Running() {
			if used >= bound {
				return &Violation{CheckTermination, fmt.Sprintf("no verdict after %d messages (bound %s)", used, terms)}
			}
			used++
		}
		switch delayed := w.relay.Profile().Push == relaysim.PushDelayed; {
		case w.conn.Outbound() > 0:
			if v := w.deliver(1); v != nil {
				return v
			}
		case w.conn.Pushes() > 0 && !delayed:
			w.conn.Flush(w.conn.Pushes())
		case w.conn.Inbound() > 0:
			_ = w.conn.Process(w.conn.Inbound() - 1)
		case w.conn.Unregistered() > 0:
			w.logf("register")
			w.conn.Register()
		case w.conn.Pushes() > 0:
			w.logf("flush (delayed)")
			w.conn.Flush(w.conn.Pushes())
		case w.relay.Pending() > 0:
			w.logf("settle")
			w.relay.Settle()
		case w.Running():
			return &Violation{"stuck", "the load is running with nothing left to exchange"}
		default:
			return nil
		}
	}
	return nil
}

func label(ev *nostr.Event) string {
	d := ev.Tags.GetD()
	if rest, ok := strings.CutPrefix(d, model.DTagPrefix); ok {
		n := strings.TrimLeft(rest, "0")
		d = "rs" + n
		if n == "" || len(n) > 4 {
			d = "rs:" + rest
		}
	}
	return fmt.Sprintf("%s@%d/%s", d, ev.CreatedAt, ev.ID[:6])
}

func describeIn(m model.In) string {
	switch m.Kind {
	case model.InEvent:
		if m.Event == nil {
			return "EVENT " + m.SubID + " <nil>"
		}
		return "EVENT " + m.SubID + " " + label(m.Event)
	case model.InEOSE:
		return "EOSE " + m.SubID
	case model.InClosed:
		return fmt.Sprintf("CLOSED %s %q", m.SubID, m.Reason)
	}
	return m.Kind.String()
}

func describeOut(o model.Out) string {
	if o.Kind == model.OutCLOSE {
		return "CLOSE " + o.SubID
	}
	f := o.Filter
	var b strings.Builder
	fmt.Fprintf(&b, "REQ %s limit=%d", o.SubID, f.Limit)
	if f.Since != nil {
		fmt.Fprintf(&b, " since=%d", *f.Since)
	}
	if f.Until != nil {
		fmt.Fprintf(&b, " until=%d", *f.Until)
	}
	if len(f.Tags) > 0 {
		b.WriteString(" tags=" + fmt.Sprint(f.Tags))
	}
	return b.String()
}
