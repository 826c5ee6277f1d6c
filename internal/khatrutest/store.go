package khatrutest

import (
	"context"
	"slices"
	"strings"
	"sync"

	"github.com/fiatjaf/eventstore/slicestore"
	"github.com/fiatjaf/khatru"
	"github.com/nbd-wtf/go-nostr"
)

// lockedStore serialises slicestore and drains each of its queries under
// the lock into a closed, buffered channel.
type lockedStore struct {
	mu    sync.Mutex
	inner *slicestore.SliceStore
	// conforming answers queries from all, by NIP-01, instead of from
	// slicestore's query.
	conforming bool
	byID       map[string]*nostr.Event

	// barrier (conforming only) closes khatru's window between storing an
	// event and pushing it to open subscriptions, in which a query could
	// read the event before a subscription open since before had it (the
	// delivery barrier of Full-State Load): a save holds it from the store
	// until the push is written (broadcast), a query reads under it.
	barrier   sync.RWMutex
	bmu       sync.Mutex
	broadcast map[string]bool // pushed by the barrier, not to push again
}

func (s *lockedStore) lock()   { s.mu.Lock() }
func (s *lockedStore) unlock() { s.mu.Unlock() }

// save is khatru's StoreEvent: under the barrier (conforming), which
// saved releases once the event is pushed.
func (s *lockedStore) save(ctx context.Context, ev *nostr.Event) error {
	if s.conforming {
		s.barrier.Lock()
	}
	err := s.put(ctx, ev)
	if err != nil && s.conforming {
		s.barrier.Unlock()
	}
	return err
}

// put stores an event (Preload's path: nothing is subscribed to push to).
func (s *lockedStore) put(ctx context.Context, ev *nostr.Event) error {
	s.lock()
	defer s.unlock()
	err := s.inner.SaveEvent(ctx, ev)
	if err == nil {
		s.byID[ev.ID] = ev
	}
	return err
}

// saved (conforming only) pushes a stored event to every open subscription
// before a query may read storage again, then lets queries in.
func (s *lockedStore) saved(rl *khatru.Relay, ev *nostr.Event) {
	rl.BroadcastEvent(ev)
	s.bmu.Lock()
	s.broadcast[ev.ID] = true
	s.bmu.Unlock()
	s.barrier.Unlock()
}

// pushed reports whether the barrier already pushed ev, so khatru's own
// push after the save is suppressed.
func (s *lockedStore) pushed(ev *nostr.Event) bool {
	s.bmu.Lock()
	defer s.bmu.Unlock()
	return s.broadcast[ev.ID]
}

func (s *lockedStore) delete(ctx context.Context, ev *nostr.Event) error {
	s.lock()
	defer s.unlock()
	delete(s.byID, ev.ID)
	return s.inner.DeleteEvent(ctx, ev)
}

func (s *lockedStore) count(ctx context.Context, f nostr.Filter) (int64, error) {
	s.lock()
	defer s.unlock()
	return s.inner.CountEvents(ctx, f)
}

func (s *lockedStore) query(_ context.Context, f nostr.Filter) (chan *nostr.Event, error) {
	if s.conforming {
		s.barrier.RLock()
		defer s.barrier.RUnlock()
	}
	s.lock()
	var evs []*nostr.Event
	var err error
	if s.conforming {
		evs = s.nip01(f)
	} else {
		evs, err = s.drain(f)
	}
	s.unlock()
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
// first, ties by lowest id, at most the limit and at most MaxLimit.
func (s *lockedStore) nip01(f nostr.Filter) []*nostr.Event {
	var out []*nostr.Event
	for _, ev := range s.byID {
		if f.Matches(ev) {
			out = append(out, ev)
		}
	}
	slices.SortFunc(out, func(a, b *nostr.Event) int {
		if a.CreatedAt != b.CreatedAt {
			return int(b.CreatedAt) - int(a.CreatedAt)
		}
		return strings.Compare(a.ID, b.ID)
	})
	limit := s.inner.MaxLimit
	if f.Limit > 0 && f.Limit < limit {
		limit = f.Limit
	}
	return out[:min(limit, len(out))]
}

// drain reads one slicestore query to its end; the caller holds the lock.
func (s *lockedStore) drain(f nostr.Filter) ([]*nostr.Event, error) {
	ch, err := s.inner.QueryEvents(context.Background(), f)
	if err != nil {
		return nil, err
	}
	var out []*nostr.Event
	for ev := range ch {
		out = append(out, ev)
	}
	return out, nil
}

func (s *lockedStore) all() []*nostr.Event {
	s.lock()
	defer s.unlock()
	evs, _ := s.drain(nostr.Filter{Limit: 1 << 30})
	return evs
}
