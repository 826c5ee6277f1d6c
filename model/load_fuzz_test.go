package model

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/nbd-wtf/go-nostr"
)

// FuzzLoadFrames feeds arbitrary relay frames, one per line, to a load:
// nothing panics, every message the load answers with is well formed, and
// once it has a verdict the verdict never changes.
func FuzzLoadFrames(f *testing.F) {
	x := mkEv(slotD(1), 100, "x")
	evFrame, _ := nostr.EventEnvelope{SubscriptionID: ptr("load-q1"), Event: *x}.MarshalJSON()
	f.Add([]byte(`["EOSE","load-fence"]` + "\n" + string(evFrame) + "\n" + `["EOSE","load-q1"]` + "\n" + `["EOSE","load-q2"]` + "\n" + `["EOSE","load-q3"]`))
	f.Add([]byte(`["EOSE","load-fence"]` + "\n" + `["CLOSED","load-fence","error: x"]`))
	f.Add([]byte(`["EVENT","load-fence",{"id":"00","kind":30078}]` + "\n" + `["EOSE","load-fence"]`))
	f.Add([]byte(`["NOTICE","x"]` + "\n" + `[` + "\n" + `["EOSE"]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		l, err := NewLoad(LoadConfig{PubKey: testPK, Limit: 2, SubPrefix: "load", Nonce: testNonce})
		if err != nil {
			t.Fatal(err)
		}
		defer l.Abort("fuzz case over")
		check := func(outs []Out) {
			for _, o := range outs {
				if _, err := o.Wire(); err != nil {
					t.Fatalf("malformed outgoing %v: %v", o, err)
				}
				if o.Kind == OutREQ && (o.Filter.Limit != 2 || len(o.Filter.Tags) != 0) {
					t.Fatalf("query %s", o.Filter)
				}
			}
		}
		check(l.Start())
		final := Running
		for _, line := range bytes.Split(data, []byte("\n")) {
			if m, ok := ParseIn(line); ok {
				check(l.Feed(m))
			}
			if final != Running && l.Verdict() != final {
				t.Fatalf("verdict changed from %s to %s", final, l.Verdict())
			}
			final = l.Verdict()
		}
		l.Feed(In{Kind: InConnectionLost})
		if l.Verdict() == Running {
			t.Fatal("a lost connection left the load running")
		}
	})
}

// queryBound is the most queries a load sends given how many events it
// received: every band that is followed by another lowers the cursor to
// a second some delivered event holds (at most one band per received
// event), each is followed by at most one pinned window, at most
// maxPushRetries push-only bands precede each of them or the last, and
// one final band ends the enumeration.
func queryBound(received int) int { return 2*received + maxPushRetries*(received+1) + 1 }

// hostileRelay answers a load's REQs from a seeded generator: mostly
// events inside the filter at descending seconds, sometimes at the int64
// bounds, at -1, at 2^32, at the filter's own bounds, outside it, or the
// same event again.
type hostileRelay struct {
	rng  *rand.Rand
	salt int
}

func (h *hostileRelay) answer(o Out) []In {
	if o.Kind != OutREQ {
		return nil
	}
	top := int64(1) << 40
	if o.Filter.Until != nil {
		top = int64(*o.Filter.Until)
	}
	at := top
	var in []In
	for range h.rng.IntN(o.Filter.Limit + 2) {
		switch h.rng.IntN(12) {
		case 0:
			at = math.MinInt64
		case 1:
			at = math.MaxInt64
		case 2:
			at = -1
		case 3:
			at = 1 << 32
		case 4:
			if o.Filter.Since != nil {
				at = int64(*o.Filter.Since)
			}
		default:
			at -= int64(h.rng.IntN(3))
		}
		h.salt++
		in = append(in, In{Kind: InEvent, SubID: o.SubID, Event: mkEv(slotD(h.rng.IntN(4)+1), at, fmt.Sprint(h.salt))})
	}
	return append(in, In{Kind: InEOSE, SubID: o.SubID})
}

// TestLoadBoundedOnHostileRelay: whatever a relay answers, a load ends
// in a verdict, within queryBound queries of the events it received. An
// event at created_at MinInt64 once made T-1 wrap and the load query
// forever.
func TestLoadBoundedOnHostileRelay(t *testing.T) {
	for seed := range uint64(300) {
		h := &hostileRelay{rng: rand.New(rand.NewPCG(seed, 7))}
		l, err := NewLoad(LoadConfig{PubKey: testPK, Limit: 2 + int(seed%3), Nonce: uint32(seed) + 1})
		if err != nil {
			t.Fatal(err)
		}
		queue := l.Start()
		for steps := 0; len(queue) > 0; steps++ {
			if steps > 10000 {
				t.Fatalf("seed %d: still sending after %d messages, %d queries", seed, steps, l.Result().Stats.Queries)
			}
			o := queue[0]
			queue = queue[1:]
			for _, m := range h.answer(o) {
				queue = append(queue, l.Feed(m)...)
			}
		}
		r := l.Result()
		if r.Verdict == Running {
			t.Fatalf("seed %d: no verdict with nothing left to send", seed)
		}
		if r.Stats.Queries > queryBound(r.Stats.Received) {
			t.Fatalf("seed %d: %d queries for %d received events, bound %d", seed, r.Stats.Queries, r.Stats.Received, queryBound(r.Stats.Received))
		}
	}
}

// TestLoadTimestampRange: a delivery outside [0, the first band's until]
// ends the load cannot-prove-complete at once, whoever delivers it.
func TestLoadTimestampRange(t *testing.T) {
	for _, tc := range []struct {
		name  string
		at    int64
		fence bool
	}{
		{"MinInt64 from a band", math.MinInt64, false},
		{"-1 from a band", -1, false},
		{"MaxInt64 from the fence", math.MaxInt64, true},
		{"2^32 from the fence", 1 << 32, true},
		{"above the first band's until, from the fence", int64(MaxCreatedAt), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l := newTestLoad(t, 2, nil)
			ev := mkEv(slotD(1), tc.at, "x")
			in := []In{eoseIn(l.FenceID()), evIn("load-q1", ev), eoseIn("load-q1")}
			if tc.fence {
				in = []In{evIn(l.FenceID(), ev), eoseIn(l.FenceID())}
			}
			script(l, in...)
			if r := l.Result(); r.Verdict != CannotProveComplete || r.Reason != ReasonNonConforming || r.Stats.Queries > 1 {
				t.Fatalf("%s/%s after %d queries (%s)", r.Verdict, r.Reason, r.Stats.Queries, r.Detail)
			}
		})
	}
}
