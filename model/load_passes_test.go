package model

import (
	"errors"
	"strings"
	"testing"

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
