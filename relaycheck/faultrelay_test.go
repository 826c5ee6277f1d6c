package relaycheck_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"

	"github.com/nbd-wtf/go-nostr"

	"github.com/nip-rs/harness/relaycheck"
	"github.com/nip-rs/harness/relaysim"
)

// A faultRelay is relaysim's conformant relay served in process, with
// one narrowly scoped fault between it and its clients: the fault sees
// every frame a client sends and every frame the relay answers with, and
// may change the filter a REQ reads the store with, rewrite the stored
// events answering a REQ, drop or hold back a push, keep or hide versions
// of a coordinate, close a subscription without telling the client, or
// never answer. Outside its fault the relay is the conformant one, and
// every decision depends only on the frames in the order the relay
// handles them, never on timing, so each verdict is deterministic.
type faultRelay struct {
	srv *relaysim.Server
	f   fault

	// mu guards everything below and every connection's subscription
	// table; a client frame is handled under it, relay included.
	mu sync.Mutex
	// current is the stored version of each coordinate by NIP-01's rule
	// (the conformant relay's view), versions every version written to it
	// in arrival order, and inflight the connection whose last frame was a
	// version of it.
	current  map[string]*nostr.Event
	versions map[string][]*nostr.Event
	inflight map[string]*faultConn
	// hidden and ghosts are what the fault changed in the store as its
	// clients see it: events answered no more, and versions answered
	// although the conformant relay replaced or refused them.
	hidden map[string]bool
	ghosts []*nostr.Event
	// writes counts the EVENTs handled; last and lastReplaced are the
	// newest and the version it replaced.
	writes             int
	last, lastReplaced *nostr.Event
	// caches holds answers by filter, per connection (nil: shared).
	caches map[*faultConn]map[string][]*nostr.Event
}

// fault is one relay's departure from the conformant relay; every field
// is optional.
type fault struct {
	// cap is the conformant relay's own cap (default 10).
	cap int
	// filter is what the relay reads its store with for a REQ.
	filter func(f nostr.Filter) nostr.Filter
	// answer rewrites the stored events answering a REQ (newest first).
	answer func(r *faultRelay, c *faultConn, s *faultSub, evs []*nostr.Event) []*nostr.Event
	// push decides what becomes of an accepted event pushed to an open
	// subscription.
	push func(f nostr.Filter, ev *nostr.Event) fate
	// version sees a client's EVENT before the relay stores it, with the
	// coordinate's stored version (nil if none).
	version func(r *faultRelay, cur, ev *nostr.Event)
	// silentREQ and silentEvent are REQs and EVENTs the relay never
	// answers.
	silentREQ   func(f nostr.Filter) bool
	silentEvent func(ev *nostr.Event) bool
	// maxSubs keeps at most that many subscriptions open on a connection:
	// the next REQ closes the oldest, with nothing said to the client.
	maxSubs int
	// refuseSubs refuses, with CLOSED, a REQ that would open more than
	// that many subscriptions on a connection (a stated capacity).
	refuseSubs int
}

// fate is what becomes of one push.
type fate uint8

const (
	deliver fate = iota
	drop
	// holdToEOSE sends the push only after the next end-of-stored-events
	// the relay writes on the connection.
	holdToEOSE
)

func newFaultRelay(f fault) *faultRelay {
	if f.cap == 0 {
		f.cap = 10
	}
	return &faultRelay{srv: relaysim.NewServer(relaysim.New(relaysim.Conformant(f.cap))), f: f,
		current: map[string]*nostr.Event{}, versions: map[string][]*nostr.Event{}, inflight: map[string]*faultConn{},
		hidden: map[string]bool{}, caches: map[*faultConn]map[string][]*nostr.Event{}}
}

// dial is the relay's Options.Dial.
func (r *faultRelay) dial(ctx context.Context, url string) (relaycheck.Transport, error) {
	t, err := r.srv.Dial(ctx, url)
	if err != nil {
		return nil, err
	}
	return &faultConn{r: r, t: t, subs: map[string]*faultSub{}, refused: map[string]bool{}}, nil
}

