package exhaustive

import (
	"fmt"
	"slices"
	"strings"

	"github.com/nip-rs/harness/model"
	"github.com/nip-rs/harness/search"
)

// LivenessWitness is a violation of a liveness property (Property).
//
// For no re-publish cycle it is a lasso: Prefix is a trace of the universe
// from its initial state (any transitions, publishing freely, as the
// safety search does); from its last state, with no last publication
// known, Approach is system steps to the loop's first state, and Loop is
// system steps that return to that state (replicas, knowledge, messages in
// flight and every device's last publication alike), with at least one
// triggered publication and every delivery enabled throughout the loop
// taken on it.
//
// For eventual agreement, Prefix is a path of the agreement graph from the
// initial state (user actions and system steps, every publication a
// triggered one), Approach is empty, and Loop is empty when no system step
// is enabled where the prefix ends (the devices settled apart), or a fair
// cycle of system steps from there that returns to it and holds a node
// where the devices do not agree.
type LivenessWitness struct {
	Property string
	Universe string
	Rules    string
	Depth    int
	Prefix   []Action
	Approach []Action
	Loop     []Action
	Detail   string
}

func (l *LivenessWitness) String() string {
	var b strings.Builder
	parts := []struct {
		name string
		as   []Action
	}{{"prefix", l.Prefix}, {"approach", l.Approach}, {"loop", l.Loop}}
	if l.Property == InvOverrideReaches {
		fmt.Fprintf(&b, "agreement witness: universe %s, at most %d user actions, rules %s\n%s\n", l.Universe, l.Depth, l.Rules, l.Detail)
		parts = slices.Delete(parts, 1, 2) // its prefix holds every step before the loop
	} else {
		fmt.Fprintf(&b, "liveness lasso: universe %s, depth bound %d, rules %s\n%s\n", l.Universe, l.Depth, l.Rules, l.Detail)
	}
	for _, part := range parts {
		fmt.Fprintf(&b, "%s:\n", part.name)
		for k, a := range part.as {
			fmt.Fprintf(&b, "  %d: %s\n", k+1, a)
		}
	}
	return b.String()
}

// witness names a lasso's steps: the root's trace as actions of the
// universe, then the search's approach and loop as system steps.
func (g *liveGraph) witness(path []int, l *search.Lasso) *LivenessWitness {
	w := g.w
	wit := &LivenessWitness{Property: InvNoRepublishCycle, Universe: w.u.Name, Rules: w.e.rules.Name, Depth: w.depth}
	cur := w.initialRaw(g.c)
	next := make([]int32, len(cur))
	for _, t := range path {
		wit.Prefix = append(wit.Prefix, w.action(cur, t))
		w.apply(g.c, cur, t, next, g.tl)
		copy(cur, next)
	}
	wit.Approach, wit.Loop = g.actions(l.Approach), g.actions(l.Loop)
	wit.Detail = wit.detail()
	return wit
}

// actions names a walk's system steps.
func (g *liveGraph) actions(hops []search.Hop) []Action {
	var out []Action
	for _, h := range hops {
		out = append(out, g.w.action(g.node(h.From)[:g.w.Width()], int(h.Edge.Label)))
	}
	return out
}

// detail says what the lasso shows, from its steps alone, so that a replay
// of its file states it the same way.
func (l *LivenessWitness) detail() string {
	pubs := 0
	for _, a := range l.Loop {
		if a.Kind == KindPublish {
			pubs++
		}
	}
	return fmt.Sprintf("a fair cycle of %d system steps with %d triggered publications and no user action, reached by %d actions and %d system steps",
		len(l.Loop), pubs, len(l.Prefix), len(l.Approach))
}

// ReplayLiveness checks a witness on a fresh world of universe u under
// rules (symmetry off), as its property says (replayLasso,
// replayAgreement).
func ReplayLiveness(u Universe, rules *model.Rules, wit *LivenessWitness) error {
	_, err := replayWitness(u, rules, wit)
	return err
}

