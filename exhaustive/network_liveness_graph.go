package exhaustive

import (
	"cmp"
	"encoding/binary"
	"slices"

	"github.com/nip-rs/harness/model"
	"github.com/nip-rs/harness/search"
)

// The product graph both liveness checks walk: a universe state with, per
// device, the entries of its last publication, and the system steps
// between such nodes (network_liveness.go says why).

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
// and, for weak fairness, the deliveries enabled and taken. The agreement
// check's graph (agreeGraph) uses its nodes, trigger and steps.
type liveGraph struct {
	w         *netWorld
	c         *cache
	tl        *search.Tally
	cy        *search.Cycles // the no-re-publish-cycle check's search
	width     int            // row words, then one last-publication id per device
	index     map[string]int32
	nodes     []int32
	edgeCount int64
	lastIdx   map[string]int32
	lastEnt   [][]model.Entry // id 0: no last publication known
	trig      map[[3]int32]int32
	pubs      int64
	premise   int
	max       int // the state bound
	scratch   []int32
	keyBuf    []byte
}

func newLiveGraph(w *netWorld, max int) *liveGraph {
	g := &liveGraph{w: w, c: w.e.newCache(), tl: w.scratch(), width: w.Width() + w.n, max: max,
		index: map[string]int32{}, lastIdx: map[string]int32{"": 0}, lastEnt: [][]model.Entry{nil},
		trig: map[[3]int32]int32{}, scratch: make([]int32, w.Width()+w.n)}
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
func (g *liveGraph) Enabled(v int32) []int64 { return g.enabledAt(g.node(v)) }

// enabledAt is the deliveries enabled in state s, ascending.
func (g *liveGraph) enabledAt(s []int32) []int64 {
	fl := g.inFlight(s)
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
