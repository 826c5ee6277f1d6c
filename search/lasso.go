package search

import (
	"slices"
)

// The fair-cycle search the liveness checks share. A liveness property
// "eventually Q" (or "not infinitely often P") fails exactly when a
// reachable graph of the steps that keep it unmet holds a cycle that the
// fairness assumption does not excuse; a witness is a lasso, a path to the
// cycle and the cycle itself.
//
// The caller owns its states: it numbers them densely from 0 as it meets
// them and gives their successors once per node (Graph). The search walks
// the graph from each root in turn with Tarjan's algorithm (iterative,
// edges in the order given) and judges every strongly connected component
// as it is popped:
//
//   - it holds a cycle when it has more than one node or an edge back to
//     its one node;
//   - under weak fairness (Fairness), it is unfair when some action is
//     enabled in every one of its nodes and taken by none of its inner
//     edges: every cycle inside it then leaves that action enabled forever
//     untaken, and when no such action exists a closed walk through all of
//     its nodes and edges is a fair cycle;
//   - a fair one is a violation when it has an accepting edge (Accepting;
//     without it, every edge accepts), since the closed walk can take it;
//   - a node with no edges at all ends every path through it: it is a
//     violation when the property judges a path that stops there (Stuck),
//     as "eventually always Q" does of a path stopped where Q fails.
//
// The actions of weak fairness are whatever the caller names by int64 ids:
// one delivery of one message on one channel, say, or one device's
// publication whenever its trigger fires, or both side by side; an action
// counts as enabled at a node only where the caller says so, so an action
// that is enabled only where its step is an edge is fair to name too.
//
// Of several violations the search keeps the first found, or the one the
// caller prefers (Prefer: fewest user actions to reach, say); its lasso's
// loop is either routed only where fairness needs it (the default) or a
// tour of the whole component (Tour).
//
// The search is one worker and follows a fixed order, so its counts and
// its lasso depend only on the graph and the order of the roots.

// Edge is one step of a graph: the node it leads to and the caller's label
// (its transition).
type Edge struct{ To, Label int32 }

// Hop is an edge with the node it leaves.
type Hop struct {
	From int32
	Edge Edge
}

// Graph is a finite directed graph whose nodes the caller numbers densely
// from 0 as it meets them.
type Graph interface {
	// Nodes is how many nodes are numbered so far.
	Nodes() int
	// Expand is node v's edges in a fixed order, numbering the nodes they
	// reach; it is called once per node.
	Expand(v int32) []Edge
}

// Fairness is weak fairness on a set of actions named by int64 ids: a cycle
// counts only if every action enabled in all its nodes is taken by one of
// its edges.
type Fairness interface {
	// Enabled is the actions enabled at node v, ascending.
	Enabled(v int32) []int64
	// Taken is the action edge e from node v takes, if any.
	Taken(v int32, e Edge) (int64, bool)
}

// CycleConfig is what a fair-cycle search looks for.
type CycleConfig struct {
	// Fairness nil: every cycle is fair.
	Fairness Fairness
	// Accepting is whether an edge is one a violating cycle must take (a
	// publication, say); nil: every edge is.
	Accepting func(from int32, e Edge) bool
	// Stuck is whether a path that stops at node v, which has no edges,
	// violates the property; nil: none does.
	Stuck func(v int32) bool
	// Prefer is whether the violation anchored at node a is kept over the
	// one anchored at b (a lasso's anchor is where its approach ends: the
	// loop's first node, or the node a stuck path stops at); nil keeps the
	// first found.
	Prefer func(a, b int32) bool
	// Tour makes a loop a tour of its component: from the anchor through
	// every node of the component in node order, then through the first
	// inner edge that takes each action enabled in all of them (ascending),
	// and through the first accepting edge if it took none. Without it the
	// loop takes the first accepting edge and is routed through the rest
	// of the component only where fairness needs it.
	Tour bool
	// MaxNodes stops the search once more nodes are numbered; 0: no bound.
	MaxNodes int
}

