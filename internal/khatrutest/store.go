package khatrutest

import (
	"context"
	"slices"
	"strings"
	"sync"

	"github.com/fiatjaf/eventstore/slicestore"
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
}

func (s *lockedStore) lock()   { s.mu.Lock() }
func (s *lockedStore) unlock() { s.mu.Unlock() }

func (s *lockedStore) save(ctx context.Context, ev *nostr.Event) error {
	s.lock()
	defer s.unlock()
	err := s.inner.SaveEvent(ctx, ev)
	if err == nil {
		s.byID[ev.ID] = ev
	}
	return err
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
