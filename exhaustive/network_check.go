package exhaustive

import (
	"fmt"
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
// Quiescence depends only on the drained devices; what of it the drained
// replicas decide alone is memoised on them (network_quiet.go), and the
// delivery orders on each device's replica and the blobs it receives
// (network_order.go).

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
	nc := w.nc(c)
	nc.drained = w.drainInto(c, row, nc.drained)
	q := &nc.quietRes
	w.quietInto(c, nc.drained, q)
	tl.Add(unitStates, 1)
	tl.Add(unitContexts, q.live+q.dead)
	tl.Count(oracleCoverage+oracleLive, q.live)
	tl.Count(oracleCoverage+oracleDead, q.dead)
	tl.Count(oracleCoverage+oracleUnjudged, q.unjudged)
	return append(fs, q.findings...)
}

// drain delivers every message in flight.
func (w *netWorld) drain(c *cache, row []int32) []node { return w.drainInto(c, row, nil) }

// drainInto is drain into nodes' storage.
func (w *netWorld) drainInto(c *cache, row []int32, nodes []node) []node {
	nodes = nodes[:0]
	for d := range w.n {
		nodes = append(nodes, node{row[d], row[w.knWord(d)]})
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
	q := &quietResult{}
	w.quietInto(c, w.drain(c, row), q)
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

// viewOf is view memoised per device replica: it depends on nothing else.
func (w *netWorld) viewOf(c *cache, d int, rep int32) string {
	fa := w.factsOf(c, d, rep)
	if fa.view == nil {
		v := w.view(d, node{rep: rep})
		fa.view = &v
	}
	return *fa.view
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

// convergence is N1 at the fixpoint replicas reps.
func (w *netWorld) convergence(c *cache, reps []int32) *finding {
	ref := -1
	var want string
	for d, rep := range reps {
		if w.u.Devices[d].Legacy {
			continue
		}
		v := w.viewOf(c, d, rep)
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
	read := w.readingOf(c, ref, reps[ref])
	for d, rep := range reps {
		if !w.u.Devices[d].Legacy {
			continue
		}
		seen := w.legacyReading(c, d, rep)
		for i, ctx := range w.u.Contexts {
			if seen[i] != read[i] {
				return &finding{InvNetConvergence, fmt.Sprintf("at quiescence a reader of legacy d%d's publication sees %s f=%d %s, d%d sees f=%d %s",
					d, ctx, seen[i].f, verdict(seen[i].live), ref, read[i].f, verdict(read[i].live))}
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
	fa := w.factsOf(c, d, rep)
	if fa.reading != nil {
		return fa.reading
	}
	reader := newReplica(DeviceSpec{ClientID: "reader", Parent: w.u.Devices[0].Parent}, w.e.rules)
	reader.Receive(w.replica(d, rep).Candidate())
	v := make([]reading, len(w.u.Contexts))
	for i, ctx := range w.u.Contexts {
		v[i] = reading{reader.Effective(ctx), reader.Live(ctx)}
	}
	fa.reading = v
	return v
}

// oracle compares the intent oracle with every upgraded replica at the
// fixpoint: kn is each device's knowledge there, rq what its replicas say.
func (w *netWorld) oracle(rq *repsQuiet, kn []int32, q *quietResult) {
contexts:
	for i, ctx := range w.ov {
		m := w.t.knows.get(kn[0]).ac[i]
		for _, k := range kn[1:] {
			if w.t.knows.get(k).ac[i] != m {
				q.findings = append(q.findings, finding{InvNetOracle, fmt.Sprintf("%s: devices know different intent histories at quiescence", ctx)})
				q.expect = append(q.expect, unjudged)
				continue contexts
			}
		}
		ac := w.t.acs.get(m)
		exp, why := judge(ac, uint32(rq.f[i]), w.e.rules.Tie)
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
		for d := range kn {
			if w.u.Devices[d].Legacy {
				continue
			}
			if live := rq.live[i]&(1<<d) != 0; live != (exp == expectLive) {
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
