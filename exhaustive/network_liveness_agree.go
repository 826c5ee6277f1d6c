package exhaustive

import (
	"fmt"
	"slices"

	"github.com/nip-rs/harness/model"
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
// that many. Tarjan's algorithm then runs over the system steps of every
// node (its roots in node order) and judges each component.

// InvOverrideReaches is what an agreement witness violates: a fair path of
// system steps on which the upgraded devices do not come to agree.
const InvOverrideReaches = "override-reaches-every-device"

// AgreementResult is the outcome of Agreement.
type AgreementResult struct {
	Universe string
	Rules    string
	// Depth is the bound on user actions.
	Depth  int
	Status Status
	// States are the graph's nodes; SystemEdges and UserEdges its steps.
	States      int
	SystemEdges int64
	UserEdges   int64
	// Pending is the nodes where the upgraded devices do not agree (an
	// override on its way, or lost); Settled the nodes with no system step
	// enabled, and SettledApart those of them that do not agree.
	Pending      int
	Settled      int
	SettledApart int
	// Components is the strongly connected components of system steps
	// holding a cycle; Fair how many of them admit a fair path, and
	// FairPending how many fair ones hold a node that does not agree.
	Components  int
	Fair        int
	FairPending int
	BoundHit    string
	// Witness is the first violation: the fewest user actions, then node
	// order.
	Witness *AgreementWitness
}

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
	sys     []liveEdge
	users   int64
	agreeOf []int8 // 0 unknown, 1 agrees, 2 does not
	max     int    // the state bound
}

// liveEdge is one system step of the agreement graph.
type liveEdge struct {
	to int32
	t  int32 // the network transition
}

