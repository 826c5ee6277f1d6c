package exhaustive

import (
	"fmt"
	"slices"
	"strings"

	"github.com/nip-rs/harness/model"
	"github.com/nip-rs/harness/search"
	"github.com/nip-rs/harness/witnessfile"
)

// KindObservation is the witness kind of a reached observation: the
// shortest trace from the initial state to a state the observation holds
// on (its invariant field names the observation).
const KindObservation = "observation"

// ObserveConfig is one search for an observation.
type ObserveConfig struct {
	Universe    Universe
	Observation Observation
	// Depth bounds the traces; 0 takes the universe's default.
	Depth int
	// Rules decide every step; nil means model.Proposed().
	Rules *model.Rules
	// Workers expand each level in parallel; 0 means GOMAXPROCS.
	Workers int
	// MaxStates stops the search, unknown, past this many states (0: no
	// limit).
	MaxStates int
	// NoSymmetry turns off the reduction by the universe's symmetries.
	NoSymmetry bool
}

// ObserveResult is what a search for an observation found.
type ObserveResult struct {
	Universe    string
	Observation string
	Rules       string
	Tie         model.TiePolicy
	Depth       int
	// Distinct is the states the search stored.
	Distinct int
	// Witness is the shortest trace to a state the observation holds on
	// (smallest by transition order among the shortest); nil when none
	// was found.
	Witness *witnessfile.Witness
	// BoundHit is set when the state bound stopped the search before the
	// depth bound and nothing was found: the answer is unknown.
	BoundHit string
}

// Outcome is the result in words: reached, not reached within the
// bounds, or unknown (never "impossible": the bounds are the universe's).
func (r *ObserveResult) Outcome() string {
	switch {
	case r.Witness != nil:
		return "reached"
	case r.BoundHit != "":
		return "unknown"
	}
	return "not reached within the bounds"
}

// observeWorld is a world whose only check is the observation: its safety
// checks are not run (a run under a mutant still looks for the situation,
// not for violations), and every state is checked, not only those at the
// bound.
type observeWorld struct {
	world
	obs   Observation
	table []search.Invariant
}

func (o *observeWorld) Invariants() []search.Invariant { return o.table }

func (o *observeWorld) Successor(c *cache, cur []int32, t int, next []int32, tl *search.Tally) (bool, []search.Finding) {
	ok, _ := o.world.Successor(c, cur, t, next, tl)
	return ok, nil
}

func (o *observeWorld) Check(c *cache, row []int32, _ *search.Tally) []search.Finding {
	if d, ok := o.obs.Holds(observedState(o.world, c, row)); ok {
		return []search.Finding{{Inv: 0, Detail: d}}
	}
	return nil
}

// Quiesce forwards the inner world's (search.Quiescer): embedding an
// interface does not carry it.
func (o *observeWorld) Quiesce() {
	if q, ok := o.world.(search.Quiescer); ok {
		q.Quiesce()
	}
}

// observedState is the state of row as an observation sees it.
func observedState(w world, c *cache, row []int32) *ObservedState {
	switch w := w.(type) {
	case *netWorld:
		s := &ObservedState{Universe: w.u}
		for d := range w.n {
			s.Replicas = append(s.Replicas, c.rep(d, row[d]))
		}
		s.InFlight = w.observe(row).InFlight
		return s
	case *refWorld:
		s := &ObservedState{Universe: w.u}
		for d := range w.u.Devices {
			s.Replicas = append(s.Replicas, c.rep(d, row[d]))
		}
		return s
	}
	panic("exhaustive: a world observations do not know") // newWorld builds only the two
}

// applies reports an observation not built for universe u.
func (o Observation) applies(u string) error {
	if !slices.Contains(o.Universes, u) {
		return fmt.Errorf("observation %s is not defined on universe %s (it is on %s)", o.Name, u, strings.Join(o.Universes, ", "))
	}
	return nil
}

// ObservationUniverse resolves a universe an observation can name: one
// of the catalogue's, or one built for the liveness check.
func ObservationUniverse(cat *Catalog, name string) (Universe, error) {
	u, err := LivenessUniverse(cat, name)
	if err == nil {
		return u, nil
	}
	return cat.Universe(name)
}

