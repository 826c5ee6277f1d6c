package exhaustive

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/nip-rs/harness/model"
	"github.com/nip-rs/harness/witnessfile"
)

// AgreementWitness is a violation of eventual agreement: Prefix is a path
// of the agreement graph from the initial state (user actions and system
// steps, every publication a triggered one), and Loop is empty when no
// system step is enabled where the prefix ends (the devices settled
// apart), or a fair cycle of system steps from there that returns to it
// and holds a node where the devices do not agree.
type AgreementWitness struct {
	Universe string
	Rules    string
	Depth    int
	Prefix   []Action
	Loop     []Action
	Detail   string
}

func (l *AgreementWitness) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "agreement witness: universe %s, at most %d user actions, rules %s\n%s\n", l.Universe, l.Depth, l.Rules, l.Detail)
	for _, part := range []struct {
		name string
		as   []Action
	}{{"prefix", l.Prefix}, {"loop", l.Loop}} {
		fmt.Fprintf(&b, "%s:\n", part.name)
		for k, a := range part.as {
			fmt.Fprintf(&b, "  %d: %s\n", k+1, a)
		}
	}
	return b.String()
}

// JSON is the witness as a liveness witness file (its invariant tells it
// from a re-publish lasso), tie the policy its rules decided.
func (l *AgreementWitness) JSON(tie model.TiePolicy) []byte {
	f := livenessFile{Kind: KindLiveness, Universe: l.Universe, Depth: l.Depth, Tie: tie.String(), Rules: l.Rules,
		Invariant: InvOverrideReaches, Detail: l.Detail,
		Prefix: []witnessfile.Action{}, Approach: []witnessfile.Action{}, Loop: []witnessfile.Action{}}
	for _, a := range l.Prefix {
		f.Prefix = append(f.Prefix, a.toFile())
	}
	for _, a := range l.Loop {
		f.Loop = append(f.Loop, a.toFile())
	}
	b, _ := json.MarshalIndent(f, "", "  ") // plain data always marshals
	return append(b, '\n')
}

// agreeWitness builds the witness of violating node v in component
// members.
func (g *agreeGraph) agreeWitness(v int32, members, comp []int32) *AgreementWitness {
	rw := g.w.Width()
	wit := &AgreementWitness{Universe: g.w.u.Name, Rules: g.w.e.rules.Name, Depth: g.depth}
	var path []int32
	for x := v; g.parent[x] >= 0; x = g.parent[x] {
		path = append(path, x)
	}
	slices.Reverse(path)
	for _, x := range path {
		wit.Prefix = append(wit.Prefix, g.w.action(g.node(g.parent[x])[:rw], int(g.ptrans[x])))
	}
	if g.lo[v] < g.hi[v] {
		for _, h := range g.fairWalk(v, members, comp) {
			wit.Loop = append(wit.Loop, g.w.action(g.node(h.from)[:rw], int(h.e.t)))
		}
	}
	_, why := g.agrees(v)
	wit.Detail = agreementDetail(wit, why)
	return wit
}

