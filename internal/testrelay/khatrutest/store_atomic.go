package khatrutest

import (
	"context"
	"fmt"

	"github.com/nbd-wtf/go-nostr"
)

// What the conforming store adds to replacement. khatru v0.8.x replaces
// an addressable (or replaceable) event by deleting the older versions
// and then saving the new one, so a query between the two finds neither
// (R6, atomic replacement, fails on every backend). The conforming store
// answers queries from byID, so it keeps a replaced version in byID until
// the save of its replacement, and removes it under the barrier with the
// save: a query sees the old version or the new one, never neither. A
// deletion that is not part of a replacement (a kind 5 request) removes
// at once. Which deletions are replacements is known from the event
// khatru is adding on the same context (khatru's AddEvent hands one
// context to the event's rejection hooks, deletions and save).

// incoming records the event khatru is adding on ctx (a RejectEvent hook
// that never rejects), forgotten when AddEvent's context ends.
func (s *store) incoming(ctx context.Context, ev *nostr.Event) {
	s.idMu.Lock()
	defer s.idMu.Unlock()
	if s.adding == nil {
		s.adding = map[context.Context]*replacement{}
	}
	s.adding[ctx] = &replacement{ev: ev}
	context.AfterFunc(ctx, func() {
		s.idMu.Lock()
		delete(s.adding, ctx)
		s.idMu.Unlock()
	})
}

// replacement is an event being added and the versions it replaces that
// are still answered until it is saved.
type replacement struct {
	ev      *nostr.Event
	pending []string
}

// coordinate is an event's replaceable address (kind, author, d tag), or
// false for an event that replaces nothing.
func coordinate(ev *nostr.Event) (string, bool) {
	switch {
	case ev.Kind == 0 || ev.Kind == 3 || (10000 <= ev.Kind && ev.Kind < 20000):
		return fmt.Sprintf("%d:%s", ev.Kind, ev.PubKey), true
	case 30000 <= ev.Kind && ev.Kind < 40000:
		return fmt.Sprintf("%d:%s:%s", ev.Kind, ev.PubKey, ev.Tags.GetD()), true
	}
	return "", false
}

// forget removes a deleted event from byID, or, when it is an older
// version of the event being added on ctx, defers that to the save.
func (s *store) forget(ctx context.Context, ev *nostr.Event) {
	s.idMu.Lock()
	defer s.idMu.Unlock()
	if s.conforming {
		if r := s.adding[ctx]; r != nil {
			if a, ok := coordinate(r.ev); ok {
				if b, _ := coordinate(ev); a == b {
					r.pending = append(r.pending, ev.ID)
					return
				}
			}
		}
	}
	delete(s.byID, ev.ID)
}

// remember adds a saved event to byID and drops the versions it
// replaced, in one step.
func (s *store) remember(ctx context.Context, ev *nostr.Event) {
	s.idMu.Lock()
	defer s.idMu.Unlock()
	if r := s.adding[ctx]; r != nil && r.ev.ID == ev.ID {
		for _, id := range r.pending {
			delete(s.byID, id)
		}
		r.pending = nil
	}
	s.byID[ev.ID] = ev
}

// latestOnly keeps, of the events answering one query, only the latest
// version of each replaceable address (NIP-01: greatest created_at, then
// lowest id), as a relay that discards older versions does; evs is in
// newestFirst order, so the first of each address is the one kept.
func latestOnly(evs []*nostr.Event) []*nostr.Event {
	seen := map[string]bool{}
	out := evs[:0]
	for _, ev := range evs {
		if c, ok := coordinate(ev); ok {
			if seen[c] {
				continue
			}
			seen[c] = true
		}
		out = append(out, ev)
	}
	return out
}
