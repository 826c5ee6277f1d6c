package model

import (
	"testing"

	"github.com/nbd-wtf/go-nostr"
)

// TestUnreachableRelayDoesNotStopTheFetch (Read-Before-Write: a client
// proceeds with the data of the reachable relays): one relay of two is
// unreachable from the start; the load still runs the reachable one to its
// end and returns its coordinates, while its verdict stays short of
// complete, so the override gates still hold.
func TestUnreachableRelayDoesNotStopTheFetch(t *testing.T) {
	lo, _ := pair(slotD(1), 50)
	other := mkEv(slotD(2), 60, "two")
	store := []*nostr.Event{lo, other}
	m, err := NewMultiLoad([]string{"wss://down", "wss://up"}, LoadConfig{PubKey: testPK, Limit: 10}, nil)
	if err != nil {
		t.Fatal(err)
	}
	pending := m.Start()
	for steps := 0; len(pending) > 0; steps++ {
		if steps > maxMultiSteps {
			t.Fatalf("still sending after %d messages", maxMultiSteps)
		}
		ro := pending[0]
		pending = pending[1:]
		answers := []In{{Kind: InConnectionLost}}
		if ro.Relay == "wss://up" {
			answers = (&relayStub{store: store, cap: 10}).answer(ro.Out)
		}
		for _, in := range answers {
			for _, o := range m.Feed(ro.Relay, in) {
				pending = append(pending, RelayOut{ro.Relay, o})
			}
		}
	}
	r := m.Result()
	if m.Running() || r.Complete() {
		t.Fatalf("verdict %s with a relay unreachable", r.Verdict)
	}
	if len(r.Events) != 2 || r.Events[0] != lo || r.Events[1] != other {
		t.Fatalf("fetched %v, want the reachable relay's two coordinates", r.Events)
	}
	for _, p := range r.PerRelay {
		if p.Relay == "wss://up" && !p.Complete() {
			t.Fatalf("the reachable relay's load ended %s", p.Verdict)
		}
	}
}
