package exhaustive

import (
	"fmt"
	"slices"

	"github.com/nip-rs/harness/search"
)

// agreeWitness names the kept violation: the path of fewest user actions
// to its anchor, then the search's loop from there.
func (g *agreeGraph) agreeWitness(l *search.Lasso) *LivenessWitness {
	rw := g.w.Width()
	v := l.Anchor()
	wit := &LivenessWitness{Property: InvOverrideReaches, Universe: g.w.u.Name, Rules: g.w.e.rules.Name, Depth: g.depth}
	var path []int32
	for x := v; g.parent[x] >= 0; x = g.parent[x] {
		path = append(path, x)
	}
	slices.Reverse(path)
	for _, x := range path {
		wit.Prefix = append(wit.Prefix, g.w.action(g.node(g.parent[x])[:rw], int(g.ptrans[x])))
	}
	wit.Loop = g.actions(l.Loop)
	_, why := g.agrees(v)
	wit.Detail = agreementDetail(wit, why)
	return wit
}

// agreementDetail says what the witness shows.
func agreementDetail(wit *LivenessWitness, why string) string {
	users := 0
	for _, a := range wit.Prefix {
		if userKind(a.Kind) {
			users++
		}
	}
	if len(wit.Loop) == 0 {
		return fmt.Sprintf("after %d user actions and %d system steps no system step is enabled and the devices settled apart: %s", users, len(wit.Prefix)-users, why)
	}
	return fmt.Sprintf("after %d user actions and %d system steps a fair cycle of %d system steps never brings the devices together: %s", users, len(wit.Prefix)-users, len(wit.Loop), why)
}

// replay checks an agreement witness on the fresh graph g: the prefix's
// steps are user actions (at most the witness's bound of them) or system
// steps enabled where they are taken, a publication only when its trigger
// fires; then either no system step is enabled and the devices do not
// agree, or the loop's system steps return to where they start, are fair,
// and pass a node where the devices do not agree. When it holds it says
// what it shows: the first context and devices apart where the prefix
// ends (the loop, if any, starts there, at a node apart).
func (g *agreeGraph) replay(wit *LivenessWitness) (string, error) {
	w := g.w
	rw := w.Width()
	s := append(w.initialRaw(g.c), make([]int32, w.n)...)
	ns := make([]int32, len(s))
	users := 0
	run := func(part string, k int, a Action, user bool) (int, error) {
		t, err := w.resolve(s[:rw], a)
		if err != nil {
			return 0, fmt.Errorf("%s step %d: %w", part, k+1, err)
		}
		switch {
		case user && g.userStep(s, t, ns):
			users++
			if users > wit.Depth {
				return 0, fmt.Errorf("%s step %d: more than %d user actions", part, k+1, wit.Depth)
			}
		case g.sysStep(s, t, ns):
		default:
			return 0, fmt.Errorf("%s step %d: %s is not a step of the agreement graph enabled here", part, k+1, a)
		}
		return t, nil
	}
	for k, a := range wit.Prefix {
		if _, err := run("prefix", k, a, true); err != nil {
			return "", err
		}
		copy(s, ns)
	}
	v := g.replayNode(s)
	_, why := g.agrees(v)
	if len(wit.Loop) == 0 {
		switch {
		case g.lo[v] < g.hi[v]:
			return "", fmt.Errorf("a system step is still enabled where the prefix ends")
		case !g.apart(v):
			return "", fmt.Errorf("the devices agree where the prefix ends")
		}
		return agreementDetail(wit, why), nil
	}
	first := slices.Clone(s)
	var fair loopFairness
	apart := false
	for k, a := range wit.Loop {
		x := g.replayNode(s)
		apart = apart || g.apart(x)
		fair.at(g.Enabled(x))
		t, err := run("loop", k, a, false)
		if err != nil {
			return "", err
		}
		if fa, ok := g.Taken(x, search.Edge{Label: int32(t)}); ok {
			fair.take(fa)
		}
		copy(s, ns)
	}
	switch {
	case !slices.Equal(s, first):
		return "", fmt.Errorf("the loop does not return to its first state")
	case !apart:
		return "", fmt.Errorf("the devices agree at every state of the loop")
	}
	if _, open := fair.unsettled(); open {
		return "", fmt.Errorf("the loop is unfair: an action enabled throughout it is never taken")
	}
	return agreementDetail(wit, why), nil
}

// replayNode interns state s with its system steps (once), so that the
// graph's helpers (enabled actions, agreement) read it.
func (g *agreeGraph) replayNode(s []int32) int32 {
	v, _ := g.intern(s)
	g.grow()
	if g.lo[v] >= 0 {
		return v
	}
	ns := make([]int32, len(s))
	g.lo[v] = int32(len(g.sys))
	for t := range g.w.Transitions() {
		if g.sysStep(s, t, ns) {
			to, _ := g.intern(ns)
			g.grow()
			g.sys = append(g.sys, search.Edge{To: to, Label: int32(t)})
		}
	}
	g.hi[v] = int32(len(g.sys))
	return v
}
