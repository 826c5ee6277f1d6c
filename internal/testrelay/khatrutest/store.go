package khatrutest

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"

	"github.com/fiatjaf/eventstore"
	"github.com/fiatjaf/khatru"
	"github.com/nbd-wtf/go-nostr"
)

// errClosed answers a store call that khatru makes after the relay closed
// (a message still being handled on a connection Close just ended).
var errClosed = errors.New("khatrutest: relay closed")

// store stands between khatru and a backend: every query is drained into
// a closed, buffered channel before khatru reads it, so no worker of the
// store outlives a query whatever khatru does with the channel, and Close
// waits for calls in progress before it closes the backend. slicestore
// has no mutex of its own and is serialised here; the other backends
// handle concurrent calls themselves and are left to.
type store struct {
	inner    eventstore.Store
	maxLimit int
	workers  string // package of the backend's query workers
	serial   bool   // one call at a time (slicestore)

	mu     sync.Mutex   // held by a call when serial
	gate   sync.RWMutex // shared by every call, exclusive for close
	closed bool

	// byID holds every event saved through the store and not deleted
	// through it: what Stored asks the backend about, and what a
	// conforming store answers queries from.
	idMu sync.Mutex
	byID map[string]*nostr.Event
	// adding (conforming only) is the event khatru is adding on each
	// context, with the replaced versions still answered (store_atomic.go).
	adding map[context.Context]*replacement

	// conforming (slicestore only) answers queries from byID, by NIP-01,
	// instead of from slicestore's query.
	conforming bool
	// barrier (conforming only) closes khatru's window between storing an
	// event and pushing it to open subscriptions, in which a query could
	// read the event before a subscription open since before had it (the
	// delivery barrier of Full-State Load): a save holds it from the store
	// until the push is written (broadcast), a query reads under it.
	barrier   sync.RWMutex
	bmu       sync.Mutex
	broadcast map[string]bool // pushed by the barrier, not to push again
}

func newStore(inner eventstore.Store, maxLimit int, workers string, serial, conforming bool) *store {
	return &store{inner: inner, maxLimit: maxLimit, workers: workers, serial: serial, conforming: conforming,
		byID: map[string]*nostr.Event{}, broadcast: map[string]bool{}}
}

// enter starts a call to the backend; leave ends it.
func (s *store) enter() error {
	s.gate.RLock()
	if s.closed {
		s.gate.RUnlock()
		return errClosed
	}
	if s.serial {
		s.mu.Lock()
	}
	return nil
}

func (s *store) leave() {
	if s.serial {
		s.mu.Unlock()
	}
	s.gate.RUnlock()
}

// close waits for the calls in progress, refuses later ones, waits for
// the backend's query workers to end and closes the backend.
func (s *store) close() {
	s.gate.Lock()
	already := s.closed
	s.closed = true
	s.gate.Unlock()
	if already {
		return
	}
	awaitWorkers(s.workers)
	s.inner.Close()
}

// save is khatru's StoreEvent: under the barrier (conforming), which
// saved releases once the event is pushed.
func (s *store) save(ctx context.Context, ev *nostr.Event) error {
	if s.conforming {
		s.barrier.Lock()
	}
	err := s.put(ctx, ev)
	if err != nil && s.conforming {
		s.barrier.Unlock()
	}
	return err
}

// put stores an event through the backend's SaveEvent (Preload's path:
// nothing is subscribed to push to).
func (s *store) put(ctx context.Context, ev *nostr.Event) error {
	if err := s.enter(); err != nil {
		return err
	}
	defer s.leave()
	err := s.inner.SaveEvent(ctx, ev)
	if err == nil {
		s.remember(ctx, ev)
	}
	return err
}

