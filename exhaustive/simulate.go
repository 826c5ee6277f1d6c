package exhaustive

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"time"

	"github.com/nip-rs/harness/model"
	"github.com/nip-rs/harness/search"
	"github.com/nip-rs/harness/witnessfile"
)

// Simulation runs seeded random walks through a universe, far deeper than
// its exhaustive bound, with the same checks at every state the walk
// visits and on every transition it takes. Walk i draws its choices from a
// PCG generator seeded (Seed, i), so a walk is a function of the seed and
// its index alone and the result is the same at any worker count: the
// reported violation is the one of the lowest-numbered violating walk. A
// violation is shrunk to a shortest trace it still shows (steps deleted
// one at a time while the same invariant still fails, then each step's
// value lowered while it still fails) and rendered as an
// ordinary explorer witness, which Replay and `explore -replay` run.

// SimConfig is one simulation run.
type SimConfig struct {
	Universe Universe
	// Rules are the run's rules (nil: model.Proposed()).
	Rules *model.Rules
	// Walks is the number of walks, Steps the transitions of each.
	Walks, Steps int
	Seed         uint64
	Workers      int
	// From is the index of the first walk: the run is walks From to
	// From+Walks-1 (a shard's block of a longer run; walk i is the same
	// walk in either).
	From int
}

// SimResult is what a simulation found and covered.
type SimResult struct {
	Universe string
	Rules    string
	Tie      model.TiePolicy
	Seed     uint64
	Walks    int
	// Steps is the transitions taken, Checked the states checked, over
	// every walk; Stuck counts walks that met a state with no enabled
	// transition before their last step.
	Steps, Checked int64
	Stuck          int
	// Transitions is the universe's number of transition indices, every
	// one of which a step tries.
	Transitions int
	// Invariants counts, per invariant, what was checked (in its unit) and
	// the violations met, over every walk.
	Invariants []InvariantCount
	// Walk is the index of the violating walk (-1: none); RawDepth is the
	// length of its trace before shrinking.
	Walk     int
	RawDepth int
	Witness  *witnessfile.Witness
	Elapsed  time.Duration
}

// simWorld is a world whose transitions a walk can name as actions.
type simWorld interface {
	world
	actionOf(cur []int32, t int) Action
}

func (w *netWorld) actionOf(cur []int32, t int) Action { return w.action(cur, t) }

func (w *refWorld) actionOf(cur []int32, t int) Action {
	reps := make([]*model.Replica, len(cur))
	for d, id := range cur {
		tb := w.e.devs[d]
		tb.mu.Lock()
		reps[d] = tb.reps[id].Clone()
		tb.mu.Unlock()
	}
	a, _, _ := w.u.apply(reps, t)
	return a
}

// walkOutcome is one walk: its transitions and its first violation.
type walkOutcome struct {
	trace   []int
	found   *search.Finding
	stuck   bool
	tally   *search.Tally
	checked int64
}

