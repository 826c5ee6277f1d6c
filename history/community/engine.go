package community

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/nip-rs/harness/search"
)

// Action is one transition of a universe: a name and a small argument.
type Action struct {
	Name string `json:"action"`
	Arg  int    `json:"arg"`
}

func (a Action) String() string { return fmt.Sprintf("%s(%d)", a.Name, a.Arg) }

// State is a universe's global state. Key is an exact encoding, used as
// the visited key; String renders it on one line for witnesses.
type State interface {
	Key() string
	String() string
}

// Violation is one failed invariant on a transition.
type Violation struct {
	Invariant string
	Detail    string
}

func (v Violation) String() string { return v.Invariant + ": " + v.Detail }

// Universe is a bounded world: an initial state, a fixed list of actions,
// and a step that applies an action under a rule set and checks the
// invariants on the transition it took.
type Universe struct {
	Name string
	Doc  string
	// Depth bounds the action sequences explored.
	Depth int
	// Invariants are the names the universe checks, in precedence order.
	Invariants []string
	Initial    func() State
	Actions    []Action
	// Step applies a to s under r: ok false when a is disabled in s. The
	// violations are those of the transition and of the state it reaches.
	Step func(r *Rules, s State, a Action) (next State, ok bool, found []Violation)
}

// Result is an exploration's outcome: the distinct states stored, the
// violating transitions seen (all of them unless the run stopped at the
// first), and the smallest witness. Status is unknown when a resource
// bound (Options.MaxStates) ended the run before the depth bound, and
// BoundHit then says which.
type Result struct {
	Distinct  int
	Violating int
	// Violations splits Violating by invariant (each violating
	// transition counts under the first invariant it reports).
	Violations map[string]int
	Witness    *Witness
	Status     search.Status
	BoundHit   string
}

// Options bound one exploration beyond the universe's own depth bound.
type Options struct {
	// StopAtFirst ends the run at the smallest violation; Distinct and
	// Violating are then those seen up to it in breadth-first order.
	StopAtFirst bool
	// Workers, MaxStates and Progress are the engine's (search.Config).
	Workers   int
	MaxStates int
	Progress  func(search.Progress)
}

// Explore searches u under r up to its depth bound on all cores.
// Invariants for which skip is true are not reported (a rule set's known
// findings). A universe the engine refuses (a negative depth bound, more
// transitions than it indexes) comes back unknown, with the reason in
// BoundHit.
func Explore(u *Universe, r *Rules, skip func(string) bool, stopAtFirst bool) Result {
	res, err := ExploreWith(u, r, skip, Options{StopAtFirst: stopAtFirst})
	if err != nil {
		return Result{Status: search.StatusUnknown, BoundHit: err.Error()}
	}
	return res
}

// ExploreWith searches u under r on the shared engine (package search):
// breadth first, a state counting at its minimal depth, and the smallest
// violation by depth, then by action sequence, then by the universe's
// invariant precedence, whatever the number of workers. Every transition
// reports at most one violation, the first of the universe's precedence
// that skip lets through, so Violating counts violating transitions.
func ExploreWith(u *Universe, r *Rules, skip func(string) bool, o Options) (Result, error) {
	if u == nil || r == nil || u.Initial == nil || u.Step == nil {
		return Result{}, fmt.Errorf("community: a universe and rules are required")
	}
	w := newWorld(u, r, skip)
	run, err := search.Explore[struct{}](w, search.Config{Depth: u.Depth, Workers: o.Workers, MaxStates: o.MaxStates,
		StopAtFirst: o.StopAtFirst, Progress: o.Progress})
	if err != nil {
		return Result{}, err
	}
	defer run.Store.Free()
	res := Result{Distinct: run.Distinct, Status: run.Status, BoundHit: run.BoundHit, Violations: map[string]int{}}
	for i, inv := range u.Invariants {
		if n := int(run.Tally.Violations(i)); n > 0 {
			res.Violating += n
			res.Violations[inv] = n
		}
	}
	hit := run.Tally.Best()
	if hit == nil {
		return res, nil
	}
	if o.StopAtFirst {
		// The run expanded the hit's whole level; the figures are those a
		// search stopping at the hit itself would report: the states first
		// reached before the hit's transition, and that one violation.
		res.Distinct = reachedBefore(run.Store, hit.Parent, hit.Trans)
		res.Violating = 1
		res.Violations = map[string]int{u.Invariants[hit.Finding.Inv]: 1}
	}
	var path []Action
	for _, t := range run.Store.Path(hit.Parent) {
		path = append(path, u.Actions[t])
	}
	path = append(path, u.Actions[hit.Trans])
	wit := &Witness{Kind: KindCommunity, Universe: u.Name, Rules: r.Name, Invariant: u.Invariants[hit.Finding.Inv],
		Detail: hit.Finding.Detail, Actions: path}
	wit.Text, _, _ = render(u, r, wit)
	res.Witness = wit
	return res, nil
}

// reachedBefore is the number of stored states first reached before
// transition t of state parent: the store keeps them in generation order,
// which is the order of (parent, transition).
func reachedBefore(st *search.Store, parent int32, t int) int {
	return sort.Search(st.Len(), func(i int) bool {
		p := st.Parent(int32(i))
		return p > parent || p == parent && st.Trans(int32(i)) >= t
	})
}

// first is the violation of highest precedence among found that skip lets
// through, with its index in u.Invariants.
func first(u *Universe, found []Violation, skip func(string) bool) (int, Violation, bool) {
	for i, inv := range u.Invariants {
		for _, v := range found {
			if v.Invariant == inv && (skip == nil || !skip(inv)) {
				return i, v, true
			}
		}
	}
	return 0, Violation{}, false
}

// render replays w's actions under r and returns the text trace and every
// violation of the last step (nil when an action is disabled or unknown).
func render(u *Universe, r *Rules, w *Witness) (string, []Violation, error) {
	var b strings.Builder
	fmt.Fprintf(&b, "witness %s: universe %s, depth bound %d, rules %s\n", w.Invariant, u.Name, u.Depth, r.Name)
	s := u.Initial()
	fmt.Fprintf(&b, "0. initial: %s\n", s)
	var last []Violation
	for i, a := range w.Actions {
		if !slices.Contains(u.Actions, a) {
			return b.String(), nil, fmt.Errorf("%w: action %d (%s) is not one of %s's", ErrWitness, i+1, a, u.Name)
		}
		next, ok, found := u.Step(r, s, a)
		if !ok {
			return b.String(), nil, fmt.Errorf("%w: action %d (%s) is not enabled", ErrWitness, i+1, a)
		}
		s, last = next, found
		fmt.Fprintf(&b, "%d. %s: %s\n", i+1, a, s)
	}
	for _, v := range last {
		fmt.Fprintf(&b, "violation: %s\n", v)
	}
	return b.String(), last, nil
}
