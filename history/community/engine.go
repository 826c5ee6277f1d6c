package community

import (
	"fmt"
	"slices"
	"strings"
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
// first), and the smallest witness.
type Result struct {
	Distinct  int
	Violating int
	Witness   *Witness
}

type node struct {
	state  State
	parent int
	action Action
	depth  int
}

// Explore searches u breadth first under r up to its depth bound. Nodes
// are expanded in the order they were first reached and actions in their
// fixed order, so the first violation is the smallest by depth, then by
// action sequence, and every run gives the same answer. Invariants for
// which skip is true are not reported (a rule set's known findings).
func Explore(u *Universe, r *Rules, skip func(string) bool, stopAtFirst bool) Result {
	seen := map[string]bool{}
	init := u.Initial()
	nodes := []node{{state: init, parent: -1}}
	seen[init.Key()] = true
	var res Result
	for i := 0; i < len(nodes); i++ {
		n := nodes[i]
		if n.depth >= u.Depth {
			continue
		}
		for _, a := range u.Actions {
			next, ok, found := u.Step(r, n.state, a)
			if !ok {
				continue
			}
			if v, bad := first(u, found, skip); bad {
				res.Violating++
				if res.Witness == nil {
					res.Witness = witnessOf(u, r, nodes, i, a, v)
				}
				if stopAtFirst {
					res.Distinct = len(seen)
					return res
				}
			}
			k := next.Key()
			if seen[k] {
				continue
			}
			seen[k] = true
			nodes = append(nodes, node{state: next, parent: i, action: a, depth: n.depth + 1})
		}
	}
	res.Distinct = len(seen)
	return res
}

// first is the violation of highest precedence among found that skip lets
// through.
func first(u *Universe, found []Violation, skip func(string) bool) (Violation, bool) {
	for _, inv := range u.Invariants {
		for _, v := range found {
			if v.Invariant == inv && (skip == nil || !skip(inv)) {
				return v, true
			}
		}
	}
	return Violation{}, false
}

func witnessOf(u *Universe, r *Rules, nodes []node, at int, a Action, v Violation) *Witness {
	var path []Action
	for i := at; nodes[i].parent >= 0; i = nodes[i].parent {
		path = append(path, nodes[i].action)
	}
	for l, h := 0, len(path)-1; l < h; l, h = l+1, h-1 {
		path[l], path[h] = path[h], path[l]
	}
	path = append(path, a)
	w := &Witness{Kind: KindCommunity, Universe: u.Name, Rules: r.Name, Invariant: v.Invariant, Detail: v.Detail, Actions: path}
	w.Text, _, _ = render(u, r, w)
	return w
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