// Simulate runs the walks and shrinks the first violation found.
func Simulate(cfg SimConfig) (*SimResult, error) {
	u := cfg.Universe
	if cfg.Rules == nil {
		cfg.Rules = model.Proposed()
	}
	if cfg.Walks < 1 || cfg.Steps < 1 {
		return nil, fmt.Errorf("simulation needs at least one walk of at least one step (got %d walks of %d)", cfg.Walks, cfg.Steps)
	}
	workers := max(cfg.Workers, 1)
	wo, _, err := newWorld(&u, cfg.Rules, cfg.Steps, false)
	if err != nil {
		return nil, err
	}
	w := wo.(simWorld)
	start := time.Now()
	outs := make([]walkOutcome, cfg.Walks)
	var mu sync.Mutex
	first := cfg.Walks // lowest violating walk so far: later walks need not run
	var wg sync.WaitGroup
	next := 0
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := w.NewWorker()
			for {
				mu.Lock()
				i := next
				next++
				stop := i >= cfg.Walks || i > first
				mu.Unlock()
				if stop {
					return
				}
				outs[i] = walk(w, c, cfg.Seed, cfg.From+i, cfg.Steps)
				if outs[i].found != nil {
					mu.Lock()
					first = min(first, i)
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	res := &SimResult{Universe: u.Name, Rules: cfg.Rules.Name, Tie: cfg.Rules.Tie, Seed: cfg.Seed, Walk: -1, Transitions: w.Transitions()}
	table := w.Invariants()
	total := search.NewTally(len(table))
	// Coverage counts the walks up to the first violating one, in order, so
	// it too is independent of the worker count.
	last := min(first, cfg.Walks-1)
	for i := 0; i <= last; i++ {
		o := outs[i]
		res.Walks++
		res.Steps += int64(len(o.trace))
		res.Checked += o.checked
		if o.stuck {
			res.Stuck++
		}
		for k := range w.Units() {
			total.Add(search.Unit(k), o.tally.Units(search.Unit(k)))
		}
		for k := range table {
			for range o.tally.Violations(k) {
				total.Violate(k)
			}
		}
	}
	for k, inv := range table {
		res.Invariants = append(res.Invariants, InvariantCount{Name: inv.ID, Label: inv.Label, Doc: inv.Doc, Unit: unitNames[inv.Unit],
			Section: inv.Section, Checked: total.Units(inv.Unit), Violations: total.Violations(k)})
	}
	if first < cfg.Walks {
		o := outs[first]
		res.Walk, res.RawDepth = cfg.From+first, len(o.trace)
		inv := table[o.found.Inv].ID
		trace := shrink(w, o.trace, o.found.Inv)
		res.Witness = simWitness(w, trace, inv, cfg.Rules)
	}
	res.Elapsed = time.Since(start)
	return res, nil
}

// walk is walk i: at each step one enabled transition, drawn uniformly.
func walk(w simWorld, c *cache, seed uint64, i, steps int) walkOutcome {
	rng := rand.New(rand.NewPCG(seed, uint64(i)))
	tl := search.NewTally(len(w.Invariants()))
	o := walkOutcome{tally: tl}
	cur := slices.Clone(w.Initial(c))
	buf := make([]int32, len(cur))
	var enabled []int
	note := func(fs []search.Finding) bool {
		for _, f := range fs {
			tl.Violate(f.Inv)
		}
		if len(fs) > 0 {
			f := fs[0]
			o.found = &f
			return true
		}
		return false
	}
	o.checked++
	if note(w.Check(c, cur, tl)) {
		return o
	}
	scratch := search.NewTally(len(w.Invariants()))
	for range steps {
		enabled = enabled[:0]
		for t := range w.Transitions() {
			if ok, _ := w.Successor(c, cur, t, buf, scratch); ok {
				enabled = append(enabled, t)
			}
		}
		if len(enabled) == 0 {
			o.stuck = true
			return o
		}
		t := enabled[rng.IntN(len(enabled))]
		_, fs := w.Successor(c, cur, t, buf, tl)
		o.trace = append(o.trace, t)
		copy(cur, buf)
		if note(fs) {
			return o
		}
		o.checked++
		if note(w.Check(c, cur, tl)) {
			return o
		}
	}
	return o
}

// fails runs trace from the initial state, skipping transitions that are
// not enabled where they now fall, and reports whether invariant inv fails
// on the way, with the transitions that actually ran up to that point.
func fails(w simWorld, c *cache, trace []int, inv int) ([]int, bool) {
	tl := search.NewTally(len(w.Invariants()))
	cur := slices.Clone(w.Initial(c))
	buf := make([]int32, len(cur))
	has := func(fs []search.Finding) bool {
		return slices.ContainsFunc(fs, func(f search.Finding) bool { return f.Inv == inv })
	}
	if has(w.Check(c, cur, tl)) {
		return nil, true
	}
	var ran []int
	for _, t := range trace {
		ok, fs := w.Successor(c, cur, t, buf, tl)
		if !ok {
			continue
		}
		ran = append(ran, t)
		copy(cur, buf)
		if has(fs) || has(w.Check(c, cur, tl)) {
			return ran, true
		}
	}
	return ran, false
}

// shrink deletes steps, one at a time from the end, while the violation of
// inv remains, then lowers the values of the steps that are left (see
// smaller), and repeats both until neither changes the trace. Each accepted
// change shortens the trace or lowers one step's value and raises none, so
// it ends. The result is a trace every step of which runs, and whose last
// step shows inv.
func shrink(w simWorld, trace []int, inv int) []int {
	c := w.NewWorker()
	cur, ok := fails(w, c, trace, inv)
	if !ok {
		return trace // cannot happen: the walk itself showed it
	}
	for changed := true; changed; {
		changed = false
		for k := len(cur) - 1; k >= 0; k-- {
			cand := slices.Delete(slices.Clone(cur), k, k+1)
			if ran, ok := fails(w, c, cand, inv); ok {
				cur, changed = ran, true
				k = min(k, len(cur))
			}
		}
		for k := 0; k < len(cur); k++ {
			for _, t := range smaller(w, c, cur, k) {
				cand := slices.Clone(cur)
				cand[k] = t
				if ran, ok := fails(w, c, cand, inv); ok && len(ran) == len(cur) {
					cur, changed = ran, true
					break
				}
			}
		}
	}
	return cur
}

// smaller lists the transitions that could stand for step k of trace with
// a smaller value: enabled where step k runs, the same kind of action by
// the same device on the same context and channel, with a lower value (a
// frontier, an advance) or, at an equal value, an earlier message. They
// come smallest first, so the first that keeps the violation is the least.
func smaller(w simWorld, c *cache, trace []int, k int) []int {
	cur := slices.Clone(w.Initial(c))
	buf := make([]int32, len(cur))
	scratch := search.NewTally(len(w.Invariants()))
	for _, t := range trace[:k] {
		w.Successor(c, cur, t, buf, scratch)
		copy(cur, buf)
	}
	at := w.actionOf(cur, trace[k])
	type option struct {
		t int
		a Action
	}
	var opts []option
	for t := range w.Transitions() {
		if t == trace[k] {
			continue
		}
		if ok, _ := w.Successor(c, cur, t, buf, scratch); !ok {
			continue
		}
		a := w.actionOf(cur, t)
		if a.Kind != at.Kind || a.Device != at.Device || a.From != at.From || a.Ctx != at.Ctx {
			continue
		}
		if a.Value < at.Value || (a.Value == at.Value && a.Msg < at.Msg) {
			opts = append(opts, option{t, a})
		}
	}
	slices.SortFunc(opts, func(x, y option) int {
		if x.a.Value != y.a.Value {
			return cmp.Compare(x.a.Value, y.a.Value)
		}
		if x.a.Msg != y.a.Msg {
			return cmp.Compare(x.a.Msg, y.a.Msg)
		}
		return cmp.Compare(x.t, y.t)
	})
	out := make([]int, len(opts))
	for i, o := range opts {
		out[i] = o.t
	}
	return out
}

// simWitness is the explorer witness of a shrunk trace.
func simWitness(w simWorld, trace []int, inv string, rules *model.Rules) *witnessfile.Witness {
	c := w.NewWorker()
	cur := slices.Clone(w.Initial(c))
	buf := make([]int32, len(cur))
	tl := search.NewTally(len(w.Invariants()))
	wit := &witnessfile.Witness{Kind: witnessfile.KindExplore, Universe: universeName(w), Depth: len(trace),
		Tie: rules.Tie.String(), Rules: rules.Name, Invariant: inv}
	var detail string
	take := func(fs []search.Finding) {
		for _, f := range fs {
			if w.Invariants()[f.Inv].ID == inv {
				detail = f.Detail
			}
		}
	}
	take(w.Check(c, cur, tl))
	for _, t := range trace {
		wit.Actions = append(wit.Actions, w.actionOf(cur, t).toFile())
		_, fs := w.Successor(c, cur, t, buf, tl)
		copy(cur, buf)
		take(fs)
		take(w.Check(c, cur, tl))
	}
	wit.Detail = detail
	return wit
}

func universeName(w simWorld) string {
	switch x := w.(type) {
	case *netWorld:
		return x.u.Name
	case *refWorld:
		return x.u.Name
	}
	return ""
}