// hop is one edge of the agreement graph with its source.
type hop struct {
	from int32
	e    liveEdge
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
					g.sys = append(g.sys, liveEdge{to: to, t: int32(t)})
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

// Agreement runs the eventual-agreement check on a network universe:
// cfg.Depth bounds the user actions (0: the universe's depth).
func Agreement(cfg LivenessConfig) (*AgreementResult, error) {
	u := cfg.Universe
	if u.Network == nil {
		return nil, fmt.Errorf("universe %q has no network: the agreement check needs one", u.Name)
	}
	if cfg.Depth == 0 {
		cfg.Depth = u.Depth
	}
	if cfg.Depth < 0 {
		return nil, fmt.Errorf("depth %d is negative", cfg.Depth)
	}
	if cfg.Rules == nil {
		cfg.Rules = model.Proposed()
	}
	if cfg.MaxStates <= 0 {
		cfg.MaxStates = DefaultLivenessStates
	}
	wd, _, err := newWorld(&u, cfg.Rules, cfg.Depth, false)
	if err != nil {
		return nil, err
	}
	g := &agreeGraph{liveGraph: newLiveGraph(wd.(*netWorld), cfg.MaxStates), depth: cfg.Depth, max: cfg.MaxStates}
	res := &AgreementResult{Universe: u.Name, Rules: cfg.Rules.Name, Depth: cfg.Depth}
	complete := g.build()
	res.States, res.SystemEdges, res.UserEdges = g.Nodes(), int64(len(g.sys)), g.users
	if !complete {
		res.Status, res.BoundHit = StatusUnknown, fmt.Sprintf("agreement graph over %d states", cfg.MaxStates)
		return res, nil
	}
	for v := range int32(g.Nodes()) {
		if g.apart(v) {
			res.Pending++
		}
		if g.lo[v] == g.hi[v] {
			res.Settled++
			if g.apart(v) {
				res.SettledApart++
			}
		}
	}
	g.judgeAll(res)
	switch {
	case res.Witness != nil:
		res.Status = StatusViolation
	case res.Pending == 0 || res.Settled == 0:
		// Non-vacuity: no override was ever on its way, or nothing ever
		// settled, so nothing was tested.
		return res, fmt.Errorf("universe %q: agreement premise never met (%d states, %d not agreeing, %d settled)", u.Name, res.States, res.Pending, res.Settled)
	default:
		res.Status = StatusOK
	}
	return res, nil
}

// judgeAll runs Tarjan's walk over the system steps from every node in
// node order, judging each component, and builds the witness of the first
// violation by (user actions spent, node order).
func (g *agreeGraph) judgeAll(res *AgreementResult) {
	n := int32(g.Nodes())
	order, low := make([]int32, n), make([]int32, n)
	comp := make([]int32, n)
	on := make([]bool, n)
	for i := range order {
		order[i], comp[i] = -1, -1
	}
	var counter, comps int32
	type fr struct{ v, e int32 }
	best := int32(-1)
	var bestMembers []int32
	consider := func(v int32, members []int32) {
		if best < 0 || g.cost[v] < g.cost[best] || (g.cost[v] == g.cost[best] && v < best) {
			best, bestMembers = v, members
		}
	}
	for r := range n {
		if order[r] >= 0 {
			continue
		}
		var calls []fr
		var stack []int32
		visit := func(v int32) {
			order[v], low[v] = counter, counter
			counter++
			stack = append(stack, v)
			on[v] = true
			calls = append(calls, fr{v, g.lo[v]})
		}
		visit(r)
		for len(calls) > 0 {
			f := &calls[len(calls)-1]
			if f.e < g.hi[f.v] {
				to := g.sys[f.e].to
				f.e++
				switch {
				case order[to] < 0:
					visit(to)
				case on[to]:
					low[f.v] = min(low[f.v], order[to])
				}
				continue
			}
			v := f.v
			calls = calls[:len(calls)-1]
			if len(calls) > 0 {
				p := calls[len(calls)-1].v
				low[p] = min(low[p], low[v])
			}
			if low[v] != order[v] {
				continue
			}
			at := slices.Index(stack, v)
			members := slices.Clone(stack[at:])
			stack = stack[:at]
			for _, m := range members {
				on[m] = false
				comp[m] = comps
			}
			comps++
			slices.Sort(members)
			if at, ok := g.judgeComponent(members, comp, res); ok {
				consider(at, members)
			}
		}
	}
	if best >= 0 {
		res.Witness = g.agreeWitness(best, bestMembers, comp)
	}
}

// judgeComponent classifies one component; it returns a node that does
// not agree when the component is a violation: a settled node apart, or
// a fair cycle holding one (its first such node).
func (g *agreeGraph) judgeComponent(members, comp []int32, res *AgreementResult) (int32, bool) {
	cyclic := len(members) > 1
	for _, m := range members {
		for _, e := range g.sys[g.lo[m]:g.hi[m]] {
			if comp[e.to] == comp[m] {
				cyclic = true
			}
		}
	}
	if !cyclic {
		m := members[0]
		return m, g.lo[m] == g.hi[m] && g.apart(m)
	}
	res.Components++
	if !g.fair(members, comp) {
		return 0, false
	}
	res.Fair++
	for _, m := range members {
		if g.apart(m) {
			res.FairPending++
			return m, true
		}
	}
	return 0, false
}

// fairAction is a delivery (ch, msg) or a device's publication (ch -1,
// msg the device).
type fairAction = delivery

// enabled is the fair actions enabled in node v: its deliveries, and the
// publications of the devices whose trigger fires there (its publish
// edges).
func (g *agreeGraph) enabled(v int32) []fairAction {
	out := g.inFlight(g.node(v))
	for _, e := range g.sys[g.lo[v]:g.hi[v]] {
		if x := g.w.decode(int(e.t)); x.kind == KindPublish {
			out = append(out, fairAction{-1, int32(x.dev)})
		}
	}
	slices.SortFunc(out, cmpDelivery)
	return out
}

// takes is the fair action edge e of node v takes, if any.
func (g *agreeGraph) takes(v int32, e liveEdge) (fairAction, bool) {
	if x := g.w.decode(int(e.t)); x.kind == KindPublish {
		return fairAction{-1, int32(x.dev)}, true
	}
	return g.taken(g.node(v), e.t)
}

// fair reports whether every fair action enabled in all the component's
// nodes is taken by one of its steps.
func (g *agreeGraph) fair(members, comp []int32) bool {
	var cont []fairAction
	tk := map[fairAction]bool{}
	for k, m := range members {
		en := g.enabled(m)
		if k == 0 {
			cont = en
		} else {
			cont = slices.DeleteFunc(cont, func(a fairAction) bool { _, ok := slices.BinarySearchFunc(en, a, cmpDelivery); return !ok })
		}
		for _, e := range g.sys[g.lo[m]:g.hi[m]] {
			if comp[e.to] != comp[m] {
				continue
			}
			if a, ok := g.takes(m, e); ok {
				tk[a] = true
			}
		}
	}
	return !slices.ContainsFunc(cont, func(a fairAction) bool { return !tk[a] })
}
