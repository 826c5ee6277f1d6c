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
// so (created_at, id) identifies it and one sorted slice is the whole
// index.
type MemoryStore struct {
	sorted []Event // newest first, then by id
}

// NewMemoryStore returns an empty store.
func NewMemoryStore() *MemoryStore { return &MemoryStore{} }

// Add implements Store.
func (s *MemoryStore) Add(e Event) bool {
	i, found := slices.BinarySearchFunc(s.sorted, e, newestFirst)
	if found {
		return false
	}
	s.sorted = slices.Insert(s.sorted, i, e)
	return true
}

// Has reports whether the store holds the wrap.
func (s *MemoryStore) Has(e Event) bool {
	_, found := slices.BinarySearchFunc(s.sorted, e, newestFirst)
	return found
}

// Len is the number of wraps held.
func (s *MemoryStore) Len() int { return len(s.sorted) }

// Query implements Store.
func (s *MemoryStore) Query(w Window, limit int) []Event { return query(s.sorted, w, limit) }

// query returns the first limit events of a newest-first list inside w.
func query(sorted []Event, w Window, limit int) []Event {
	var out []Event
	for _, e := range sorted {
		if len(out) >= limit {
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