// replayWitness replays wit and says, when it holds, what it shows.
func replayWitness(u Universe, rules *model.Rules, wit *LivenessWitness) (string, error) {
	if u.Network == nil {
		return "", fmt.Errorf("universe %q has no network", u.Name)
	}
	if rules == nil {
		rules = model.Proposed()
	}
	wd, _, err := newWorld(&u, rules, wit.Depth, false)
	if err != nil {
		return "", err
	}
	g := newLiveGraph(wd.(*netWorld), DefaultLivenessStates)
	if wit.Property == InvOverrideReaches {
		return (&agreeGraph{liveGraph: g, depth: wit.Depth}).replay(wit)
	}
	return wit.detail(), g.replayLasso(wit)
}

// replayLasso checks a lasso: the prefix's steps are enabled, the
// approach's and the loop's are system steps enabled where they are taken
// (a publication only when the trigger fires), the loop returns to its
// first state and holds a publication, and every delivery enabled in all
// the loop's states is taken on it.
func (g *liveGraph) replayLasso(wit *LivenessWitness) error {
	w := g.w
	rw := w.Width()
	cur := w.initialRaw(g.c)
	next := make([]int32, rw)
	for k, a := range wit.Prefix {
		t, err := w.resolve(cur, a)
		if err != nil {
			return fmt.Errorf("prefix step %d: %w", k+1, err)
		}
		if ok, _ := w.apply(g.c, cur, t, next, g.tl); !ok {
			return fmt.Errorf("prefix step %d: %s is not enabled", k+1, a)
		}
		copy(cur, next)
	}
	s := append(slices.Clone(cur), make([]int32, w.n)...)
	ns := make([]int32, len(s))
	sys := func(part string, k int, a Action) (int, error) {
		t, err := w.resolve(s[:rw], a)
		if err != nil {
			return 0, fmt.Errorf("%s step %d: %w", part, k+1, err)
		}
		if !g.step(s, t, ns) {
			return 0, fmt.Errorf("%s step %d: %s is not a system step enabled here", part, k+1, a)
		}
		return t, nil
	}
	for k, a := range wit.Approach {
		if _, err := sys("approach", k, a); err != nil {
			return err
		}
		copy(s, ns)
	}
	if len(wit.Loop) == 0 {
		return fmt.Errorf("the loop is empty")
	}
	first := slices.Clone(s)
	var fair loopFairness
	pubs := 0
	for k, a := range wit.Loop {
		fair.at(g.enabledAt(s))
		t, err := sys("loop", k, a)
		if err != nil {
			return err
		}
		if d, ok := g.taken(s, int32(t)); ok {
			fair.take(d.action())
		}
		if a.Kind == KindPublish {
			pubs++
		}
		copy(s, ns)
	}
	switch {
	case !slices.Equal(s, first):
		return fmt.Errorf("the loop does not return to its first state")
	case pubs == 0:
		return fmt.Errorf("the loop holds no publication")
	}
	if a, open := fair.unsettled(); open {
		s, dst := w.chEnds(int(a>>32) - 2*w.n)
		return fmt.Errorf("the loop is unfair: a message on d%d->d%d is in flight throughout and never delivered", s, dst)
	}
	return nil
}

// loopFairness follows a replayed loop for weak fairness, as the search
// judges a component: the actions enabled at every state so far, and the
// actions its steps took.
type loopFairness struct {
	cont  []int64
	taken map[int64]bool
	seen  bool
}

// at is the next state's enabled actions, ascending.
func (f *loopFairness) at(enabled []int64) {
	if !f.seen {
		f.cont, f.seen, f.taken = slices.Clone(enabled), true, map[int64]bool{}
		return
	}
	f.cont = slices.DeleteFunc(f.cont, func(a int64) bool { _, ok := slices.BinarySearch(enabled, a); return !ok })
}

func (f *loopFairness) take(a int64) { f.taken[a] = true }

// unsettled is the first action enabled throughout the loop and never
// taken on it, if any: the loop is then unfair.
func (f *loopFairness) unsettled() (int64, bool) {
	i := slices.IndexFunc(f.cont, func(a int64) bool { return !f.taken[a] })
	if i < 0 {
		return 0, false
	}
	return f.cont[i], true
}
