package relaysim

import (
	"slices"
	"sort"
	"strings"

	"github.com/nbd-wtf/go-nostr"

	"github.com/nip-rs/harness/model"
)

// Relay is the simulated relay: its stored rows in the profile's order,
// its connections, the replacements it has split (delete-then-save) and
// its result cache.
type Relay struct {
	prof    Profile
	rows    []*row
	seq     int
	tick    int
	conns   []*Conn
	pending []*nostr.Event
	// replacing holds, per pending split, the newest version it removed.
	replacing []*nostr.Event
	cache     map[string]cached
	// Record makes every connection keep, for each REQ it processes, the
	// read-state coordinates the relay held when the REQ read storage
	// (Snapshot). It costs a pass over storage per REQ.
	Record bool
}

type row struct {
	ev      *nostr.Event
	seq     int // insertion order
	deleted bool
}

type cached struct {
	at     int
	events []*nostr.Event
}

// New returns an empty relay with the given profile.
func New(p Profile) *Relay {
	return &Relay{prof: p, cache: map[string]cached{}}
}

// Profile is the relay's profile.
func (r *Relay) Profile() Profile { return r.prof }

// before reports whether a precedes b in the relay's result order.
func (r *Relay) before(a, b *row) bool {
	if a.ev.CreatedAt != b.ev.CreatedAt {
		return a.ev.CreatedAt > b.ev.CreatedAt
	}
	switch r.prof.Ties {
	case TieIDDesc:
		return a.ev.ID > b.ev.ID
	case TieInsertionDesc:
		return a.seq > b.seq
	}
	return a.ev.ID < b.ev.ID
}

// Newer is the NIP-01 addressable order: a supersedes b when it is newer,
// or equally old with the lower id. It defines the ground truth the
// checks compare a load against, whatever the relay's own rule.
func Newer(a, b *nostr.Event) bool {
	if a.CreatedAt != b.CreatedAt {
		return a.CreatedAt > b.CreatedAt
	}
	return a.ID < b.ID
}

func addressable(ev *nostr.Event) bool { return ev.Kind >= 30000 && ev.Kind < 40000 }

func sameCoordinate(a, b *nostr.Event) bool {
	return a.Kind == b.Kind && a.PubKey == b.PubKey && a.Tags.GetD() == b.Tags.GetD()
}

// Preload stores events without pushes or replacement checks, sorting
// once: for building large stores quickly. Later versions of a coordinate
// are the caller's to avoid.
func (r *Relay) Preload(evs ...*nostr.Event) {
	for _, ev := range evs {
		r.seq++
		r.rows = append(r.rows, &row{ev: ev, seq: r.seq})
	}
	sort.SliceStable(r.rows, func(i, j int) bool { return r.before(r.rows[i], r.rows[j]) })
}

// Publish is a write from any client (another installation, another
// application): the relay accepts or rejects it under its replacement
// rule, stores it (or, for a split replacement, removes the old version
// and defers the store to Settle) and queues pushes to every open
// subscription it matches. It reports whether the event was accepted.
func (r *Relay) Publish(ev *nostr.Event) (bool, string) {
	r.tick++
	for _, w := range r.rows {
		if w.ev.ID == ev.ID {
			return false, "duplicate: already have this event"
		}
	}
	if !addressable(ev) {
		r.store(ev)
		return true, ""
	}
	var best *nostr.Event
	for _, w := range r.rows {
		if !w.deleted && sameCoordinate(w.ev, ev) && (best == nil || Newer(w.ev, best)) {
			best = w.ev
		}
	}
	if best != nil && !r.prof.KeepStale {
		switch {
		case r.prof.Same == SameSecondFirstArrival && ev.CreatedAt <= best.CreatedAt:
			return false, "duplicate: have an event at this or a later second"
		case r.prof.Same == SameSecondLowestID && !Newer(ev, best):
			return false, "replaced: have newer event"
		}
	}
	removed := false
	var acked *nostr.Event // the newest version removed: what stands acknowledged during a split
	r.rows = slices.DeleteFunc(r.rows, func(w *row) bool {
		if sameCoordinate(w.ev, ev) && Newer(ev, w.ev) {
			removed = true
			if acked == nil || Newer(w.ev, acked) {
				acked = w.ev
			}
			return true
		}
		return false
	})
	if removed && r.prof.DeleteThenSave {
		r.pending = append(r.pending, ev)
		r.replacing = append(r.replacing, acked)
		return true, ""
	}
	r.store(ev)
	return true, ""
}

// Pending is the number of split replacements waiting for Settle.
func (r *Relay) Pending() int { return len(r.pending) }

// Settle finishes the oldest split replacement: the new version is stored
// and pushed. It reports whether there was one.
func (r *Relay) Settle() bool {
	if len(r.pending) == 0 {
		return false
	}
	ev := r.pending[0]
	r.pending, r.replacing = r.pending[1:], r.replacing[1:]
	r.tick++
	r.store(ev)
	return true
}

