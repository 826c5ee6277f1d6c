package khatrutest

import (
	"fmt"
	"testing"

	"github.com/nbd-wtf/go-nostr"

	"github.com/nip-rs/harness/model"
)

// TestJudge: a complete load is false when a coordinate acknowledged
// before it is missing or held at an older version; a newer version (a
// replacement during the load), an extra coordinate and a coordinate a
// refused replacement touched are not held against it.
func TestJudge(t *testing.T) {
	ev := func(d string, at nostr.Timestamp, content ...string) *nostr.Event {
		e := &nostr.Event{CreatedAt: at, Kind: model.KindReadState, Tags: nostr.Tags{{"d", d}}, Content: fmt.Sprint(content)}
		e.ID = e.GetID()
		return e
	}
	a1, a2, b1, c1 := ev("read-state:a", 10), ev("read-state:a", 20), ev("read-state:b", 10), ev("read-state:c", 5)
	snap := map[string]*nostr.Event{"read-state:a": a1, "read-state:b": b1}
	for _, tc := range []struct {
		name           string
		got            []*nostr.Event
		unsure         map[string]bool
		missing, stale int
	}{
		{"all at their version", []*nostr.Event{a1, b1}, nil, 0, 0},
		{"one replaced during the load", []*nostr.Event{a2, b1}, nil, 0, 0},
		{"an extra coordinate", []*nostr.Event{a1, b1, c1}, nil, 0, 0},
		{"one missing", []*nostr.Event{a2}, nil, 1, 0},
		{"both missing", nil, nil, 2, 0},
		{"stale", []*nostr.Event{ev("read-state:a", 9), b1}, nil, 0, 1},
		{"same second, another version", []*nostr.Event{ev("read-state:a", 10, "other"), b1}, nil, 0, 1},
		{"missing but unsure", []*nostr.Event{a1}, map[string]bool{"read-state:b": true}, 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			missing, stale, detail := judge(model.LoadResult{Events: tc.got}, snap, tc.unsure)
			if missing != tc.missing || stale != tc.stale || (detail == "") != (missing+stale == 0) {
				t.Fatalf("missing %d stale %d (%q), want %d and %d", missing, stale, detail, tc.missing, tc.stale)
			}
		})
	}
}