// saved (conforming only) pushes a stored event to every open subscription
// before a query may read storage again, then lets queries in.
func (s *store) saved(rl *khatru.Relay, ev *nostr.Event) {
	rl.BroadcastEvent(ev)
	s.bmu.Lock()
	s.broadcast[ev.ID] = true
	s.bmu.Unlock()
	s.barrier.Unlock()
}

// pushed reports whether the barrier already pushed ev, so khatru's own
// push after the save is suppressed.
func (s *store) pushed(ev *nostr.Event) bool {
	s.bmu.Lock()
	defer s.bmu.Unlock()
	return s.broadcast[ev.ID]
}

func (s *store) delete(ctx context.Context, ev *nostr.Event) error {
	if err := s.enter(); err != nil {
		return err
	}
	defer s.leave()
	err := s.inner.DeleteEvent(ctx, ev)
	if err == nil {
		s.forget(ctx, ev)
	}
	return err
}

func (s *store) count(ctx context.Context, f nostr.Filter) (int64, error) {
	if err := s.enter(); err != nil {
		return 0, err
	}
	defer s.leave()
	if c, ok := s.inner.(eventstore.Counter); ok {
		return c.CountEvents(ctx, f)
	}
	evs, err := drainQuery(s.inner, f)
	return int64(len(evs)), err
}

func (s *store) query(_ context.Context, f nostr.Filter) (chan *nostr.Event, error) {
	if s.conforming {
		s.barrier.RLock()
		defer s.barrier.RUnlock()
	}
	if err := s.enter(); err != nil {
		return nil, err
	}
	var evs []*nostr.Event
	var err error
	if s.conforming {
		evs = s.nip01(f)
	} else {
		evs, err = drainQuery(s.inner, f)
	}
	s.leave()
	if err != nil {
		return nil, err
	}
	ch := make(chan *nostr.Event, len(evs))
	for _, ev := range evs {
		ch <- ev
	}
	close(ch)
	return ch, nil
}

// nip01 answers a filter as NIP-01 asks: both bounds inclusive, newest
// first, ties by lowest id, at most the limit and at most the cap.
func (s *store) nip01(f nostr.Filter) []*nostr.Event {
	s.idMu.Lock()
	var out []*nostr.Event
	for _, ev := range s.byID {
		if f.Matches(ev) {
			out = append(out, ev)
		}
	}
	s.idMu.Unlock()
	slices.SortFunc(out, newestFirst)
	out = latestOnly(out)
	limit := s.maxLimit
	if f.Limit > 0 && f.Limit < limit {
		limit = f.Limit
	}
	return out[:min(limit, len(out))]
}

// newestFirst is NIP-01's order: created_at descending, ties by lowest id.
func newestFirst(a, b *nostr.Event) int {
	if a.CreatedAt != b.CreatedAt {
		if a.CreatedAt > b.CreatedAt {
			return -1
		}
		return 1
	}
	return strings.Compare(a.ID, b.ID)
}

// all asks the backend, by id, about every event saved through the store
// and not deleted through it, in batches below every backend's cap, and
// returns what it holds in NIP-01 order. A batch the backend cannot
// answer is an error.
func (s *store) all() ([]*nostr.Event, error) {
	s.idMu.Lock()
	ids := make([]string, 0, len(s.byID))
	for id := range s.byID {
		ids = append(ids, id)
	}
	s.idMu.Unlock()
	slices.Sort(ids)
	batch := min(max(1, s.maxLimit-1), 100)
	var out []*nostr.Event
	for len(ids) > 0 {
		part := ids[:min(batch, len(ids))]
		ids = ids[len(part):]
		if err := s.enter(); err != nil {
			return nil, err
		}
		evs, err := drainQuery(s.inner, nostr.Filter{IDs: part, Limit: len(part)})
		s.leave()
		if err != nil {
			return nil, err
		}
		out = append(out, evs...)
	}
	slices.SortFunc(out, newestFirst)
	return slices.CompactFunc(out, func(a, b *nostr.Event) bool { return a.ID == b.ID }), nil
}
