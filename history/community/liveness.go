package community

import (
	"fmt"
	"slices"

	"github.com/nip-rs/harness/search"
)

// The liveness checks of the community universes: properties of the form
// "from every state the universe reaches, once what the environment does
// has stopped, the member's own steps reach a state where nothing is
// pending", under weak fairness on some of those steps.
//
// The graph: its roots are every state the universe reaches within its
// depth bound (the engine's states, all actions); its edges are the
// member's steps (Property.System) from a state where something is pending
// (Property.Pending) to another such state. A step that leaves nothing
// pending is counted and not followed: the property is met there. So every
// cycle of the graph is an execution where something stays pending
// forever; it violates the property when it is fair: every action of
// Property.Fair enabled in all its states is taken on it. The search is
// search.Cycles (one worker, roots in trace order, edges in action order).

// Property is one liveness property of a universe.
type Property struct {
	// Name names the property in checks and witnesses.
	Name string
	Doc  string
	// Universe is the universe the property is checked in.
	Universe func() *Universe
	// System are the member's own steps: the graph's edges.
	System []Action
	// Fair are the steps under weak fairness (a subset of System).
	Fair []Action
	// Pending is the premise: something the member must still do.
	Pending func(r *Rules, s State) bool
	// What says what a cycle leaves pending, for a witness.
	What func(s State) string
	// Triggers are the environment's steps that give the member something
	// to do (a rotation delivered), and Armed says from which states one
	// counts (a plane change matters only while a live REQ is installed):
	// the transitions counted are the premise the check must meet.
	Triggers []Action
	Armed    func(s State) bool
}

// LivenessResult is one run of a property's check.
type LivenessResult struct {
	Property string
	Universe string
	Rules    string
	Status   search.Status
	// Roots is the states the universe reaches within its depth bound;
	// Triggered the triggering transitions from them (the premise: the
	// environment gave the member something to do, and this many times);
	// Pending the graph's states (each with something pending: the
	// premise); Edges its steps; Met the steps that leave nothing pending.
	Roots     int
	Triggered int
	Pending   int
	Edges     int64
	Met       int64
	// Counts is what the fair-cycle search examined (cycles, fair or not).
	Counts  search.CycleCounts
	Witness *Lasso
}

// Lasso is a violation: the actions from the initial state to a root, the
// member's steps to the loop, and the loop's steps back to its first state.
type Lasso struct {
	Property string
	Rules    string
	Prefix   []Action
	Approach []Action
	Loop     []Action
	Detail   string
}

// rootPath is a reached state with its actions from the initial state.
type rootPath struct {
	state State
	path  []Action
}

// reachedRoots is every state u reaches within its depth bound under r,
// each once, with its first path: the graph's roots. They are the engine's
// (package search, through the same world the safety checks explore), so
// the liveness checks and the safety checks enumerate one state space;
// the store keeps them in generation order (breadth first, then by parent
// and action), which does not depend on the number of workers, so neither
// do the figures nor the lasso.
func reachedRoots(u *Universe, r *Rules) ([]rootPath, error) {
	w := newWorld(u, r, nil)
	run, err := search.Explore[struct{}](w, search.Config{Depth: u.Depth})
	if err != nil {
		return nil, fmt.Errorf("liveness: the roots of universe %s: %w", u.Name, err)
	}
	defer run.Store.Free()
	if run.BoundHit != "" {
		return nil, fmt.Errorf("liveness: the roots of universe %s are unknown: %s", u.Name, run.BoundHit)
	}
	out := make([]rootPath, run.Store.Len())
	row := make([]int32, 1)
	for i := range out {
		run.Store.RowInto(i, row)
		out[i].state = w.state(row[0])
		// A parent is stored before its children: its path is built.
		if p := run.Store.Parent(int32(i)); p >= 0 {
			out[i].path = append(slices.Clone(out[p].path), u.Actions[run.Store.Trans(int32(i))])
		}
	}
	return out, nil
}

