package khatrutest_test

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/nbd-wtf/go-nostr"

	"github.com/nip-rs/harness/history"
	"github.com/nip-rs/harness/internal/testrelay/khatrutest"
	"github.com/nip-rs/harness/wsconn"
)

// The paged history walk (history.Round) over a real websocket to khatru,
// through history.DriveWire: the document's dev-relay checks (a cold open
// sends one REQ with no since and pages down, a warm open one with a
// since), an offline burst larger than a page bridged, and the capped
// relay hole shown under the document's rules and closed under the
// proposed ones. Slicestore answers as NIP-01 says (Conforming): khatru's
// own slicestore treats since as exclusive, which a pinned page cannot
// survive (NOTE.md, "Paged history walk").

const wrapSK = "00000000000000000000000000000000000000000000000000000000000000a7"

// channelKey is the channel's address: wraps carry it in a p tag.
const channelKey = "c0ffee00c0ffee00c0ffee00c0ffee00c0ffee00c0ffee00c0ffee00c0ffee00"

var channelFilter = nostr.Filter{Kinds: []int{1059, 21059}, Tags: nostr.TagMap{"p": {channelKey}}}

// giftWraps signs n wraps addressed to the channel at created_at from,
// from+1, ... (seconds).
func giftWraps(t *testing.T, prefix string, n int, from nostr.Timestamp) []*nostr.Event {
	t.Helper()
	out := make([]*nostr.Event, n)
	for i := range out {
		ev := &nostr.Event{CreatedAt: from + nostr.Timestamp(i), Kind: 1059, Tags: nostr.Tags{{"p", channelKey}}, Content: fmt.Sprintf("%s%d", prefix, i)}
		if err := ev.Sign(wrapSK); err != nil {
			t.Fatal(err)
		}
		out[i] = ev
	}
	return out
}

// recorder is a wire that keeps the filters of the REQs written to it.
type recorder struct {
	history.Wire
	mu   sync.Mutex
	reqs []nostr.Filter
}

func (r *recorder) WriteMessage(ctx context.Context, data []byte) error {
	var msg []json.RawMessage
	if json.Unmarshal(data, &msg) == nil && len(msg) == 3 && string(msg[0]) == `"REQ"` {
		var f nostr.Filter
		if err := json.Unmarshal(msg[2], &f); err == nil {
			r.mu.Lock()
			r.reqs = append(r.reqs, f)
			r.mu.Unlock()
		}
	}
	return r.Wire.WriteMessage(ctx, data)
}

func (r *recorder) Close() error { return r.Wire.(*wsconn.Conn).Close() }

// walkRound runs one catch-up round against the relay over a fresh
// connection and returns the cursor, the progress and the REQs sent.
func walkRound(t *testing.T, url string, rules *history.Rules, saved history.Cursor, store *history.MemoryStore, now nostr.Timestamp) (history.Cursor, history.Progress, []nostr.Filter) {
	t.Helper()
	// Generous bounds: a relay on loopback settles every page long before
	// them, and a busy machine must not turn a slow answer into a silent
	// relay.
	ctx, cancel := context.WithTimeout(context.Background(), 180*time.Second)
	defer cancel()
	conn, err := wsconn.Dial(ctx, url, wsconn.Options{})
	if err != nil {
		t.Fatal(err)
	}
	rec := &recorder{Wire: conn}
	r, err := history.NewRound(history.Defaults(), rules, saved, history.CatchUp, 1, store)
	if err != nil {
		t.Fatal(err)
	}
	if err := r.SetNow(int64(now) * 1000); err != nil {
		t.Fatal(err)
	}
	c, p, err := history.DriveWire(ctx, r, []history.Wire{rec}, history.WireOptions{Filter: channelFilter, Prefix: "walk-", PageTimeout: 60 * time.Second})
	if err != nil || !r.Done() {
		t.Fatalf("drive: %v (done %v)", err, r.Done())
	}
	return c, p, rec.reqs
}

func stored(s *history.MemoryStore, evs []*nostr.Event) int {
	n := 0
	for _, ev := range evs {
		if s.Has(history.Event{ID: ev.ID, CreatedAtMs: int64(ev.CreatedAt) * 1000}) {
			n++
		}
	}
	return n
}