// CycleCounts is what a search examined: strongly connected components
// popped, those holding a cycle, and of those how many fairness excused
// (with an accepting edge among them) and how many it did not (with one:
// the violations); and the nodes with no edges (Stuck), of which Stuck
// judged StuckViolations a violation.
type CycleCounts struct {
	Components      int
	Cyclic          int
	Unfair          int
	UnfairAccepting int
	Fair            int
	Violations      int
	Stuck           int
	StuckViolations int
}

// Lasso is a violation: from the root the search started at, Approach
// leads to its anchor, the loop's first node, and Loop returns to it, fair,
// taking an accepting edge; or, for a path that stops (Stuck), Approach
// leads to the node without edges and Loop is empty.
type Lasso struct {
	Root     int32
	Approach []Hop
	Loop     []Hop
}

// Anchor is the node where the approach ends.
func (l *Lasso) Anchor() int32 {
	if len(l.Approach) == 0 {
		return l.Root
	}
	return l.Approach[len(l.Approach)-1].Edge.To
}

// Cycles is one fair-cycle search over a graph, run from any number of
// roots; nodes judged from one root are not walked again from another.
type Cycles struct {
	g   Graph
	cfg CycleConfig
	// per node: its edges are edges[adjLo[v]:adjHi[v]] once expanded.
	adjLo, adjHi []int32
	order, low   []int32 // Tarjan's discovery index (-1: not yet) and low link
	comp         []int32 // component id once popped, else -1
	onStack      []bool
	edges        []Edge
	counter      int32
	comps        int32
	// kept is the violation the lasso is built from once From returns.
	kept *violation
	// Counts so far, and the lasso of the violation kept (the first, or
	// the one Prefer chose).
	Counts CycleCounts
	Lasso  *Lasso
	// Bound is set once the graph outgrew MaxNodes.
	Bound bool
}

// NewCycles starts a search over g.
func NewCycles(g Graph, cfg CycleConfig) *Cycles { return &Cycles{g: g, cfg: cfg} }

// Edges is node v's edges once it was expanded (nil before).
func (c *Cycles) Edges(v int32) []Edge {
	if int(v) >= len(c.adjLo) || c.adjLo[v] < 0 {
		return nil
	}
	return c.edges[c.adjLo[v]:c.adjHi[v]]
}

// grow sizes the per-node arrays to the nodes numbered so far.
func (c *Cycles) grow() {
	for len(c.order) < c.g.Nodes() {
		c.adjLo, c.adjHi = append(c.adjLo, -1), append(c.adjHi, -1)
		c.order, c.low = append(c.order, -1), append(c.low, -1)
		c.comp, c.onStack = append(c.comp, -1), append(c.onStack, false)
	}
	if c.cfg.MaxNodes > 0 && c.g.Nodes() > c.cfg.MaxNodes {
		c.Bound = true
	}
}

type cycleFrame struct{ v, next int32 }

// From runs Tarjan's walk from root (a node the caller has numbered),
// judging every component it pops; false once the node bound is hit.
func (c *Cycles) From(root int32) bool {
	c.grow()
	if c.order[root] >= 0 {
		return !c.Bound
	}
	var calls []cycleFrame
	var stack []int32
	visit := func(v int32) {
		c.order[v], c.low[v] = c.counter, c.counter
		c.counter++
		stack = append(stack, v)
		c.onStack[v] = true
		lo := int32(len(c.edges))
		c.edges = append(c.edges, c.g.Expand(v)...)
		c.grow()
		c.adjLo[v], c.adjHi[v] = lo, int32(len(c.edges))
		calls = append(calls, cycleFrame{v, lo})
	}
	visit(root)
	defer c.build()
	for len(calls) > 0 && !c.Bound {
		f := &calls[len(calls)-1]
		if f.next < c.adjHi[f.v] {
			to := c.edges[f.next].To
			f.next++
			switch {
			case c.order[to] < 0:
				visit(to)
			case c.onStack[to]:
				c.low[f.v] = min(c.low[f.v], c.order[to])
			}
			continue
		}
		v := f.v
		calls = calls[:len(calls)-1]
		if len(calls) > 0 {
			p := calls[len(calls)-1].v
			c.low[p] = min(c.low[p], c.low[v])
		}
		if c.low[v] != c.order[v] {
			continue
		}
		at := slices.Index(stack, v)
		members := slices.Clone(stack[at:])
		stack = stack[:at]
		for _, m := range members {
			c.onStack[m] = false
			c.comp[m] = c.comps
		}
		c.comps++
		c.judge(root, v, members, calls)
	}
	return !c.Bound
}