// Observe searches universe u breadth first for a state the observation
// holds on, stopping at the first depth where one is found.
func Observe(cfg ObserveConfig) (*ObserveResult, error) {
	u := cfg.Universe
	if err := cfg.Observation.applies(u.Name); err != nil {
		return nil, err
	}
	if cfg.Depth == 0 {
		cfg.Depth = u.Depth
	}
	if cfg.Depth < 0 || cfg.Depth > witnessfile.MaxDepth {
		return nil, fmt.Errorf("depth %d: want 0 to %d", cfg.Depth, witnessfile.MaxDepth)
	}
	if cfg.Rules == nil {
		cfg.Rules = model.Proposed()
	}
	inner, _, err := newWorld(&u, cfg.Rules, cfg.Depth, !cfg.NoSymmetry)
	if err != nil {
		return nil, err
	}
	ow := &observeWorld{world: inner, obs: cfg.Observation, table: []search.Invariant{{ID: cfg.Observation.Name, Label: "O",
		Doc: cfg.Observation.Doc, Unit: unitStates, Section: "observation"}}}
	run, err := search.Explore[*cache](ow, search.Config{Depth: cfg.Depth, Workers: cfg.Workers, MaxStates: cfg.MaxStates, StopAtFirst: true})
	if err != nil {
		return nil, fmt.Errorf("universe %q: %w", u.Name, err)
	}
	defer run.Store.Free()
	res := &ObserveResult{Universe: u.Name, Observation: cfg.Observation.Name, Rules: cfg.Rules.Name, Tie: cfg.Rules.Tie,
		Depth: cfg.Depth, Distinct: run.Distinct}
	h := run.Tally.Best()
	if h == nil {
		if run.Status == search.StatusUnknown {
			res.BoundHit = run.BoundHit
		}
		return res, nil
	}
	actions, err := concreteTrace(inner, run, *h)
	if err != nil {
		return nil, err
	}
	// The detail is recomputed on the concrete last state, as a replay
	// computes it: the stored state may be another member of its orbit.
	states, err := observeActions(&u, cfg.Rules, actions)
	if err != nil {
		return nil, fmt.Errorf("the shortest trace does not run concretely: %w", err)
	}
	detail, ok := cfg.Observation.Holds(states[len(states)-1])
	if !ok {
		return nil, fmt.Errorf("observation %s holds on a stored state but not on its concrete trace's last state: its predicate tells interchangeable devices or contexts apart", cfg.Observation.Name)
	}
	res.Witness = &witnessfile.Witness{Kind: KindObservation, Universe: u.Name, Depth: cfg.Depth, Tie: cfg.Rules.Tie.String(),
		Rules: cfg.Rules.Name, Invariant: cfg.Observation.Name, Detail: detail}
	for _, a := range actions {
		res.Witness.Actions = append(res.Witness.Actions, a.toFile())
	}
	return res, nil
}

// concreteTrace is the concrete trace of a state check's hit: its stored
// path, and in a network world with symmetry the smallest transition at
// each step whose successor has the stored representative as its
// canonical form (as netWorld.witness follows it).
func concreteTrace(inner world, run *search.Run, h search.Hit) ([]Action, error) {
	var nodes []int32
	for i := h.Parent; i >= 0; i = run.Store.Parent(i) {
		nodes = append(nodes, i)
	}
	slices.Reverse(nodes)
	switch w := inner.(type) {
	case *refWorld:
		var path []int
		if h.Parent >= 0 {
			path = run.Store.Path(h.Parent)
		}
		if h.Trans >= 0 {
			path = append(path, h.Trans)
		}
		tr, err := runTrace(w.u, w.e.rules, path)
		if err != nil {
			return nil, err
		}
		return tr.actions, nil
	case *netWorld:
		c := w.e.newCache()
		cur := w.initialRaw(c)
		next := make([]int32, len(cur))
		var actions []Action
		step := func(target []int32) {
			t, _ := w.matchStep(c, cur, target, "")
			actions = append(actions, w.action(cur, t))
			w.apply(c, cur, t, next, w.scratch())
			copy(cur, next)
		}
		for k := 1; k < len(nodes); k++ {
			step(run.Store.Row(int(nodes[k])))
		}
		if h.Trans >= 0 {
			parent := run.Store.Row(int(h.Parent))
			target := make([]int32, len(parent))
			w.successor(c, parent, h.Trans, target, w.scratch())
			step(target)
		}
		return actions, nil
	}
	return nil, fmt.Errorf("a world observations do not know")
}

// observeActions runs actions concretely (symmetry off) from the initial
// state of u under rules and returns every state, the initial one first.
func observeActions(u *Universe, rules *model.Rules, actions []Action) ([]*ObservedState, error) {
	wo, _, err := newWorld(u, rules, witnessfile.MaxDepth, false)
	if err != nil {
		return nil, err
	}
	c := wo.NewWorker()
	cur := wo.Initial(c)
	next := make([]int32, len(cur))
	states := []*ObservedState{observedState(wo, c, cur)}
	tl := search.NewTally(len(wo.Invariants()))
	for k, a := range actions {
		t, err := resolveIn(wo, c, cur, a)
		if err != nil {
			return states, fmt.Errorf("step %d: %w", k+1, err)
		}
		if ok, _ := wo.Successor(c, cur, t, next, tl); !ok {
			return states, fmt.Errorf("step %d: %s is not enabled", k+1, a)
		}
		copy(cur, next)
		states = append(states, observedState(wo, c, cur))
	}
	return states, nil
}