func (r *Relay) store(ev *nostr.Event) {
	r.seq++
	w := &row{ev: ev, seq: r.seq}
	i := sort.Search(len(r.rows), func(i int) bool { return r.before(w, r.rows[i]) })
	r.rows = slices.Insert(r.rows, i, w)
	if r.prof.Push == PushNone {
		return
	}
	for _, c := range r.conns {
		c.push(ev)
	}
}

// Idle lets ticks pass with nothing processed: cache entries age.
func (r *Relay) Idle(ticks int) { r.tick += max(ticks, 0) }

// Delete removes a stored event (a deletion request honoured). Under
// SoftDelete the row stays, still counting toward the cap. It reports
// whether the event was stored.
func (r *Relay) Delete(id string) bool {
	r.tick++
	for i, w := range r.rows {
		if w.ev.ID != id || w.deleted {
			continue
		}
		if r.prof.SoftDelete {
			w.deleted = true
		} else {
			r.rows = slices.Delete(r.rows, i, i+1)
		}
		return true
	}
	return false
}

// Events lists the live stored events (deleted rows and pending saves
// excluded) in the relay's order.
func (r *Relay) Events() []*nostr.Event {
	var out []*nostr.Event
	for _, w := range r.rows {
		if !w.deleted {
			out = append(out, w.ev)
		}
	}
	return out
}

// Coordinates is the ground truth a complete load must match: for every
// read-state d tag, the NIP-01-latest version among the live stored
// events and the accepted replacements still waiting for Settle (the
// coordinate exists throughout its replacement).
func (r *Relay) Coordinates() map[string]*nostr.Event {
	out := map[string]*nostr.Event{}
	add := func(ev *nostr.Event) {
		d := ev.Tags.GetD()
		if !model.ValidDTag(d) {
			return
		}
		if held, ok := out[d]; !ok || Newer(ev, held) {
			out[d] = ev
		}
	}
	for _, w := range r.rows {
		if !w.deleted {
			add(w.ev)
		}
	}
	for i, ev := range r.pending {
		if r.prof.AckAtSave {
			// Not acknowledged until saved: the version it replaces
			// still stands for the coordinate.
			ev = r.replacing[i]
		}
		add(ev)
	}
	return out
}

// query answers a REQ's stored-events part under the profile.
func (r *Relay) query(f nostr.Filter, nth int) []*nostr.Event {
	if f.LimitZero {
		return nil
	}
	key := ""
	if r.prof.CacheTTL > 0 {
		key = f.String()
		if c, ok := r.cache[key]; ok && r.tick-c.at < r.prof.CacheTTL {
			return c.events
		}
	}
	limit := f.Limit
	if limit <= 0 {
		limit = 1 << 30
	}
	eff := r.prof.Cap(limit, nth)
	base := f
	base.Tags, base.Since, base.Until = nil, nil, nil
	start := 0
	if f.Until != nil {
		u := *f.Until
		start = sort.Search(len(r.rows), func(i int) bool {
			t := r.rows[i].ev.CreatedAt
			return t < u || (t == u && !r.prof.UntilExclusive)
		})
	}
	type pick struct {
		w     *row
		tagOK bool
	}
	var picked []pick
	for i := start; i < len(r.rows) && eff > 0; i++ {
		w := r.rows[i]
		if f.Since != nil && (w.ev.CreatedAt < *f.Since || (r.prof.SinceExclusive && w.ev.CreatedAt == *f.Since)) {
			break
		}
		if !base.Matches(w.ev) {
			continue
		}
		tagOK := r.tagsMatch(f, w.ev)
		if !tagOK && r.prof.Tags != TagsAfterCap {
			continue
		}
		if w.deleted && !r.prof.SoftDelete {
			continue
		}
		picked = append(picked, pick{w, tagOK})
		if r.prof.Select == SelectPrefix && len(picked) == eff {
			break
		}
	}
	if r.prof.Select == SelectHeadAndTail && len(picked) > eff {
		picked = append(picked[:eff-1], picked[len(picked)-1])
	}
	out := make([]*nostr.Event, 0, len(picked))
	for _, p := range picked {
		if p.w.deleted || !p.tagOK {
			continue // withheld after the cap
		}
		out = append(out, p.w.ev)
	}
	if key != "" {
		r.cache[key] = cached{at: r.tick, events: out}
	}
	return out
}

func (r *Relay) tagsMatch(f nostr.Filter, ev *nostr.Event) bool {
	names := make([]string, 0, len(f.Tags))
	for name := range f.Tags {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		want := f.Tags[name]
		if r.prof.Tags == TagsSubstringInCap {
			if !anyTagValueContains(ev, want) {
				return false
			}
		} else if !ev.Tags.ContainsAny(name, want) {
			return false
		}
	}
	return true
}

func anyTagValueContains(ev *nostr.Event, want []string) bool {
	for _, tag := range ev.Tags {
		for _, v := range tag[min(1, len(tag)):] {
			for _, w := range want {
				if strings.Contains(v, w) {
					return true
				}
			}
		}
	}
	return false
}
