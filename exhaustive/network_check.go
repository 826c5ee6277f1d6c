package exhaustive

import (
	"encoding/binary"
	"fmt"
	"slices"
	"strings"

	"github.com/nip-rs/harness/model"
	"github.com/nip-rs/harness/search"
)

// The checks of a network universe run on every reachable state. Compaction
// safety runs on the state itself; the others on the state's quiescence:
//
//  1. drain: every message in flight is delivered (channel by channel,
//     messages in key order);
//  2. rounds: every device publishes and every other device receives every
//     part, until a round changes nothing (N4: within Network.Rounds);
//  3. at the fixpoint, every upgraded replica must agree on every context's
//     verdict (live, and unread for the newest message time) and on its
//     canonical state, the frontier and the ov_* entries of its candidate;
//     an upgraded reader of the legacy device's publication must see the
//     same verdicts (N1);
//  4. each device, from its drained state, must end in the same state
//     whatever the order in which it receives the first round's
//     publications, its own included, part by part (N2);
//  5. the intent oracle (judgeIntent) must agree with every upgraded
//     replica's verdict on each context it judges (N3).
//
// N8 (peerVerdict, network_published.go) runs on the state itself too: a
// peer holding only an upgraded device's current publication derives the
// device's unread verdicts.
//
// Quiescence depends only on the drained devices, so its result is memoised
// on them.

// quietResult is the outcome of the quiescence checks of one drained state.
type quietResult struct {
	findings []finding
	live     int64 // contexts the oracle judged live
	dead     int64
	unjudged int64
	final    []node        // the devices at the fixpoint
	expect   []expectation // per override context, the oracle's verdict
}

func (w *netWorld) check(c *cache, row []int32, tl *search.Tally) []finding {
	var fs []finding
	for d := range w.n {
		fa := c.fact(d, row[d])
		fs = append(fs, fa.compaction...)
		tl.Add(unitRegisters, int64(fa.registers))
		if f := w.peerVerdict(c, d, row[d]); f != "" {
			fs = append(fs, finding{InvNetPeerVerdict, f})
		}
	}
	q := w.quiesce(c, row)
	tl.Add(unitStates, 1)
	tl.Add(unitContexts, q.live+q.dead)
	tl.Count(oracleCoverage+oracleLive, q.live)
	tl.Count(oracleCoverage+oracleDead, q.dead)
	tl.Count(oracleCoverage+oracleUnjudged, q.unjudged)
	return append(fs, q.findings...)
}

// drain delivers every message in flight.
func (w *netWorld) drain(c *cache, row []int32) []node {
	nodes := make([]node, w.n)
	for d := range w.n {
		nodes[d] = node{row[d], row[w.knWord(d)]}
	}
	for s := range w.n {
		for d := range w.n {
			if s == d {
				continue
			}
			for _, m := range w.t.chans.get(row[w.chWord(s, d)]) {
				nodes[d], _ = w.receive(c, d, nodes[d], m)
			}
		}
	}
	return nodes
}

func (w *netWorld) quiesce(c *cache, row []int32) *quietResult {
	nodes := w.drain(c, row)
	var key []byte
	for _, nd := range nodes {
		key = binary.AppendUvarint(key, uint64(nd.rep))
		key = binary.AppendUvarint(key, uint64(nd.kn))
	}
	nc := w.nc(c)
	if q, ok := nc.quiet[string(key)]; ok {
		return q
	}
	q := w.analyse(c, nodes)
	if len(nc.quiet) >= quietMemoCap {
		// The memo is a cache: a result is a function of the drained
		// nodes, so one evicted is recomputed exactly. Bounding it keeps
		// deep runs' memory to the state store.
		clear(nc.quiet)
	}
	nc.quiet[string(key)] = q
	return q
}

// quietMemoCap bounds each worker's quiescence memo.
const quietMemoCap = 1 << 16

