package relaycheck

import (
	"math"
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

// TestSequentialNeeded: the trials the stopping rule asks for are the
// least n with 1-(1-c)^(1/n) <= rate, worked out by hand for the
// stated bounds (598 for 95% and 0.5%, the default; 149 for 95% and 2%)
// and for a few others, and found again here by counting up.
func TestSequentialNeeded(t *testing.T) {
	for _, tc := range []struct {
		confidence, rate float64
		want             int
	}{
		{0.95, 0.005, 598},
		{0.95, 0.02, 149},
		{0.95, 0.2, 14},
		{0.99, 0.01, 459},
		{0.90, 0.5, 4},
	} {
		s := sequential{confidence: tc.confidence, maxRate: tc.rate, cap: 10_000}
		if got := s.needed(); got != tc.want {
			t.Errorf("needed at %v/%v: %d, want %d", tc.confidence, tc.rate, got, tc.want)
		}
		least := 1
		for 1-math.Pow(1-tc.confidence, 1/float64(least)) > tc.rate {
			least++
		}
		if least != tc.want {
			t.Errorf("counting up at %v/%v finds %d, the table says %d", tc.confidence, tc.rate, least, tc.want)
		}
	}
}
