package search

import (
	"slices"
	"testing"
)

// adjGraph is a graph given by its adjacency lists; an edge's label is
// its index in its source's list. Nodes are numbered as they are met, so
// the search sees them the way a caller's interning would give them.
type adjGraph struct {
	adj      [][]int
	acts     map[int][]int64  // per node, the fairness actions enabled
	takes    map[[2]int]int64 // (node, edge index) -> the action it takes
	ids      map[int]int32    // adjacency index -> search node
	names    []int            // search node -> adjacency index
	expanded map[int32]bool   // a node expanded twice is a bug of the search
	dup      bool
}

func newAdj(adj [][]int) *adjGraph {
	return &adjGraph{adj: adj, ids: map[int]int32{}, expanded: map[int32]bool{}}
}

func (g *adjGraph) id(x int) int32 {
	if v, ok := g.ids[x]; ok {
		return v
	}
	v := int32(len(g.names))
	g.ids[x] = v
	g.names = append(g.names, x)
	return v
}

func (g *adjGraph) Nodes() int { return len(g.names) }

func (g *adjGraph) Expand(v int32) []Edge {
	if g.expanded[v] {
		g.dup = true
	}
	g.expanded[v] = true
	var out []Edge
	for i, to := range g.adj[g.names[v]] {
		out = append(out, Edge{To: g.id(to), Label: int32(i)})
	}
	return out
}

func (g *adjGraph) Enabled(v int32) []int64 { return g.acts[g.names[v]] }

func (g *adjGraph) Taken(v int32, e Edge) (int64, bool) {
	a, ok := g.takes[[2]int{g.names[v], int(e.Label)}]
	return a, ok
}

// cycleCase is one graph with what the search must find in it.
type cycleCase struct {
	name   string
	adj    [][]int
	acts   map[int][]int64
	takes  map[[2]int]int64
	accept map[[2]int]bool
	fair   bool
	// stuck: the nodes a stopped path violates at; rank: Prefer keeps the
	// lower rank; tour: the loop tours its component.
	stuck map[int]bool
	rank  map[int]int
	tour  bool
	want  CycleCounts
	// anchor is the lasso's anchor (an adjacency index) when set (>= 0
	// with a lasso), and loop its loop's length when set.
	anchor, loop int
}