// faultConn is one client's connection.
type faultConn struct {
	r *faultRelay
	t *relaysim.ServerConn
	// subs and order (oldest first) are the subscriptions the client
	// opened and the relay keeps; guarded by r.mu.
	subs  map[string]*faultSub
	order []string
	// refused are the subscriptions refused with CLOSED (fault
	// refuseSubs): their answer is replaced by the CLOSED.
	refused map[string]bool
	// out and held are frames waiting to be read; only the reader touches
	// them.
	out, held [][]byte
}

// faultSub is one subscription: its filter, the stored events read so
// far, whether they ended, and the relay's state when it was asked.
type faultSub struct {
	f        nostr.Filter
	stored   []*nostr.Event
	ended    bool
	writes   int  // EVENTs handled before the REQ
	inflight bool // its #d coordinate's newest version was its writer's last frame
}

func (c *faultConn) Close() error { return c.t.Close() }

// WriteMessage handles one client frame under the relay's lock.
func (c *faultConn) WriteMessage(ctx context.Context, data []byte) error {
	r := c.r
	r.mu.Lock()
	defer r.mu.Unlock()
	for coord, w := range r.inflight {
		if w == c {
			delete(r.inflight, coord)
		}
	}
	switch env := nostr.ParseMessage(data).(type) {
	case *nostr.EventEnvelope:
		ev := env.Event
		if r.f.silentEvent != nil && r.f.silentEvent(&ev) {
			return nil
		}
		r.saw(c, &ev)
	case *nostr.ReqEnvelope:
		if len(env.Filters) != 1 {
			break
		}
		f := env.Filters[0]
		if r.f.silentREQ != nil && r.f.silentREQ(f) {
			return nil
		}
		s := &faultSub{f: f, writes: r.writes}
		if d := f.Tags["d"]; len(d) == 1 && len(f.Authors) == 1 && len(f.Kinds) == 1 {
			s.inflight = r.inflight[fmt.Sprintf("%d:%s:%s", f.Kinds[0], f.Authors[0], d[0])] != nil
		}
		if r.f.refuseSubs > 0 && len(c.order) >= r.f.refuseSubs && !slices.Contains(c.order, env.SubscriptionID) {
			// Refused: the relay answers and forgets it; the client reads
			// a CLOSED in place of the answer.
			c.refused[env.SubscriptionID] = true
			if err := c.t.WriteMessage(ctx, data); err != nil {
				return err
			}
			frame, _ := nostr.CloseEnvelope(env.SubscriptionID).MarshalJSON()
			return c.t.WriteMessage(ctx, frame)
		}
		if r.f.maxSubs > 0 && len(c.order) >= r.f.maxSubs {
			// Closed at the relay, unannounced: it gets no more pushes.
			oldest := c.order[0]
			c.order = c.order[1:]
			frame, _ := nostr.CloseEnvelope(oldest).MarshalJSON()
			if err := c.t.WriteMessage(ctx, frame); err != nil {
				return err
			}
		}
		c.subs[env.SubscriptionID] = s
		c.order = append(slices.DeleteFunc(c.order, func(o string) bool { return o == env.SubscriptionID }), env.SubscriptionID)
		if r.f.filter != nil {
			env.Filters[0] = r.f.filter(f)
			frame, err := env.MarshalJSON()
			if err != nil {
				return err
			}
			data = frame
		}
	case *nostr.CloseEnvelope:
		c.order = slices.DeleteFunc(c.order, func(o string) bool { return o == string(*env) })
	}
	return c.t.WriteMessage(ctx, data)
}

// saw records a client's EVENT: the coordinate's versions, what it
// replaces, and the fault's view of it.
func (r *faultRelay) saw(c *faultConn, ev *nostr.Event) {
	r.writes++
	r.caches[c] = nil
	r.last, r.lastReplaced = ev, nil
	if ev.Kind < 30000 || ev.Kind >= 40000 {
		return
	}
	coord := fmt.Sprintf("%d:%s:%s", ev.Kind, ev.PubKey, ev.Tags.GetD())
	cur := r.current[coord]
	if r.f.version != nil {
		r.f.version(r, cur, ev)
	}
	r.versions[coord] = append(r.versions[coord], ev)
	r.inflight[coord] = c
	if cur == nil || newer(ev, cur) {
		r.current[coord], r.lastReplaced = ev, cur
	}
}

// newer is NIP-01's replacement order: later created_at, then lower id.
func newer(a, b *nostr.Event) bool {
	return a.CreatedAt > b.CreatedAt || (a.CreatedAt == b.CreatedAt && a.ID < b.ID)
}

