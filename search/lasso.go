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
//     without it, every edge accepts), since the closed walk can take it.
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
	// MaxNodes stops the search once more nodes are numbered; 0: no bound.
	MaxNodes int
}

// CycleCounts is what a search examined: strongly connected components
// popped, those holding a cycle, and of those how many fairness excused
// (with an accepting edge among them) and how many it did not (with one:
// the violations).
type CycleCounts struct {
	Components      int
	Cyclic          int
	Unfair          int
	UnfairAccepting int
	Fair            int
	Violations      int
}

// Lasso is a violation: from the root the search started at, Approach
// leads to the loop's first node and Loop returns to it, fair, taking an
// accepting edge.
type Lasso struct {
	Root     int32
	Approach []Hop
	Loop     []Hop
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
	// Counts so far, and the first violation's lasso.
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

// judge classifies the component of members, just popped with root v, and
// builds the lasso of the first violation.
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
	if c.Lasso != nil {
		return
	}
	l := &Lasso{Root: root}
	for _, f := range calls {
		l.Approach = append(l.Approach, Hop{f.v, c.edges[f.next-1]})
	}
	// Without an accepting rule the loop starts at the component's root
	// (the walk enters there) as its shortest cycle; with one, at the
	// first accepting edge, reached inside the component.
	var wps []waypoint
	if c.cfg.Accepting == nil {
		start.From = v
		for _, h := range c.shortestCycle(v) {
			wps = append(wps, waypoint{take: h})
		}
	} else {
		l.Approach = append(l.Approach, c.path(v, start.From)...)
		wps = []waypoint{{take: start}}
	}
	l.Loop = c.fairLoop(members, start.From, wps)
	c.Lasso = l
}

// path is the shortest walk inside from's component from node from to
// node to (the first found in edge order).
func (c *Cycles) path(from, to int32) []Hop {
	if from == to {
		return nil
	}
	prev := map[int32]Hop{from: {From: -1}}
	queue := []int32{from}
	for len(queue) > 0 {
		v := queue[0]
		queue = queue[1:]
		for _, e := range c.inside(v) {
			if _, seen := prev[e.To]; seen {
				continue
			}
			prev[e.To] = Hop{v, e}
			if e.To == to {
				var out []Hop
				for x := to; x != from; x = prev[x].From {
					out = append(out, prev[x])
				}
				slices.Reverse(out)
				return out
			}
			queue = append(queue, e.To)
		}
	}
	panic("search: a component is not strongly connected") // Tarjan's walk made it
}

// shortestCycle is the shortest cycle through v inside its component
// (breadth first, edges in order).
func (c *Cycles) shortestCycle(v int32) []Hop {
	prev := map[int32]Hop{}
	queue := []int32{v}
	for len(queue) > 0 {
		x := queue[0]
		queue = queue[1:]
		for _, e := range c.inside(x) {
			if e.To == v {
				out := []Hop{{x, e}}
				for y := x; y != v; y = prev[y].From {
					out = append(out, prev[y])
				}
				slices.Reverse(out)
				return out
			}
			if _, ok := prev[e.To]; !ok {
				prev[e.To] = Hop{x, e}
				queue = append(queue, e.To)
			}
		}
	}
	panic("search: a cyclic component has no cycle through its root") // judge checked it
}

// waypoint is an edge the loop must take (take.From >= 0) or a node it
// must pass through.
type waypoint struct {
	take Hop
	node int32
}

// walk is a closed walk from start through every waypoint, in order.
func (c *Cycles) walk(start int32, wps []waypoint) []Hop {
	var out []Hop
	cur := start
	for _, wp := range wps {
		if wp.take.From >= 0 {
			out = append(out, c.path(cur, wp.take.From)...)
			out = append(out, wp.take)
			cur = wp.take.Edge.To
			continue
		}
		out = append(out, c.path(cur, wp.node)...)
		cur = wp.node
	}
	return append(out, c.path(cur, start)...)
}

// fairLoop closes the waypoints into a loop from start and, while some
// action is enabled in every node of the loop and taken on none of its
// steps, routes it through a node of the component where that action is
// disabled, or else takes it (the component is fair, so one of the two
// exists). Each round settles one action for good, so it ends.
func (c *Cycles) fairLoop(members []int32, start int32, wps []waypoint) []Hop {
	for {
		loop := c.walk(start, wps)
		nodes := make([]int32, len(loop))
		for k, h := range loop {
			nodes[k] = h.From
		}
		a, open := c.unsettled(nodes, loop)
		if !open {
			return loop
		}
		wps = append(wps, c.settle(members, a))
	}
}

// settle is the waypoint that settles action a in a fair component: a
// node where it is disabled, or else an edge that takes it.
func (c *Cycles) settle(members []int32, a int64) waypoint {
	fa := c.cfg.Fairness
	for _, m := range members {
		if _, ok := slices.BinarySearch(fa.Enabled(m), a); !ok {
			return waypoint{take: Hop{From: -1}, node: m}
		}
	}
	for _, m := range members {
		for _, e := range c.inside(m) {
			if t, ok := fa.Taken(m, e); ok && t == a {
				return waypoint{take: Hop{m, e}}
			}
		}
	}
	panic("search: a fair component leaves an action unsettled") // judge checked it
}