// resolveIn is the transition action a names in row cur of world wo.
func resolveIn(wo world, c *cache, cur []int32, a Action) (int, error) {
	switch w := wo.(type) {
	case *netWorld:
		return w.resolve(cur, a)
	case *refWorld:
		reps := make([]*model.Replica, len(cur))
		for d := range cur {
			reps[d] = c.rep(d, cur[d]).Clone()
		}
		return w.u.resolve(reps, a)
	}
	return 0, fmt.Errorf("a world observations do not know")
}

// observationFile is an observation witness as its file holds it.
type observationFile struct {
	Kind      string               `json:"kind"`
	Universe  string               `json:"universe"`
	Depth     int                  `json:"depth"`
	Tie       string               `json:"tie"`
	Rules     string               `json:"rules"`
	Invariant string               `json:"invariant"`
	Detail    string               `json:"detail"`
	Actions   []witnessfile.Action `json:"actions,omitempty"`
}

// ReplayObservationFile replays an observation witness: its universe,
// rule set and tie (the parsed witness's, which -rules and -tie may have
// replaced) and its observation are resolved, its actions run concretely,
// and it is reproduced when the observation holds after the last action
// and on no state before (the search reports the shortest trace). A file
// Observe could not have written is refused with ErrBad.
func ReplayObservationFile(cat *Catalog, w *witnessfile.Witness) (*witnessfile.Replayed, error) {
	var f observationFile
	if err := decodeStrict(w.Raw, &f, "observation witness"); err != nil {
		return nil, err
	}
	if f.Depth < 1 || f.Depth > witnessfile.MaxDepth || len(f.Actions) > f.Depth {
		return nil, witnessfile.Bad("observation witness: %d actions within depth %d: want a depth of 1 to %d holding them", len(f.Actions), f.Depth, witnessfile.MaxDepth)
	}
	obs, err := LookupObservation(f.Invariant)
	if err != nil {
		return nil, witnessfile.Bad("%v", err)
	}
	u, err := ObservationUniverse(cat, f.Universe)
	if err != nil {
		return nil, witnessfile.Bad("%v", err)
	}
	if err := obs.applies(u.Name); err != nil {
		return nil, witnessfile.Bad("%v", err)
	}
	rules, err := fileRules(cat, w)
	if err != nil {
		return nil, err
	}
	actions, err := fileActions(f.Actions, "")
	if err != nil {
		return nil, err
	}
	states, err := observeActions(&u, rules, actions)
	if err != nil {
		return nil, witnessfile.Bad("%v", err)
	}
	res := &witnessfile.Replayed{}
	var b strings.Builder
	earlier := -1
	for k, s := range states[:len(states)-1] {
		if _, ok := obs.Holds(s); ok {
			earlier = k
			break
		}
	}
	detail, ok := obs.Holds(states[len(states)-1])
	got := *w
	got.Detail = detail
	renderObservation(&b, &u, rules, &got, actions)
	switch {
	case ok && earlier < 0:
		res.Reproduced, res.Detail = true, detail
		res.Found = []string{obs.Name + ": " + detail}
		fmt.Fprintf(&b, "observed %s after %d actions (and on no state before): %s\n", obs.Name, len(actions), detail)
	case ok:
		res.Found = []string{obs.Name + ": " + detail}
		fmt.Fprintf(&b, "observed %s after the last action, but already after action %d: not the shortest trace a search writes\n", obs.Name, earlier)
	default:
		fmt.Fprintf(&b, "%s does not hold after the last action\n", obs.Name)
	}
	b.WriteString(Legend)
	res.Text = b.String()
	return res, nil
}

// renderObservation writes the trace the way an explorer witness is
// written: the initial state, then each step and what it changed.
func renderObservation(b *strings.Builder, u *Universe, rules *model.Rules, w *witnessfile.Witness, actions []Action) {
	if u.Network == nil {
		tr, _ := actionTrace(u, rules, actions) // observeActions ran them
		tr.renderSteps(b, u, w)
		return
	}
	wo, _, _ := newWorld(u, rules, witnessfile.MaxDepth, false) // observeActions built it
	w2 := wo.(*netWorld)
	c := w2.e.newCache()
	cur := w2.initialRaw(c)
	next := make([]int32, len(cur))
	rows := [][]int32{slices.Clone(cur)}
	for _, a := range actions {
		t, _ := w2.resolve(cur, a)
		w2.apply(c, cur, t, next, w2.scratch())
		copy(cur, next)
		rows = append(rows, slices.Clone(cur))
	}
	w2.render(b, w, rows, actions)
}

// actionTrace runs actions on the reference universe u from its initial state,
// resolving each where it is taken, as a trace the witness writer renders.
func actionTrace(u *Universe, rules *model.Rules, actions []Action) (*trace, error) {
	reps := make([]*model.Replica, len(u.Devices))
	for i, spec := range u.Devices {
		reps[i] = newReplica(spec, rules)
	}
	var path []int
	for k, a := range actions {
		t, err := u.resolve(reps, a)
		if err != nil {
			return nil, fmt.Errorf("step %d: %w", k+1, err)
		}
		u.apply(reps, t)
		path = append(path, t)
	}
	return runTrace(u, rules, path)
}
