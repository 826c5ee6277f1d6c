package main

import (
	"testing"
	"time"
)

// The gauge counts mutant runs (a mutant under one tie), not checks, and
// estimates the rest from the finished runs' mean time; the clock is the
// test's, so nothing here depends on the machine.
func TestGaugeCountsRunsAndEstimates(t *testing.T) {
	now := time.Unix(0, 0)
	g := newGauge(4, "spec", func() time.Time { return now })
	steps := []struct {
		advance time.Duration
		in      string
		want    string
	}{
		{0, "spec tie=clear explore:reference: nothing (1s)", "control spec, check 1: spec tie=clear explore:reference: nothing (1s)"},
		{0, "M1 tie=clear explore:reference: nothing (1s)", "mutant run 1 of 4: M1 tie=clear explore:reference: nothing (1s)"},
		{10 * time.Second, "M1 tie=clear directed:conformance: C1-x (2s)", "mutant run 1 of 4: M1 tie=clear directed:conformance: C1-x (2s)"},
		{10 * time.Second, "M1 tie=set explore:reference: nothing (1s)", "mutant run 2 of 4, about 60 s left: M1 tie=set explore:reference: nothing (1s)"},
		{20 * time.Second, "M2@b-max tie=clear load:quiescent: soundness (3s)", "mutant run 3 of 4, about 40 s left: M2@b-max tie=clear load:quiescent: soundness (3s)"},
	}
	for i, s := range steps {
		now = now.Add(s.advance)
		if got := g.line(s.in); got != s.want {
			t.Errorf("line %d:\n got %s\nwant %s", i+1, got, s.want)
		}
	}
}

func TestRoughly(t *testing.T) {
	for d, want := range map[time.Duration]string{3 * time.Second: "a few seconds", 42 * time.Second: "about 40 s", 5 * time.Minute: "about 5 min", 3 * time.Hour: "about 3.0 h"} {
		if got := roughly(d); got != want {
			t.Errorf("roughly(%v) = %q, want %q", d, got, want)
		}
	}
}
