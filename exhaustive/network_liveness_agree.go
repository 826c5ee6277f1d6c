package exhaustive

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/nip-rs/harness/search"
)

// The eventual-agreement check of a network universe: an override set on
// one device reaches every upgraded device, under fair delivery, once the
// user stops acting (Live Subscription and Convergence: merge, then
// re-publish when the canonical result differs from the last publication;
// "this drives convergence ... assuming eventual relay reachability and
// event retention").
//
// The graph. A node is a universe state together with, per device, the
// entries of its last publication as the re-publish trigger compares them
// (the node of the no-republish-cycle check, network_liveness.go), but
// here the last publication is exact from the start: the initial state
// has published nothing (the text: a client that has never published
// treats its last publication as empty), and every publication is a
// triggered one (Rules.Slots.Republish against the last publication,
// after the split's evictions). Its steps are
//
//   - user actions: mark-unread, mark-read, compact and advance, at most
//     Depth of them on any path (the bound); reinstall and rotation are
//     left out, since a new installation learns the others' state by its
//     full-state load, which this graph does not model, and is no device
//     that "keeps acting";
//   - system steps: a triggered publication, and the delivery and
//     duplication of a message in flight. Drops are left out: the text
//     assumes event retention, so a publication the relay accepted is
//     eventually delivered (a drop in the safety search is a write the
//     sender retries, which the trigger does not schedule).
//
// Agreement holds in a node when, for every override context, every
// upgraded device shows it live or every upgraded device shows it not
// live. The property is that every fair path eventually agrees for good
// (F G agreement): since user actions are bounded, every infinite path
// ends in system steps only, so it fails exactly when, from some node the
// bounded user actions reach, a fair path of system steps either ends in
// a node that does not agree (no system step is enabled there: the
// devices have settled apart), or stays for ever in a strongly connected
// component of system steps that holds a node that does not agree.
//
// Fairness is weak fairness on each delivery action (one message by
// identity on one channel, as network_liveness.go defines it) and on each
// device's triggered publication: a component admits a fair path that
// visits all its nodes exactly when every such action enabled in all its
// nodes is taken by one of its steps (the argument of network_liveness.go).
// Both are what the text assumes of a client and a relay: a client does
// re-publish what its trigger says is new, and a retained event does
// reach a subscriber.
//
// The graph is built breadth first by user actions spent (system steps
// cost nothing, user actions one), so each node is expanded once, at the
// fewest user actions that reach it, and its witness prefix is a path with
// that many. The shared fair-cycle search (search.Cycles) then walks the
// system steps from every node in node order: a node where the devices do
// not agree makes its component's edges accepting, and a path stopped
// there a violation (Stuck); of the violations it keeps the one with the
// fewest user actions, then the first node (Prefer), and its loop tours
// the component (Tour): through every node, then through each fair action
// enabled throughout.

// InvOverrideReaches is what an agreement witness violates: a fair path of
// system steps on which the upgraded devices do not come to agree.
const InvOverrideReaches = "override-reaches-every-device"

// userKind reports whether a transition kind is a user action of the
// graph.
func userKind(k Kind) bool {
	return k == KindMarkUnread || k == KindMarkRead || k == KindCompact || k == KindAdvance
}

// agreeGraph is the graph, beside the product graph's interning and
// trigger (liveGraph), which it uses for nodes and system steps.
type agreeGraph struct {
	*liveGraph
	depth   int
	cost    []int32 // user actions spent on the shortest path; -1 unseen
	parent  []int32
	ptrans  []int32
	lo, hi  []int32 // system edges of node v: sys[lo[v]:hi[v]]
	sys     []search.Edge
	users   int64
	agreeOf []int8 // 0 unknown, 1 agrees, 2 does not
}

func (g *agreeGraph) grow() {
	for len(g.cost) < g.Nodes() {
		g.cost, g.parent, g.ptrans = append(g.cost, -1), append(g.parent, -1), append(g.ptrans, -1)
		g.lo, g.hi, g.agreeOf = append(g.lo, -1), append(g.hi, -1), append(g.agreeOf, 0)
	}
}

// agrees reports whether every upgraded device shows every override
// context alike in node v; otherwise the first context and the devices
// that differ.
func (g *agreeGraph) agrees(v int32) (bool, string) {
	s := g.node(v)
	for _, c := range g.w.ov {
		first := -1
		for d := range g.w.n {
			r := g.w.replica(d, s[d])
			if r.Legacy {
				continue
			}
			if first < 0 {
				first = d
				continue
			}
			if a, b := g.w.replica(first, s[first]).Live(c), r.Live(c); a != b {
				return false, fmt.Sprintf("%s is %s on d%d and %s on d%d", c, verdict(a), first, verdict(b), d)
			}
		}
	}
	return true, ""
}