// TestWalkColdWarmAndBurst: a cold open's first REQ has no since and the
// walk pages down to an exhausted cursor; a warm open's first REQ carries
// since = newest - CURSOR_OVERLAP; an offline burst of 120 wraps (more
// than a page) is bridged in one round and newest advances over it.
func TestWalkColdWarmAndBurst(t *testing.T) {
	relay := startPeer(t, khatrutest.Options{Conforming: true})
	base := nostr.Timestamp(1_700_000_000)
	old := giftWraps(t, "old", 120, base)
	if err := relay.Preload(old...); err != nil {
		t.Fatal(err)
	}
	store := history.NewMemoryStore()
	now := base + 1_000
	c, p, reqs := walkRound(t, relay.URL, history.Proposed(), history.Cursor{}, store, now)
	if len(reqs) < 3 || reqs[0].Since != nil || reqs[0].Limit != history.PageWraps {
		t.Fatalf("cold open: %d REQs, first %v: want a first REQ without since, then pages down", len(reqs), reqs)
	}
	if stored(store, old) != 120 || !c.Exhausted || c.NewestMs != int64(base+119)*1000 || p.Failed {
		t.Fatalf("cold open: cursor %s, %d of 120 stored, progress %+v", c, stored(store, old), p)
	}

	burst := giftWraps(t, "burst", 120, base+500)
	if err := relay.Preload(burst...); err != nil {
		t.Fatal(err)
	}
	c2, _, reqs := walkRound(t, relay.URL, history.Proposed(), c, store, now)
	if len(reqs) == 0 || reqs[0].Since == nil || int64(*reqs[0].Since)*1000 != c.NewestMs-history.CursorOverlapMs {
		t.Fatalf("warm open: first REQ %v, want since = newest - overlap (%d ms)", reqs, c.NewestMs-history.CursorOverlapMs)
	}
	if stored(store, burst) != 120 || c2.NewestMs != int64(base+619)*1000 || c2.Pending != nil {
		t.Fatalf("burst: cursor %s, %d of 120 stored", c2, stored(store, burst))
	}
}

// TestWalkCappedRelay: khatru whose store caps every query at 20 wraps,
// below the page of 50. The document's walk takes each 20-wrap answer for
// a short page and seals the channel with 40 of 80 wraps missing; the
// proposed walk takes a short answer as proof only when the relay is
// known to honour the limit, asks below until the relay returns nothing,
// and stores all 80 in one round.
//
// badger and lmdb with MaxLimit 40 answer a limit of 50, above its maximum, with a
// quarter of it (relays.md §5): 10 a page, so the document's walk keeps
// 20 of the 80.
func TestWalkCappedRelay(t *testing.T) {
	base := nostr.Timestamp(1_700_000_000)
	evs := giftWraps(t, "w", 80, base)
	for _, peer := range []struct {
		opts     khatrutest.Options
		specKept int
	}{{khatrutest.Options{Conforming: true, MaxLimit: 20}, 40}, {khatrutest.Options{Backend: khatrutest.Badger, MaxLimit: 40}, 20},
		{khatrutest.Options{Backend: khatrutest.LMDB, MaxLimit: 40}, 20}} {
		relay := startPeer(t, peer.opts)
		if err := relay.Preload(evs...); err != nil {
			t.Fatal(err)
		}
		for _, tc := range []struct {
			rules  *history.Rules
			stored int
		}{{history.Spec(), peer.specKept}, {history.Proposed(), 80}} {
			store := history.NewMemoryStore()
			c, _, _ := walkRound(t, relay.URL, tc.rules, history.Cursor{}, store, base+1_000)
			if got := stored(store, evs); got != tc.stored || !c.Exhausted {
				t.Errorf("%s max %d, %s: cursor %s, %d of 80 stored, want %d under an exhausted cursor", relay.Backend, peer.opts.MaxLimit, tc.rules.Name, c, got, tc.stored)
			}
		}
	}
}

// TestWalkPinnedOnExclusiveSince: khatru's own slicestore takes since as
// exclusive, so a pinned page (since = until = one second) comes back
// empty. The proposed walk does not take that for proof that the second
// is complete: the relay sent wraps of that second on the page before, so
// the empty answer is evidence against it (a stray), and the round
// advances nothing rather than sealing a channel it did not read. The
// document's walk, which never pins, pages it down as usual.
func TestWalkPinnedOnExclusiveSince(t *testing.T) {
	relay := startPeer(t, khatrutest.Options{})
	base := nostr.Timestamp(1_700_000_000)
	evs := giftWraps(t, "w", 80, base)
	if err := relay.Preload(evs...); err != nil {
		t.Fatal(err)
	}
	store := history.NewMemoryStore()
	c, p, _ := walkRound(t, relay.URL, history.Proposed(), history.Cursor{}, store, base+1_000)
	if c.HasNewest || c.Exhausted || len(p.Errors) != 1 || p.Errors[0].Kind != history.FailStray {
		t.Errorf("proposed: cursor %s, errors %v: want the relay reported as a stray and nothing advanced", c, p.Errors)
	}
	store = history.NewMemoryStore()
	c, _, _ = walkRound(t, relay.URL, history.Spec(), history.Cursor{}, store, base+1_000)
	if stored(store, evs) != 80 || !c.Exhausted {
		t.Errorf("spec: cursor %s, %d of 80 stored", c, stored(store, evs))
	}
}

