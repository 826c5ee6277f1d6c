package props

import (
	"slices"
	"strings"

	"github.com/nip-rs/harness/model"
)

// Minimize shrinks a witness, keeping each change after which the
// scenario still violates the same check (a false complete stays a false
// complete). It drops steps (dropSteps); then it lowers values one at a
// time (the cap and n, then each step's numbers in order, towards the
// lowest the generators draw, trying the lowest first; true to false; an
// interleaved publication's timing towards the first in the generators'
// list); and it repeats both until neither changes anything. It is
// deterministic: the same witness and rules give the same result.
func Minimize(wit Witness, rules *model.Rules) Witness {
	kind := checkOf(wit.Violation)
	wit.Steps = slices.Clone(wit.Steps)
	// still replays try and, when it violates the same check, records
	// its violation in it.
	still := func(try *Witness) bool {
		v, _ := Replay(*try, rules)
		if v == nil || v.Check != kind {
			return false
		}
		try.Violation = v.Error()
		return true
	}
	for changed := true; changed; {
		changed = dropSteps(&wit, still)
		if lowerValues(&wit, still) {
			changed = true
		}
	}
	return wit
}

// dropSteps removes every step that can go, one at a time and last first
// until none can, then a run of two to maxRun consecutive steps that can
// go together (the longest first: a publication and the deletion that
// undoes it only go together), and repeats while anything went.
// maxRun bounds the runs of steps dropSteps removes together.
const maxRun = 8

func dropSteps(wit *Witness, still func(*Witness) bool) bool {
	moved := false
	try := func(i, k int) bool {
		t := *wit
		t.Steps = slices.Delete(slices.Clone(wit.Steps), i, i+k)
		if !still(&t) {
			return false
		}
		*wit, moved = t, true
		return true
	}
	for changed := true; changed; {
		changed = false
		for i := len(wit.Steps) - 1; i >= 0; i-- {
			if try(i, 1) {
				changed = true
			}
		}
		if changed {
			continue
		}
	runs:
		for k := min(len(wit.Steps)-1, maxRun); k >= 2; k-- {
			for i := len(wit.Steps) - k; i >= 0; i-- {
				if try(i, k) {
					changed = true
					break runs
				}
			}
		}
	}
	return moved
}

// lowerValues makes one pass over the witness's values, keeping every
// lower value that still violates.
func lowerValues(wit *Witness, still func(*Witness) bool) bool {
	moved := lower(wit, still, &wit.Config.Cap, 2)
	moved = lower(wit, still, &wit.Config.N, 2) || moved
	// The setup (a quiescent witness's steps, a soundness witness's up to
	// its first start) publishes at drawn seconds only; its timings stay.
	setup := len(wit.Steps)
	if wit.Check == CheckSoundness {
		setup = slices.IndexFunc(wit.Steps, func(s Step) bool { return s.Op == OpStart })
	}
	for i := range wit.Steps {
		s := &wit.Steps[i]
		moved = lower(wit, still, &s.I, stepFloor(s.Op)) || moved
		if s.Op == OpForeign {
			moved = lower(wit, still, &s.Count, 1) || moved
		}
		if hasSecond(*s) {
			moved = lower(wit, still, &s.At, StartClock-30) || moved
		}
		if s.Op == OpPublish && i > setup && setup >= 0 {
			moved = lowerWhen(wit, i, still) || moved
		}
		for _, b := range []*bool{&s.Lower, &s.Spread} {
			if *b {
				*b = false
				if still(wit) {
					moved = true
				} else {
					*b = true
				}
			}
		}
	}
	return lowerSeconds(wit, still) || moved
}

// hasSecond reports whether a step's At is a second it writes at.
func hasSecond(s Step) bool { return s.Op == OpForeign || (s.Op == OpPublish && s.When == WhenAt) }

// lowerSeconds moves every step writing at one second to a lower second
// together, so that a shared second (a plateau, a tie) survives the move:
// each second the witness writes at, lowest first, to the first of its
// candidates that still violates.
func lowerSeconds(wit *Witness, still func(*Witness) bool) bool {
	var seconds []int64
	for _, s := range wit.Steps {
		if hasSecond(s) && !slices.Contains(seconds, s.At) {
			seconds = append(seconds, s.At)
		}
	}
	slices.Sort(seconds)
	moved := false
	for k, at := range seconds {
		old := slices.Clone(wit.Steps)
		for _, c := range candidates(at, StartClock-30) {
			if slices.Contains(seconds, c) {
				continue // merging two seconds is not a move
			}
			for i, s := range wit.Steps {
				if hasSecond(s) && s.At == at {
					wit.Steps[i].At = c
				}
			}
			if still(wit) {
				seconds[k], moved = c, true
				break
			}
			copy(wit.Steps, old)
		}
	}
	return moved
}

// lower sets *v, a value inside wit, to the first of its candidates that
// still violates, and reports whether one did; otherwise *v is unchanged.
func lower[T int | int64](wit *Witness, still func(*Witness) bool, v *T, floor T) bool {
	old := *v
	for _, c := range candidates(old, floor) {
		*v = c
		if still(wit) {
			return true
		}
	}
	*v = old
	return false
}

// lowerWhen moves step i's publication timing to an earlier one in the
// generators' list, dropping the second or the id order it no longer uses.
func lowerWhen(wit *Witness, i int, still func(*Witness) bool) bool {
	s := &wit.Steps[i]
	cur := slices.Index(publishTimings, s.When)
	if cur < 0 {
		return false
	}
	old := *s
	for _, when := range publishTimings[:cur] {
		if when == old.When {
			continue
		}
		s.When = when
		if when != WhenAt {
			s.At = 0
		}
		if when != WhenSame {
			s.Lower = false
		}
		if still(wit) {
			return true
		}
		*s = old
	}
	return false
}

// stepFloor is the lowest I the generators draw for an operation.
func stepFloor(op string) int {
	if op == OpTick {
		return 1
	}
	return 0
}

// candidates lists values below v to try, lowest first: the floor, the
// midpoint, and v-1.
func candidates[T int | int64](v, floor T) []T {
	if v <= floor {
		return nil
	}
	out := []T{floor}
	if mid := floor + (v-floor)/2; mid > floor && mid < v {
		out = append(out, mid)
	}
	if v-1 > out[len(out)-1] {
		out = append(out, v-1)
	}
	return out
}

func checkOf(violation string) string {
	kind, _, _ := strings.Cut(violation, ":")
	return kind
}
