package history

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/nip-rs/harness/search"
)

// The walk's liveness check: every walk ends. Once members stop publishing
// (no publication, live notification, rekey or wrap arriving during a
// round), a client that keeps running rounds of either intent reaches, from
// every state the universe reaches, a cursor sealed exhausted or a round
// that reports a failure (Failure semantics: a relay refused, stayed silent
// or strayed, or the read was all-empty) or states a second it cannot
// prove (the proposal's same-second safe boundary). A violation is a lasso:
// the root's trace, an approach of rounds, and a loop of rounds that ends
// nothing and returns to its first state.
//
// The graph's node is a universe state; its edges are the rounds that end
// nothing, each a deterministic function of the state (the simulated
// relays answer from what they hold). A round that ends the walk is counted
// and not followed, and an exhausted state has no edge: the walk is over
// there. So every cycle of the graph is a walk that never ends.
//
// Fairness (every relay asked eventually answers) is discharged by the
// round's atomicity: a relay that does not answer a page is timed out
// within its round and the round reports it silent, which ends the walk.
// Every edge of the graph is therefore a round in which each relay asked
// answered every page it was asked, and every cycle is fair. A round
// whose pinned second stays full once its budget of raised limits is
// spent reports nothing of the second (a later round is to go on), so it
// does not end the walk: that is the claim this check tests (it holds
// under PinHeld, which starts the later round above what was stored).

// LivenessResult is one run of Liveness.
type LivenessResult struct {
	Universe string
	Rules    string
	Depth    int
	Status   search.Status
	// Roots is the states the safety search reached; States the graph's
	// nodes; Edges its rounds that end nothing; Ends the rounds that end
	// the walk (counted, not followed).
	Roots  int
	States int
	Edges  int64
	Ends   int64
	// InProgress counts the states where a walk is in progress: not
	// exhausted, with a round that ends nothing enabled (the premise).
	InProgress int
	// Components is the strongly connected components examined; Cyclic
	// those holding a cycle (each a walk that never ends).
	Components int
	Cyclic     int
	Witness    *WalkLasso
}

// WalkLasso is a walk that never ends: the root's trace (any actions),
// the rounds to the loop, and the loop's rounds, as transitions.
type WalkLasso struct {
	Universe UniverseConfig
	Prefix   []int
	Approach []int
	Loop     []int
	Detail   string
}

// Liveness runs the walk's liveness check on universe u under rules, the
// roots being every state the safety search reaches within u.Depth.
func Liveness(name string, u UniverseConfig, rules *Rules, workers int) (*LivenessResult, error) {
	return liveness(name, u, rules, workers, false)
}

// LivenessToFirst is Liveness stopping at the first lasso (a mutant's run:
// its counts are then those of the roots walked so far).
func LivenessToFirst(name string, u UniverseConfig, rules *Rules, workers int) (*LivenessResult, error) {
	return liveness(name, u, rules, workers, true)
}

func liveness(name string, u UniverseConfig, rules *Rules, workers int, first bool) (*LivenessResult, error) {
	w, err := NewWorld(u, rules, ReportGate)
	if err != nil {
		return nil, err
	}
	run, err := search.Explore[*worker](w, search.Config{Depth: u.Depth, Workers: workers})
	if err != nil {
		return nil, err
	}
	res := &LivenessResult{Universe: name, Rules: rules.Name, Depth: u.Depth, Roots: run.Store.Len(), Status: search.StatusOK}
	type root struct {
		row  []int32
		path []int
	}
	roots := make([]root, run.Store.Len())
	for i := range roots {
		roots[i] = root{run.Store.Row(i), run.Store.Path(int32(i))}
	}
	// Roots in trace-length then trace order: the worker count does not
	// change the verdict nor the witness.
	slices.SortFunc(roots, func(a, b root) int {
		return cmp.Or(cmp.Compare(len(a.path), len(b.path)), slices.Compare(a.path, b.path))
	})
	g := &walkGraph{w: w, index: map[[width]int32]int32{}}
	// Every edge ends nothing and every cycle is fair (the rounds' own
	// timeouts discharge fairness), so every cycle is a violation.
	cy := search.NewCycles(g, search.CycleConfig{})
	for _, r := range roots {
		had := cy.Lasso != nil
		cy.From(g.intern(decode(r.row)))
		if l := cy.Lasso; !had && l != nil {
			res.Witness = g.lasso(r.path, l)
			if first {
				break
			}
		}
	}
	res.Components, res.Cyclic = cy.Counts.Components, cy.Counts.Cyclic
	res.States, res.Edges, res.Ends, res.InProgress = len(g.states), g.edges, g.ends, g.inProgress
	switch {
	case res.Cyclic > 0:
		res.Status = search.StatusViolation
	case res.InProgress == 0:
		// Non-vacuity: no state had a walk in progress, nothing was tested.
		return res, fmt.Errorf("universe %q: no state has a walk in progress (%d states)", name, res.States)
	}
	return res, nil
}

