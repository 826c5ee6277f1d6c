package model

import (
	"strings"
	"testing"

	"github.com/nbd-wtf/go-nostr"
)

// firstUntil is the first band's until of a unit-test load (testNonce).
func firstUntil(t *testing.T) int64 {
	t.Helper()
	u, ok := nonceUntil(testNonce)
	if !ok {
		t.Fatal("no first-band until for the test nonce")
	}
	return int64(u)
}

// TestLoadBandCreatedAtBound: every band bounds created_at from above (the
// first by its until, a continuation by T-1, a retried first band by its
// lowered until), and a delivery above the bound, though a valid uint32
// second, is evidence against the relay: the enumeration could never
// have stepped to it. The controls, one second lower, are not.
func TestLoadBandCreatedAtBound(t *testing.T) {
	x := mkEv(slotD(1), 100, "x")
	tests := []struct {
		name string
		in   func(top int64) []In
		bad  bool
	}{
		{"first band above its until", func(top int64) []In {
			return []In{eoseIn("load-fence"), evIn("load-q1", mkEv(slotD(2), top+1, "a"))}
		}, true},
		{"first band at its until", func(top int64) []In {
			return []In{eoseIn("load-fence"), evIn("load-q1", mkEv(slotD(2), top, "a"))}
		}, false},
		{"continuation at its cursor second", func(int64) []In {
			return []In{eoseIn("load-fence"), evIn("load-q1", x), eoseIn("load-q1"), evIn("load-q2", x), eoseIn("load-q2"),
				evIn("load-q3", mkEv(slotD(2), 100, "c"))}
		}, true},
		{"continuation below its cursor second", func(int64) []In {
			return []In{eoseIn("load-fence"), evIn("load-q1", x), eoseIn("load-q1"), evIn("load-q2", x), eoseIn("load-q2"),
				evIn("load-q3", mkEv(slotD(2), 99, "c"))}
		}, false},
		{"fence push above the first band's until once it is sent", func(top int64) []In {
			return []In{eoseIn("load-fence"), evIn("load-fence", mkEv(slotD(2), top+1, "p"))}
		}, true},
		{"fence push at the first band's until once it is sent", func(top int64) []In {
			return []In{eoseIn("load-fence"), evIn("load-fence", mkEv(slotD(2), top, "p"))}
		}, false},
		// The retried first band lowers the until by one: a push at the
		// old until, seen before the retry, lies above every band left.
		{"push at the old until, then the first band retried", func(top int64) []In {
			w := mkEv(slotD(2), top, "w")
			return []In{eoseIn("load-fence"), evIn("load-fence", w), evIn("load-q1", w), eoseIn("load-q1")}
		}, true},
		{"push below the old until, then the first band retried", func(top int64) []In {
			w := mkEv(slotD(2), top-1, "w")
			return []In{eoseIn("load-fence"), evIn("load-fence", w), evIn("load-q1", w), eoseIn("load-q1")}
		}, false},
		{"first band retried, then a push at the old until", func(top int64) []In {
			w := mkEv(slotD(2), 100, "w")
			return []In{eoseIn("load-fence"), evIn("load-fence", w), evIn("load-q1", w), eoseIn("load-q1"),
				evIn("load-fence", mkEv(slotD(3), top, "p"))}
		}, true},
		{"first band retried, then a push at the new until", func(top int64) []In {
			w := mkEv(slotD(2), 100, "w")
			return []In{eoseIn("load-fence"), evIn("load-fence", w), evIn("load-q1", w), eoseIn("load-q1"),
				evIn("load-fence", mkEv(slotD(3), top-1, "p"))}
		}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			l := newTestLoad(t, 2, nil)
			script(l, tc.in(firstUntil(t))...)
			r := l.Result()
			if tc.bad && (r.Verdict != CannotProveComplete || r.Reason != ReasonNonConforming) {
				t.Fatalf("%s/%s (%s), want %s/%s", r.Verdict, r.Reason, r.Detail, CannotProveComplete, ReasonNonConforming)
			}
			if !tc.bad && r.Verdict != Running {
				t.Fatalf("%s/%s (%s), want the load still running", r.Verdict, r.Reason, r.Detail)
			}
		})
	}
}

// pushingRelay answers every band with one fresh event that it first
// pushes on the fence: no band ever has a result the load may descend
// from, so it retries until its bound.
type pushingRelay struct {
	n     int
	bands []nostr.Filter
}

