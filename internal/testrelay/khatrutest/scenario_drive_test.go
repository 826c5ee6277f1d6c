package khatrutest

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"sync"

	"github.com/nbd-wtf/go-nostr"

	"github.com/nip-rs/harness/model"
	"github.com/nip-rs/harness/relaycheck"
)

// writer is the user's other installation: it publishes the history and
// the replacements on a connection of its own, each waited for until
// acknowledged, and keeps the ground truth, the newest version of each
// coordinate the relay acknowledged.
type writer struct {
	sk, pk string
	cfg    ScenarioConfig
	conn   *relaycheck.Conn

	pubMu sync.Mutex // one publication at a time on conn

	mu     sync.Mutex
	slots  []string                // d tag of coordinate i
	acked  map[string]*nostr.Event // newest acknowledged version by d
	unsure map[string]bool         // last replacement not acknowledged
	failed map[string]bool         // replacement not acknowledged since the load began
	next   nostr.Timestamp         // created_at of the next replacement
	nrep   int
	nref   int
}

func newWriter(ctx context.Context, cfg ScenarioConfig, pk string) (*writer, error) {
	c, err := relaycheck.Dial(ctx, relaycheck.DialWebsocket, cfg.URL)
	if err != nil {
		return nil, fmt.Errorf("khatrutest: writer: %w", err)
	}
	w := &writer{sk: cfg.SecretKey, pk: pk, cfg: cfg, conn: c, acked: map[string]*nostr.Event{},
		unsure: map[string]bool{}, failed: map[string]bool{}, next: scenarioBase + 100}
	for i := range cfg.Coords {
		w.slots = append(w.slots, model.DTag(fmt.Sprintf("%032x", i+1)))
	}
	return w, nil
}

func (w *writer) close() { _ = w.conn.Close() }

func (w *writer) sign(d string, at nostr.Timestamp, content string) *nostr.Event {
	ev := &nostr.Event{CreatedAt: at, Kind: model.KindReadState, Tags: nostr.Tags{{"d", d}}, Content: content}
	_ = ev.Sign(w.sk)
	return ev
}

// publishHistory checks the user has nothing on the relay, then publishes
// the coordinates, one second each, and above them the foreign events
// (another application's recent data), every one acknowledged. A
// replacement moves its coordinate above both; the coordinates not
// replaced for longest stay at the bottom, where a load's last queries
// read.
func (w *writer) publishHistory(ctx context.Context) error {
	a, err := w.conn.Query(ctx, "history-check", model.Spec().Load.EnumerationFilter(w.pk, 1), nil)
	if err != nil || a.Refused {
		return fmt.Errorf("khatrutest: history check: %v %s", err, a.Closed)
	}
	_ = w.conn.Unsub(ctx, "history-check")
	if len(a.Events) > 0 {
		return errNotFresh
	}
	for i := range w.cfg.Coords {
		ev := w.sign(w.slots[i], scenarioBase-20*nostr.Timestamp(i), "v0")
		if err := w.publish(ctx, ev); err != nil {
			return err
		}
		w.mu.Lock()
		w.acked[ev.Tags.GetD()] = ev
		w.mu.Unlock()
	}
	for j := range w.cfg.Foreign {
		if err := w.publish(ctx, w.sign(fmt.Sprintf("app:%d", j), scenarioBase+1+nostr.Timestamp(j), "app")); err != nil {
			return err
		}
	}
	return nil
}

func (w *writer) publish(ctx context.Context, ev *nostr.Event) error {
	w.pubMu.Lock()
	defer w.pubMu.Unlock()
	ok, why, err := w.conn.Publish(ctx, ev, nil)
	if err != nil || !ok {
		return fmt.Errorf("khatrutest: publish %s: %v %s", ev.Tags.GetD(), err, why)
	}
	return nil
}

// replace publishes a newer version of coordinate i and records it once
// acknowledged; a refused one leaves the coordinate unsure (khatru may
// have deleted the old version already) until a later one is
// acknowledged.
func (w *writer) replace(ctx context.Context, i int) {
	w.mu.Lock()
	d := w.slots[i]
	at := w.next
	w.next++
	w.mu.Unlock()
	ev := w.sign(d, at, fmt.Sprintf("v%d", at-scenarioBase))
	err := w.publish(ctx, ev)
	w.mu.Lock()
	defer w.mu.Unlock()
	if err != nil {
		w.nref++
		w.unsure[d] = true
		w.failed[d] = true
		return
	}
	w.nrep++
	delete(w.unsure, d)
	if cur := w.acked[d]; cur == nil || ev.CreatedAt > cur.CreatedAt {
		w.acked[d] = ev
	}
}

