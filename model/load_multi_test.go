package model

import (
	"errors"
	"strings"
	"testing"

	"github.com/nbd-wtf/go-nostr"
)

func TestMultiLoad(t *testing.T) {
	lo, hi := pair(slotD(1), 50)
	only2 := mkEv(slotD(2), 60, "two")
	stores := map[string][]*nostr.Event{
		"wss://a": {hi, only2}, // a holds the superseded version
		"wss://b": {lo},
	}
	tests := []struct {
		name    string
		lapse   string // relay whose connection drops after its fence EOSE
		refuse  string // relay that refuses the fence
		known   map[string]bool
		verdict Verdict
		reason  Reason
	}{
		{"both complete", "", "", nil, Complete, ReasonNone},
		{"one lapsed", "wss://b", "", nil, CannotProveComplete, ReasonFenceLapsed},
		{"one failed", "", "wss://a", nil, Failed, ReasonRelayFailure},
		{"one failed, one lapsed: failed dominates", "wss://b", "wss://a", nil, Failed, ReasonRelayFailure},
		{"one known non-conforming", "", "", map[string]bool{"wss://a": true}, CannotProveComplete, ReasonNonConforming},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m, err := NewMultiLoad([]string{"wss://a", "wss://b"}, LoadConfig{PubKey: testPK, Limit: 10}, tc.known)
			if err != nil {
				t.Fatal(err)
			}
			pending := m.Start()
			// Two relays of a few events each take a few dozen messages;
			// a continuation rule that never ends the load fails here
			// rather than hang until the test deadline.
			for steps := 0; len(pending) > 0; steps++ {
				if steps > maxMultiSteps {
					t.Fatalf("still sending after %d messages: the load does not end", maxMultiSteps)
				}
				ro := pending[0]
				pending = pending[1:]
				var answers []In
				switch {
				case ro.Relay == tc.refuse && strings.HasSuffix(ro.SubID, "-fence"):
					answers = []In{{Kind: InClosed, SubID: ro.SubID, Reason: "blocked: no"}}
				case ro.Relay == tc.lapse && strings.HasSuffix(ro.SubID, "-q1"):
					answers = []In{{Kind: InConnectionLost}}
				default:
					answers = (&relayStub{store: stores[ro.Relay], cap: 10}).answer(ro.Out)
				}
				for _, in := range answers {
					for _, o := range m.Feed(ro.Relay, in) {
						pending = append(pending, RelayOut{ro.Relay, o})
					}
				}
			}
			if m.Running() {
				t.Fatal("still running")
			}
			r := m.Result()
			if r.Verdict != tc.verdict || r.Reason != tc.reason {
				t.Fatalf("%s/%s (%s), want %s/%s", r.Verdict, r.Reason, r.Detail, tc.verdict, tc.reason)
			}
			if tc.name == "both complete" {
				if len(r.Events) != 2 || r.Events[0] != lo || r.Events[1] != only2 {
					t.Fatalf("merged %v, want the lowest-id version and the other coordinate", r.Events)
				}
			}
		})
	}
}

// maxMultiSteps bounds the messages TestMultiLoad exchanges.
const maxMultiSteps = 1000

func TestMultiLoadRunningUntilAll(t *testing.T) {
	m, err := NewMultiLoad([]string{"a", "b"}, LoadConfig{PubKey: testPK, Limit: 10}, nil)
	if err != nil {
		t.Fatal(err)
	}
	m.Start()
	m.Feed("a", In{Kind: InConnectionLost})
	if r := m.Result(); r.Verdict != Running || r.Reason != ReasonNone {
		t.Fatalf("%s/%s while b runs", r.Verdict, r.Reason)
	}
	if m.Feed("nowhere", In{Kind: InConnectionLost}) != nil {
		t.Fatal("message for an unknown relay answered")
	}
}

func TestNewMultiLoadRejects(t *testing.T) {
	cfg := LoadConfig{PubKey: testPK, Limit: 10}
	if _, err := NewMultiLoad(nil, cfg, nil); err == nil {
		t.Error("no relay accepted")
	}
	if _, err := NewMultiLoad([]string{"a", "a"}, cfg, nil); err == nil {
		t.Error("duplicate relay accepted")
	}
	cfg.Limit = 1
	if _, err := NewMultiLoad([]string{"a"}, cfg, nil); !errors.Is(err, ErrLoadLimit) {
		t.Errorf("limit 1: %v", err)
	}
}

// TestLoadPrefixHeld: an explicit prefix is refused while a load on the
// same connection holds it, and given up at the verdict or on Abort; a
// prefix on another connection, or the default prefix, is never refused.
// Two loads sharing ids on one connection would take each other's
// deliveries for their own.
func TestLoadPrefixHeld(t *testing.T) {
	type conn struct{ n int }
	a, b := &conn{1}, &conn{2}
	cfg := func(c any) LoadConfig { return LoadConfig{PubKey: testPK, Limit: 2, SubPrefix: "held", Connection: c} }
	first, err := NewLoad(cfg(a))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := NewLoad(cfg(a)); !errors.Is(err, ErrLoadPrefixHeld) {
		t.Fatalf("same prefix, same connection: %v", err)
	}
	other, err := NewLoad(cfg(b))
	if err != nil {
		t.Fatalf("same prefix, another connection: %v", err)
	}
	other.Abort("done")
	script(first, eoseIn("held-fence"), eoseIn("held-q1"))
	if first.Verdict() != Complete {
		t.Fatalf("first load %s", first.Verdict())
	}
	again, err := NewLoad(cfg(a))
	if err != nil {
		t.Fatalf("after the verdict: %v", err)
	}
	again.Abort("done")
	if _, err := NewLoad(cfg(a)); err != nil {
		t.Fatalf("after Abort of a load never started: %v", err)
	}
	if _, err := NewLoad(LoadConfig{PubKey: testPK, Limit: 2, SubPrefix: "x", Connection: []int{1}}); !errors.Is(err, ErrLoadConnection) {
		t.Fatalf("a slice as connection: %v", err)
	}
	if _, err := NewLoad(LoadConfig{PubKey: testPK, Limit: 2, OtherSubs: -1}); !errors.Is(err, ErrLoadSubs) {
		t.Fatalf("negative other subscriptions: %v", err)
	}
	m, err := NewMultiLoad([]string{"wss://a", "wss://b"}, LoadConfig{PubKey: testPK, Limit: 2, SubPrefix: "multi"}, nil)
	if err != nil {
		t.Fatalf("one explicit prefix over two relays: %v", err)
	}
	if _, err := NewMultiLoad([]string{"wss://c", "wss://a"}, LoadConfig{PubKey: testPK, Limit: 2, SubPrefix: "multi"}, nil); !errors.Is(err, ErrLoadPrefixHeld) {
		t.Fatalf("a second multi-load with the prefix on a relay the first runs on: %v", err)
	}
	c, err := NewMultiLoad([]string{"wss://c"}, LoadConfig{PubKey: testPK, Limit: 2, SubPrefix: "multi"}, nil)
	if err != nil {
		t.Fatalf("the failed multi-load kept wss://c's prefix: %v", err)
	}
	c.Load("wss://c").Abort("done")
	for _, r := range m.Relays() {
		m.Load(r).Abort("done")
	}
}