func (p *pushingRelay) answer(l *Load, o Out) []In {
	if o.Kind != OutREQ {
		return nil
	}
	if o.SubID == l.FenceID() {
		return []In{eoseIn(o.SubID)}
	}
	p.bands = append(p.bands, o.Filter)
	p.n++
	w := mkEv(slotD(p.n), 100, "w")
	return []In{evIn(l.FenceID(), w), evIn(o.SubID, w), eoseIn(o.SubID)}
}

// TestLoadPushRetryFilters: under the proposed rules a first band that
// delivered only fence pushes is asked again by the same filter with its
// until one second lower each time (never a filter the load sent), a
// continuation by the same filter with since 0; after maxPushRetries
// retries the load stops, cannot-prove-complete for a query push. Under
// the spec's rules there is no retry at all.
func TestLoadPushRetryFilters(t *testing.T) {
	t.Run("first band", func(t *testing.T) {
		l := newTestLoad(t, 2, Proposed())
		p := &pushingRelay{}
		queue := l.Start()
		for steps := 0; len(queue) > 0; steps++ {
			if steps > 100 {
				t.Fatalf("load still sending after %d messages", steps)
			}
			o := queue[0]
			queue = queue[1:]
			for _, m := range p.answer(l, o) {
				queue = append(queue, l.Feed(m)...)
			}
		}
		if r := l.Result(); r.Verdict != CannotProveComplete || r.Reason != ReasonQueryPush {
			t.Fatalf("%s/%s (%s), want %s/%s", r.Verdict, r.Reason, r.Detail, CannotProveComplete, ReasonQueryPush)
		}
		if len(p.bands) != 1+maxPushRetries {
			t.Fatalf("%d bands sent, want the first and %d retries", len(p.bands), maxPushRetries)
		}
		top := firstUntil(t)
		seen := map[string]bool{}
		for i, f := range p.bands {
			if f.Until == nil || int64(*f.Until) != top-int64(i) || f.Since != nil || f.Limit != 2 {
				t.Fatalf("band %d: %s, want until %d, no since, limit 2", i+1, f, top-int64(i))
			}
			g := f
			g.Until = nil
			if want := enumerationFilter(testPK, 2); g.String() != want.String() {
				t.Fatalf("band %d: %s, want the enumeration filter under an until", i+1, f)
			}
			if seen[f.String()] {
				t.Fatalf("band %d repeats a filter the load sent: %s", i+1, f)
			}
			seen[f.String()] = true
		}
	})
	t.Run("continuation", func(t *testing.T) {
		l := newTestLoad(t, 2, Proposed())
		x := mkEv(slotD(1), 100, "x")
		w := mkEv(slotD(2), 50, "w")
		out := script(l, eoseIn("load-fence"), evIn("load-q1", x), eoseIn("load-q1"), eoseIn("load-q2"),
			evIn("load-fence", w), evIn("load-q3", w), eoseIn("load-q3"))
		last := out[len(out)-1]
		if !strings.HasPrefix(last, "REQ load-q4 ") || !strings.Contains(last, `"since":0`) || !strings.Contains(last, `"until":99`) {
			t.Fatalf("retry of the continuation %s, want load-q4 with since 0 and until 99", last)
		}
		w2 := mkEv(slotD(3), 40, "w2")
		script(l, evIn("load-fence", w2), evIn("load-q4", w2), eoseIn("load-q4"))
		if r := l.Result(); r.Verdict != CannotProveComplete || r.Reason != ReasonQueryPush {
			t.Fatalf("%s/%s (%s): a continuation with since 0 has no distinct retry left", r.Verdict, r.Reason, r.Detail)
		}
	})
	t.Run("spec", func(t *testing.T) {
		l := newTestLoad(t, 2, Spec())
		w := mkEv(slotD(2), 50, "w")
		out := script(l, eoseIn("load-fence"), evIn("load-fence", w), evIn("load-q1", w), eoseIn("load-q1"))
		if r := l.Result(); r.Verdict != Running {
			t.Fatalf("%s/%s (%s): under the spec a push is a result", r.Verdict, r.Reason, r.Detail)
		}
		if last := out[len(out)-1]; !strings.HasPrefix(last, "REQ load-q2 ") || !strings.Contains(last, `"since":50,"until":50`) {
			t.Fatalf("spec sent %s after the band, want the pinned window at 50 (its delivery a result)", last)
		}
	})
}
