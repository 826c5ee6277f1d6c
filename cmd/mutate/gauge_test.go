package main

import (
	"testing"
	"time"
)

// The gauge counts mutant runs (a mutant under one tie) as they start, not
// checks, and estimates the rest from the finished runs' mean time; the
// clock is the test's, so nothing here depends on the machine. A run that
// prints no check line (the third here) still counts, so the gauge ends at
// its total.
func TestGaugeCountsRunsAndEstimates(t *testing.T) {
	now := time.Unix(0, 0)
	g := newGauge(4, "spec", func() time.Time { return now })
	steps := []struct {
		advance time.Duration
		start   string // "id tie" of a run starting, or ""
		in      string
		want    string
	}{
		{0, "", "spec tie=clear explore:reference: nothing (1s)", "control spec, check 1: spec tie=clear explore:reference: nothing (1s)"},
		{0, "M1 clear", "", "mutant run 1 of 4: M1 tie=clear starts"},
		{0, "", "M1 tie=clear explore:reference: nothing (1s)", "mutant run 1 of 4: M1 tie=clear explore:reference: nothing (1s)"},
		{10 * time.Second, "", "M1 tie=clear directed:conformance: C1-x (2s)", "mutant run 1 of 4: M1 tie=clear directed:conformance: C1-x (2s)"},
		{10 * time.Second, "M1 set", "", "mutant run 2 of 4, about 60 s left: M1 tie=set starts"},
		{10 * time.Second, "M2 clear", "", "mutant run 3 of 4, about 30 s left: M2 tie=clear starts"},
		{0, "M2 set", "", "mutant run 4 of 4, about 10 s left: M2 tie=set starts"},
		{0, "", "M2@b-max tie=set load:quiescent: soundness (3s)", "mutant run 4 of 4, about 10 s left: M2@b-max tie=set load:quiescent: soundness (3s)"},
	}
	for i, s := range steps {
		now = now.Add(s.advance)
		var got string
		if s.start != "" {
			var id, tie string
			for j := range s.start {
				if s.start[j] == ' ' {
					id, tie = s.start[:j], s.start[j+1:]
				}
			}
			got = g.started(id, tie)
		} else {
			got = g.line(s.in)
		}
		if got != s.want {
			t.Errorf("step %d:\n got %s\nwant %s", i+1, got, s.want)
		}
	}
	if got, want := g.finished(), "4 of 4 mutant runs done"; got != want {
		t.Errorf("finished: %q, want %q", got, want)
	}
}
