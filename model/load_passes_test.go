package model

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/nbd-wtf/go-nostr"
)

// TestLoadPasses: a load configured for two passes enumerates the store
// twice on its one fence, makes one round trip more, and only then says
// complete, stating its timing assumption; one pass does neither.
// Out-of-range passes are refused.
func TestLoadPasses(t *testing.T) {
	store := []*nostr.Event{mkEv(slotD(1), 100, "a"), mkEv(slotD(2), 90, "b"), mkEv(slotD(3), 80, "c")}
	for _, tc := range []struct {
		passes, bands int
		ping          bool
	}{{0, 1, false}, {1, 1, false}, {2, 2, true}, {3, 3, true}} {
		l, err := NewLoad(LoadConfig{PubKey: testPK, Limit: 2, Nonce: testNonce, Passes: tc.passes})
		if err != nil {
			t.Fatal(err)
		}
		r := &relayStub{store: store, cap: 2}
		res := r.run(l)
		if res.Verdict != Complete || len(res.Events) != 3 {
			t.Fatalf("passes %d: %s/%s with %d coordinates: %s", tc.passes, res.Verdict, res.Reason, len(res.Events), res.Detail)
		}
		firstBands := 0
		for _, s := range r.sent {
			if strings.Contains(s, `"until":4294967291`) && !strings.Contains(s, "since") {
				firstBands++
			}
		}
		pinged := strings.Contains(strings.Join(r.sent, "\n"), `"since":4294967295,"until":4294967295`)
		if firstBands != tc.bands || pinged != tc.ping || strings.Contains(res.Detail, "assuming") != tc.ping {
			t.Errorf("passes %d: %d first bands (want %d), round trip %t (want %t), detail %q\n%s",
				tc.passes, firstBands, tc.bands, pinged, tc.ping, res.Detail, strings.Join(r.sent, "\n"))
		}
	}
	for _, bad := range []int{-1, MaxLoadPasses + 1} {
		if _, err := NewLoad(LoadConfig{PubKey: testPK, Limit: 2, Passes: bad}); !errors.Is(err, ErrLoadPasses) {
			t.Errorf("passes %d: %v, want ErrLoadPasses", bad, err)
		}
	}
}

// TestLoadPassGap: with a gap, the load signals it exactly where it starts
// a pass (the first after the fence's answer, SettleFence) and the round
// trip after the last (the points a caller waits at), and its verdict
// names the gap it assumed; without passes it signals nothing. A gap out
// of range is refused.
func TestLoadPassGap(t *testing.T) {
	store := []*nostr.Event{mkEv(slotD(1), 100, "a"), mkEv(slotD(2), 90, "b"), mkEv(slotD(3), 80, "c")}
	for _, tc := range []struct {
		passes int
		gap    time.Duration
		dues   int
		detail string
	}{
		{1, 50 * time.Millisecond, 0, "enumeration exhausted"},
		{2, 0, 3, "within a pass, and its push within a round trip, and that the relay registers the fence for pushes within a pass of answering it"},
		{2, 50 * time.Millisecond, 3, "within the 50ms waited before each later pass"},
		{3, 50 * time.Millisecond, 4, "a push of an event the relay accepted before the last pass ended arrives within the 50ms waited"},
		{2, 50 * time.Millisecond, 3, "registers the fence for pushes within the 50ms waited after its end-of-stored-events"},
	} {
		l, err := NewLoad(LoadConfig{PubKey: testPK, Limit: 2, Nonce: testNonce, Passes: tc.passes, PassGap: tc.gap})
		if err != nil {
			t.Fatal(err)
		}
		r := &relayStub{store: store, cap: 2}
		dues, queue := 0, l.Start()
		for len(queue) > 0 {
			o := queue[0]
			queue = queue[1:]
			for _, m := range r.answer(o) {
				outs := l.Feed(m)
				if gap, due := l.PassGapDue(); due {
					dues++
					if gap != tc.gap || len(outs) == 0 {
						t.Errorf("passes %d: due with gap %s and %d messages", tc.passes, gap, len(outs))
					}
				}
				queue = append(queue, outs...)
			}
		}
		res := l.Result()
		if res.Verdict != Complete || dues != tc.dues || !strings.Contains(res.Detail, tc.detail) {
			t.Errorf("passes %d gap %s: %s, %d gaps due (want %d), detail %q (want %q)", tc.passes, tc.gap, res.Verdict, dues, tc.dues, res.Detail, tc.detail)
		}
	}
	for _, bad := range []time.Duration{-time.Millisecond, MaxPassGap + 1} {
		if _, err := NewLoad(LoadConfig{PubKey: testPK, Limit: 2, Passes: 2, PassGap: bad}); !errors.Is(err, ErrLoadPassGap) {
			t.Errorf("gap %s: %v, want ErrLoadPassGap", bad, err)
		}
	}
}