// walkGraph is the graph of rounds that end nothing, numbered as the
// fair-cycle search (search.Cycles) reaches it.
type walkGraph struct {
	w          *World
	index      map[[width]int32]int32
	states     []state
	edges      int64
	ends       int64
	inProgress int
}

func key(s state) (k [width]int32) {
	copy(k[:], s.encode())
	return k
}

func (g *walkGraph) intern(s state) int32 {
	k := key(s)
	if v, ok := g.index[k]; ok {
		return v
	}
	v := int32(len(g.states))
	g.index[k] = v
	g.states = append(g.states, s)
	return v
}

// walkRound is the round t from s if it is one the walk runs on its own
// (no wrap arriving during it): the successor, whether it ends the walk,
// and whether t is such a round.
func (w *World) walkRound(s state, t int) (state, bool, bool) {
	if !isRound(t) || (t >= tHostileRounds && !w.U.Strays) {
		return s, false, false
	}
	rt := decodeRound(t)
	if rt.mid {
		return s, false, false
	}
	n, prog, _ := w.roundProgress(s, rt)
	return n, endsWalk(prog), true
}

// endsWalk: the round reported a failure or a second it cannot prove.
func endsWalk(p Progress) bool {
	return p.Failed || len(p.Errors) > 0 || len(p.UnprovenSeconds) > 0
}

// Nodes is the states numbered so far (search.Graph).
func (g *walkGraph) Nodes() int { return len(g.states) }

// Expand is v's rounds that end nothing, in transition order; an
// exhausted state has none (search.Graph).
func (g *walkGraph) Expand(v int32) []search.Edge {
	s := g.states[v]
	var out []search.Edge
	if !s.cursor.Exhausted {
		for t := tRounds; t < nTransitions; t++ {
			n, end, ok := g.w.walkRound(s, t)
			switch {
			case !ok:
			case end:
				g.ends++
			default:
				out = append(out, search.Edge{To: g.intern(n), Label: int32(t)})
			}
		}
	}
	if len(out) > 0 {
		g.inProgress++
	}
	g.edges += int64(len(out))
	return out
}

// lasso names the search's lasso as transitions, after the root's trace.
func (g *walkGraph) lasso(path []int, l *search.Lasso) *WalkLasso {
	labels := func(hs []search.Hop) []int {
		out := make([]int, 0, len(hs))
		for _, h := range hs {
			out = append(out, int(h.Edge.Label))
		}
		return out
	}
	loop := labels(l.Loop)
	return &WalkLasso{Universe: g.w.U, Prefix: slices.Clone(path), Approach: labels(l.Approach), Loop: loop,
		Detail: fmt.Sprintf("a loop of %d rounds returns to cursor %s without sealing it or reporting a failure", len(loop), g.states[l.Loop[0].From].cursor)}
}

// ReplayLasso re-runs a lasso under rules: the prefix as any actions, then
// the approach and the loop as rounds that end nothing on states not
// exhausted; the loop must return to its first state. It returns the
// rendering, and an error naming the first step that does not hold.
func ReplayLasso(l *WalkLasso, rules *Rules) (string, error) {
	w, err := NewWorld(l.Universe, rules, ReportGate)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "walk that never ends: rules %s\n%s\n", rules.Name, l.Detail)
	s := initial()
	for i, t := range l.Prefix {
		n, _, ok := w.step(s, t)
		if !ok {
			return b.String(), fmt.Errorf("prefix step %d: %s is not enabled", i+1, describe(actionOf(t)))
		}
		s = n
		fmt.Fprintf(&b, "prefix %d: %s\n", i+1, describe(actionOf(t)))
	}
	fmt.Fprintf(&b, "root:\n%s\n", s)
	var start state
	for i, t := range append(slices.Clone(l.Approach), l.Loop...) {
		part := "approach"
		if i >= len(l.Approach) {
			part = "loop"
		}
		if i == len(l.Approach) {
			start = s
		}
		if s.cursor.Exhausted {
			return b.String(), fmt.Errorf("%s step %d: the cursor is exhausted, the walk has ended", part, i+1)
		}
		n, end, ok := w.walkRound(s, t)
		switch {
		case !ok:
			return b.String(), fmt.Errorf("%s step %d: %s is not a round the walk runs on its own", part, i+1, describe(actionOf(t)))
		case end:
			return b.String(), fmt.Errorf("%s step %d: %s ends the walk", part, i+1, describe(actionOf(t)))
		}
		s = n
		fmt.Fprintf(&b, "%s %d: %s\n%s\n", part, i+1, describe(actionOf(t)), s)
	}
	if len(l.Loop) == 0 || key(s) != key(start) {
		return b.String(), fmt.Errorf("the loop does not return to its first state")
	}
	b.WriteString("the loop returns to its first state\n")
	return b.String(), nil
}