// inside is v's edges that stay in its component.
func (c *Cycles) inside(v int32) []Edge {
	var out []Edge
	for _, e := range c.Edges(v) {
		if c.comp[e.To] == c.comp[v] {
			out = append(out, e)
		}
	}
	return out
}

func (c *Cycles) accepting(from int32, e Edge) bool {
	return c.cfg.Accepting == nil || c.cfg.Accepting(from, e)
}

// unsettled is the first action enabled at every node of nodes and taken
// by none of hops, if any (never without fairness).
func (c *Cycles) unsettled(nodes []int32, hops []Hop) (int64, bool) {
	fa := c.cfg.Fairness
	if fa == nil {
		return 0, false
	}
	var cont []int64
	for k, v := range nodes {
		en := fa.Enabled(v)
		if k == 0 {
			cont = slices.Clone(en)
			continue
		}
		cont = slices.DeleteFunc(cont, func(a int64) bool { _, ok := slices.BinarySearch(en, a); return !ok })
	}
	taken := map[int64]bool{}
	for _, h := range hops {
		if a, ok := fa.Taken(h.From, h.Edge); ok {
			taken[a] = true
		}
	}
	i := slices.IndexFunc(cont, func(a int64) bool { return !taken[a] })
	if i < 0 {
		return 0, false
	}
	return cont[i], true
}

// violation is one the search keeps until From returns, when its lasso
// is built: its component, the lasso's start, and the edge its loop must
// take (From < 0: none, a stuck path).
type violation struct {
	lasso   Lasso
	members []int32
	start   Hop
}

// judge classifies the component of members, just popped with root v, and
// keeps the violation it holds if it is the first or the one preferred.
func (c *Cycles) judge(root, v int32, members []int32, calls []cycleFrame) {
	c.Counts.Components++
	slices.Sort(members)
	var hops []Hop
	start := Hop{From: -1}
	for _, m := range members {
		for _, e := range c.inside(m) {
			hops = append(hops, Hop{m, e})
			if start.From < 0 && c.accepting(m, e) {
				start = Hop{m, e}
			}
		}
	}
	if len(hops) == 0 {
		if c.adjLo[v] == c.adjHi[v] {
			c.Counts.Stuck++
			if c.cfg.Stuck != nil && c.cfg.Stuck(v) {
				c.Counts.StuckViolations++
				c.keep(root, v, calls, nil, start)
			}
		}
		return
	}
	c.Counts.Cyclic++
	if _, unfair := c.unsettled(members, hops); unfair {
		c.Counts.Unfair++
		if start.From >= 0 {
			c.Counts.UnfairAccepting++
		}
		return
	}
	c.Counts.Fair++
	if start.From < 0 {
		return
	}
	c.Counts.Violations++
	c.keep(root, v, calls, members, start)
}

// keep records a violation of the component members (nil: node v stuck)
// unless the one kept is preferred to it.
func (c *Cycles) keep(root, v int32, calls []cycleFrame, members []int32, start Hop) {
	anchor := v
	if members != nil && c.cfg.Accepting != nil {
		anchor = start.From
	}
	if c.kept != nil || c.Lasso != nil {
		kept := c.Lasso
		if c.kept != nil {
			kept = &c.kept.lasso
		}
		if c.cfg.Prefer == nil || !c.cfg.Prefer(anchor, kept.Anchor()) {
			return
		}
	}
	k := &violation{lasso: Lasso{Root: root}, members: members, start: start}
	for _, f := range calls {
		k.lasso.Approach = append(k.lasso.Approach, Hop{f.v, c.edges[f.next-1]})
	}
	// The anchor is the component's root (the walk enters there) without
	// an accepting rule, else the first accepting edge's node, reached
	// inside the component.
	if members != nil && c.cfg.Accepting != nil {
		k.lasso.Approach = append(k.lasso.Approach, c.path(v, start.From)...)
	}
	c.kept = k
}
