package search

import "slices"

// The loop of a lasso: built once a walk from a root is over, inside the
// kept violation's component, whose nodes the walk has numbered and whose
// edges it has expanded.

// build makes the kept violation's loop: its lasso's loop waits until the
// walk is over, since a preferred violation may replace it before then.
func (c *Cycles) build() {
	k := c.kept
	if k == nil {
		return
	}
	c.kept = nil
	l := &k.lasso
	switch {
	case k.members == nil:
	case c.cfg.Tour:
		l.Loop = c.tour(k.members, l.Anchor(), k.start)
	case c.cfg.Accepting == nil:
		// Without an accepting rule the loop starts as the shortest cycle
		// through the anchor.
		var wps []waypoint
		for _, h := range c.shortestCycle(l.Anchor()) {
			wps = append(wps, waypoint{take: h})
		}
		l.Loop = c.fairLoop(k.members, l.Anchor(), wps)
	default:
		l.Loop = c.fairLoop(k.members, l.Anchor(), []waypoint{{take: k.start}})
	}
	c.Lasso = l
}

// tour is a closed walk from start through every node of members, then
// through the first inner edge that takes each action enabled at all of
// them, and through the accepting edge acc if none of its steps accepts:
// fair, since every other action is disabled at some node it passes.
func (c *Cycles) tour(members []int32, start int32, acc Hop) []Hop {
	var wps []waypoint
	for _, m := range members {
		wps = append(wps, waypoint{take: Hop{From: -1}, node: m})
	}
	if fa := c.cfg.Fairness; fa != nil {
		cont := slices.Clone(fa.Enabled(members[0]))
		for _, m := range members[1:] {
			en := fa.Enabled(m)
			cont = slices.DeleteFunc(cont, func(a int64) bool { _, ok := slices.BinarySearch(en, a); return !ok })
		}
		for _, a := range cont {
			wps = append(wps, c.taker(members, a))
		}
	}
	loop := c.walk(start, wps)
	if !slices.ContainsFunc(loop, func(h Hop) bool { return c.accepting(h.From, h.Edge) }) {
		loop = c.walk(start, append(wps, waypoint{take: acc}))
	}
	return loop
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
	return c.taker(members, a)
}

// taker is the waypoint of the first inner edge of members that takes
// action a, which a fair component holds for an action enabled at all of
// its nodes.
func (c *Cycles) taker(members []int32, a int64) waypoint {
	for _, m := range members {
		for _, e := range c.inside(m) {
			if t, ok := c.cfg.Fairness.Taken(m, e); ok && t == a {
				return waypoint{take: Hop{m, e}}
			}
		}
	}
	panic("search: a fair component leaves an action unsettled") // judge checked it
}