// TestWalkOnEveryPeer: on every peer store, uncapped and capped at 40,
// the proposed walk never seals a channel with wraps missing. Where the
// store takes since as NIP-01 says (badger, lmdb, sqlite3) it reads all
// 80; khatru's slicestore, whose since is exclusive, is reported as a
// stray and nothing is sealed (TestWalkPinnedOnExclusiveSince).
func TestWalkOnEveryPeer(t *testing.T) {
	base := nostr.Timestamp(1_700_000_000)
	evs := giftWraps(t, "w", 80, base)
	for _, backend := range khatrutest.Backends() {
		for _, maxLimit := range []int{0, 40} {
			relay := startPeer(t, khatrutest.Options{Backend: backend, MaxLimit: maxLimit})
			if err := relay.Preload(evs...); err != nil {
				t.Fatal(err)
			}
			store := history.NewMemoryStore()
			c, p, _ := walkRound(t, relay.URL, history.Proposed(), history.Cursor{}, store, base+1_000)
			got := stored(store, evs)
			switch {
			case c.Exhausted && got != 80:
				t.Errorf("%s max %d: exhausted with %d of 80 stored", backend, maxLimit, got)
			case backend != khatrutest.Slicestore && (got != 80 || !c.Exhausted):
				t.Errorf("%s max %d: cursor %s, %d of 80 stored, errors %v: want all 80 under an exhausted cursor", backend, maxLimit, c, got, p.Errors)
			case backend == khatrutest.Slicestore && (len(p.Errors) != 1 || p.Errors[0].Kind != history.FailStray):
				t.Errorf("slicestore max %d: errors %v, want the exclusive since reported as a stray", maxLimit, p.Errors)
			}
		}
	}
}

// TestWalkSecondBeyondAPage: ten seconds of 60 wraps each (more than a
// page of 50) under two newer wraps, on khatru answering as NIP-01 says,
// with no capability record. The relay's 60 wraps to a pinned second (a
// limit of 98 or 100) are short, but nothing it sent before shows its cap
// is above 60: without the probe every round reports the seconds unproven
// and sets no cursor. The proposed walk asks the page the second came
// from again at the pinned limit, which the relay fills, and one round
// stores all 602 under an exhausted cursor.
func TestWalkSecondBeyondAPage(t *testing.T) {
	relay := startPeer(t, khatrutest.Options{Conforming: true})
	base := nostr.Timestamp(1_700_000_000)
	var evs []*nostr.Event
	for s := range 10 {
		for i := range 60 {
			ev := &nostr.Event{CreatedAt: base + nostr.Timestamp(s), Kind: 1059, Tags: nostr.Tags{{"p", channelKey}}, Content: fmt.Sprintf("s%d-%d", s, i)}
			if err := ev.Sign(wrapSK); err != nil {
				t.Fatal(err)
			}
			evs = append(evs, ev)
		}
	}
	evs = append(evs, giftWraps(t, "top", 2, base+100)...)
	if err := relay.Preload(evs...); err != nil {
		t.Fatal(err)
	}
	noProbe := history.Proposed().Clone()
	noProbe.Name = "proposed without ProveCap"
	noProbe.ProveCap = history.Spec().ProveCap
	for _, tc := range []struct {
		rules *history.Rules
		whole bool
	}{{noProbe, false}, {history.Proposed(), true}} {
		store := history.NewMemoryStore()
		var c history.Cursor
		var p history.Progress
		for range 2 {
			c, p, _ = walkRound(t, relay.URL, tc.rules, c, store, base+1_000)
		}
		got := stored(store, evs)
		switch {
		case tc.whole && (got != len(evs) || !c.Exhausted || p.Unproven != 0):
			t.Errorf("%s: cursor %s, %d of %d stored, %d unproven: want every wrap under an exhausted cursor", tc.rules.Name, c, got, len(evs), p.Unproven)
		case !tc.whole && (c.HasNewest || p.Unproven == 0):
			t.Errorf("%s: cursor %s, %d unproven: want the seconds reported unproven and no cursor", tc.rules.Name, c, p.Unproven)
		}
	}
}