// analyse runs the quiescence checks from drained nodes.
func (w *netWorld) analyse(c *cache, drained []node) *quietResult {
	q := &quietResult{}
	first, err := w.publishAll(c, drained)
	if err != nil {
		q.findings = append(q.findings, *err)
		return q
	}
	if f := w.orderIndependence(c, drained, first); f != nil {
		q.findings = append(q.findings, *f)
	}
	cur := slices.Clone(drained)
	pubs := first
	fixed := false
	for range w.net.Rounds {
		next := slices.Clone(cur)
		for d := range w.n {
			for j := range w.n {
				if j == d {
					continue
				}
				for _, m := range pubs[j] {
					next[d], _ = w.receive(c, d, next[d], m)
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
	if f := w.convergence(c, cur); f != nil {
		q.findings = append(q.findings, *f)
	}
	q.final = cur
	w.oracle(cur, q)
	return q
}

func (w *netWorld) publishAll(c *cache, nodes []node) ([][]int32, *finding) {
	pubs := make([][]int32, w.n)
	for d, nd := range nodes {
		p := w.publish(c, d, nd)
		if p.err != "" {
			return nil, &finding{InvNetPublish, fmt.Sprintf("d%d cannot publish at quiescence: %s", d, p.err)}
		}
		pubs[d] = p.msgs
	}
	return pubs, nil
}

// orderIndependence: each device receives every part of every first-round
// publication in every order; the outcomes must be one state.
func (w *netWorld) orderIndependence(c *cache, drained []node, pubs [][]int32) *finding {
	var all []int32
	for _, p := range pubs {
		all = append(all, p...)
	}
	if w.orderFree(c, drained, all) {
		return nil
	}
	perms := permutations(len(all))
	for d, start := range drained {
		var want node
		for k, p := range perms {
			nd := start
			for _, i := range p {
				nd, _ = w.receive(c, d, nd, all[i])
			}
			if k == 0 {
				want = nd
				continue
			}
			if nd != want {
				return &finding{InvNetOrder, fmt.Sprintf("d%d ends in different states for message orders %v and %v: %s / %s",
					d, perms[0], p, w.describeNode(d, want), w.describeNode(d, nd))}
			}
		}
	}
	return nil
}

// orderFree reports whether every device ends in one state whatever the
// order in which it receives all. It walks the orders as a tree of
// prefixes, and a prefix that reaches a (received set, replica) pair
// already walked is not walked again: its completions are the ones already
// compared. When orders disagree, orderIndependence enumerates them one by
// one to name the first disagreeing pair.
//
// The walk follows the replica alone, not the intent knowledge beside it.
// The knowledge a delivery adds is the harness's own bookkeeping, the
// maximal elements of the union of two antichains of one causal history,
// whatever the rules: a join, so every order of the same messages gives
// the same knowledge. Only the replica, which the rules under test move,
// can depend on the order. TestOrderWalkOfReplicasAlone runs universes
// under broken rules both ways and requires the same counts.
func (w *netWorld) orderFree(c *cache, drained []node, all []int32) bool {
	if len(all) > 16 {
		return false
	}
	nc := w.nc(c)
	blobs := nc.orderBlobs[:0]
	for _, m := range all {
		blobs = append(blobs, w.t.msgs.get(m).blob)
	}
	nc.orderBlobs = blobs
	for d, start := range drained {
		if w.orderKnowledge {
			// Whole nodes: what the replica-only walk is checked against.
			seen := map[[3]int32]bool{}
			if !orderWalk(len(all), start, func(nd node, i int) node {
				next, _ := w.receive(c, d, nd, all[i])
				return next
			}, func(set uint32, nd node) bool {
				k := [3]int32{int32(set), nd.rep, nd.kn}
				old := seen[k]
				seen[k] = true
				return old
			}) {
				return false
			}
			continue
		}
		nc.orderSeen.reset()
		if !orderWalk(len(blobs), start.rep, func(rep int32, i int) int32 {
			return c.receive(d, blobs[i], rep).next
		}, func(set uint32, rep int32) bool {
			k := uint64(set)<<32 | uint64(uint32(rep))
			if _, ok := nc.orderSeen.get(k); ok {
				return true
			}
			nc.orderSeen.put(k, struct{}{})
			return false
		}) {
			return false
		}
	}
	return true
}

// orderWalk reports whether every order of receiving n messages from start
// ends in one state. next is the state after receiving message i; visited
// records a (received set, state) pair and reports whether it was recorded
// already, in which case its completions were compared and are not walked
// again.
func orderWalk[N comparable](n int, start N, next func(N, int) N, visited func(uint32, N) bool) bool {
	full := uint32(1)<<n - 1
	var want N
	have := false
	var walk func(set uint32, st N) bool
	walk = func(set uint32, st N) bool {
		if set == full {
			if !have {
				want, have = st, true
			}
			return st == want
		}
		if visited(set, st) {
			return true
		}
		for i := range n {
			if set&(1<<i) == 0 && !walk(set|1<<i, next(st, i)) {
				return false
			}
		}
		return true
	}
	return walk(0, start)
}

// viewOf is view memoised per device replica: it depends on nothing else.
func (w *netWorld) viewOf(c *cache, d int, rep int32) string {
	nc := w.nc(c)
	k := uint64(uint32(d))<<32 | uint64(uint32(rep))
	if v, ok := nc.view[k]; ok {
		return v
	}
	v := w.view(d, node{rep: rep})
	nc.view[k] = v
	return v
}

// view is what must agree between upgraded replicas at quiescence.
func (w *netWorld) view(d int, nd node) string {
	r := w.replica(d, nd.rep)
	latest := w.u.Values[len(w.u.Values)-1]
	var parts []string
	for _, ctx := range w.u.Contexts {
		parts = append(parts, fmt.Sprintf("%s: f=%d %s unread=%t", ctx, r.Effective(ctx), verdict(r.Live(ctx)), r.Unread(ctx, latest)))
	}
	var ov []string
	for _, en := range r.Candidate().Contexts {
		if _, ok := w.keys[en.Key]; ok && en.Key != w.e.rules.Escape(w.ov[w.keys[en.Key]]) {
			ov = append(ov, fmt.Sprintf("%s=%d", en.Key, en.Value))
		}
	}
	return strings.Join(parts, "; ") + "; canonical {" + strings.Join(ov, " ") + "}"
}

func (w *netWorld) convergence(c *cache, nodes []node) *finding {
	ref := -1
	var want string
	for d, nd := range nodes {
		if w.u.Devices[d].Legacy {
			continue
		}
		v := w.viewOf(c, d, nd.rep)
		if ref < 0 {
			ref, want = d, v
			continue
		}
		if v != want {
			return &finding{InvNetConvergence, fmt.Sprintf("at quiescence d%d sees %s but d%d sees %s", ref, want, d, v)}
		}
	}
	if ref < 0 {
		return nil
	}
	r := w.replica(ref, nodes[ref].rep)
	for d, nd := range nodes {
		if !w.u.Devices[d].Legacy {
			continue
		}
		seen := w.legacyReading(c, d, nd.rep)
		for i, ctx := range w.u.Contexts {
			if seen[i].live != r.Live(ctx) || seen[i].f != r.Effective(ctx) {
				return &finding{InvNetConvergence, fmt.Sprintf("at quiescence a reader of legacy d%d's publication sees %s f=%d %s, d%d sees f=%d %s",
					d, ctx, seen[i].f, verdict(seen[i].live), ref, r.Effective(ctx), verdict(r.Live(ctx)))}
			}
		}
	}
	return nil
}

// reading is what a replica says of one context: its effective frontier
// and whether its override is live.
type reading struct {
	f    uint32
	live bool
}

// legacyReading is what a fresh upgraded reader of legacy device d's
// publication in replica rep says of each of the universe's contexts,
// memoised per replica: it depends on nothing else.
func (w *netWorld) legacyReading(c *cache, d int, rep int32) []reading {
	nc := w.nc(c)
	k := uint64(uint32(d))<<32 | uint64(uint32(rep))
	if v, ok := nc.reading[k]; ok {
		return v
	}
	reader := newReplica(DeviceSpec{ClientID: "reader", Parent: w.u.Devices[0].Parent}, w.e.rules)
	reader.Receive(w.replica(d, rep).Candidate())
	v := make([]reading, len(w.u.Contexts))
	for i, ctx := range w.u.Contexts {
		v[i] = reading{reader.Effective(ctx), reader.Live(ctx)}
	}
	nc.reading[k] = v
	return v
}

// oracle compares the intent oracle with every upgraded replica.
func (w *netWorld) oracle(nodes []node, q *quietResult) {
contexts:
	for i, ctx := range w.ov {
		m := w.t.knows.get(nodes[0].kn).ac[i]
		for d := range nodes[1:] {
			if w.t.knows.get(nodes[d+1].kn).ac[i] != m {
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

func (w *netWorld) describeNode(d int, nd node) string {
	r := w.replica(d, nd.rep)
	var parts []string
	r.Each(func(ctx string, f uint32, hasF bool, reg model.Reg) {
		parts = append(parts, fmt.Sprintf("%s f=%d reg=%v", ctx, f, reg))
	})
	k := w.t.knows.get(nd.kn)
	for i, ctx := range w.ov {
		parts = append(parts, fmt.Sprintf("%s intent %s", ctx, w.t.acs.get(k.ac[i])))
	}
	return "{" + strings.Join(parts, "; ") + "}"
}
