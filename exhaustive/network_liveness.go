package exhaustive

import (
	"cmp"
	"encoding/binary"
	"fmt"
	"slices"

	"github.com/nip-rs/harness/model"
	"github.com/nip-rs/harness/search"
)

// The liveness check of a network universe: no re-publish cycle without
// user actions (Live Subscription and Convergence, rules 2 and 3: a client
// re-publishes only when its canonical merged result differs from what it
// last published; Eviction: an entry the split drops never triggers a write
// by itself).
//
// The safety search treats publishing as a free transition and does not
// record what a device last published, so the re-publish trigger cannot be
// read off its states. The check therefore works on a product graph whose
// node is a universe state together with, per device, the entries of its
// last publication as the trigger compares them (Rules.Slots.Republish).
// Its edges are the system steps only:
//
//   - deliver, duplicate and drop of a message in flight (the network's
//     own steps, exactly as the safety search applies them);
//   - a triggered publication: the network's publish step of device d,
//     enabled only when d's rules say its canonical result (after the
//     split's evictions, under the universe's budget) must be re-published
//     against its last publication; it records what it published.
//
// User and device actions (mark-unread, mark-read, compact, advance,
// reinstall, rotate) are not system steps: the property is about what the
// protocol does on its own once the user stops.
//
// Roots: every state the safety search reaches within the depth bound
// (symmetry off, so that a root's path is a concrete trace), each with no
// last publication known. Against nothing, the production trigger fires
// exactly when there is something to publish, and every trigger that fires
// against some last publication fires against none, so the roots enable a
// superset of the first publications any history could; after a device's
// first triggered publication its last publication is exact.
//
// Message identity is content (messages are interned by blob and
// knowledge tag) and a channel is a set, so a literal cycle of the graph
// is possible and no abstraction of the states is needed: a device that
// re-publishes what is already in flight, or what a delivery has just
// removed, returns the graph to a state it has been in.
//
// Fairness: weak fairness on deliveries. A delivery action is the delivery
// of one message (by identity) on one channel; it is enabled where that
// message is in flight there. A cycle counts only if every delivery action
// enabled in every state of the cycle is taken on it. Duplicate keeps the
// message and does not count as taking it; drop removes it, so a cycle that
// drops a message is not one on which its delivery was continuously enabled.
// Without fairness a network that duplicates one message forever would be a
// cycle; with it, the cycles left are those the protocol itself sustains.
//
// A strongly connected component of the graph holds a fair cycle with a
// publication exactly when it has a publication edge and every delivery
// action enabled in all its states is taken by one of its edges: a closed
// walk through every state and edge of the component is then such a cycle,
// and if some delivery action is enabled everywhere in the component and
// never taken, every cycle inside it is unfair. So the check is the shared
// fair-cycle search (search.Cycles: Tarjan's
// algorithm, iterative, roots and transitions in a fixed order) with that
// test on each component; a violation is a lasso: the root's trace, the
// system steps to the component, and a fair loop with a publication.

// LivenessConfig is one run of the liveness check.
type LivenessConfig struct {
	Universe Universe
	// Depth bounds the roots' traces; 0 takes the universe's default.
	Depth int
	// Rules decide every step; nil means model.Proposed().
	Rules *model.Rules
	// Workers expand the root search in parallel; 0 means GOMAXPROCS. The
	// graph itself is walked by one worker, so the result and its witness
	// are the same at any count.
	Workers int
	// MaxStates bounds the product graph's nodes (0: DefaultLivenessStates);
	// past it the run is unknown.
	MaxStates int
}

// DefaultLivenessStates bounds the product graph when the config does not.
const DefaultLivenessStates = 1 << 21

