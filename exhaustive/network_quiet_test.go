package exhaustive

import (
	"fmt"
	"slices"
	"testing"

	"github.com/nip-rs/harness/internal/shortrun"
	"github.com/nip-rs/harness/model"
)

// directQuiescence is quiescence as its definition reads, with nothing
// split or memoised: the devices publish their messages, knowledge tags
// included, every other device receives them part by part as whole nodes,
// round after round until a round changes no node; the order check walks
// whole nodes from this state alone; the oracle reads the final nodes.
func directQuiescence(w *netWorld, c *cache, drained []node) *quietResult {
	q := &quietResult{}
	first, err := w.publishAll(c, drained)
	if err != nil {
		q.findings = append(q.findings, *err)
		return q
	}
	var all []int32
	for _, p := range first {
		all = append(all, p...)
	}
	if !w.orderFreeNodes(c, drained, all) {
		if f := w.orderDisagreement(c, drained, all); f != nil {
			q.findings = append(q.findings, *f)
		}
	}
	cur, pubs, fixed := slices.Clone(drained), first, false
	for range w.net.Rounds {
		next := slices.Clone(cur)
		for d := range w.n {
			for j := range w.n {
				if j != d {
					for _, m := range pubs[j] {
						next[d], _ = w.receive(c, d, next[d], m)
					}
				}
			}
		}
		if slices.Equal(next, cur) {
			fixed = true
			break
		}
		cur = next
		if pubs, err = w.publishAll(c, cur); err != nil {
			q.findings = append(q.findings, *err)
			return q
		}
	}
	if !fixed {
		q.findings = append(q.findings, finding{InvNetFixpoint, fmt.Sprintf("no fixpoint after %d rounds of publishing and receiving", w.net.Rounds)})
		return q
	}
	reps := make([]int32, len(cur))
	for d, nd := range cur {
		reps[d] = nd.rep
	}
	if f := w.convergence(c, reps); f != nil {
		q.findings = append(q.findings, *f)
	}
	q.final = cur
	directOracle(w, cur, q)
	return q
}

// directOracle is the oracle read off the final nodes.
func directOracle(w *netWorld, nodes []node, q *quietResult) {
contexts:
	for i, ctx := range w.ov {
		m := w.t.knows.get(nodes[0].kn).ac[i]
		for _, nd := range nodes[1:] {
			if w.t.knows.get(nd.kn).ac[i] != m {
				q.findings = append(q.findings, finding{InvNetOracle, fmt.Sprintf("%s: devices know different intent histories at quiescence", ctx)})
				q.expect = append(q.expect, unjudged)
				continue contexts
			}
		}
		var f uint32
		for d, nd := range nodes {
			if !w.u.Devices[d].Legacy {
				f = max(f, w.replica(d, nd.rep).Effective(ctx))
			}
		}
		ac := w.t.acs.get(m)
		exp, why := judgeIntent(ac, f, w.e.rules.Tie)
		q.expect = append(q.expect, exp)
		switch exp {
		case unjudged:
			q.unjudged++
			continue
		case expectLive:
			q.live++
		default:
			q.dead++
		}
		for d, nd := range nodes {
			if w.u.Devices[d].Legacy {
				continue
			}
			if live := w.replica(d, nd.rep).Live(ctx); live != (exp == expectLive) {
				q.findings = append(q.findings, finding{InvNetOracle, fmt.Sprintf("%s: intent %s expects %s (%s), d%d is %s at quiescence",
					ctx, ac, exp, why, d, verdict(live))})
				break
			}
		}
	}
}

// The quiescence checks split into what the drained replicas decide alone
// (memoised on them) and what the knowledge adds (per state), and walk the
// delivery orders through a memo of where they end. On every state of the
// network universes within depth 3 or 4, under the production rules and
// under rule sets that break convergence, the oracle and order
// independence, they must find exactly what the direct procedure finds:
// the same findings in the same order, the same oracle counts and
// expectations, the same nodes at the fixpoint. One worker cache serves
// every state of a run, so the memos are met warm, as in a search.
func TestQuiescenceMatchesTheDirectRounds(t *testing.T) {
	rules := []namedRules{}
	for _, name := range []string{"spec", "test-live-no-baseline", "test-counter-plus-one", "test-lww-join"} {
		r, err := testCatalog.Rules(name)
		if err != nil {
			t.Fatal(err)
		}
		rules = append(rules, namedRules{name, r})
	}
	rules = append(rules, orderBreakers()[1:]...)
	noRefusal := model.Proposed()
	noRefusal.OverrideKeysFit = func(string) error { return nil }
	type run struct {
		universe string
		rules    namedRules
		tie      model.TiePolicy
		depth    int
	}
	var runs []run
	// The quick gate explores the hierarchy universe to depth 3 (the
	// network universe at depth 4 is where a fixpoint check fails).
	four := shortrun.Size(t, 4, 3)
	for _, nr := range rules {
		runs = append(runs, run{"network", nr, model.ClearWins, 4}, run{"hierarchy", nr, model.ClearWins, four},
			run{"network", nr, model.SetWins, 3}, run{"network-whole", nr, model.SetWins, 3})
	}
	for _, tie := range []model.TiePolicy{model.ClearWins, model.SetWins} {
		runs = append(runs, run{"long-id", namedRules{"no-key-refusal", noRefusal}, tie, 3})
	}
	found := map[string]int{}
	for _, r := range runs {
		u, err := testCatalog.Universe(r.universe)
		if err != nil {
			t.Fatal(err)
		}
		x := exploreAll(t, u, r.rules.rules, r.tie, r.depth, true)
		w := x.w.(*netWorld)
		c := x.e.newCache()
		mismatches := 0
		for i := range x.store.Len() {
			row := x.store.Row(i)
			got := w.quiesce(c, row)
			want := directQuiescence(w, c, w.drain(c, row))
			if !sameQuiet(got, want) {
				if mismatches++; mismatches <= 3 {
					t.Errorf("%s/%s/%v state %d: split %+v, direct %+v", r.universe, r.rules.name, r.tie, i, got, want)
				}
			}
			for _, f := range want.findings {
				found[f.Invariant]++
			}
		}
	}
	// The comparison is worth something only where the checks fail.
	for _, inv := range []string{InvNetOrder, InvNetOracle, InvNetConvergence, InvNetFixpoint} {
		if found[inv] == 0 {
			t.Errorf("no state violates %s: the comparison saw no failing check of it", inv)
		}
	}
}

func sameQuiet(a, b *quietResult) bool {
	return slices.Equal(a.findings, b.findings) && a.live == b.live && a.dead == b.dead && a.unjudged == b.unjudged &&
		slices.Equal(a.final, b.final) && slices.Equal(a.expect, b.expect)
}