func cycleCases() []cycleCase {
	return []cycleCase{
		{name: "dag", adj: [][]int{{1, 2}, {2}, {}},
			want: CycleCounts{Components: 3, Stuck: 1}},
		{name: "self-loop", adj: [][]int{{0, 1}, {}},
			want: CycleCounts{Components: 2, Cyclic: 1, Fair: 1, Violations: 1, Stuck: 1}},
		{name: "two-cycle-then-sink", adj: [][]int{{1}, {0, 2}, {}},
			want: CycleCounts{Components: 2, Cyclic: 1, Fair: 1, Violations: 1, Stuck: 1}},
		// A cycle 0-1 where action 7 is enabled throughout and never
		// taken: weak fairness excuses it.
		{name: "unfair", adj: [][]int{{1}, {0, 2}, {}}, fair: true,
			acts:  map[int][]int64{0: {7}, 1: {7}},
			takes: map[[2]int]int64{{1, 1}: 7},
			want:  CycleCounts{Components: 2, Cyclic: 1, Unfair: 1, UnfairAccepting: 1, Stuck: 1}},
		// The same action disabled at node 1: the cycle is fair.
		{name: "fair-disabled", adj: [][]int{{1}, {0, 2}, {}}, fair: true,
			acts:  map[int][]int64{0: {7}},
			takes: map[[2]int]int64{{1, 1}: 7},
			want:  CycleCounts{Components: 2, Cyclic: 1, Fair: 1, Violations: 1, Stuck: 1}},
		// An action enabled throughout and taken inside the component (the
		// edge 2->0), but not on the shortest cycle 0->1->0: the loop must
		// be routed through it.
		{name: "fair-taken-elsewhere", adj: [][]int{{1}, {0, 2}, {0}}, fair: true,
			acts:  map[int][]int64{0: {3}, 1: {3}, 2: {3}},
			takes: map[[2]int]int64{{2, 0}: 3},
			want:  CycleCounts{Components: 1, Cyclic: 1, Fair: 1, Violations: 1}},
		// Only the edge 2->0 accepts: the loop starts there.
		{name: "accepting-edge", adj: [][]int{{1}, {2}, {0}},
			accept: map[[2]int]bool{{2, 0}: true},
			want:   CycleCounts{Components: 1, Cyclic: 1, Fair: 1, Violations: 1}},
		// No edge accepts: a cycle, but no violation.
		{name: "no-accepting-edge", adj: [][]int{{1}, {0}},
			accept: map[[2]int]bool{},
			want:   CycleCounts{Components: 1, Cyclic: 1, Fair: 1}},
		// A path that stops at node 2 violates: a lasso with no loop.
		{name: "stuck", adj: [][]int{{1}, {2}, {}, {}},
			stuck:  map[int]bool{2: true},
			want:   CycleCounts{Components: 4, Stuck: 2, StuckViolations: 1},
			anchor: 2},
		// Stuck at 3 and at 4: the first found is kept without a
		// preference, the preferred one with it.
		{name: "stuck-first", adj: [][]int{{1, 2}, {3}, {4}, {}, {}},
			stuck:  map[int]bool{3: true, 4: true},
			want:   CycleCounts{Components: 5, Stuck: 2, StuckViolations: 2},
			anchor: 3},
		{name: "stuck-preferred", adj: [][]int{{1, 2}, {3}, {4}, {}, {}},
			stuck:  map[int]bool{3: true, 4: true},
			rank:   map[int]int{3: 1, 4: 0},
			want:   CycleCounts{Components: 5, Stuck: 2, StuckViolations: 2},
			anchor: 4},
		// A fair cycle and a stuck node: the preference picks across both
		// kinds of violation.
		{name: "prefer-cycle", adj: [][]int{{1, 3}, {2}, {}, {4}, {3}},
			stuck:  map[int]bool{2: true},
			rank:   map[int]int{2: 5, 3: 1, 4: 2},
			want:   CycleCounts{Components: 4, Cyclic: 1, Fair: 1, Violations: 1, Stuck: 1, StuckViolations: 1},
			anchor: 3, loop: 2},
		// Two deliveries (10, 11) and a publication (-4) enabled
		// throughout a ring 0->1->2->0 with chords; the publication is
		// fair only because its edge 1->0 is taken. The tour passes every
		// node, then takes each continuously enabled action, then returns.
		{name: "tour", adj: [][]int{{1}, {2, 0}, {0}}, fair: true, tour: true,
			acts:   map[int][]int64{0: {-4, 10}, 1: {-4, 10, 11}, 2: {-4, 10}},
			takes:  map[[2]int]int64{{1, 1}: -4, {2, 0}: 10, {0, 0}: 11},
			want:   CycleCounts{Components: 1, Cyclic: 1, Fair: 1, Violations: 1},
			anchor: 0, loop: 8},
		// The same graph without the tour: the shortest fair loop.
		{name: "no-tour", adj: [][]int{{1}, {2, 0}, {0}}, fair: true,
			acts:   map[int][]int64{0: {-4, 10}, 1: {-4, 10, 11}, 2: {-4, 10}},
			takes:  map[[2]int]int64{{1, 1}: -4, {2, 0}: 10, {0, 0}: 11},
			want:   CycleCounts{Components: 1, Cyclic: 1, Fair: 1, Violations: 1},
			anchor: 0, loop: 5},
		// The tour through a component whose only accepting edge is 2->1:
		// the loop starts at node 2 and takes it.
		{name: "tour-accepting", adj: [][]int{{1}, {2}, {1}}, tour: true,
			accept: map[[2]int]bool{{2, 0}: true},
			want:   CycleCounts{Components: 2, Cyclic: 1, Fair: 1, Violations: 1},
			anchor: 2, loop: 2},
	}
}

// TestCyclesTable: the counts of each graph, no node expanded twice, and
// a lasso exactly when there is a violation, which is a real path from the
// root and a real cycle, takes an accepting edge, and is fair.
func TestCyclesTable(t *testing.T) {
	for _, tc := range cycleCases() {
		t.Run(tc.name, func(t *testing.T) {
			g := newAdj(tc.adj)
			g.acts, g.takes = tc.acts, tc.takes
			cfg := CycleConfig{}
			if tc.fair {
				cfg.Fairness = g
			}
			if tc.accept != nil {
				cfg.Accepting = func(from int32, e Edge) bool { return tc.accept[[2]int{g.names[from], int(e.Label)}] }
			}
			if tc.stuck != nil {
				cfg.Stuck = func(v int32) bool { return tc.stuck[g.names[v]] }
			}
			if tc.rank != nil {
				cfg.Prefer = func(a, b int32) bool { return tc.rank[g.names[a]] < tc.rank[g.names[b]] }
			}
			cfg.Tour = tc.tour
			c := NewCycles(g, cfg)
			for x := range tc.adj {
				if !c.From(g.id(x)) {
					t.Fatal("bound hit without a bound")
				}
			}
			if c.Counts != tc.want {
				t.Fatalf("counts %+v, want %+v", c.Counts, tc.want)
			}
			if g.dup {
				t.Fatal("a node was expanded twice")
			}
			if (c.Lasso != nil) != (tc.want.Violations+tc.want.StuckViolations > 0) {
				t.Fatalf("lasso %v with %d violations", c.Lasso != nil, tc.want.Violations)
			}
			if c.Lasso == nil {
				return
			}
			checkLasso(t, g, cfg, c.Lasso)
			if tc.anchor != 0 || tc.loop != 0 {
				if got := g.names[c.Lasso.Anchor()]; got != tc.anchor || (tc.loop != 0 && len(c.Lasso.Loop) != tc.loop) {
					t.Fatalf("anchor %d with a loop of %d, want %d and %d: %+v", got, len(c.Lasso.Loop), tc.anchor, tc.loop, c.Lasso)
				}
			}
		})
	}
}