// LivenessResult is the outcome of Liveness.
type LivenessResult struct {
	Universe string
	Rules    string
	Depth    int
	Status   Status
	// Roots is the number of universe states the search reached; States
	// and Edges the product graph's nodes and system steps.
	Roots  int
	States int
	Edges  int64
	// Publications is the number of triggered-publication edges, and
	// Premise the number of states with a message in flight and a
	// triggered publication enabled.
	Publications int64
	Premise      int
	// Components is the number of strongly connected components holding a
	// cycle; Unfair how many of them fail weak fairness on deliveries;
	// Fair how many do not; WithPublication how many fair ones contain a
	// publication (each a violation), UnfairWithPublication how many
	// unfair ones do (what fairness excused).
	Components            int
	Unfair                int
	UnfairWithPublication int
	Fair                  int
	WithPublication       int
	BoundHit              string
	// Witness is the first violation found (roots in order of trace
	// length, then trace; transitions in index order).
	Witness *LivenessWitness
}

// Liveness runs the liveness check on a network universe.
func Liveness(cfg LivenessConfig) (*LivenessResult, error) {
	u := cfg.Universe
	if u.Network == nil {
		return nil, fmt.Errorf("universe %q has no network: the liveness check needs one", u.Name)
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
	w := wd.(*netWorld)
	run, err := search.Explore[*cache](w, search.Config{Depth: cfg.Depth, Workers: cfg.Workers})
	if err != nil {
		return nil, fmt.Errorf("universe %q: %w", u.Name, err)
	}
	defer run.Store.Free()
	res := &LivenessResult{Universe: u.Name, Rules: cfg.Rules.Name, Depth: cfg.Depth, Roots: run.Store.Len()}
	if run.Status == search.StatusUnknown {
		res.Status, res.BoundHit = StatusUnknown, "root search: "+run.BoundHit
		return res, nil
	}
	g := newLiveGraph(w, cfg.MaxStates)
	for _, r := range sortedRoots(run.Store) {
		had := g.cy.Lasso != nil
		ok := g.fromRoot(run.Store.Row(int(r.index)))
		if !had && g.cy.Lasso != nil {
			res.Witness = g.witness(r.path, g.cy.Lasso)
		}
		if !ok {
			break
		}
	}
	ct := g.cy.Counts
	res.Components, res.Unfair, res.UnfairWithPublication = ct.Cyclic, ct.Unfair, ct.UnfairAccepting
	res.Fair, res.WithPublication = ct.Fair, ct.Violations
	g.bound = g.cy.Bound
	res.States, res.Edges, res.Publications, res.Premise = len(g.nodes)/g.width, g.edgeCount, g.pubs, g.premise
	if g.bound {
		res.BoundHit = fmt.Sprintf("product graph over %d states", cfg.MaxStates)
	}
	switch {
	case res.WithPublication > 0:
		// A lasso found before the bound is a violation whatever the
		// graph left unexplored.
		res.Status = StatusViolation
	case g.bound:
		res.Status = StatusUnknown
	case res.Premise == 0 || res.Publications == 0:
		// Non-vacuity: no state ever had a message in flight beside a
		// triggered publication, so nothing was tested.
		return res, fmt.Errorf("universe %q: liveness premise never met (%d states, %d publications, %d with a message in flight and a publication enabled)",
			u.Name, res.States, res.Publications, res.Premise)
	default:
		res.Status = StatusOK
	}
	return res, nil
}

// liveRoot is a root with its trace from the initial state.
type liveRoot struct {
	index int32
	path  []int
}

// sortedRoots orders the stored states by trace length, then trace: an
// order the worker count does not change (interned ids may differ).
func sortedRoots(s *search.Store) []liveRoot {
	rs := make([]liveRoot, s.Len())
	for i := range rs {
		rs[i] = liveRoot{int32(i), s.Path(int32(i))}
	}
	slices.SortFunc(rs, func(a, b liveRoot) int {
		return cmp.Or(cmp.Compare(len(a.path), len(b.path)), slices.Compare(a.path, b.path))
	})
	return rs
}

// liveGraph is the product graph, numbered as the fair-cycle search
// (search.Cycles) reaches it: the graph gives the search its system steps
// and, for weak fairness, the deliveries enabled and taken.
type liveGraph struct {
	w         *netWorld
	c         *cache
	tl        *search.Tally
	cy        *search.Cycles
	width     int // row words, then one last-publication id per device
	index     map[string]int32
	nodes     []int32
	edgeCount int64
	lastIdx   map[string]int32
	lastEnt   [][]model.Entry // id 0: no last publication known
	trig      map[[3]int32]int32
	pubs      int64
	premise   int
	bound     bool
	scratch   []int32
	keyBuf    []byte
}

func newLiveGraph(w *netWorld, max int) *liveGraph {
	g := &liveGraph{w: w, c: w.e.newCache(), tl: w.scratch(), width: w.Width() + w.n,
		index: map[string]int32{}, lastIdx: map[string]int32{"": 0}, lastEnt: [][]model.Entry{nil},
		trig: map[[3]int32]int32{}, scratch: make([]int32, w.Width()+w.n)}
	// A cycle violates the property when it is fair on deliveries and
	// holds a triggered publication.
	g.cy = search.NewCycles(g, search.CycleConfig{Fairness: g, MaxNodes: max,
		Accepting: func(_ int32, e search.Edge) bool { return w.decode(int(e.Label)).kind == KindPublish }})
	return g
}

// Nodes is the product states numbered so far (search.Graph).
func (g *liveGraph) Nodes() int { return len(g.nodes) / g.width }

func (g *liveGraph) node(v int32) []int32 { return g.nodes[int(v)*g.width : int(v+1)*g.width] }

// intern returns the node of state s, adding it if new.
func (g *liveGraph) intern(s []int32) (int32, bool) {
	g.keyBuf = g.keyBuf[:0]
	for _, x := range s {
		g.keyBuf = binary.LittleEndian.AppendUint32(g.keyBuf, uint32(x))
	}
	if v, ok := g.index[string(g.keyBuf)]; ok {
		return v, false
	}
	v := int32(g.Nodes())
	g.index[string(g.keyBuf)] = v
	g.nodes = append(g.nodes, s...)
	return v, true
}

// internLast is the id of a last publication's entries.
func (g *liveGraph) internLast(es []model.Entry) int32 {
	k := string(appendEntries(nil, es))
	if len(es) == 0 {
		k = "\x00empty"
	}
	if id, ok := g.lastIdx[k]; ok {
		return id
	}
	id := int32(len(g.lastEnt))
	g.lastIdx[k] = id
	g.lastEnt = append(g.lastEnt, slices.Clone(es))
	return id
}

// trigger is whether device dev, in replica rep with last publication
// last, must re-publish, and the id of what it would then record; -1 when
// it must not (or cannot: a split that fails publishes nothing).
func (g *liveGraph) trigger(dev int, rep, last int32) int32 {
	k := [3]int32{int32(dev), rep, last}
	if r, ok := g.trig[k]; ok {
		return r
	}
	r := g.w.replica(dev, rep)
	cand := r.Candidate()
	published := cand.Contexts
	out := int32(-1)
	ok := true
	if !r.Legacy && g.w.net.Budget != nil {
		sp, err := r.Split(*g.w.net.Budget)
		ok = err == nil
		published = sp.Entries()
	}
	if ok && r.Rules.Slots.Republish(cand.Contexts, published, g.lastEnt[last]) {
		out = g.internLast(published)
	}
	g.trig[k] = out
	return out
}

// step is the system step t from state cur into next, or false when t is
// not a system step enabled there.
func (g *liveGraph) step(cur []int32, t int, next []int32) bool {
	w := g.w
	rw := w.Width()
	x := w.decode(t)
	switch x.kind {
	case KindDeliver, KindDuplicate, KindDrop:
		ok, _ := w.apply(g.c, cur[:rw], t, next[:rw], g.tl)
		copy(next[rw:], cur[rw:])
		return ok
	case KindPublish:
		last := g.trigger(x.dev, cur[x.dev], cur[rw+x.dev])
		if last < 0 {
			return false
		}
		ok, fs := w.apply(g.c, cur[:rw], t, next[:rw], g.tl)
		if !ok || slices.ContainsFunc(fs, func(f finding) bool { return f.Invariant == InvNetPublish }) {
			return false
		}
		copy(next[rw:], cur[rw:])
		next[rw+x.dev] = last
		return true
	}
	return false
}

// Expand is node v's system steps, in transition order (search.Graph).
func (g *liveGraph) Expand(v int32) []search.Edge {
	cur := slices.Clone(g.node(v))
	next := g.scratch
	var out []search.Edge
	var sends, inFlight bool
	for ch := 2 * g.w.n; ch < g.w.Width(); ch++ {
		inFlight = inFlight || len(g.w.t.chans.get(cur[ch])) > 0
	}
	for t := range g.w.Transitions() {
		if !g.step(cur, t, next) {
			continue
		}
		if g.w.decode(t).kind == KindPublish {
			g.pubs++
			sends = true
		}
		to, _ := g.intern(next)
		out = append(out, search.Edge{To: to, Label: int32(t)})
	}
	if sends && inFlight {
		g.premise++
	}
	g.edgeCount += int64(len(out))
	return out
}

// fromRoot runs the fair-cycle search from the root state row (with no
// last publication known); false when the state bound was hit.
func (g *liveGraph) fromRoot(row []int32) bool {
	r, _ := g.intern(append(slices.Clone(row), make([]int32, g.w.n)...))
	return g.cy.From(r)
}

// delivery names the delivery of one message on one channel word.
type delivery struct{ ch, msg int32 }

func cmpDelivery(a, b delivery) int {
	return cmp.Or(cmp.Compare(a.ch, b.ch), cmp.Compare(a.msg, b.msg))
}

// inFlight is the sorted delivery actions enabled in state s.
func (g *liveGraph) inFlight(s []int32) []delivery {
	var out []delivery
	for ch := 2 * g.w.n; ch < g.w.Width(); ch++ {
		for _, m := range g.w.t.chans.get(s[ch]) {
			out = append(out, delivery{int32(ch), m})
		}
	}
	slices.SortFunc(out, cmpDelivery)
	return out
}

// taken is the delivery action transition t from state s takes, if it is
// a delivery.
func (g *liveGraph) taken(s []int32, t int32) (delivery, bool) {
	x := g.w.decode(int(t))
	if x.kind != KindDeliver {
		return delivery{}, false
	}
	ch := g.w.chWord(x.from, x.dev)
	return delivery{int32(ch), g.w.t.chans.get(s[ch])[x.pos]}, true
}

// action is a delivery as the fair-cycle search names it: channel word,
// then message, so the ids order as cmpDelivery does.
func (d delivery) action() int64 { return int64(d.ch)<<32 | int64(uint32(d.msg)) }

// Enabled is the deliveries enabled at node v, ascending (search.Fairness).
func (g *liveGraph) Enabled(v int32) []int64 {
	fl := g.inFlight(g.node(v))
	out := make([]int64, len(fl))
	for i, d := range fl {
		out[i] = d.action()
	}
	return out
}

// Taken is the delivery edge e from node v takes (search.Fairness).
func (g *liveGraph) Taken(v int32, e search.Edge) (int64, bool) {
	d, ok := g.taken(g.node(v), e.Label)
	return d.action(), ok
}

// NetworkPairUniverse is the smallest network universe where the liveness
// check means something: two upgraded devices, one context, one frontier
// value, one message in flight per channel, whole publications. A
// mark-unread or mark-read on either device gives the other something to
// receive and itself something to publish.
func NetworkPairUniverse() Universe {
	return Universe{
		Name:     "network-pair",
		Doc:      "in-flight network, whole publications: 2 upgraded devices, c0, value 10, 1 message per channel",
		Devices:  []DeviceSpec{{ClientID: "d0"}, {ClientID: "d1"}},
		Contexts: []string{"c0"},
		Values:   []uint32{10},
		Depth:    4,
		Network:  &Network{Capacity: 1, Rounds: 4},
	}
}
