package history

import (
	"cmp"
	"slices"
)

// Event is a wrap as the walk sees it: its id and created_at (ms).
type Event struct {
	ID          string
	CreatedAtMs int64
}

// Store is the client's local database as the round reads it: a page is
// read back from it with the page's own filter, whatever relay (or live
// subscription) put the wraps there.
type Store interface {
	// Add stores a wrap and reports whether it was new.
	Add(e Event) bool
	// Query returns the newest wraps in w, at most limit, newest first.
	Query(w Window, limit int) []Event
}

// MemoryStore is a Store in memory. A wrap's id commits to its created_at,
// so (created_at, id) identifies it. Wraps are kept in one sorted slice;
// additions since the last read wait beside it and are merged in once,
// when the store is next read, so a page of n wraps costs O(n log n)
// rather than an insertion into the middle of the slice each. Additions
// in order (relays send newest first) are appended with one binary search
// each; out of order, a set finds duplicates and the read sorts them.
type MemoryStore struct {
	sorted   []Event // newest first, then by id
	pending  []Event // added since the last read
	unsorted bool    // pending is out of order: inPend holds it
	inPend   map[Event]struct{}
}

// NewMemoryStore returns an empty store.
func NewMemoryStore() *MemoryStore { return &MemoryStore{} }

// newMemoryStoreSorted returns a store holding es, already newest first.
func newMemoryStoreSorted(es []Event) *MemoryStore { return &MemoryStore{sorted: es} }

// Add implements Store.
func (s *MemoryStore) Add(e Event) bool {
	if s.inSorted(e) {
		return false
	}
	if n := len(s.pending); !s.unsorted && (n == 0 || newestFirst(s.pending[n-1], e) < 0) {
		s.pending = append(s.pending, e) // after every pending wrap: new to it
		return true
	}
	if !s.unsorted {
		s.unsorted = true
		if s.inPend == nil {
			s.inPend = make(map[Event]struct{}, len(s.pending))
		}
		for _, p := range s.pending {
			s.inPend[p] = struct{}{}
		}
	}
	if _, ok := s.inPend[e]; ok {
		return false
	}
	s.inPend[e] = struct{}{}
	s.pending = append(s.pending, e)
	return true
}

func (s *MemoryStore) inSorted(e Event) bool {
	_, found := slices.BinarySearchFunc(s.sorted, e, newestFirst)
	return found
}

// Has reports whether the store holds the wrap.
func (s *MemoryStore) Has(e Event) bool {
	if s.inSorted(e) {
		return true
	}
	if s.unsorted {
		_, ok := s.inPend[e]
		return ok
	}
	_, found := slices.BinarySearchFunc(s.pending, e, newestFirst)
	return found
}

// Len is the number of wraps held.
func (s *MemoryStore) Len() int { return len(s.sorted) + len(s.pending) }

// Query implements Store.
func (s *MemoryStore) Query(w Window, limit int) []Event { return query(s.all(), w, limit) }

// all merges the pending additions in and returns every wrap, newest
// first.
func (s *MemoryStore) all() []Event {
	if len(s.pending) == 0 {
		return s.sorted
	}
	if s.unsorted {
		SortNewestFirst(s.pending)
		clear(s.inPend)
		s.unsorted = false
	}
	merged := make([]Event, 0, len(s.sorted)+len(s.pending))
	i, j := 0, 0
	for i < len(s.sorted) && j < len(s.pending) {
		if newestFirst(s.sorted[i], s.pending[j]) < 0 {
			merged = append(merged, s.sorted[i])
			i++
		} else {
			merged = append(merged, s.pending[j])
			j++
		}
	}
	merged = append(append(merged, s.sorted[i:]...), s.pending[j:]...)
	s.sorted, s.pending = merged, s.pending[:0]
	return s.sorted
}

// query returns the first limit events of a newest-first list inside w:
// the first candidate is found by binary search on w's until, so a read
// deep in history does not scan the newer wraps.
func query(sorted []Event, w Window, limit int) []Event {
	start := 0
	if w.HasUntil {
		start, _ = slices.BinarySearchFunc(sorted, w.UntilMs, func(e Event, until int64) int { return cmp.Compare(until, e.CreatedAtMs) })
	}
	var out []Event
	for _, e := range sorted[start:] {
		if len(out) >= limit || (w.HasSince && e.CreatedAtMs < w.SinceMs) {
			break
		}
		if w.Contains(e.CreatedAtMs) {
			out = append(out, e)
		}
	}
	return out
}

func newestFirst(a, b Event) int {
	return cmp.Or(cmp.Compare(b.CreatedAtMs, a.CreatedAtMs), cmp.Compare(a.ID, b.ID))
}

// SortNewestFirst orders events as relays and the store return them.
func SortNewestFirst(es []Event) { slices.SortFunc(es, newestFirst) }