// snapshot is the ground truth as a load starts: the newest acknowledged
// version of every coordinate the relay surely holds.
func (w *writer) snapshot() map[string]*nostr.Event {
	w.mu.Lock()
	defer w.mu.Unlock()
	clear(w.failed)
	snap := make(map[string]*nostr.Event, len(w.acked))
	for d, ev := range w.acked {
		if !w.unsure[d] {
			snap[d] = ev
		}
	}
	return snap
}

// endLoad returns the coordinates a refused replacement touched while the
// load ran: the relay may have lost them, so the load is not judged on
// them.
func (w *writer) endLoad() map[string]bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	out := make(map[string]bool, len(w.failed))
	for d := range w.failed {
		out[d] = true
	}
	return out
}

func (w *writer) counts() (replacements, refused int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.nrep, w.nref
}

// judge compares a complete load's coordinates with the snapshot: each
// coordinate must be there at the snapshot's version or a newer one (a
// replacement during the load may show either). It returns the missing
// and stale counts and a description, coordinates in d order.
func judge(res model.LoadResult, snap map[string]*nostr.Event, unsure map[string]bool) (missing, stale int, detail string) {
	got := make(map[string]*nostr.Event, len(res.Events))
	for _, ev := range res.Events {
		got[ev.Tags.GetD()] = ev
	}
	ds := make([]string, 0, len(snap))
	for d := range snap {
		ds = append(ds, d)
	}
	slices.Sort(ds)
	var notes []string
	for _, d := range ds {
		if unsure[d] {
			continue
		}
		want, have := snap[d], got[d]
		switch {
		case have == nil:
			missing++
			notes = append(notes, fmt.Sprintf("%s missing (acknowledged at %d before the load)", d, want.CreatedAt))
		case have.ID != want.ID && have.CreatedAt <= want.CreatedAt:
			stale++
			notes = append(notes, fmt.Sprintf("%s stale (%d, acknowledged %d before the load)", d, have.CreatedAt, want.CreatedAt))
		}
	}
	if len(notes) > 0 {
		detail = fmt.Sprintf("complete with %d coordinates: %v", len(res.Events), notes)
	}
	return missing, stale, detail
}

// openOthers opens the client's other subscriptions on the load's
// connection: the user's kind 30078 events, newest one, so that each of
// them also receives the replacements written during the load.
func openOthers(ctx context.Context, tr relaycheck.Transport, subs []string, pk string) error {
	for _, sub := range subs {
		frame, err := model.Out{Kind: model.OutREQ, SubID: sub, Filter: model.Spec().Load.EnumerationFilter(pk, 1)}.Wire()
		if err == nil {
			err = tr.WriteMessage(ctx, frame)
		}
		if err != nil {
			return fmt.Errorf("other subscription %s: %w", sub, err)
		}
	}
	return nil
}

// driveShared runs the load as Drive does, on a connection it shares with
// other subscriptions: one read loop in wire order, the other
// subscriptions' messages consumed here and everything else fed to the
// load. A cancelled ctx closes the connection (a read blocks past ctx).
func driveShared(ctx context.Context, tr relaycheck.Transport, l *model.Load, others []string) model.LoadResult {
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		select {
		case <-ctx.Done():
			_ = tr.Close()
		case <-stop:
		}
	}()
	defer func() { close(stop); <-done }()
	mine := make(map[string]bool, len(others))
	for _, s := range others {
		mine[s] = true
	}
	send := func(outs []model.Out) {
		for _, o := range outs {
			frame, err := o.Wire()
			if err == nil {
				err = tr.WriteMessage(ctx, frame)
			}
			if err != nil {
				l.Feed(model.In{Kind: model.InConnectionLost})
				return
			}
		}
	}
	send(l.Start())
	var buf bytes.Buffer
	for l.Running() {
		if err := ctx.Err(); err != nil {
			send(l.Abort(err.Error()))
			break
		}
		buf.Reset()
		if err := tr.ReadMessage(ctx, &buf); err != nil {
			if ctx.Err() != nil {
				send(l.Abort(ctx.Err().Error()))
			} else {
				l.Feed(model.In{Kind: model.InConnectionLost})
			}
			break
		}
		m, ok := model.ParseIn(buf.Bytes())
		if !ok || mine[m.SubID] {
			continue
		}
		if m.Kind == model.InEvent && m.Event != nil && len(m.Event.ID) == 64 {
			if ok, err := m.Event.CheckSignature(); !ok || err != nil {
				m.BadSig = true
			}
		}
		send(l.Feed(m))
	}
	return l.Result()
}
