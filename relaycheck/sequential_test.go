package relaycheck

import (
	"strings"
	"testing"
)

// TestSequentialConclude: the stopping rule's verdict after trials with no
// violation. No exercised trial is never conforms, however many trials
// ran, and claims no rate bound; fewer exercised trials than the bound
// needs is unknown; exactly enough is conforms, with the bound met.
func TestSequentialConclude(t *testing.T) {
	s := sequential{confidence: DefaultConfidence, maxRate: DefaultMaxRate, cap: 10_000}
	n := s.needed()
	if n < 1 || s.rateBound(n) > s.maxRate || s.rateBound(n-1) <= s.maxRate {
		t.Fatalf("needed %d: bound %v there, %v one fewer, want the least n with a bound of at most %v", n, s.rateBound(n), s.rateBound(n-1), s.maxRate)
	}
	for _, tc := range []struct {
		name              string
		trials, exercised int
		want              Verdict
		detail            string
	}{
		{"no trials", 0, 0, Unknown, "never exercised"},
		{"one trial, not exercised", 1, 0, Unknown, "never exercised"},
		{"as many trials as the bound needs, none exercised", n, 0, Unknown, "never exercised"},
		{"the cap of trials, none exercised", s.cap, 0, Unknown, "never exercised"},
		{"one exercised trial fewer than needed", s.cap, n - 1, Unknown, "cap of"},
		{"exactly enough exercised", n, n, Conforms, "at most"},
		{"more than enough exercised", s.cap, n + 1, Conforms, "at most"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := s.conclude("barrier", ReqBarrier, tc.trials, tc.exercised, "a trial is exercised when it could show")
			if c.Verdict != tc.want || !strings.Contains(c.Detail, tc.detail) || c.Trials != tc.trials || c.Exercised != tc.exercised {
				t.Fatalf("%s (%d trials, %d exercised): %s, want %s and %q", c.Verdict, c.Trials, c.Exercised, c.Detail, tc.want, tc.detail)
			}
			switch {
			case tc.exercised == 0 && c.RateBound != 0:
				t.Fatalf("rate bound %v claimed from no exercised trial", c.RateBound)
			case c.Verdict == Conforms && (c.RateBound > s.maxRate || c.RateBound <= 0):
				t.Fatalf("conforms with a rate bound of %v, want within (0, %v]", c.RateBound, s.maxRate)
			}
		})
	}
}
