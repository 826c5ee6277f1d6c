package history

import (
	"fmt"
	"math/rand/v2"

	"github.com/nip-rs/harness/search"
	"github.com/nip-rs/harness/witnessfile"
)

// SimOutcome is a run of seeded random walks through the universe.
type SimOutcome struct {
	Seed  uint64
	Walks int // walks run: up to the first violating one, every one without
	// Steps is the transitions taken, Checked the states checked, over
	// every walk run; Stuck counts walks that met a state with no enabled
	// transition before their last step.
	Steps, Checked int64
	Stuck          int
	// Rounds counts the round transitions taken; Violations each
	// invariant's violations met, over the walks run.
	Rounds     int64
	Violations map[string]int64
	// Walk is the index of the first violating walk (-1: none) and RawDepth
	// its length before shrinking; Witness its shrunk trace, Text that
	// trace replayed.
	Walk     int
	RawDepth int
	Witness  *witnessfile.Witness
	Text     string
}

// Simulate runs walks seeded random walks of steps transitions each through
// the universe u (its Depth is ignored: a walk is as long as steps), with
// every check at every state and on every round, reporting what report
// selects. Walk i draws from a PCG generator seeded (seed, i) and the
// walks run in order, so the result is a function of the arguments alone.
// The first violation is shrunk (steps deleted while the same invariant
// still fails) and replayed as an ordinary history witness.
func Simulate(u UniverseConfig, rules *Rules, report Report, walks, steps int, seed uint64) (*SimOutcome, error) {
	if walks < 1 || steps < 1 || steps > witnessfile.MaxDepth {
		return nil, errorf("simulation: %d walks of %d steps: want at least one walk of 1..%d steps", walks, steps, witnessfile.MaxDepth)
	}
	u.Depth = steps
	w, err := NewWorld(u, rules, report)
	if err != nil {
		return nil, err
	}
	out := &SimOutcome{Seed: seed, Walk: -1, Violations: map[string]int64{}}
	for i := range walks {
		trace, found, stuck := w.walk(rand.New(rand.NewPCG(seed, uint64(i))), steps, out)
		out.Walks++
		if stuck {
			out.Stuck++
		}
		if found < 0 {
			continue
		}
		out.Walk, out.RawDepth = i, len(trace)
		trace = w.shrink(trace, found)
		wit := &witnessfile.Witness{Kind: KindHistory, Universe: UniverseName, Depth: len(trace), Rules: rules.Name,
			Invariant: Invariants[found].ID, Point: u.params()}
		for _, t := range trace {
			wit.Actions = append(wit.Actions, actionOf(t))
		}
		rep, err := ReplayWith(wit, rules)
		if err != nil {
			return nil, fmt.Errorf("simulation: the shrunk witness does not replay: %w", err)
		}
		wit.Detail, wit.Text = rep.Detail, rep.Text
		out.Witness, out.Text = wit, rep.Text
		break
	}
	return out, nil
}

// walk is one random walk: at each step one enabled transition, drawn
// uniformly. It returns the trace to the first violation (found is its
// invariant) or the whole walk (found -1), and whether it got stuck.
func (w *World) walk(rng *rand.Rand, steps int, out *SimOutcome) (trace []int, found int, stuck bool) {
	note := func(fs []search.Finding) int {
		fs = w.filter(fs)
		for _, f := range fs {
			out.Violations[Invariants[f.Inv].ID]++
		}
		if len(fs) > 0 {
			return fs[0].Inv
		}
		return -1
	}
	s := initial()
	out.Checked++
	if f := note(w.checkState(s)); f >= 0 {
		return nil, f, false
	}
	var enabled []int
	for range steps {
		enabled = enabled[:0]
		for t := range w.Transitions() {
			if _, _, ok := w.step(s, t); ok {
				enabled = append(enabled, t)
			}
		}
		if len(enabled) == 0 {
			return trace, -1, true
		}
		t := enabled[rng.IntN(len(enabled))]
		n, fs, _ := w.step(s, t)
		trace = append(trace, t)
		out.Steps++
		out.Checked++
		if isRound(t) {
			out.Rounds++
		}
		s = n
		if f := note(append(fs, w.checkState(s)...)); f >= 0 {
			return trace, f, false
		}
	}
	return trace, -1, false
}

// fails reports whether trace, run from the initial state, shows a
// violation of invariant inv at some step (every step enabled).
func (w *World) fails(trace []int, inv int) bool {
	s := initial()
	for _, t := range trace {
		n, fs, ok := w.step(s, t)
		if !ok {
			return false
		}
		s = n
		for _, f := range append(fs, w.checkState(s)...) {
			if f.Inv == inv && w.reports(f.Inv) {
				return true
			}
		}
	}
	return false
}

// shrink deletes steps one at a time, from the first, while the trace
// still shows inv, until no single deletion keeps it.
func (w *World) shrink(trace []int, inv int) []int {
	for changed := true; changed; {
		changed = false
		for i := 0; i < len(trace); i++ {
			cand := append(append([]int(nil), trace[:i]...), trace[i+1:]...)
			if w.fails(cand, inv) {
				trace, changed = cand, true
				i--
			}
		}
	}
	return trace
}
