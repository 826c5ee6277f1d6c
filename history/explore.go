package history

import (
	"fmt"

	"github.com/nip-rs/harness/search"
	"github.com/nip-rs/harness/witnessfile"
)

// Outcome is one exploration of the universe.
type Outcome struct {
	Status   search.Status
	Distinct int
	PerDepth []int
	Rounds   int64
	// Violations counts each invariant's violations (every one, unless the
	// run stopped at the first).
	Violations map[string]int64
	Witness    *witnessfile.Witness // the smallest violation, or nil
	Text       string               // its rendering
	// BoundHit says which resource bound ended the run before the depth
	// bound (Options.MaxStates); empty when the run reached it. The
	// figures are then those of the states stored so far, and what lies
	// beyond is unknown.
	BoundHit string
}

// Options bound one exploration beyond the universe's depth bound.
type Options struct {
	// Workers expand each level (0: GOMAXPROCS); the figures and the
	// witness do not depend on it.
	Workers int
	// StopAtFirst ends the run once the smallest violation is known.
	StopAtFirst bool
	// MaxStates stops the run, unknown, once more distinct states are
	// stored (0: no limit): the guard a caller puts on memory.
	MaxStates int
	// Progress, if set, receives the engine's snapshots (search.Config).
	Progress func(search.Progress)
}

// Explore searches the universe under rules breadth first to u.Depth,
// reporting the invariants report selects, on workers (0: GOMAXPROCS);
// the figures and the witness do not depend on the worker count.
func Explore(u UniverseConfig, rules *Rules, report Report, workers int, stopAtFirst bool) (*Outcome, error) {
	return ExploreWith(u, rules, report, Options{Workers: workers, StopAtFirst: stopAtFirst})
}

// ExploreWith is Explore with the engine's bounds: a state limit that
// ends the run unknown (the status the engine gives it, and BoundHit
// saying which limit), and progress snapshots. A violation found before
// the limit is reported as one: it holds whatever lies beyond.
func ExploreWith(u UniverseConfig, rules *Rules, report Report, o Options) (*Outcome, error) {
	if o.MaxStates < 0 {
		return nil, fmt.Errorf("state limit %d is negative", o.MaxStates)
	}
	w, err := NewWorld(u, rules, report)
	if err != nil {
		return nil, err
	}
	run, err := search.Explore[*worker](w, search.Config{Depth: u.Depth, Workers: o.Workers, StopAtFirst: o.StopAtFirst,
		MaxStates: o.MaxStates, Progress: o.Progress})
	if err != nil {
		return nil, err
	}
	out := &Outcome{Status: run.Status, Distinct: run.Distinct, PerDepth: run.PerDepth, Rounds: run.Tally.Units(UnitRounds),
		Violations: map[string]int64{}, BoundHit: run.BoundHit}
	for i, inv := range Invariants {
		if v := run.Tally.Violations(i); v > 0 {
			out.Violations[inv.ID] = v
		}
	}
	hit := run.Tally.Best()
	if hit == nil {
		return out, nil
	}
	path := run.Store.Path(hit.Parent)
	if hit.Trans >= 0 {
		path = append(path, hit.Trans)
	}
	wit := &witnessfile.Witness{Kind: KindHistory, Universe: UniverseName, Depth: u.Depth, Rules: rules.Name,
		Invariant: Invariants[hit.Finding.Inv].ID, Detail: hit.Finding.Detail, Point: u.params()}
	for _, t := range path {
		wit.Actions = append(wit.Actions, actionOf(t))
	}
	rep, err := ReplayWith(wit, rules)
	if err != nil {
		return nil, err
	}
	out.Witness, out.Text = wit, rep.Text
	wit.Text = rep.Text
	return out, nil
}
