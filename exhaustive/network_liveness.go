package exhaustive

import (
	"cmp"
	"fmt"

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

// LivenessConfig is one run of a liveness check.
type LivenessConfig struct {
	Universe Universe
	// Property is the property checked: InvNoRepublishCycle (this file;
	// also when empty) or InvOverrideReaches (network_liveness_agree.go).
	Property string
	// Depth bounds the roots' traces, or the agreement check's user
	// actions; 0 takes the universe's default.
	Depth int
	// Rules decide every step; nil means model.Proposed().
	Rules *model.Rules
	// Workers expand the root search in parallel; 0 means GOMAXPROCS. The
	// graph itself is walked by one worker, so the result and its witness
	// are the same at any count.
	Workers int
	// MaxStates bounds the graph's nodes (0: DefaultLivenessStates); past
	// it the run is unknown.
	MaxStates int
}

// DefaultLivenessStates bounds the product graph when the config does not.
const DefaultLivenessStates = 1 << 21

// LivenessResult is the outcome of a liveness check, either property.
type LivenessResult struct {
	// Property is the property checked.
	Property string
	Universe string
	Rules    string
	Depth    int
	Status   Status
	// States and Edges are the graph's nodes and the system steps between
	// them: the graph the fair-cycle search walked.
	States int
	Edges  int64
	// Cycles is what the fair-cycle search judged: the components holding
	// a cycle, fair or not, with an accepting edge or not (a triggered
	// publication; a node where the devices do not agree), and the nodes
	// where no system step is enabled.
	Cycles   search.CycleCounts
	BoundHit string
	// Witness is the violation kept: for no re-publish cycle the first
	// found (roots in order of trace length, then trace; transitions in
	// index order), for agreement the one with the fewest user actions,
	// then node order.
	Witness *LivenessWitness

	// The no-re-publish-cycle check's premise: Roots is the number of
	// universe states the root search reached; Publications the
	// triggered-publication edges, and Premise the states with a message
	// in flight and a triggered publication enabled.
	Roots        int
	Publications int64
	Premise      int

	// The agreement check's: UserEdges are the graph's user actions, and
	// Pending the nodes where the upgraded devices do not agree (an
	// override on its way, or lost).
	UserEdges int64
	Pending   int
}

// Liveness runs the liveness check cfg.Property names on a network
// universe: the run's setup, the property's graph walked by the shared
// fair-cycle search (search.Cycles), and the verdict. A run that never met
// its premise returns its result with an error: nothing was tested.
func Liveness(cfg LivenessConfig) (*LivenessResult, error) {
	u := cfg.Universe
	cfg.Property = cmp.Or(cfg.Property, InvNoRepublishCycle)
	check, ok := livenessChecks[cfg.Property]
	if !ok {
		return nil, fmt.Errorf("no liveness property %q (want %s or %s)", cfg.Property, InvNoRepublishCycle, InvOverrideReaches)
	}
	if u.Network == nil {
		return nil, fmt.Errorf("universe %q has no network: the %s check needs one", u.Name, check)
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
	res := &LivenessResult{Property: cfg.Property, Universe: u.Name, Rules: cfg.Rules.Name, Depth: cfg.Depth}
	g := newLiveGraph(wd.(*netWorld), cfg.MaxStates)
	if cfg.Property == InvOverrideReaches {
		g.agreement(res, cfg.Depth)
	} else if err := g.republish(res, cfg.Workers); err != nil {
		return nil, fmt.Errorf("universe %q: %w", u.Name, err)
	}
	switch {
	case res.Witness != nil:
		// A witness found before the bound is a violation whatever the
		// graph left unexplored.
		res.Status = StatusViolation
	case res.BoundHit != "":
		res.Status = StatusUnknown
	case !res.premiseMet():
		// Non-vacuity: nothing was tested.
		return res, res.premiseError()
	default:
		res.Status = StatusOK
	}
	return res, nil
}

// Agreement runs the eventual-agreement check (Liveness with property
// InvOverrideReaches): cfg.Depth bounds the user actions.
func Agreement(cfg LivenessConfig) (*LivenessResult, error) {
	cfg.Property = InvOverrideReaches
	return Liveness(cfg)
}

// livenessChecks names the check of each property, as its lines, file
// names and errors say it.
var livenessChecks = map[string]string{InvNoRepublishCycle: "liveness", InvOverrideReaches: "agreement"}

// premiseMet is whether the run tested anything: for no re-publish cycle,
// a state had a message in flight beside a triggered publication; for
// agreement, an override was on its way somewhere and something settled.
func (res *LivenessResult) premiseMet() bool {
	if res.Property == InvOverrideReaches {
		return res.Pending > 0 && res.Cycles.Stuck > 0
	}
	return res.Premise > 0 && res.Publications > 0
}

func (res *LivenessResult) premiseError() error {
	if res.Property == InvOverrideReaches {
		return fmt.Errorf("universe %q: agreement premise never met (%d states, %d not agreeing, %d settled)",
			res.Universe, res.States, res.Pending, res.Cycles.Stuck)
	}
	return fmt.Errorf("universe %q: liveness premise never met (%d states, %d publications, %d with a message in flight and a publication enabled)",
		res.Universe, res.States, res.Publications, res.Premise)
}

// republish is the no-re-publish-cycle check: the safety search's states
// are the roots, each walked by the fair-cycle search with no last
// publication known.
func (g *liveGraph) republish(res *LivenessResult, workers int) error {
	run, err := search.Explore[*cache](g.w, search.Config{Depth: res.Depth, Workers: workers})
	if err != nil {
		return err
	}
	defer run.Store.Free()
	res.Roots = run.Store.Len()
	if run.Status == search.StatusUnknown {
		res.BoundHit = "root search: " + run.BoundHit
		return nil
	}
	// A cycle violates the property when it is fair on deliveries and
	// holds a triggered publication.
	g.cy = search.NewCycles(g, search.CycleConfig{Fairness: g, MaxNodes: g.max,
		Accepting: func(_ int32, e search.Edge) bool { return g.w.decode(int(e.Label)).kind == KindPublish }})
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
	res.Cycles = g.cy.Counts
	res.States, res.Edges, res.Publications, res.Premise = g.Nodes(), g.edgeCount, g.pubs, g.premise
	if g.cy.Bound {
		res.BoundHit = fmt.Sprintf("product graph over %d states", g.max)
	}
	return nil
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
