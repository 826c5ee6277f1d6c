package model

import (
	"errors"
	"testing"
)

// The kept baseline differs from the spec's B := F exactly where the old
// baseline is above the frontier; counters and refusals are the spec's.
func TestMarkUnreadKeepBaseline(t *testing.T) {
	for _, tc := range []struct {
		g    Reg
		f    uint32
		want Reg
		err  error
	}{
		{Reg{}, 10, Reg{S: 1, C: 0, B: 10}, nil},
		{Reg{S: 1, C: 2, B: 20}, 10, Reg{S: 3, C: 2, B: 20}, nil},
		{Reg{S: 1, C: 2, B: 5}, 10, Reg{S: 3, C: 2, B: 10}, nil},
		{Reg{S: MaxU32, C: 0, B: 20}, 10, Reg{S: MaxU32, C: 0, B: 20}, ErrCounterCeiling},
	} {
		got, err := MarkUnreadKeepBaseline(tc.g, tc.f, true)
		if got != tc.want || !errors.Is(err, tc.err) || (err == nil) != (tc.err == nil) {
			t.Errorf("%v at %d: %v, %v; want %v, %v", tc.g, tc.f, got, err, tc.want, tc.err)
		}
		spec, _ := markUnreadReg(tc.g, tc.f)
		if (spec != got) != (tc.err == nil && tc.g.B > tc.f) {
			t.Errorf("%v at %d: spec %v, kept %v: they should differ only when B > F", tc.g, tc.f, spec, got)
		}
	}
}