// ReadMessage hands the client the relay's next frame as the fault
// shapes it.
func (c *faultConn) ReadMessage(ctx context.Context, buf io.Writer) error {
	for len(c.out) == 0 {
		var b bytes.Buffer
		if err := c.t.ReadMessage(ctx, &b); err != nil {
			return err
		}
		c.shape(b.Bytes())
	}
	frame := c.out[0]
	c.out = c.out[1:]
	_, err := buf.Write(frame)
	return err
}

// shape queues what the client reads for one relay frame.
func (c *faultConn) shape(frame []byte) {
	r := c.r
	r.mu.Lock()
	defer r.mu.Unlock()
	switch env := nostr.ParseMessage(frame).(type) {
	case *nostr.EventEnvelope:
		if env.SubscriptionID != nil && c.refused[*env.SubscriptionID] {
			return
		}
		s := c.subOf(env.SubscriptionID)
		switch {
		case s == nil:
		case !s.ended:
			ev := env.Event
			s.stored = append(s.stored, &ev)
			return
		case r.f.push != nil:
			switch r.f.push(s.f, &env.Event) {
			case drop:
				return
			case holdToEOSE:
				c.held = append(c.held, slices.Clone(frame))
				return
			}
		}
	case *nostr.EOSEEnvelope:
		if c.refused[string(*env)] {
			delete(c.refused, string(*env))
			closed, _ := nostr.ClosedEnvelope{SubscriptionID: string(*env), Reason: "error: too many subscriptions"}.MarshalJSON()
			c.out = append(c.out, closed)
			return
		}
		if s := c.subs[string(*env)]; s != nil && !s.ended {
			s.ended = true
			for _, ev := range r.answer(c, s) {
				out, _ := nostr.EventEnvelope{SubscriptionID: (*string)(env), Event: *ev}.MarshalJSON()
				c.out = append(c.out, out)
			}
		}
		c.out = append(c.out, slices.Clone(frame))
		c.out = append(c.out, c.held...)
		c.held = nil
		return
	}
	c.out = append(c.out, slices.Clone(frame))
}

func (c *faultConn) subOf(id *string) *faultSub {
	if id == nil {
		return nil
	}
	return c.subs[*id]
}

// answer is the stored events a REQ is answered with: the conformant
// relay's, less what the fault hid, with the versions it kept, capped,
// then as the fault rewrites them.
func (r *faultRelay) answer(c *faultConn, s *faultSub) []*nostr.Event {
	evs := s.stored
	if len(r.hidden) > 0 || len(r.ghosts) > 0 {
		evs = slices.DeleteFunc(slices.Clone(evs), func(ev *nostr.Event) bool { return r.hidden[ev.ID] })
		for _, g := range r.ghosts {
			if s.f.Matches(g) && !r.hidden[g.ID] && !slices.ContainsFunc(evs, func(ev *nostr.Event) bool { return ev.ID == g.ID }) {
				evs = append(evs, g)
			}
		}
		slices.SortFunc(evs, func(a, b *nostr.Event) int {
			if newer(a, b) {
				return -1
			}
			return 1
		})
		limit := r.f.cap
		if s.f.Limit > 0 {
			limit = min(limit, s.f.Limit)
		}
		evs = evs[:min(limit, len(evs))]
	}
	if r.f.answer != nil {
		evs = r.f.answer(r, c, s, evs)
	}
	return evs
}

// cacheKey is a filter's identity for a result cache.
func cacheKey(f nostr.Filter) string {
	data, _ := json.Marshal(f)
	return string(data)
}

// pinned says a filter's window is one second.
func pinned(f nostr.Filter) bool { return f.Since != nil && f.Until != nil && *f.Since == *f.Until }

// reverseTies reverses the order of events within each second, leaving
// the set and the order of seconds alone.
func reverseTies(evs []*nostr.Event) []*nostr.Event {
	out := slices.Clone(evs)
	for i := 0; i < len(out); {
		j := i
		for j < len(out) && out[j].CreatedAt == out[i].CreatedAt {
			j++
		}
		slices.Reverse(out[i:j])
		i = j
	}
	return out
}

func hasPrefixD(ev *nostr.Event, prefix string) bool {
	return ev.Kind == 30078 && strings.HasPrefix(ev.Tags.GetD(), prefix)
}