// agreementDetail says what the witness shows.
func agreementDetail(wit *AgreementWitness, why string) string {
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

// inPath is the shortest path of system steps inside comp's component
// from node from to node to (first found in edge order).
func (g *agreeGraph) inPath(from, to int32, comp []int32) []hop {
	if from == to {
		return nil
	}
	prev := map[int32]hop{from: {from: -1}}
	queue := []int32{from}
	for len(queue) > 0 {
		v := queue[0]
		queue = queue[1:]
		for _, e := range g.sys[g.lo[v]:g.hi[v]] {
			if comp[e.to] != comp[v] {
				continue
			}
			if _, seen := prev[e.to]; seen {
				continue
			}
			prev[e.to] = hop{v, e}
			if e.to == to {
				var out []hop
				for x := to; x != from; x = prev[x].from {
					out = append(out, prev[x])
				}
				slices.Reverse(out)
				return out
			}
			queue = append(queue, e.to)
		}
	}
	panic("exhaustive: a component is not strongly connected") // Tarjan's walk made it
}

// fairWalk is a closed walk from start through every node of its
// component that also takes, once each, every fair action enabled in all
// of them: fair, since any other action is disabled at some node on it.
func (g *agreeGraph) fairWalk(start int32, members, comp []int32) []hop {
	var out []hop
	cur := start
	for _, m := range members {
		out = append(out, g.inPath(cur, m, comp)...)
		cur = m
	}
	var cont []fairAction
	for k, m := range members {
		en := g.enabled(m)
		if k == 0 {
			cont = en
		} else {
			cont = slices.DeleteFunc(cont, func(a fairAction) bool { _, ok := slices.BinarySearchFunc(en, a, cmpDelivery); return !ok })
		}
	}
	for _, a := range cont {
		take, found := hop{}, false
		for _, m := range members {
			for _, e := range g.sys[g.lo[m]:g.hi[m]] {
				if t, ok := g.takes(m, e); ok && !found && t == a && comp[e.to] == comp[m] {
					take, found = hop{m, e}, true
				}
			}
		}
		out = append(out, g.inPath(cur, take.from, comp)...)
		out = append(out, take)
		cur = take.e.to
	}
	return append(out, g.inPath(cur, start, comp)...)
}

// ReplayAgreement checks an agreement witness on a fresh world of
// universe u under rules: the prefix's steps are user actions (at most
// the witness's bound of them) or system steps enabled where they are
// taken, a publication only when its trigger fires; then either no system
// step is enabled and the devices do not agree, or the loop's system
// steps return to where they start, are fair, and pass a node where the
// devices do not agree.
func ReplayAgreement(u Universe, rules *model.Rules, wit *AgreementWitness) error {
	if u.Network == nil {
		return fmt.Errorf("universe %q has no network", u.Name)
	}
	if rules == nil {
		rules = model.Proposed()
	}
	wd, _, err := newWorld(&u, rules, wit.Depth, false)
	if err != nil {
		return err
	}
	g := &agreeGraph{liveGraph: newLiveGraph(wd.(*netWorld), DefaultLivenessStates), depth: wit.Depth}
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
			return err
		}
		copy(s, ns)
	}
	v := g.replayNode(s)
	if len(wit.Loop) == 0 {
		switch {
		case g.lo[v] < g.hi[v]:
			return fmt.Errorf("a system step is still enabled where the prefix ends")
		case !g.apart(v):
			return fmt.Errorf("the devices agree where the prefix ends")
		}
		return nil
	}
	first := slices.Clone(s)
	var cont []fairAction
	tk := map[fairAction]bool{}
	apart := false
	for k, a := range wit.Loop {
		x := g.replayNode(s)
		apart = apart || g.apart(x)
		en := g.enabled(x)
		if k == 0 {
			cont = en
		} else {
			cont = slices.DeleteFunc(cont, func(a fairAction) bool { _, ok := slices.BinarySearchFunc(en, a, cmpDelivery); return !ok })
		}
		t, err := run("loop", k, a, false)
		if err != nil {
			return err
		}
		if fa, ok := g.takes(x, liveEdge{t: int32(t)}); ok {
			tk[fa] = true
		}
		copy(s, ns)
	}
	switch {
	case !slices.Equal(s, first):
		return fmt.Errorf("the loop does not return to its first state")
	case !apart:
		return fmt.Errorf("the devices agree at every state of the loop")
	case slices.ContainsFunc(cont, func(a fairAction) bool { return !tk[a] }):
		return fmt.Errorf("the loop is unfair: an action enabled throughout it is never taken")
	}
	return nil
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
			g.sys = append(g.sys, liveEdge{to: to, t: int32(t)})
		}
	}
	g.hi[v] = int32(len(g.sys))
	return v
}

// replayAgreementFile replays a liveness file whose invariant is
// InvOverrideReaches (ReplayLivenessFile has decoded and bounded it).
func replayAgreementFile(cat *Catalog, f livenessFile) (*witnessfile.Replayed, error) {
	if len(f.Approach) > 0 {
		return nil, witnessfile.Bad("agreement witness: an approach of %d steps (its prefix holds every step)", len(f.Approach))
	}
	u, err := LivenessUniverse(cat, f.Universe)
	if err != nil {
		return nil, witnessfile.Bad("%v", err)
	}
	tie, err := model.ParseTiePolicy(f.Tie)
	if err != nil {
		return nil, witnessfile.Bad("%v", err)
	}
	rules, err := cat.Rules(f.Rules)
	if err != nil {
		return nil, witnessfile.Bad("%v", err)
	}
	wit := &AgreementWitness{Universe: u.Name, Rules: f.Rules, Depth: f.Depth}
	for _, part := range []struct {
		in  []witnessfile.Action
		out *[]Action
	}{{f.Prefix, &wit.Prefix}, {f.Loop, &wit.Loop}} {
		for k, j := range part.in {
			a, err := fromFile(j)
			if err != nil {
				return nil, witnessfile.Bad("agreement witness: step %d: %v", k+1, err)
			}
			*part.out = append(*part.out, a)
		}
	}
	res := &witnessfile.Replayed{}
	err = ReplayAgreement(u, rules.WithTie(tie), wit)
	if err != nil {
		wit.Detail = f.Detail
		res.Text = wit.String() + "the witness does not hold: " + err.Error() + "\n"
		return res, nil
	}
	wit.Detail = replayedAgreementDetail(u, rules.WithTie(tie), wit)
	res.Text = wit.String()
	res.Reproduced, res.Detail = true, wit.Detail
	res.Found = []string{InvOverrideReaches + ": " + wit.Detail}
	return res, nil
}

// replayedAgreementDetail recomputes a held witness's detail: the first
// context and devices apart where the prefix ends (the loop, if any,
// starts there, at a node apart).
func replayedAgreementDetail(u Universe, rules *model.Rules, wit *AgreementWitness) string {
	wd, _, _ := newWorld(&u, rules, wit.Depth, false) // ReplayAgreement built it
	g := &agreeGraph{liveGraph: newLiveGraph(wd.(*netWorld), DefaultLivenessStates), depth: wit.Depth}
	rw := g.w.Width()
	s := append(g.w.initialRaw(g.c), make([]int32, g.w.n)...)
	ns := make([]int32, len(s))
	for _, a := range wit.Prefix {
		t, _ := g.w.resolve(s[:rw], a)
		if !g.userStep(s, t, ns) {
			g.sysStep(s, t, ns)
		}
		copy(s, ns)
	}
	v, _ := g.intern(s)
	_, why := g.agrees(v)
	return agreementDetail(wit, why)
}