func (g *agreeGraph) apart(v int32) bool {
	if g.agreeOf[v] == 0 {
		g.agreeOf[v] = 1
		if ok, _ := g.agrees(v); !ok {
			g.agreeOf[v] = 2
		}
	}
	return g.agreeOf[v] == 2
}

// userStep is user action t from cur into next (the last publications
// unchanged), or false when t is no user action enabled there.
func (g *agreeGraph) userStep(cur []int32, t int, next []int32) bool {
	rw := g.w.Width()
	if !userKind(g.w.decode(t).kind) {
		return false
	}
	ok, _ := g.w.apply(g.c, cur[:rw], t, next[:rw], g.tl)
	copy(next[rw:], cur[rw:])
	return ok
}

// sysStep is system step t (no drop) from cur into next.
func (g *agreeGraph) sysStep(cur []int32, t int, next []int32) bool {
	switch g.w.decode(t).kind {
	case KindDeliver, KindDuplicate, KindPublish:
		return g.step(cur, t, next)
	}
	return false
}

// build explores the graph from the initial state; false when the state
// bound was hit.
func (g *agreeGraph) build() bool {
	s := append(g.w.initialRaw(g.c), make([]int32, g.w.n)...)
	root, _ := g.intern(s)
	g.grow()
	g.cost[root] = 0
	level := []int32{root}
	next := make([]int32, g.width)
	for k := 0; len(level) > 0; k++ {
		var later []int32
		for i := 0; i < len(level); i++ {
			v := level[i]
			if g.lo[v] >= 0 || g.cost[v] != int32(k) {
				continue
			}
			cur := slices.Clone(g.node(v))
			g.lo[v] = int32(len(g.sys))
			for t := range g.w.Transitions() {
				switch {
				case g.sysStep(cur, t, next):
					to, _ := g.intern(next)
					g.grow()
					g.sys = append(g.sys, search.Edge{To: to, Label: int32(t)})
					if g.cost[to] < 0 || g.cost[to] > int32(k) {
						g.cost[to], g.parent[to], g.ptrans[to] = int32(k), v, int32(t)
						level = append(level, to)
					}
				case k < g.depth && g.userStep(cur, t, next):
					to, _ := g.intern(next)
					g.grow()
					g.users++
					if g.cost[to] < 0 {
						g.cost[to], g.parent[to], g.ptrans[to] = int32(k+1), v, int32(t)
						later = append(later, to)
					}
				}
				if g.Nodes() > g.max {
					return false
				}
			}
			g.hi[v] = int32(len(g.sys))
		}
		level = later
	}
	return true
}

// agreement is the eventual-agreement check: the graph built from the
// initial state, then judged by the fair-cycle search.
func (lg *liveGraph) agreement(res *LivenessResult, depth int) {
	g := &agreeGraph{liveGraph: lg, depth: depth}
	complete := g.build()
	res.States, res.Edges, res.UserEdges = g.Nodes(), int64(len(g.sys)), g.users
	if !complete {
		res.BoundHit = fmt.Sprintf("agreement graph over %d states", g.max)
		return
	}
	for v := range int32(g.Nodes()) {
		if g.apart(v) {
			res.Pending++
		}
	}
	cy := search.NewCycles(g, search.CycleConfig{Fairness: g, Stuck: g.apart, Tour: true,
		Accepting: func(from int32, _ search.Edge) bool { return g.apart(from) },
		Prefer:    func(a, b int32) bool { return cmp.Or(cmp.Compare(g.cost[a], g.cost[b]), cmp.Compare(a, b)) < 0 }})
	for v := range int32(g.Nodes()) {
		cy.From(v)
	}
	res.Cycles = cy.Counts
	if cy.Lasso != nil {
		res.Witness = g.agreeWitness(cy.Lasso)
	}
}

// Expand is node v's system steps, built already (search.Graph).
func (g *agreeGraph) Expand(v int32) []search.Edge { return g.sys[g.lo[v]:g.hi[v]] }

// publishAction is the fair action of device dev's triggered publication:
// channel word -1, below every delivery.
func publishAction(dev int) delivery { return delivery{-1, int32(dev)} }

// Enabled is the fair actions enabled at node v, ascending
// (search.Fairness): its deliveries, and the publications of the devices
// whose trigger fires there (its publish edges).
func (g *agreeGraph) Enabled(v int32) []int64 {
	out := g.liveGraph.Enabled(v)
	for _, e := range g.Expand(v) {
		if x := g.w.decode(int(e.Label)); x.kind == KindPublish {
			out = append(out, publishAction(x.dev).action())
		}
	}
	slices.Sort(out)
	return out
}

// Taken is the fair action edge e of node v takes, if any
// (search.Fairness).
func (g *agreeGraph) Taken(v int32, e search.Edge) (int64, bool) {
	if x := g.w.decode(int(e.Label)); x.kind == KindPublish {
		return publishAction(x.dev).action(), true
	}
	return g.liveGraph.Taken(v, e)
}
