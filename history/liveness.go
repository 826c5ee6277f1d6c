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
	for _, r := range roots {
		g.fromRoot(decode(r.row), r.path, res)
	}
	res.States, res.Edges, res.Ends, res.InProgress = len(g.states), int64(len(g.edges)), g.ends, g.inProgress
	switch {
	case res.Cyclic > 0:
		res.Status = search.StatusViolation
	case res.InProgress == 0:
		// Non-vacuity: no state had a walk in progress, nothing was tested.
		return res, fmt.Errorf("universe %q: no state has a walk in progress (%d states)", name, res.States)
	}
	return res, nil
}

type walkEdge struct {
	to int32
	t  int32
}

// walkGraph is the graph of rounds that end nothing, built as Tarjan's
// walk reaches it.
type walkGraph struct {
	w            *World
	index        map[[width]int32]int32
	states       []state
	adjLo, adjHi []int32
	order, low   []int32
	onStack      []bool
	comp         []int32
	edges        []walkEdge
	ends         int64
	inProgress   int
	counter      int32
	comps        int32
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
	g.adjLo, g.adjHi = append(g.adjLo, -1), append(g.adjHi, -1)
	g.order, g.low = append(g.order, -1), append(g.low, -1)
	g.onStack, g.comp = append(g.onStack, false), append(g.comp, -1)
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

// expand adds v's rounds that end nothing, in transition order; an
// exhausted state has none.
func (g *walkGraph) expand(v int32) {
	s := g.states[v]
	lo := int32(len(g.edges))
	if !s.cursor.Exhausted {
		for t := tRounds; t < nTransitions; t++ {
			n, end, ok := g.w.walkRound(s, t)
			switch {
			case !ok:
			case end:
				g.ends++
			default:
				g.edges = append(g.edges, walkEdge{to: g.intern(n), t: int32(t)})
			}
		}
	}
	if int32(len(g.edges)) > lo {
		g.inProgress++
	}
	g.adjLo[v], g.adjHi[v] = lo, int32(len(g.edges))
}

type walkFrame struct{ v, next int32 }

// fromRoot is Tarjan's walk (iterative) from root s.
func (g *walkGraph) fromRoot(s state, path []int, res *LivenessResult) {
	r := g.intern(s)
	if g.order[r] >= 0 {
		return
	}
	var calls []walkFrame
	var stack []int32
	visit := func(v int32) {
		g.order[v], g.low[v] = g.counter, g.counter
		g.counter++
		stack = append(stack, v)
		g.onStack[v] = true
		g.expand(v)
		calls = append(calls, walkFrame{v, g.adjLo[v]})
	}
	visit(r)
	for len(calls) > 0 {
		f := &calls[len(calls)-1]
		if f.next < g.adjHi[f.v] {
			to := g.edges[f.next].to
			f.next++
			switch {
			case g.order[to] < 0:
				visit(to)
			case g.onStack[to]:
				g.low[f.v] = min(g.low[f.v], g.order[to])
			}
			continue
		}
		v := f.v
		calls = calls[:len(calls)-1]
		if len(calls) > 0 {
			p := calls[len(calls)-1].v
			g.low[p] = min(g.low[p], g.low[v])
		}
		if g.low[v] != g.order[v] {
			continue
		}
		at := slices.Index(stack, v)
		members := slices.Clone(stack[at:])
		stack = stack[:at]
		for _, m := range members {
			g.onStack[m] = false
			g.comp[m] = g.comps
		}
		g.comps++
		res.Components++
		if !g.cyclic(members) {
			continue
		}
		res.Cyclic++
		if res.Witness == nil {
			approach := make([]int, 0, len(calls))
			for _, c := range calls {
				approach = append(approach, int(g.edges[c.next-1].t))
			}
			loop := g.loop(v)
			res.Witness = &WalkLasso{Universe: g.w.U, Prefix: slices.Clone(path), Approach: approach, Loop: loop,
				Detail: fmt.Sprintf("a loop of %d rounds returns to cursor %s without sealing it or reporting a failure", len(loop), g.states[v].cursor)}
		}
	}
}

// cyclic reports whether a component holds a cycle: more than one state,
// or a round back to its one state.
func (g *walkGraph) cyclic(members []int32) bool {
	if len(members) > 1 {
		return true
	}
	v := members[0]
	return slices.ContainsFunc(g.edges[g.adjLo[v]:g.adjHi[v]], func(e walkEdge) bool { return e.to == v })
}

// loop is the shortest cycle of rounds through v inside its component
// (breadth first, edges in transition order).
func (g *walkGraph) loop(v int32) []int {
	type via struct {
		from int32
		t    int32
	}
	seen := map[int32]via{}
	queue := []int32{v}
	for len(queue) > 0 {
		x := queue[0]
		queue = queue[1:]
		for _, e := range g.edges[g.adjLo[x]:g.adjHi[x]] {
			if g.comp[e.to] != g.comp[v] {
				continue
			}
			if e.to == v {
				out := []int{int(e.t)}
				for y := x; y != v; y = seen[y].from {
					out = append(out, int(seen[y].t))
				}
				slices.Reverse(out)
				return out
			}
			if _, ok := seen[e.to]; !ok {
				seen[e.to] = via{x, e.t}
				queue = append(queue, e.to)
			}
		}
	}
	return nil // unreachable for a cyclic component
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