// checkLasso checks a lasso against the graph itself, not the search.
func checkLasso(t *testing.T, g *adjGraph, cfg CycleConfig, l *Lasso) {
	t.Helper()
	follow := func(part string, at int32, hops []Hop) int32 {
		for k, h := range hops {
			if h.From != at {
				t.Fatalf("%s step %d leaves %d, not %d", part, k, h.From, at)
			}
			x := g.names[h.From]
			if int(h.Edge.Label) >= len(g.adj[x]) || g.id(g.adj[x][h.Edge.Label]) != h.Edge.To {
				t.Fatalf("%s step %d is no edge of the graph", part, k)
			}
			at = h.Edge.To
		}
		return at
	}
	first := follow("approach", l.Root, l.Approach)
	if first != l.Anchor() {
		t.Fatalf("the approach ends at %d, its anchor is %d", first, l.Anchor())
	}
	if len(l.Loop) == 0 {
		// A stopped path: its last node has no edges and the property
		// says a path that stops there violates it.
		if len(g.adj[g.names[first]]) != 0 || cfg.Stuck == nil || !cfg.Stuck(first) {
			t.Fatalf("an empty loop at node %d, which has edges or is no violation", g.names[first])
		}
		return
	}
	if follow("loop", first, l.Loop) != first {
		t.Fatalf("the loop does not return to its first node: %+v", l.Loop)
	}
	if cfg.Accepting != nil && !slices.ContainsFunc(l.Loop, func(h Hop) bool { return cfg.Accepting(h.From, h.Edge) }) {
		t.Fatal("the loop takes no accepting edge")
	}
	if cfg.Fairness == nil {
		return
	}
	cont := slices.Clone(g.Enabled(l.Loop[0].From))
	for _, h := range l.Loop {
		en := g.Enabled(h.From)
		cont = slices.DeleteFunc(cont, func(a int64) bool { return !slices.Contains(en, a) })
	}
	for _, a := range cont {
		if !slices.ContainsFunc(l.Loop, func(h Hop) bool { b, ok := g.Taken(h.From, h.Edge); return ok && b == a }) {
			t.Fatalf("action %d enabled throughout the loop is never taken", a)
		}
	}
}

// TestCyclesRoutesFairLoop: where the shortest cycle leaves an action
// untaken, the loop is routed through the edge that takes it.
func TestCyclesRoutesFairLoop(t *testing.T) {
	g := newAdj([][]int{{1}, {0, 2}, {0}})
	g.acts = map[int][]int64{0: {3}, 1: {3}, 2: {3}}
	g.takes = map[[2]int]int64{{2, 0}: 3}
	c := NewCycles(g, CycleConfig{Fairness: g})
	c.From(g.id(0))
	if c.Lasso == nil || !slices.Contains(c.Lasso.Loop, Hop{g.id(2), Edge{To: g.id(0), Label: 0}}) {
		t.Fatalf("want a loop through the edge 2->0, got %+v", c.Lasso)
	}
	checkLasso(t, g, CycleConfig{Fairness: g}, c.Lasso)
}

// TestCyclesBound: past MaxNodes the search stops and says so.
func TestCyclesBound(t *testing.T) {
	g := newAdj([][]int{{1}, {2}, {3}, {0}})
	c := NewCycles(g, CycleConfig{MaxNodes: 2})
	if c.From(g.id(0)) || !c.Bound {
		t.Fatal("the bound was not reported")
	}
	if c.Lasso != nil {
		t.Fatal("a lasso from a graph cut short")
	}
}

// TestCyclesRootsShareWork: a second root inside a judged graph adds
// nothing, and a lasso names the root it was found from.
func TestCyclesRootsShareWork(t *testing.T) {
	g := newAdj([][]int{{1}, {2}, {1}})
	c := NewCycles(g, CycleConfig{})
	c.From(g.id(0))
	before := c.Counts
	c.From(g.id(2))
	if c.Counts != before || g.dup {
		t.Fatalf("the second root changed the counts: %+v -> %+v", before, c.Counts)
	}
	if c.Lasso == nil || c.Lasso.Root != g.id(0) || len(c.Lasso.Approach) != 1 || len(c.Lasso.Loop) != 2 {
		t.Fatalf("lasso %+v", c.Lasso)
	}
}

// BenchmarkCycles times the search on a ring of rings: 64 cycles of 64
// nodes each, chained, every node with a fair action it takes on its ring.
func BenchmarkCycles(b *testing.B) {
	const n = 64
	adj := make([][]int, n*n)
	for r := range n {
		for k := range n {
			v := r*n + k
			adj[v] = []int{r*n + (k+1)%n}
			if k == 0 && r+1 < n {
				adj[v] = append(adj[v], (r+1)*n)
			}
		}
	}
	for range b.N {
		g := newAdj(adj)
		g.acts = map[int][]int64{}
		g.takes = map[[2]int]int64{}
		for v := range adj {
			g.acts[v] = []int64{int64(v / n)}
			g.takes[[2]int{v, 0}] = int64(v / n)
		}
		c := NewCycles(g, CycleConfig{Fairness: g})
		c.From(g.id(0))
		if c.Counts.Violations != n {
			b.Fatalf("counts %+v", c.Counts)
		}
	}
}