// propGraph is the graph of a property, numbered as search.Cycles
// reaches it.
type propGraph struct {
	p      *Property
	u      *Universe
	r      *Rules
	index  map[string]int32
	states []State
	edges  int64
	met    int64
}

func (g *propGraph) intern(s State) int32 {
	k := s.Key()
	if v, ok := g.index[k]; ok {
		return v
	}
	v := int32(len(g.states))
	g.index[k] = v
	g.states = append(g.states, s)
	return v
}

// Nodes is the states numbered so far (search.Graph).
func (g *propGraph) Nodes() int { return len(g.states) }

// Expand is the member's steps from v that leave something pending, in
// action order (search.Graph); an edge's label is the action's index in
// System.
func (g *propGraph) Expand(v int32) []search.Edge {
	var out []search.Edge
	for i, a := range g.p.System {
		next, ok, _ := g.u.Step(g.r, g.states[v], a)
		switch {
		case !ok:
		case !g.p.Pending(g.r, next):
			g.met++
		default:
			out = append(out, search.Edge{To: g.intern(next), Label: int32(i)})
		}
	}
	g.edges += int64(len(out))
	return out
}

// Enabled is the fair actions enabled at v, by index in Fair
// (search.Fairness).
func (g *propGraph) Enabled(v int32) []int64 {
	var out []int64
	for i, a := range g.p.Fair {
		if _, ok, _ := g.u.Step(g.r, g.states[v], a); ok {
			out = append(out, int64(i))
		}
	}
	return out
}

// Taken is the fair action edge e takes, if it is one (search.Fairness).
func (g *propGraph) Taken(_ int32, e search.Edge) (int64, bool) {
	i := slices.Index(g.p.Fair, g.p.System[e.Label])
	return int64(i), i >= 0
}

// CheckLiveness runs property p under rules. It fails loudly when no
// state the universe reaches has anything pending: nothing was tested.
func CheckLiveness(p *Property, rules *Rules) (*LivenessResult, error) {
	u := p.Universe()
	g := &propGraph{p: p, u: u, r: rules, index: map[string]int32{}}
	cy := search.NewCycles(g, search.CycleConfig{Fairness: g})
	roots, err := reachedRoots(u, rules)
	if err != nil {
		return nil, err
	}
	res := &LivenessResult{Property: p.Name, Universe: u.Name, Rules: rules.Name, Roots: len(roots)}
	for _, rt := range roots {
		for _, a := range p.Triggers {
			if _, ok, _ := u.Step(rules, rt.state, a); ok && (p.Armed == nil || p.Armed(rt.state)) {
				res.Triggered++
			}
		}
		if !p.Pending(rules, rt.state) {
			continue
		}
		had := cy.Lasso != nil
		cy.From(g.intern(rt.state))
		if l := cy.Lasso; !had && l != nil {
			res.Witness = g.lasso(rt.path, l)
		}
	}
	res.Pending, res.Edges, res.Met, res.Counts = len(g.states), g.edges, g.met, cy.Counts
	switch {
	case res.Witness != nil:
		res.Status = search.StatusViolation
	case res.Triggered == 0:
		return res, fmt.Errorf("liveness %s: no state of universe %s gives the member anything to do under %s (%d states): nothing was tested", p.Name, u.Name, rules.Name, res.Roots)
	default:
		res.Status = search.StatusOK
	}
	return res, nil
}

// lasso names the search's lasso as actions.
func (g *propGraph) lasso(path []Action, l *search.Lasso) *Lasso {
	acts := func(hs []search.Hop) []Action {
		out := make([]Action, 0, len(hs))
		for _, h := range hs {
			out = append(out, g.p.System[h.Edge.Label])
		}
		return out
	}
	loop := acts(l.Loop)
	return &Lasso{Property: g.p.Name, Rules: g.r.Name, Prefix: slices.Clone(path), Approach: acts(l.Approach), Loop: loop,
		Detail: fmt.Sprintf("a fair loop of %d member steps leaves %s", len(loop), g.p.What(g.states[l.Loop[0].From]))}
}
